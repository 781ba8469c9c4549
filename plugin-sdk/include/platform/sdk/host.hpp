// platform/sdk/host.hpp — RAII C++ view of the host-services table for one plugin.
//
// A Host is cheap to copy (two pointers). It is valid for the life of the plugin instance.
// Every method is thread-safe because the host table is. Functions the host does not have (an
// older host minor) throw Error(Code::unsupported); service() returns nullptr instead.
#pragma once

#include <platform/abi.h>

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <nlohmann/json.hpp>
#include <platform/sdk/error.hpp>
#include <platform/sdk/events.hpp>
#include <platform/sdk/http.hpp>
#include <platform/sdk/store.hpp>
#include <platform/sdk/str.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace platform {

using json = nlohmann::json;

class Host {
public:
    Host() = default;
    Host(const platform_host_api_t* api, platform_host_ctx_t* ctx) : api_(api), ctx_(ctx) {}

    const platform_host_api_t* api() const { return api_; }
    platform_host_ctx_t* ctx() const { return ctx_; }

    void log(platform_log_level_t level, std::string_view message) const {
        if (api_ && api_->log) api_->log(ctx_, level, view(message));
    }
    void debug(std::string_view m) const { log(PLATFORM_LOG_DEBUG, m); }
    void info(std::string_view m) const { log(PLATFORM_LOG_INFO, m); }
    void warn(std::string_view m) const { log(PLATFORM_LOG_WARN, m); }
    void error(std::string_view m) const { log(PLATFORM_LOG_ERROR, m); }
    // A message for the person who started the server (a generated first secret): printed once
    // in a box on the server's console, never written to a log (PLATFORM_LOG_OPERATOR, ABI 1.7).
    void tell_operator(std::string_view m) const { log(PLATFORM_LOG_OPERATOR, m); }

    // Business time, Unix milliseconds (manual in the test profile).
    int64_t now_ms() const { return api_->clock_now_ms(ctx_); }

    // The plugin's profile config at a dotted path; null when absent.
    json config(std::string_view path = "") const {
        std::string out;
        if (api_->config_get(ctx_, view(path), append_sink, &out) != PLATFORM_OK) return nullptr;
        return json::parse(out, nullptr, false);
    }

    // This plugin's own store table.
    Store store() const { return Store(api_, ctx_); }

    // A sub-table such as platform_registry_api_t, or nullptr (also on a host without it).
    template <class Table>
    const Table* service(std::string_view name, uint32_t min_version) const {
        if (!PLATFORM_HAS_FIELD(platform_host_api_t, api_, get_service) || !api_->get_service)
            return nullptr;
        return static_cast<const Table*>(api_->get_service(ctx_, view(name), min_version));
    }

    // Tells subscribed MCP clients that a resource changed (ABI 1.4; a no-op on older hosts):
    // only `account`'s sessions for an owned resource, every subscriber when account is empty.
    void resource_updated(std::string_view uri, std::string_view account = {}) const {
        if (PLATFORM_HAS_FIELD(platform_host_api_t, api_, resource_updated) &&
            api_->resource_updated)
            api_->resource_updated(ctx_, view(uri), view(account));
    }

    // ---- calls to other services -------------------------------------------------------------

    struct CallResult {
        Code code = Code::internal;
        std::string body;  // JSON result, or the error message
        bool ok() const { return code == Code::ok; }
        json result() const { return json::parse(body); }
    };

    // Calls service/method through the host's dispatcher and waits for the answer. With `parent`
    // (the call being handled) it acts for that caller within its deadline; without, as this
    // plugin's own service account. Throws Error(not_found) for an unknown service or method.
    CallResult call(std::string_view service, std::string_view method, const json& request,
                    platform_call_t* parent = nullptr) const {
        require(PLATFORM_HAS_FIELD(platform_host_api_t, api_, call_service), "call_service");
        return wait_for_reply(
            request,
            [&](platform_str_t body, platform_reply_fn reply, void* w) {
                return api_->call_service(ctx_, parent, view(service), view(method), body,
                                          parent ? 0u : PLATFORM_CALL_AS_SERVICE, reply, w);
            },
            "no such method: " + std::string(service) + " " + std::string(method));
    }

