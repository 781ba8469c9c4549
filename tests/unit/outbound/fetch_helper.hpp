// fetch_helper.hpp — calls Outbound::fetch the way the host table does and keeps the response.
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <platform/host/outbound/outbound.hpp>
#include <string>

namespace platform::test {

struct Fetched {
    platform_status_t code = -1;
    int calls = 0;  // times `done` ran
    int32_t status = -1;
    std::string body, error, final_url;
    nlohmann::json headers;
};

struct FetchArgs {
    std::string url, method, headers_json, body, provider;
    uint32_t flags = 0;
    int32_t timeout_ms = 0;
    uint64_t max_response_bytes = 0;
};

inline Fetched fetch(const host::Outbound& out, const FetchArgs& a) {
    platform_http_request_t req{};
    req.struct_size = sizeof req;
    auto v = [](const std::string& s) { return platform_str_t{s.data(), s.size()}; };
    req.url = v(a.url);
    req.method = v(a.method);
    req.headers_json = v(a.headers_json);
    req.body = v(a.body);
    req.provider = v(a.provider);
    req.flags = a.flags;
    req.timeout_ms = a.timeout_ms;
    req.max_response_bytes = a.max_response_bytes;
    Fetched f;
    f.code = out.fetch(
        req,
        [](void* user, const platform_http_response_t* r) {
            auto* f = static_cast<Fetched*>(user);
            ++f->calls;
            f->status = r->status;
            f->body.assign(r->body.ptr ? r->body.ptr : "", r->body.len);
            f->error.assign(r->error.ptr ? r->error.ptr : "", r->error.len);
            f->final_url.assign(r->final_url.ptr ? r->final_url.ptr : "", r->final_url.len);
            f->headers =
                nlohmann::json::parse(std::string(r->headers_json.ptr, r->headers_json.len));
        },
        &f);
    return f;
}

inline Fetched fetch(const host::Outbound& out, const std::string& url, uint32_t flags = 0) {
    FetchArgs a;
    a.url = url;
    a.flags = flags;
    return fetch(out, a);
}

}  // namespace platform::test
