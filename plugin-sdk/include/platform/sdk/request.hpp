// platform/sdk/request.hpp — what a handler sees of one call, and how an async handler answers.
#pragma once

#include <platform/abi.h>

#include <atomic>
#include <condition_variable>
#include <limits>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <platform/sdk/error.hpp>
#include <platform/sdk/host.hpp>
#include <platform/sdk/json_text.hpp>
#include <platform/sdk/store.hpp>
#include <platform/sdk/str.hpp>
#include <string>
#include <string_view>

namespace platform {

// Answers one call exactly once, from any thread. Copies share the same call; the first answer
// wins and later ones are ignored. An async handler may keep a Responder after returning.
class Responder {
public:
    Responder(const platform_host_api_t* api, platform_call_t* call)
        : state_(std::make_shared<State>()) {
        state_->api = api;
        state_->call = call;
    }

    bool answered() const { return state_->done.load(); }

    void ok(const json& result) const {
        send(PLATFORM_OK, result.dump(-1, ' ', false, json::error_handler_t::replace));
    }
    // A result already serialised (json_text.hpp): sent as it is, without a parse or a dump.
    void ok_text(const JsonText& result) const { send(PLATFORM_OK, result.text); }
    void fail(const Error& e) const { send(static_cast<platform_status_t>(e.code()), e.what()); }
    void fail(Code code, std::string_view message) const {
        send(static_cast<platform_status_t>(code), message);
    }
    void raw(std::string_view content_type, std::string_view bytes) const {
        if (!claim()) return;
        state_->api->respond_raw(state_->call, view(content_type), view(bytes));
    }
    // The same with headers on the HTTP answer (ABI 1.9; abi.h, respond_raw_headers, lists the
    // names a plugin may set): {"Content-Security-Policy": "...", ...}. On an older host the call
    // fails `unsupported` rather than going out without them.
    void raw(std::string_view content_type, std::string_view bytes, const json& headers) const {
        if (!PLATFORM_HAS_FIELD(platform_host_api_t, state_->api, respond_raw_headers) ||
            !state_->api->respond_raw_headers)
            return fail(Code::unsupported,
                        "the host cannot set answer headers (ABI 1.9 respond_raw_headers)");
        if (!claim()) return;
        const std::string h = headers.dump(-1, ' ', false, json::error_handler_t::replace);
        state_->api->respond_raw_headers(state_->call, view(content_type), view(h), view(bytes));
    }
    // Streams: chunks (one message each), then end(). False once the call is over (the client
    // went away or the deadline passed): stop producing.
    bool chunk(std::string_view bytes) const {
        if (state_->done.load()) return false;
        if (state_->api->respond_chunk(state_->call, view(bytes)) == PLATFORM_OK) return true;
        state_->done.store(true);
        return false;
    }
    bool chunk(const json& message) const {
        return chunk(
            std::string_view(message.dump(-1, ' ', false, json::error_handler_t::replace)));
    }
    void end(Code code = Code::ok, std::string_view message = {}) const {
        if (!claim()) return;
        state_->api->respond_end(state_->call, static_cast<platform_status_t>(code), view(message));
    }

private:
    struct State {
        const platform_host_api_t* api = nullptr;
        platform_call_t* call = nullptr;
        std::atomic<bool> done{false};
    };
    bool claim() const { return !state_->done.exchange(true); }
    void send(platform_status_t code, std::string_view body) const {
        if (!claim()) return;
        state_->api->respond(state_->call, code, view(body));
    }
    std::shared_ptr<State> state_;
};

class Request {
public:
    Request(const Host& host, platform_call_t* call, json args)
        : host_(host), call_(call), args_(std::move(args)) {
        platform_call_info_t info{};
        info.struct_size = sizeof info;
        host_.api()->call_info(call_, &info);
        account_ = copy(info.account);
        scopes_ = copy(info.scopes);
        endpoint_ = copy(info.endpoint);
        request_id_ = copy(info.request_id);
    }

    // Validated arguments with schema defaults applied.
    const json& args() const { return args_; }
    const json& operator[](const char* name) const { return args_.at(name); }
    // A string argument, or `fallback` when absent.
    std::string str(const char* name, std::string fallback = {}) const {
        auto it = args_.find(name);
        return it != args_.end() && it->is_string() ? it->get<std::string>() : fallback;
    }

    // The caller's account id; empty for an anonymous caller.
    const std::string& account() const { return account_; }
    bool anonymous() const { return account_.empty(); }
    const std::string& scopes() const { return scopes_; }
    const std::string& endpoint() const { return endpoint_; }
    // The X-Request-Id of the HTTP request (or the host's generated id), for logs and messages.
    const std::string& request_id() const { return request_id_; }

    // A request header by case-insensitive name; empty when absent.
    std::string header(std::string_view name) const {
        return copy(host_.api()->call_header(call_, view(name)));
    }

    // ---- MCP (ABI 1.4): reach the client of a call that came in through /mcp ------------------
    // Each is a no-op returning false (or throwing unsupported, for ask_client) for calls that
    // came over HTTP, or from a host older than 1.4, so handlers use them unconditionally.