    // Calls service/method for the account of `grant` (Request::grant, ABI 1.6) and waits for the
    // answer: that account's identity and token restrictions, payment included. timeout_ms <= 0
    // is the profile's call timeout. Throws Error(not_found) for an unknown grant, service or
    // method (a revoked grant is unknown).
    CallResult call_granted(std::string_view grant, std::string_view service,
                            std::string_view method, const json& request,
                            int64_t timeout_ms = 0) const {
        if (!PLATFORM_HAS_FIELD(platform_host_api_t, api_, grant_call_service) ||
            !api_->grant_call_service)
            throw Error(Code::unsupported, "the host does not offer grants (ABI 1.6)");
        return wait_for_reply(
            request,
            [&](platform_str_t body, platform_reply_fn reply, void* w) {
                return api_->grant_call_service(ctx_, view(grant), view(service), view(method),
                                                body, timeout_ms, reply, w);
            },
            "no such grant or method: " + std::string(service) + " " + std::string(method));
    }

    // Forgets a grant; false when it was unknown.
    bool revoke_grant(std::string_view grant) const {
        if (!PLATFORM_HAS_FIELD(platform_host_api_t, api_, grant_revoke) || !api_->grant_revoke)
            return false;
        return api_->grant_revoke(ctx_, view(grant)) == PLATFORM_OK;
    }

    // ---- outbound HTTP ------------------------------------------------------------------------

    // Performs the request through the host's client. A response with any HTTP status returns;
    // a refused or failed request throws Error with the host's code and reason.
    HttpResponse fetch(const HttpRequest& req) const {
        require(PLATFORM_HAS_FIELD(platform_host_api_t, api_, http_fetch), "http_fetch");
        std::string headers = req.headers.dump();
        platform_http_request_t r{};
        r.struct_size = sizeof r;
        r.method = view(req.method);
        r.url = view(req.url);
        r.headers_json = view(headers);
        r.body = view(req.body);
        r.provider = view(req.provider);
        r.timeout_ms = req.timeout_ms;
        r.max_response_bytes = req.max_bytes;
        r.flags = (req.operator_url ? PLATFORM_HTTP_OPERATOR_URL : 0u) |
                  (req.follow_redirects ? 0u : PLATFORM_HTTP_NO_REDIRECTS);
        HttpResponse out;
        auto done = [](void* user, const platform_http_response_t* resp) {
            auto* o = static_cast<HttpResponse*>(user);
            o->status = resp->status;
            o->headers = resp->headers_json.len
                             ? json::parse(view(resp->headers_json), nullptr, false)
                             : json::object();
            o->body = copy(resp->body);
            o->error = copy(resp->error);
            o->final_url = copy(resp->final_url);
        };
        auto st = api_->http_fetch(ctx_, &r, done, &out);
        if (st != PLATFORM_OK)
            throw Error(static_cast<Code>(st), out.error.empty() ? "request failed" : out.error);
        return out;
    }

    // ---- events -------------------------------------------------------------------------------

    // Appends to a topic; returns the event's offset.
    uint64_t publish_event(std::string_view topic, std::string_view payload,
                           const json& metadata = json::object(), int64_t timestamp_ms = 0) const {
        require(PLATFORM_HAS_FIELD(platform_host_api_t, api_, events_publish), "events_publish");
        std::string md = metadata.dump();
        platform_event_t e{};
        e.struct_size = sizeof e;
        e.topic = view(topic);
        e.payload = view(payload);
        e.metadata_json = view(md);
        e.timestamp_ms = timestamp_ms;
        uint64_t offset = 0;
        check(api_->events_publish(ctx_, &e, &offset), "events publish failed");
        return offset;
    }

