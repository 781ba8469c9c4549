// platform/sdk/request.hpp — what a handler sees of one call, and how an async handler answers.
#pragma once

#include <platform/abi.h>
#include <platform/sdk/error.hpp>
#include <platform/sdk/host.hpp>
#include <platform/sdk/store.hpp>
#include <platform/sdk/str.hpp>

#include <nlohmann/json.hpp>

#include <atomic>
#include <memory>
#include <string>
#include <string_view>

namespace platform {

// Answers one call exactly once, from any thread. Copies share the same call; the first answer
// wins and later ones are ignored. An async handler may keep a Responder after returning.
class Responder {
public:
    Responder(const platform_host_api_t* api, platform_call_t* call) : state_(std::make_shared<State>()) {
        state_->api = api;
        state_->call = call;
    }

    bool answered() const { return state_->done.load(); }

    void ok(const json& result) const {
        send(PLATFORM_OK, result.dump(-1, ' ', false, json::error_handler_t::replace));
    }
    void fail(const Error& e) const { send(static_cast<platform_status_t>(e.code()), e.what()); }
    void fail(Code code, std::string_view message) const {
        send(static_cast<platform_status_t>(code), message);
    }
    void raw(std::string_view content_type, std::string_view bytes) const {
        if (!claim()) return;
        state_->api->respond_raw(state_->call, view(content_type), view(bytes));
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
        return chunk(std::string_view(message.dump(-1, ' ', false, json::error_handler_t::replace)));
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

    // The caller's records in the named collection. Anonymous callers get UNAUTHENTICATED.
    Collection owned(std::string_view collection) const {
        if (anonymous()) throw unauthenticated("this method needs an account");
        return Collection(host_.store(), collection, account_);
    }

    const Host& host() const { return host_; }
    platform_call_t* call() const { return call_; }

private:
    Host host_;
    platform_call_t* call_;
    json args_;
    std::string account_, scopes_, endpoint_, request_id_;
};

}  // namespace platform
