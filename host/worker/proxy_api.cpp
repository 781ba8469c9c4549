// make_proxy_api: the host table as a plugin in a worker sees it, filled from the member lists of
// host_protocol.hpp with the stubs of proxy_table.hpp. Each stub is a request to the host
// (worker_host_calls.cpp answers it), except call_info and call_header, answered from the call
// record the host sent, and log / resource_updated, sent without waiting.
#include <cstring>
#include <platform/sdk/text.hpp>

#include "proxy_table.hpp"
#include "worker_state.hpp"

namespace platform::worker {

namespace op = host::protocol::op;

namespace {

uint64_t id_of(platform_call_t* call) {
    return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(call));
}
std::string text(const json& v) {
    return host::worker::bytes_of(v);
}

// Sends `request` with a new reply token for done(user), which the host calls back once if it
// accepts the request; when it refuses, done never runs and the token is forgotten.
platform_status_t ask_with_reply(json request, platform_reply_fn done, void* user) {
    if (!done) return PLATFORM_INVALID_ARGUMENT;
    const uint64_t token = state().add_reply(done, user);
    request["token"] = token;
    platform_status_t st = code_of(ask(std::move(request)));
    if (st != PLATFORM_OK) {
        std::lock_guard<std::mutex> g(state().m);
        state().replies.erase(token);
    }
    return st;
}

}  // namespace