    // Events of a topic from `from_offset` (1 = the start), at most `limit` (0 = all).
    std::vector<Event> read_events(std::string_view topic, uint64_t from_offset = 1,
                                   uint32_t limit = 0) const {
        require(PLATFORM_HAS_FIELD(platform_host_api_t, api_, events_read), "events_read");
        std::vector<Event> out;
        auto sink = [](void* user, const platform_event_t* e) -> bool {
            Event ev;
            ev.id = copy(e->id);
            ev.topic = copy(e->topic);
            ev.offset = e->offset;
            ev.timestamp_ms = e->timestamp_ms;
            ev.metadata = e->metadata_json.len ? json::parse(view(e->metadata_json), nullptr, false)
                                               : json::object();
            ev.payload = copy(e->payload);
            static_cast<std::vector<Event>*>(user)->push_back(std::move(ev));
            return true;
        };
        check(api_->events_read(ctx_, view(topic), from_offset, limit, sink, &out),
              "events read failed");
        return out;
    }

    // Waits until the topic has an event after `after_offset`; false after timeout_ms.
    bool wait_events(std::string_view topic, uint64_t after_offset, int32_t timeout_ms) const {
        require(PLATFORM_HAS_FIELD(platform_host_api_t, api_, events_wait), "events_wait");
        auto st = api_->events_wait(ctx_, view(topic), after_offset, timeout_ms);
        if (st == PLATFORM_TIMEOUT) return false;
        check(st, "events wait failed");
        return true;
    }

    // ---- the model (ABI 1.5) -------------------------------------------------------------------

    // One completion from the configured model (request and answer: the JSON of abi.h's
    // platform_model_provider_t). Throws Error with the host's code and reason: unavailable
    // naming the missing setting, bad_gateway, timeout. Blocking: call it from a handler.
    json complete(const json& request) const {
        if (!PLATFORM_HAS_FIELD(platform_host_api_t, api_, model_complete) || !api_->model_complete)
            throw Error(Code::unsupported, "the host does not offer model_complete (ABI 1.5)");
        const std::string body = request.dump(-1, ' ', false, json::error_handler_t::replace);
        std::string out;
        const auto st = api_->model_complete(ctx_, view(body), append_sink, &out);
        if (st != PLATFORM_OK)
            throw Error(static_cast<Code>(st), out.empty() ? "the model failed" : out);
        return json::parse(out);
    }

private:
    // Starts a call with `start(body, reply, user)` and blocks until its reply; a start that
    // does not return OK throws Error(code, refused).
    template <class Start>
    static CallResult wait_for_reply(const json& request, Start&& start,
                                     const std::string& refused) {
        struct Wait {
            std::mutex m;
            std::condition_variable cv;
            bool done = false;
            CallResult r;
        } w;
        const std::string body = request.dump(-1, ' ', false, json::error_handler_t::replace);
        auto reply = [](void* user, platform_status_t code, platform_str_t text) {
            auto* w = static_cast<Wait*>(user);
            std::lock_guard<std::mutex> g(w->m);
            w->r = CallResult{static_cast<Code>(code), copy(text)};
            w->done = true;
            w->cv.notify_all();
        };
        const auto st = start(view(body), reply, &w);
        if (st != PLATFORM_OK) throw Error(static_cast<Code>(st), refused);
        std::unique_lock<std::mutex> lock(w.m);
        w.cv.wait(lock, [&] { return w.done; });
        return w.r;
    }

    // Throws UNSUPPORTED when the host is older than the function this needs.
    static void require(bool present, const char* what) {
        if (!present)
            throw Error(Code::unsupported,
                        std::string("the host does not offer ") + what + " (ABI 1.2)");
    }

    const platform_host_api_t* api_ = nullptr;
    platform_host_ctx_t* ctx_ = nullptr;
};

}  // namespace platform
