// The host-table functions that act on a call: its facts and headers, its answer (whole, raw or
// streamed), the MCP client behind it (1.4), the caller's tools (1.5) and grants (1.6).
#include <algorithm>
#include <cstring>
#include <platform/sdk/text.hpp>

#include "grants.hpp"
#include "host_table.hpp"

namespace platform::host::host_table {

using nlohmann::json;

namespace {

platform_status_t finish(platform_call_t* handle, Outcome o) {
    auto c = find_call(handle);
    if (!c) return PLATFORM_INVALID_ARGUMENT;
    return CallTable::global().answer(c, std::move(o)) ? PLATFORM_OK : PLATFORM_INVALID_ARGUMENT;
}

// MCP (1.4): through the call's CallClient; UNSUPPORTED for calls that did not come over MCP.
std::shared_ptr<CallClient> live_client(platform_call_t* handle, platform_status_t& st) {
    auto c = find_call(handle);
    st = PLATFORM_INVALID_ARGUMENT;
    if (!c) return nullptr;
    std::lock_guard<std::mutex> g(c->m);
    if (c->answered) return nullptr;
    st = c->client ? PLATFORM_OK : PLATFORM_UNSUPPORTED;
    return c->client;
}

// The answer headers a plugin may set (abi.h, respond_raw_headers), lower case.
bool plugin_header(const std::string& name) {
    static const char* const allowed[] = {"cache-control",
                                          "content-disposition",
                                          "content-security-policy",
                                          "cross-origin-embedder-policy",
                                          "cross-origin-opener-policy",
                                          "cross-origin-resource-policy",
                                          "permissions-policy",
                                          "referrer-policy",
                                          "x-content-type-options",
                                          "x-frame-options"};
    return std::any_of(std::begin(allowed), std::end(allowed),
                       [&](const char* a) { return name == a; });
}

// Reads headers_json into `out`; "" when it is good, else what is wrong with it.
std::string answer_headers(const std::string& text,
                           std::vector<std::pair<std::string, std::string>>& out) {
    if (text.empty()) return "";
    const json headers = json::parse(text, nullptr, false);
    if (!headers.is_object()) return "respond_raw_headers: the headers must be a JSON object";
    for (const auto& [name, value] : headers.items()) {
        if (!plugin_header(platform::lower(name)))
            return "respond_raw_headers: a plugin may not set the header '" + name + "'";
        if (!value.is_string())
            return "respond_raw_headers: the value of " + name + " must be a string";
        const std::string v = value.get<std::string>();
        if (std::any_of(v.begin(), v.end(), [](char ch) {
                return static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f;
            }))
            return "respond_raw_headers: the value of " + name + " holds a control character";
        out.emplace_back(name, v);
    }
    return "";
}

}  // namespace

void call_info(platform_call_t* handle, platform_call_info_t* out) {
    protocol::write_call_info(find_call(handle).get(), out);
}

platform_str_t call_header(platform_call_t* handle, platform_str_t name) {
    auto c = find_call(handle);
    if (!c) return {nullptr, 0};
    const std::string key = platform::lower(str(name));
    auto it = c->headers.find(key);
    return it == c->headers.end() ? platform_str_t{nullptr, 0} : view(it->second);
}

platform_status_t respond(platform_call_t* call, platform_status_t code, platform_str_t body) {
    return finish(call, Outcome{code, str(body), "", false});
}

platform_status_t respond_raw(platform_call_t* call, platform_str_t ct, platform_str_t bytes) {
    std::string type = ct.len ? str(ct) : "application/octet-stream";
    return finish(call, Outcome{PLATFORM_OK, str(bytes), type, true});
}

platform_status_t respond_raw_headers(platform_call_t* call, platform_str_t ct,
                                      platform_str_t headers, platform_str_t bytes) {
    Outcome o{PLATFORM_OK, str(bytes), ct.len ? str(ct) : "application/octet-stream", true};
    const std::string problem = answer_headers(str(headers), o.headers);
    if (problem.empty()) return finish(call, std::move(o));
    finish(call, Outcome{PLATFORM_INTERNAL, problem, "", false});
    return PLATFORM_INVALID_ARGUMENT;
}

platform_status_t respond_chunk(platform_call_t* handle, platform_str_t bytes) {
    auto c = find_call(handle);
    if (!c) return PLATFORM_INVALID_ARGUMENT;
    {
        std::lock_guard<std::mutex> g(c->m);
        if (c->answered) return PLATFORM_INVALID_ARGUMENT;
        if (!c->chunk_sink) {  // a surface that cannot stream: the chunks become one JSON array
            c->stream += c->stream.empty() ? "[" : ",";
            c->stream.append(bytes.ptr ? bytes.ptr : "", bytes.len);
            return PLATFORM_OK;
        }
        c->chunked = true;
    }
    // Chunks of one call come from the plugin in order; the sink serialises the writes.
    if (c->chunk_sink(view_of(bytes))) return PLATFORM_OK;
    c->plugin->ctx.runtime->abandon(c, "the client went away");
    return PLATFORM_INVALID_ARGUMENT;
}

platform_status_t respond_end(platform_call_t* handle, platform_status_t code,
                              platform_str_t message) {
    auto c = find_call(handle);
    if (!c) return PLATFORM_INVALID_ARGUMENT;
    Outcome o{code, str(message), "", false, false};
    {
        std::lock_guard<std::mutex> g(c->m);
        o.streamed = c->chunked;
        if (!c->chunked && code == PLATFORM_OK) o.body = c->stream.empty() ? "[]" : c->stream + "]";
    }
    return finish(handle, std::move(o));
}

platform_status_t call_progress(platform_call_t* call, double done, double total,
                                platform_str_t message) {
    platform_status_t st;
    auto client = live_client(call, st);
    return client ? client->progress(done, total,
                                     std::string_view(message.ptr ? message.ptr : "", message.len))
                  : st;
}

platform_status_t call_log(platform_call_t* call, platform_str_t level, platform_str_t logger,
                           platform_str_t data) {
    platform_status_t st;
    auto client = live_client(call, st);
    return client ? client->log(str(level), str(logger), str(data)) : st;
}

platform_status_t call_client_request(platform_call_t* call, platform_str_t method,
                                      platform_str_t params, int64_t timeout_ms,
                                      platform_reply_fn reply, void* user) {
    platform_status_t st;
    auto client = live_client(call, st);
    if (!client) return st;
    if (!reply) return PLATFORM_INVALID_ARGUMENT;
    return client->request(
        str(method), str(params), timeout_ms,
        [reply, user](platform_status_t code, std::string body) { reply(user, code, view(body)); });
}

platform_status_t call_tools(platform_call_t* handle, platform_bytes_sink_fn sink, void* user) {
    auto c = find_call(handle);
    if (!c) return PLATFORM_INVALID_ARGUMENT;
    {
        std::lock_guard<std::mutex> g(c->m);
        if (c->answered) return PLATFORM_INVALID_ARGUMENT;
    }
    Runtime& rt = *c->plugin->ctx.runtime;
    auto ns = c->headers.find("platform-namespace");
    const std::string out = agent_tools(rt.admission(), *rt.tools().all(), c->caller,
                                        ns == c->headers.end() ? "" : ns->second, c->plugin);
    if (sink) sink(user, view(out));
    return PLATFORM_OK;
}

platform_status_t grant_create(platform_call_t* handle, platform_bytes_sink_fn sink, void* user) {
    auto c = find_call(handle);
    if (!c || !c->plugin) return PLATFORM_INVALID_ARGUMENT;
    {
        std::lock_guard<std::mutex> g(c->m);
        if (c->answered) return PLATFORM_INVALID_ARGUMENT;
    }
    auto ns = c->headers.find("platform-namespace");
    std::string id;
    const platform_status_t st =
        Grants(*c->plugin->ctx.runtime)
            .create(*c->plugin, c->caller, ns == c->headers.end() ? "" : ns->second, id);
    if (st == PLATFORM_OK && sink) sink(user, view(id));
    return st;
}

}  // namespace platform::host::host_table