namespace proxy {

void log(platform_host_ctx_t*, platform_log_level_t level, platform_str_t message) {
    if (auto ch = state().channel)
        ch->send({{"op", op::log}, {"level", level}, {"message", bytes(message)}});
}
platform_status_t config_get(platform_host_ctx_t*, platform_str_t path, platform_bytes_sink_fn sink,
                             void* user) {
    return lend(ask({{"op", op::config_get}, {"path", bytes(path)}}), sink, user);
}
platform_status_t store_get(platform_host_ctx_t*, platform_str_t key, platform_bytes_sink_fn sink,
                            void* user) {
    return lend(ask({{"op", op::store_get}, {"key", bytes(key)}}), sink, user);
}
platform_status_t store_put(platform_host_ctx_t*, platform_str_t key, platform_str_t value,
                            int64_t ttl) {
    return code_of(ask(
        {{"op", op::store_put}, {"key", bytes(key)}, {"value", bytes(value)}, {"ttl_ms", ttl}}));
}
platform_status_t store_delete(platform_host_ctx_t*, platform_str_t key) {
    return code_of(ask({{"op", op::store_delete}, {"key", bytes(key)}}));
}
platform_status_t store_scan(platform_host_ctx_t*, const platform_scan_t* scan,
                             platform_record_sink_fn sink, void* user) {
    if (!scan) return PLATFORM_INVALID_ARGUMENT;
    return scan_records(ask(scan_request(scan, nullptr)), sink, user);
}
platform_status_t broker_publish(platform_host_ctx_t*, platform_str_t topic, platform_str_t body,
                                 platform_str_t headers) {
    return code_of(ask({{"op", op::broker_publish},
                        {"topic", bytes(topic)},
                        {"body", bytes(body)},
                        {"headers", bytes(headers)}}));
}
platform_status_t broker_subscribe(platform_host_ctx_t*, platform_str_t topic, platform_str_t queue,
                                   platform_message_fn fn, void* user, uint64_t* out) {
    if (!fn || !out) return PLATFORM_INVALID_ARGUMENT;
    auto l = std::make_shared<Listener>();
    l->message = fn;
    l->user = user;
    return subscribe_listener(
        {{"op", op::broker_subscribe}, {"topic", bytes(topic)}, {"queue", bytes(queue)}}, l, out);
}
platform_status_t broker_unsubscribe(platform_host_ctx_t*, uint64_t id) {
    platform_status_t st = code_of(ask({{"op", op::broker_unsubscribe}, {"sub", id}}));
    state().remove_listener(id);
    return st;
}
int64_t clock_now_ms(platform_host_ctx_t*) {
    json r = ask({{"op", op::clock_now_ms}});
    return r.contains("out") && r["out"].is_number() ? r["out"].get<int64_t>() : 0;
}

void call_info(platform_call_t* call, platform_call_info_t* out) {
    host::protocol::write_call_info(state().find_call(call).get(), out);
}
platform_str_t call_header(platform_call_t* call, platform_str_t name) {
    auto c = state().find_call(call);
    if (!c) return {nullptr, 0};
    const std::string key = platform::lower(std::string(name.ptr ? name.ptr : "", name.len));
    auto it = c->headers.find(key);
    return it == c->headers.end() ? platform_str_t{nullptr, 0} : view(it->second);
}

// Final answers: a call the worker no longer knows is answered already (INVALID_ARGUMENT).
platform_status_t answer(platform_call_t* call, json request) {
    if (!state().find_call(call)) return PLATFORM_INVALID_ARGUMENT;
    request["call"] = id_of(call);
    platform_status_t st = code_of(ask(std::move(request)));
    state().answered(id_of(call));
    return st;
}
platform_status_t respond(platform_call_t* call, platform_status_t code, platform_str_t body) {
    return answer(call, {{"op", op::respond}, {"code", code}, {"body", bytes(body)}});
}
platform_status_t respond_raw(platform_call_t* call, platform_str_t type, platform_str_t body) {
    return answer(call,
                  {{"op", op::respond_raw}, {"content_type", bytes(type)}, {"body", bytes(body)}});
}
platform_status_t respond_raw_headers(platform_call_t* call, platform_str_t type,
                                      platform_str_t headers, platform_str_t body) {
    return answer(call, {{"op", op::respond_raw_headers},
                         {"content_type", bytes(type)},
                         {"headers", bytes(headers)},
                         {"body", bytes(body)}});
}
platform_status_t respond_chunk(platform_call_t* call, platform_str_t body) {
    if (!state().find_call(call)) return PLATFORM_INVALID_ARGUMENT;
    return code_of(ask({{"op", op::respond_chunk}, {"call", id_of(call)}, {"body", bytes(body)}}));
}
platform_status_t respond_end(platform_call_t* call, platform_status_t code,
                              platform_str_t message) {
    return answer(call, {{"op", op::respond_end}, {"code", code}, {"body", bytes(message)}});
}

platform_status_t call_service(platform_host_ctx_t*, platform_call_t* parent,
                               platform_str_t service, platform_str_t method,
                               platform_str_t request, uint32_t flags, platform_reply_fn done,
                               void* user) {
    return ask_with_reply({{"op", op::call_service},
                           {"parent", id_of(parent)},
                           {"service", bytes(service)},
                           {"method", bytes(method)},
                           {"request", bytes(request)},
                           {"flags", flags}},
                          done, user);
}

platform_status_t http_fetch(platform_host_ctx_t*, const platform_http_request_t* request,
                             platform_http_response_fn done, void* user) {
    if (!request) return PLATFORM_INVALID_ARGUMENT;
    platform_http_request_t r{};
    std::memcpy(&r, request, std::min<size_t>(request->struct_size, sizeof r));
    json reply = ask({{"op", op::http_fetch},
                      {"method", bytes(r.method)},
                      {"url", bytes(r.url)},
                      {"headers", bytes(r.headers_json)},
                      {"body", bytes(r.body)},
                      {"provider", bytes(r.provider)},
                      {"timeout_ms", r.timeout_ms},
                      {"max_response_bytes", r.max_response_bytes},
                      {"flags", r.flags}});
    if (done && reply.contains("response") && reply["response"].is_object()) {
        const json& in = reply["response"];
        std::string headers = text(in["headers"]), body = text(in["body"]),
                    error = text(in["error"]), final_url = text(in["final_url"]);
        platform_http_response_t resp{};
        resp.struct_size = sizeof resp;
        resp.status = in.value("status", 0);
        resp.headers_json = view(headers);
        resp.body = view(body);
        resp.error = view(error);
        resp.final_url = view(final_url);
        done(user, &resp);
    }
    return code_of(reply);
}

platform_status_t events_publish(platform_host_ctx_t*, const platform_event_t* event,
                                 uint64_t* out) {
    if (!event || !out) return PLATFORM_INVALID_ARGUMENT;
    platform_event_t e{};
    std::memcpy(&e, event, std::min<size_t>(event->struct_size, sizeof e));
    json reply = ask({{"op", op::events_publish},
                      {"id", bytes(e.id)},
                      {"topic", bytes(e.topic)},
                      {"timestamp_ms", e.timestamp_ms},
                      {"metadata", bytes(e.metadata_json)},
                      {"payload", bytes(e.payload)}});
    *out = reply.value("offset", uint64_t{0});
    return code_of(reply);
}
platform_status_t events_read(platform_host_ctx_t*, platform_str_t topic, uint64_t from,
                              uint32_t limit, platform_event_sink_fn sink, void* user) {
    if (!sink) return PLATFORM_INVALID_ARGUMENT;
    json reply =
        ask({{"op", op::events_read}, {"topic", bytes(topic)}, {"from", from}, {"limit", limit}});
    if (reply.contains("events") && reply["events"].is_array())
        for (const auto& in : reply["events"]) {
            std::string id = text(in["id"]), t = text(in["topic"]), metadata = text(in["metadata"]),
                        payload = text(in["payload"]);
            platform_event_t e{};
            e.struct_size = sizeof e;
            e.id = view(id);
            e.topic = view(t);
            e.offset = in.value("offset", uint64_t{0});
            e.timestamp_ms = in.value("timestamp_ms", int64_t{0});
            e.metadata_json = view(metadata);
            e.payload = view(payload);
            if (!sink(user, &e)) break;
        }
    return code_of(reply);
}
platform_status_t events_wait(platform_host_ctx_t*, platform_str_t topic, uint64_t after,
                              int32_t timeout_ms) {
    return code_of(ask({{"op", op::events_wait},
                        {"topic", bytes(topic)},
                        {"after", after},
                        {"timeout_ms", timeout_ms}}));
}

platform_status_t store_cas(platform_host_ctx_t*, platform_str_t key,
                            const platform_str_t* expected, const platform_str_t* value,
                            int64_t expires_at_ms) {
    return code_of(ask(cas_request(nullptr, key, expected, value, expires_at_ms)));
}
platform_status_t store_batch(platform_host_ctx_t*, const platform_store_op_t* ops, uint32_t count,
                              uint32_t stride) {
    json request = batch_request(nullptr, ops, count, stride);
    return request.is_null() ? PLATFORM_INVALID_ARGUMENT : code_of(ask(std::move(request)));
}

platform_status_t call_progress(platform_call_t* call, double progress, double total,
                                platform_str_t message) {
    return code_of(ask({{"op", op::call_progress},
                        {"call", id_of(call)},
                        {"progress", progress},
                        {"total", total},
                        {"message", bytes(message)}}));
}
platform_status_t call_log(platform_call_t* call, platform_str_t level, platform_str_t logger,
                           platform_str_t data) {
    return code_of(ask({{"op", op::call_log},
                        {"call", id_of(call)},
                        {"level", bytes(level)},
                        {"logger", bytes(logger)},
                        {"data", bytes(data)}}));
}
platform_status_t call_client_request(platform_call_t* call, platform_str_t method,
                                      platform_str_t params, int64_t timeout_ms,
                                      platform_reply_fn reply, void* user) {
    return ask_with_reply({{"op", op::call_client_request},
                           {"parent", id_of(call)},
                           {"method", bytes(method)},
                           {"params", bytes(params)},
                           {"timeout_ms", timeout_ms}},
                          reply, user);
}
void resource_updated(platform_host_ctx_t*, platform_str_t uri, platform_str_t account) {
    if (auto ch = state().channel)
        ch->send({{"op", op::resource_updated}, {"uri", bytes(uri)}, {"account", bytes(account)}});
}

// 1.5: the model answers in the host (blocking, like http_fetch); call_tools for calls it sent.
platform_status_t model_complete(platform_host_ctx_t*, platform_str_t request,
                                 platform_bytes_sink_fn sink, void* user) {
    json reply = ask({{"op", op::model_complete}, {"request", bytes(request)}});
    std::string out = reply.contains("out") ? text(reply["out"]) : std::string();
    if (sink) sink(user, view(out));
    return code_of(reply);
}
platform_status_t call_tools(platform_call_t* call, platform_bytes_sink_fn sink, void* user) {
    if (!state().find_call(call)) return PLATFORM_INVALID_ARGUMENT;
    return lend(ask({{"op", op::call_tools}, {"call", id_of(call)}}), sink, user);
}

// 1.6: grants live in the host, for this worker's plugin.
platform_status_t grant_create(platform_call_t* call, platform_bytes_sink_fn sink, void* user) {
    if (!state().find_call(call)) return PLATFORM_INVALID_ARGUMENT;
    return lend(ask({{"op", op::grant_create}, {"call", id_of(call)}}), sink, user);
}
platform_status_t grant_call_service(platform_host_ctx_t*, platform_str_t grant,
                                     platform_str_t service, platform_str_t method,
                                     platform_str_t request, int64_t timeout_ms,
                                     platform_reply_fn done, void* user) {
    return ask_with_reply({{"op", op::grant_call_service},
                           {"grant", bytes(grant)},
                           {"service", bytes(service)},
                           {"method", bytes(method)},
                           {"request", bytes(request)},
                           {"timeout_ms", timeout_ms}},
                          done, user);
}
platform_status_t grant_revoke(platform_host_ctx_t*, platform_str_t grant) {
    return code_of(ask({{"op", op::grant_revoke}, {"grant", bytes(grant)}}));
}

}  // namespace proxy

platform_host_api_t make_proxy_api() {
    platform_host_api_t table{};
    table.struct_size = sizeof table;
    table.abi_version = PLATFORM_ABI_VERSION;
    proxy::fill(table);
    return table;
}

}  // namespace platform::worker
