// platform-worker — runs one plugin .so for the host, out of the host's process.
//
//   platform-worker --fd <n> <plugin.so>       the host's socketpair end as fd n (how the host
//                                              starts it: worker_plugin.hpp)
//   platform-worker --socket <path> <plugin.so> connects to a listening Unix socket instead
//
// Loads the plugin with the host's loader (same checks as in process), then serves the protocol
// of worker_protocol.hpp. Exits when the socket closes (the host is gone) and on SIGTERM/SIGINT,
// after on_stop and on_destroy. Crashes are the host's business: it restarts the worker.
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <platform/host/core/loader.hpp>
#include <platform/host/core/stop_signals.hpp>
#include <platform/host/isolation/worker_descriptor.hpp>
#include <string>

#include "worker_state.hpp"

using namespace platform::worker;
using nlohmann::json;

namespace {

std::string load_error;

uint64_t u64(const json& m, const char* k) {
    return m.contains(k) && m[k].is_number_unsigned() ? m[k].get<uint64_t>() : 0;
}

void run_call(const json& m) {
    WorkerState& s = state();
    auto rec = std::make_shared<CallRecord>();
    rec->id = u64(m, "call");
    rec->service = m.value("service", "");
    rec->endpoint = m.value("endpoint", "");
    rec->account = m.value("account", "");
    rec->scopes = m.value("scopes", "");
    rec->request_id = m.value("request_id", "");
    rec->deadline_ms = m.value("deadline_ms", int64_t{0});
    if (m.contains("headers") && m["headers"].is_object())
        for (auto& [k, v] : m["headers"].items())
            if (v.is_string()) rec->headers[k] = v.get<std::string>();
    {
        std::lock_guard<std::mutex> g(s.m);
        s.calls[rec->id] = rec;
    }
    const auto index = static_cast<uint32_t>(u64(m, "index"));
    std::string args = platform::host::worker::bytes_of(m["args"]);
    s.handlers.submit([rec, index, args = std::move(args)] {
        WorkerState& st = state();
        auto* handle = reinterpret_cast<platform_call_t*>(static_cast<uintptr_t>(rec->id));
        if (index < st.plugin->endpoints.size() && st.instance)
            st.plugin->desc->on_call(st.instance, handle, index, {args.data(), args.size()});
        else
            st.api.respond(handle, PLATFORM_NOT_FOUND, {"no such endpoint", 16});
        st.returned(rec->id);
        st.channel->send({{"op", "returned"}, {"call", rec->id}});
    });
}

void on_message(json m) {
    WorkerState& s = state();
    const std::string op = m["op"].get<std::string>();
    if (op == "ping") {
        s.channel->reply(m, json::object());
    } else if (op == "describe") {
        if (s.plugin)
            s.channel->reply(m, {{"desc", platform::host::worker::describe_json(s.plugin->desc)}});
        else
            s.channel->reply(m, {{"code", PLATFORM_INTERNAL}, {"error", load_error}});
    } else if (op == "create") {
        s.handlers.submit([m = std::move(m)] {
            WorkerState& st = state();
            st.privileged = m.value("privileged", false);
            std::string config = m.contains("config") ? m["config"].dump() : "{}";
            char err[512] = {0};
            st.instance = st.plugin->desc->on_create(&st.api, ctx(), {config.data(), config.size()},
                                                     err, sizeof err);
            if (st.instance)
                st.channel->reply(m, json::object());
            else
                st.channel->reply(m, {{"code", PLATFORM_INTERNAL},
                                      {"error", std::string("on_create failed: ") +
                                                    (err[0] ? err : "no reason given")}});
        });
    } else if (op == "start") {
        s.handlers.submit([m = std::move(m)] {
            WorkerState& st = state();
            platform_status_t code =
                st.plugin->desc->on_start ? st.plugin->desc->on_start(st.instance) : PLATFORM_OK;
            st.channel->reply(m, {{"code", code}, {"error", "on_start failed"}});
        });
    } else if (op == "call") {
        run_call(m);
    } else if (op == "cancel") {
        s.callbacks.submit([id = u64(m, "call")] {
            WorkerState& st = state();
            auto* handle = reinterpret_cast<platform_call_t*>(static_cast<uintptr_t>(id));
            if (st.plugin->desc->on_cancel && st.find_call(handle))
                st.plugin->desc->on_cancel(st.instance, handle);
            st.answered(id);
        });
    } else if (op == "reply") {
        s.callbacks.submit([m = std::move(m)] {
            WorkerState& st = state();
            std::pair<platform_reply_fn, void*> r{nullptr, nullptr};
            {
                std::lock_guard<std::mutex> g(st.m);
                auto it = st.replies.find(u64(m, "token"));
                if (it == st.replies.end()) return;
                r = it->second;
                st.replies.erase(it);
            }
            std::string body = platform::host::worker::bytes_of(m["body"]);
            r.first(r.second, m.value("code", PLATFORM_INTERNAL), view(body));
        });
    } else if (op == "message" || op == "watch") {
        s.deliveries.submit([m = std::move(m)] {
            state().deliver(u64(m, "token"), [&](Listener& l) {
                if (l.message) {
                    std::string topic = m.value("topic", ""),
                                body = platform::host::worker::bytes_of(m["body"]),
                                headers = m.value("headers", "{}");
                    l.message(l.user, view(topic), view(body), view(headers));
                } else if (l.sink) {
                    std::string event = platform::host::worker::bytes_of(m["event"]);
                    l.sink(l.user, view(event));
                }
            });
        });
    } else if (m.contains("id")) {
        s.channel->reply(m, {{"code", PLATFORM_UNSUPPORTED}});
    }
}

int connect_to(const std::string& path) {
    int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (fd < 0 || path.size() >= sizeof addr.sun_path) return -1;
    std::memcpy(addr.sun_path, path.c_str(), path.size());
    return ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 ? fd : -1;
}

}  // namespace

int main(int argc, char** argv) {
    int fd = -1;
    std::string so;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--fd" && i + 1 < argc)
            fd = std::atoi(argv[++i]);
        else if (a == "--socket" && i + 1 < argc)
            fd = connect_to(argv[++i]);
        else
            so = a;
    }
    if (fd < 0 || so.empty()) {
        std::fprintf(stderr, "usage: platform-worker (--fd N | --socket PATH) <plugin.so>\n");
        return 2;
    }
    // Only the main thread's sigwait sees SIGTERM/SIGINT; every thread made below inherits this.
    const sigset_t signals = platform::host::block_stop_signals();
    auto logger = spdlog::stderr_color_mt("worker");
    logger->set_pattern("[%Y-%m-%d %H:%M:%S.%e] [worker " + std::to_string(::getpid()) +
                        "] [%^%l%$] %v");
    spdlog::set_default_logger(logger);

    WorkerState& s = state();
    s.api = make_proxy_api();
    auto loaded = platform::host::load_plugin(so, &s.api);
    if (auto* why = std::get_if<std::string>(&loaded))
        load_error = *why;
    else
        s.plugin = std::get<std::unique_ptr<platform::host::Plugin>>(loaded).release();

    s.channel = std::make_shared<platform::host::worker::Channel>(
        fd, on_message, [](const std::string&) { _exit(0); });
    s.channel->start();

    int sig = 0;
    sigwait(&signals, &sig);
    if (s.instance && s.plugin->desc->on_stop) s.plugin->desc->on_stop(s.instance);
    if (s.instance && s.plugin->desc->on_destroy) s.plugin->desc->on_destroy(s.instance);
    std::fflush(nullptr);
    _exit(0);
}
