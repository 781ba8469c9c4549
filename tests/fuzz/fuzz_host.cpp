// fuzz_host.hpp: a started Runtime with mirror services, and waiting for one request's answer.
#include "fuzz_host.hpp"

#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <platform/host/core/loader.hpp>

#include "build_tree.hpp"
#include "fuzz_support.hpp"

namespace fuzz {

namespace fs = std::filesystem;
using nlohmann::json;
using platform::host::Endpoint;

const std::vector<std::string> kMirrored = {"notes", "tasks",  "forms",
                                            "files", "config", "conformance"};

std::string plugin_file(const std::string& id) {
    const std::string dirs[] = {platform::test::plugin_dir(), platform::test::test_plugin_dir()};
    for (const std::string& dir : dirs) {
        std::string path = dir + "/" + id + ".so";
        if (fs::exists(path)) return path;
    }
    std::fprintf(stderr, "fuzz: plugin %s.so not built (looked in %s and %s)\n", id.c_str(),
                 dirs[0].c_str(), dirs[1].c_str());
    std::abort();
}

const std::vector<std::unique_ptr<Plugin>>& mirrored_descriptors() {
    static const auto* all = [] {
        static const platform_host_api_t api = platform::host::make_host_api();
        auto* out = new std::vector<std::unique_ptr<Plugin>>();
        for (const auto& id : kMirrored) {
            auto loaded = platform::host::load_plugin(plugin_file(id), &api);
            if (auto* why = std::get_if<std::string>(&loaded)) {
                std::fprintf(stderr, "fuzz: plugin %s refused: %s\n", id.c_str(), why->c_str());
                std::abort();
            }
            out->push_back(std::move(std::get<std::unique_ptr<Plugin>>(loaded)));
        }
        return out;
    }();
    return *all;
}

namespace {

// What a mirror answers: the arguments, or a minimal answer of the endpoint's MCP role.
std::string echo_answer(platform_mcp_role_t role, const std::string& args) {
    switch (role) {
        case PLATFORM_MCP_RESOURCES:
            return R"({"resources": [{"uri": "fuzz://one", "name": "one"}]})";
        case PLATFORM_MCP_RESOURCE_TEMPLATES:
            return R"({"resourceTemplates": [{"uriTemplate": "fuzz://{id}", "name": "item"}]})";
        case PLATFORM_MCP_RESOURCE_READ: {
            json a = json::parse(args, nullptr, false);
            std::string uri;
            if (a.is_object() && a.contains("uri") && a["uri"].is_string()) uri = a["uri"];
            return json{{"contents", {{{"uri", uri}, {"text", "echo"}}}}}.dump();
        }
        case PLATFORM_MCP_PROMPTS:
            return R"({"prompts": [{"name": "fuzz_prompt"}]})";
        case PLATFORM_MCP_PROMPT_GET:
            return R"({"messages": [{"role": "user", "content": {"type": "text", "text": "echo"}}]})";
        case PLATFORM_MCP_COMPLETE:
            return R"({"completion": {"values": ["a"], "hasMore": false}})";
        default:
            return args;
    }
}

void echo_call(void* inst, platform_call_t* call, uint32_t index, platform_str_t request) {
    auto* p = static_cast<Plugin*>(inst);
    platform_mcp_role_t role = PLATFORM_MCP_TOOL;
    for (const Endpoint& e : p->endpoints)
        if (e.index == index) role = e.mcp_role;
    const std::string body = echo_answer(role, std::string(request.ptr, request.len));
    p->ctx.runtime->api()->respond(call, PLATFORM_OK, {body.data(), body.size()});
}

// The mirror's descriptor: the real one with the echo as its only code.
const platform_plugin_desc_t* mirror_desc(const platform_plugin_desc_t* real) {
    static std::map<const platform_plugin_desc_t*, platform_plugin_desc_t> mirrors;
    static std::mutex m;
    std::lock_guard<std::mutex> g(m);
    auto [it, added] = mirrors.emplace(real, *real);
    if (added) {
        it->second.on_create = nullptr;
        it->second.on_start = nullptr;
        it->second.on_stop = nullptr;
        it->second.on_destroy = nullptr;
        it->second.on_cancel = nullptr;
        it->second.on_call = echo_call;
    }
    return &it->second;
}

}  // namespace

FuzzHost& FuzzHost::get(const std::string& handler) {
    static std::mutex m;
    static auto* hosts = new std::map<std::string, FuzzHost*>();  // never freed: lives to exit
    std::lock_guard<std::mutex> g(m);
    auto& h = (*hosts)[handler];
    if (!h) h = new FuzzHost(handler);
    return *h;
}

FuzzHost::FuzzHost(const std::string& handler) {
    std::string tmpl = fuzz::temp_dir() + "/platform-fuzz-XXXXXX";
    FUZZ_CHECK(mkdtemp(tmpl.data()), "mkdtemp failed in " + fuzz::temp_dir());
    dir_ = tmpl;
    fs::create_directories(dir_ + "/plugins");
    fs::create_directories(dir_ + "/home");
    for (const char* id : {"store-memory", "broker-memory", "auth-noop"})
        fs::create_symlink(plugin_file(id), dir_ + "/plugins/" + id + ".so");

    platform::host::Settings settings;
    settings.exe_dir = dir_;
    settings.home = dir_ + "/home";
    settings.config_secret_key = "fuzz";
    settings.handler = handler;
    platform::host::Profile profile;
    profile.name = "fuzz";
    profile.manual_clock = true;
    profile.all_plugins = false;
    profile.providers["store"] = {"store-memory", json::object(), "fuzz"};
    profile.providers["broker"] = {"broker-memory", json::object(), "fuzz"};
    profile.providers["auth"] = {"auth-noop", json{{"admins", {"admin"}}}, "fuzz"};
    spdlog::set_level(spdlog::level::err);
    runtime_ = std::make_unique<Runtime>(settings, profile);
    runtime_->start();
    runtime_->clock().set_ms(1767225600000);  // 2026-01-01

    for (const auto& real : mirrored_descriptors()) {
        auto p = std::make_unique<Plugin>(*real);
        p->path = "<mirror of " + real->path + ">";
        p->desc = mirror_desc(real->desc);
        p->instance = p.get();
        p->ctx = platform::host::HostCtx{runtime_.get(), p.get()};
        FUZZ_CHECK(runtime_->registry().add(p.get()), "mirror of " + p->id + " not registered");
        mirrors_.push_back(std::move(p));
    }
    gateway_ = std::make_unique<Gateway>(*runtime_, Gateway::Role::api, "fuzz");
    spdlog::set_level(spdlog::level::off);  // per-request warnings would drown libFuzzer's output
    std::error_code ec;
    fs::remove_all(dir_, ec);  // the providers are loaded; nothing reads these files again
}

// ---- Exchange ---------------------------------------------------------------------------------

namespace {
class RecordingStream : public platform::host::HttpStream {
public:
    RecordingStream(std::function<void(std::string_view)> write, std::function<void()> end)
        : write_(std::move(write)), end_(std::move(end)) {}
    bool write(std::string_view bytes) override { return write_(bytes), true; }
    void end() override { end_(); }

private:
    std::function<void(std::string_view)> write_;
    std::function<void()> end_;
};
}  // namespace

Exchange::Exchange() : state_(std::make_shared<State>()) {}

std::function<void(HttpResponse)> Exchange::reply() {
    return [st = state_](HttpResponse r) {
        std::lock_guard<std::mutex> g(st->m);
        FUZZ_CHECK(st->replies == 0 && !st->stream_opened,
                   "answered twice: reply() ran after an answer (status " +
                       std::to_string(r.status) + ")");
        ++st->replies;
        st->response = std::move(r);
        st->cv.notify_all();
    };
}

OpenStream Exchange::open() {
    return [st = state_](int status, const std::string& type,
                         const std::vector<std::pair<std::string, std::string>>& headers) {
        std::lock_guard<std::mutex> g(st->m);
        FUZZ_CHECK(st->replies == 0 && !st->stream_opened, "a stream opened after an answer");
        st->stream_opened = true;
        st->response.status = status;
        st->response.content_type = type;
        st->response.headers = headers;
        return std::make_shared<RecordingStream>(
            [st](std::string_view b) {
                std::lock_guard<std::mutex> g(st->m);
                st->response.body.append(b);
            },
            [st] {
                std::lock_guard<std::mutex> g(st->m);
                st->stream_ended = true;
                st->cv.notify_all();
            });
    };
}

HttpResponse Exchange::wait(const std::string& what) {
    std::unique_lock<std::mutex> lock(state_->m);
    const bool answered = state_->cv.wait_for(lock, std::chrono::seconds(kAnswerSeconds), [&] {
        return state_->replies > 0 || state_->stream_ended;
    });
    FUZZ_CHECK(answered, "no answer within " + std::to_string(kAnswerSeconds) + " s to " + what);
    return state_->response;
}

}  // namespace fuzz