    // notifications/progress, when the caller asked for progress. total <= 0: unknown.
    bool progress(double done, double total = 0, std::string_view message = {}) const {
        if (!mcp_api()) return false;
        return host_.api()->call_progress(call_, done, total, view(message)) == PLATFORM_OK;
    }
    // notifications/message at an MCP level (debug, info, notice, warning, error, critical,
    // alert, emergency), sent when the client's logging/setLevel lets it through.
    bool log(std::string_view level, const json& data, std::string_view logger = {}) const {
        if (!mcp_api()) return false;
        std::string d = data.dump(-1, ' ', false, json::error_handler_t::replace);
        return host_.api()->call_log(call_, view(level), view(logger), view(d)) == PLATFORM_OK;
    }
    // Sends a request to the MCP client (sampling/createMessage, elicitation/create, roots/list)
    // and waits for its result. Throws Error(unsupported) when the call did not come over MCP or
    // the client lacks the capability, or the client's error / deadline_exceeded / unavailable.
    json ask_client(std::string_view method, const json& params, int64_t timeout_ms = 0) const {
        if (!mcp_api()) throw Error(Code::unsupported, "this call did not come from an MCP client");
        struct Wait {
            std::mutex m;
            std::condition_variable cv;
            bool done = false;
            platform_status_t code = PLATFORM_INTERNAL;
            std::string body;
        } w;
        auto reply = [](void* user, platform_status_t code, platform_str_t text) {
            auto* w = static_cast<Wait*>(user);
            std::lock_guard<std::mutex> g(w->m);
            w->code = code;
            w->body = copy(text);
            w->done = true;
            w->cv.notify_all();
        };
        std::string p = params.dump(-1, ' ', false, json::error_handler_t::replace);
        auto st =
            host_.api()->call_client_request(call_, view(method), view(p), timeout_ms, reply, &w);
        if (st != PLATFORM_OK)
            throw Error(static_cast<Code>(st),
                        "the MCP client cannot take " + std::string(method) +
                            (st == PLATFORM_UNSUPPORTED
                                 ? " (the call did not come over MCP with an event stream, or the "
                                   "client did not declare the capability)"
                                 : ""));
        std::unique_lock<std::mutex> lock(w.m);
        w.cv.wait(lock, [&] { return w.done; });
        if (w.code != PLATFORM_OK) throw Error(static_cast<Code>(w.code), w.body);
        return json::parse(w.body, nullptr, false);
    }

    // The tools this call's caller may use (ABI 1.5 call_tools): a JSON array of
    // {name, title, description, inputSchema, annotations, service, method}, as tools/list shows them to that
    // caller, minus endpoints withheld from the agent and this plugin's own.
    json tools() const {
        if (!PLATFORM_HAS_FIELD(platform_host_api_t, host_.api(), call_tools) ||
            !host_.api()->call_tools)
            throw Error(Code::unsupported, "the host does not offer call_tools (ABI 1.5)");
        std::string out;
        const auto st = host_.api()->call_tools(call_, append_sink, &out);
        if (st != PLATFORM_OK)
            throw Error(static_cast<Code>(st), "the caller's tools are not available");
        return json::parse(out);
    }

    // A grant to act later for this call's caller (ABI 1.6 grant_create): an opaque id to keep
    // with the job it is for, used with Host::call_granted and given back with Host::revoke_grant.
    // Throws unauthenticated for an anonymous caller, unsupported on an older host.
    std::string grant() const {
        if (!PLATFORM_HAS_FIELD(platform_host_api_t, host_.api(), grant_create) ||
            !host_.api()->grant_create)
            throw Error(Code::unsupported, "the host does not offer grants (ABI 1.6)");
        std::string out;
        const auto st = host_.api()->grant_create(call_, append_sink, &out);
        if (st != PLATFORM_OK)
            throw Error(static_cast<Code>(st), out.empty() ? "no grant for this caller" : out);
        return out;
    }

    // An integer argument, `fallback` when absent or null. The host (and the fake host) checked
    // it against the endpoint's schema before the handler runs, range and default included; this
    // only reads it (400 "<name>: must be an integer" if it is not one).
    int64_t integer(const std::string& name, int64_t fallback = 0) const {
        return integer(name, fallback, std::numeric_limits<int64_t>::min(),
                       std::numeric_limits<int64_t>::max());
    }
    // The same within [lo, hi], for a range the schema cannot state (one that depends on another
    // argument or on the plugin's config): 400 "must be at least <lo>", "must be at most <hi>".
    int64_t integer(const std::string& name, int64_t fallback, int64_t lo, int64_t hi) const {
        const auto it = args_.find(name);
        if (it == args_.end() || it->is_null()) return fallback;
        if (!it->is_number_integer()) throw invalid_argument(name + ": must be an integer");
        const int64_t v = it->get<int64_t>();
        if (v < lo) throw invalid_argument(name + ": must be at least " + std::to_string(lo));
        if (v > hi) throw invalid_argument(name + ": must be at most " + std::to_string(hi));
        return v;
    }

    // The caller's records in the named collection. Anonymous callers get UNAUTHENTICATED.
    Collection owned(std::string_view collection) const {
        if (anonymous()) throw unauthenticated("this method needs an account");
        return Collection(host_.store(), collection, account_);
    }

    const Host& host() const { return host_; }
    platform_call_t* call() const { return call_; }

private:
    bool mcp_api() const {
        return PLATFORM_HAS_FIELD(platform_host_api_t, host_.api(), resource_updated) &&
               host_.api()->call_progress;
    }
    Host host_;
    platform_call_t* call_;
    json args_;
    std::string account_, scopes_, endpoint_, request_id_;
};

}  // namespace platform
