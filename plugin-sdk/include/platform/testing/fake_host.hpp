// platform/testing/fake_host.hpp — run a plugin's handlers in a unit test, without the host.
//
//   platform::testing::FakeHost host;
//   auto plugin = host.load(platform_plugin_entry);        // the plugin's entry, linked in
//   auto r = plugin.call("add", {{"title","a"},{"text","b"}}, "alice");
//   EXPECT_EQ(r.code, PLATFORM_OK);  EXPECT_EQ(r.json()["title"], "a");
//
// The fake host keeps an in-memory store (ordered, with TTL against a settable clock, compare-and-set
// and atomic batches; the privileged "store" sub-table reaches other tables; `store_features`
// plays a provider that lacks some of them), in-memory event topics, records log lines
// and published messages, serves config from a JSON object, and answers calls synchronously (a
// handler that answers later from another thread is waited for, up to a timeout). Calls to other
// services and outbound HTTP go to the hooks `on_call` and `on_fetch` a test sets. Arguments are
// validated as the real host validates them, with the same library (platform/validation/, link
// Platform::testing): load() refuses an endpoint whose input schema is invalid, and call() answers
// INVALID_ARGUMENT with the host's message ("title: is required") before the handler runs, after
// filling in declared defaults. Access levels are not enforced. Sub-tables ("clock",
// "store", "secrets") are granted to every plugin. The model (1.5) answers from a queue a test
// fills (`push_model_answer`, `push_model_failure`; every request is kept in `model_requests`,
// an empty queue is UNAVAILABLE) and call_tools lends the array in `tools`. Grants (1.6) are
// "grant-<n>" recorded in `grants` (id -> account); grant_call_service goes to `on_call` as that
// account, and revoked or unknown grants are NOT_FOUND. respond_raw_headers (1.9) keeps the
// headers in Reply::headers and, as the host does, answers INTERNAL for a name abi.h does not list.
#pragma once

#include <platform/abi.h>
#include <strings.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <platform/sdk/store_provider.hpp>
#include <platform/sdk/str.hpp>
#include <platform/validation/schema.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace platform::testing {

struct Reply {
    platform_status_t code = -1;
    std::string body;                            // JSON result, or the error message
    std::string content_type;                    // set by respond_raw
    std::map<std::string, std::string> headers;  // set by respond_raw_headers (1.9)
    std::vector<std::string> chunks;             // respond_chunk messages, in order
    nlohmann::json json() const { return nlohmann::json::parse(body); }
};

class FakeHost;

struct CallState {
    FakeHost* host = nullptr;
    std::string account, service, endpoint;
    std::map<std::string, std::string> headers;
    Reply reply;
    bool done = false;
    std::mutex m;
    std::condition_variable cv;
};

// One loaded plugin instance bound to a FakeHost.
class FakePlugin {
public:
    // Takes over `inst`, created from `desc`; compiles the endpoints' input schemas (see below).
    FakePlugin(FakeHost* host, const platform_plugin_desc_t* desc, void* inst)
        : host_(host), desc_(desc), inst_(inst), inputs_(input_schemas(desc)) {}
    FakePlugin(const FakePlugin&) = delete;
    FakePlugin(FakePlugin&& o) noexcept
        : host_(o.host_), desc_(o.desc_), inst_(o.inst_), inputs_(std::move(o.inputs_)) {
        o.inst_ = nullptr;
    }

    // Each endpoint's compiled input schema, in descriptor order; throws what the host's loader
    // reports: "endpoint '<name>': invalid schema: <pointer>: <problem>".
    static std::vector<platform::validation::Schema> input_schemas(
        const platform_plugin_desc_t* desc) {
        std::vector<platform::validation::Schema> out;
        for (uint32_t i = 0; i < desc->endpoint_count; ++i) {
            auto* ep = endpoint(desc, i);
            try {
                out.push_back(
                    platform::validation::Schema::parse(platform::view(ep->input_schema)));
            } catch (const platform::validation::SchemaError& e) {
                throw std::runtime_error("endpoint '" + platform::copy(ep->name) +
                                         "': invalid schema: " + e.what());
            }
        }
        return out;
    }
    ~FakePlugin() {
        if (!inst_) return;
        if (desc_->on_stop) desc_->on_stop(inst_);
        if (desc_->on_destroy) desc_->on_destroy(inst_);
    }

    const platform_plugin_desc_t* descriptor() const { return desc_; }

    // Calls an endpoint by name as `account` (empty = anonymous). Arguments the schema refuses
    // answer INVALID_ARGUMENT with the validator's message, and the handler is not called.
    Reply call(const std::string& endpoint_name,
               const nlohmann::json& args = nlohmann::json::object(),
               const std::string& account = "", std::map<std::string, std::string> headers = {}) {
        for (uint32_t i = 0; i < desc_->endpoint_count; ++i) {
            auto* ep = endpoint(desc_, i);
            if (platform::view(ep->name) != endpoint_name) continue;
            // `{}` in a call is JSON null: no arguments, as an empty body is to the host.
            nlohmann::json checked = args.is_null() ? nlohmann::json::object() : args;
            if (auto problem = inputs_[i].validate(checked))
                return Reply{PLATFORM_INVALID_ARGUMENT, *problem, "", {}};
            CallState st;
            st.host = host_;
            st.account = account;
            st.service = platform::copy(desc_->service);
            st.endpoint = endpoint_name;
            st.headers = std::move(headers);
            std::string body = checked.dump();
            desc_->on_call(inst_, reinterpret_cast<platform_call_t*>(&st), i, platform::view(body));
            std::unique_lock<std::mutex> lock(st.m);
            if (!st.cv.wait_for(lock, std::chrono::seconds(10), [&] { return st.done; }))
                throw std::runtime_error("handler did not answer within 10 s: " + endpoint_name);
            return st.reply;
        }
        throw std::runtime_error("no such endpoint: " + endpoint_name);
    }

private:
    static const platform_endpoint_t* endpoint(const platform_plugin_desc_t* desc, uint32_t i) {
        return reinterpret_cast<const platform_endpoint_t*>(
            reinterpret_cast<const char*>(desc->endpoints) + i * desc->endpoint_stride);
    }

    FakeHost* host_;
    const platform_plugin_desc_t* desc_;
    void* inst_;
    std::vector<platform::validation::Schema> inputs_;
};

class FakeHost {
public:
    FakeHost() {
        api_.struct_size = sizeof api_;
        api_.abi_version = PLATFORM_ABI_VERSION;
        api_.log = [](platform_host_ctx_t* c, platform_log_level_t level, platform_str_t m) {
            (level == PLATFORM_LOG_OPERATOR ? self(c)->operator_notices : self(c)->logs)
                .push_back(platform::copy(m));
        };
        api_.config_get = [](platform_host_ctx_t* c, platform_str_t path,
                             platform_bytes_sink_fn sink, void* user) -> platform_status_t {
            const nlohmann::json* node = &self(c)->config;
            std::string p = platform::copy(path);
            nlohmann::json platform_part = self(c)->platform_facts;
            platform_part["namespace"] = self(c)->platform_namespace;
            if (p == "platform" || p.rfind("platform.", 0) == 0) {  // the host's part
                node = &platform_part;
                p.erase(0, p.size() > 8 ? 9 : 8);
            }
            size_t start = 0;
            while (!p.empty() && start <= p.size()) {
                size_t dot = p.find('.', start);
                std::string part =
                    p.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
                if (!node->is_object() || !node->contains(part)) return PLATFORM_NOT_FOUND;
                node = &(*node)[part];
                if (dot == std::string::npos) break;
                start = dot + 1;
            }
            std::string s = node->dump();
            sink(user, platform::view(s));
            return PLATFORM_OK;
        };
        api_.store_get = [](platform_host_ctx_t* c, platform_str_t key, platform_bytes_sink_fn sink,
                            void* user) { return self(c)->table_get("", key, sink, user); };
        api_.store_put = [](platform_host_ctx_t* c, platform_str_t key, platform_str_t value,
                            int64_t ttl) { return self(c)->table_put("", key, value, ttl); };
        api_.store_delete = [](platform_host_ctx_t* c, platform_str_t key) {
            return self(c)->table_del("", key);
        };
        api_.store_scan = [](platform_host_ctx_t* c, const platform_scan_t* s,
                             platform_record_sink_fn sink,
                             void* user) { return self(c)->table_scan("", s, sink, user); };
        api_.store_cas = [](platform_host_ctx_t* c, platform_str_t key,
                            const platform_str_t* expected, const platform_str_t* value,
                            int64_t expires_at) {
            return self(c)->table_cas("", key, expected, value, expires_at);
        };
        api_.store_batch = [](platform_host_ctx_t* c, const platform_store_op_t* ops,
                              uint32_t count, uint32_t stride) {
            return self(c)->table_batch("", ops, count, stride);
        };
        // MCP (1.4): the fake host's calls never come from an MCP client.
        api_.call_progress = [](platform_call_t*, double, double,
                                platform_str_t) -> platform_status_t {
            return PLATFORM_UNSUPPORTED;
        };
        api_.call_log = [](platform_call_t*, platform_str_t, platform_str_t,
                           platform_str_t) -> platform_status_t { return PLATFORM_UNSUPPORTED; };
        api_.call_client_request = [](platform_call_t*, platform_str_t, platform_str_t, int64_t,
                                      platform_reply_fn,
                                      void*) -> platform_status_t { return PLATFORM_UNSUPPORTED; };
        api_.resource_updated = [](platform_host_ctx_t* c, platform_str_t uri,
                                   platform_str_t account) {
            self(c)->updated_resources.push_back(platform::copy(uri));
            self(c)->updated_resource_accounts.push_back(platform::copy(account));
        };
        // The model (1.5): scripted answers in order; UNAVAILABLE once they run out.
        api_.model_complete = [](platform_host_ctx_t* c, platform_str_t request,
                                 platform_bytes_sink_fn sink, void* user) -> platform_status_t {
            auto* h = self(c);
            Reply next;
            {
                std::lock_guard<std::mutex> g(h->model_mutex);
                h->model_requests.push_back(
                    nlohmann::json::parse(platform::view(request), nullptr, false));
                if (h->model_answers.empty()) {
                    next.code = PLATFORM_UNAVAILABLE;
                    next.body = "the fake host has no model answer left (push_model_answer)";
                } else {
                    next = h->model_answers.front();
                    h->model_answers.pop_front();
                }
            }
            if (sink) sink(user, platform::view(next.body));
            return next.code;
        };
        api_.call_tools = [](platform_call_t* call, platform_bytes_sink_fn sink,
                             void* user) -> platform_status_t {
            auto* st = reinterpret_cast<CallState*>(call);
            if (!st || !st->host) return PLATFORM_INVALID_ARGUMENT;
            std::string out;
            {
                std::lock_guard<std::mutex> g(st->host->model_mutex);
                out = st->host->tools.dump();
            }
            if (sink) sink(user, platform::view(out));
            return PLATFORM_OK;
        };
        api_.broker_publish = [](platform_host_ctx_t* c, platform_str_t topic, platform_str_t body,
                                 platform_str_t) -> platform_status_t {
            self(c)->published.emplace_back(platform::copy(topic), platform::copy(body));
            return PLATFORM_OK;
        };
        api_.broker_subscribe = [](platform_host_ctx_t*, platform_str_t, platform_str_t,
                                   platform_message_fn, void*, uint64_t* id) -> platform_status_t {
            *id = 1;
            return PLATFORM_OK;
        };
        api_.broker_unsubscribe = [](platform_host_ctx_t*, uint64_t) -> platform_status_t {
            return PLATFORM_OK;
        };
        api_.clock_now_ms = [](platform_host_ctx_t* c) { return self(c)->now_ms; };
        api_.call_info = [](platform_call_t* call, platform_call_info_t* out) {
            auto* st = reinterpret_cast<CallState*>(call);
            platform_call_info_t info{};
            info.struct_size = sizeof info;
            info.service = platform::view(st->service);
            info.endpoint = platform::view(st->endpoint);
            info.account = platform::view(st->account);
            size_t n = out->struct_size < sizeof info ? out->struct_size : sizeof info;
            std::memcpy(out, &info, n);
            out->struct_size = static_cast<uint32_t>(n);
        };
        api_.call_header = [](platform_call_t* call, platform_str_t name) -> platform_str_t {
            auto* st = reinterpret_cast<CallState*>(call);
            for (auto& [k, v] : st->headers)
                if (strcasecmp(k.c_str(), platform::copy(name).c_str()) == 0)
                    return platform::view(v);
            return platform_str_t{nullptr, 0};
        };
        api_.respond = [](platform_call_t* call, platform_status_t code, platform_str_t body) {
            return finish(call, code, platform::copy(body), "application/json");
        };
        api_.respond_raw = [](platform_call_t* call, platform_str_t ct, platform_str_t bytes) {
            return finish(call, PLATFORM_OK, platform::copy(bytes), platform::copy(ct));
        };
        api_.respond_raw_headers = [](platform_call_t* call, platform_str_t ct,
                                      platform_str_t headers,
                                      platform_str_t bytes) -> platform_status_t {
            auto parsed = nlohmann::json::parse(platform::copy(headers), nullptr, false);
            if (headers.len == 0) parsed = nlohmann::json::object();
            if (!parsed.is_object()) {
                finish(call, PLATFORM_INTERNAL, "respond_raw_headers: not a JSON object", "");
                return PLATFORM_INVALID_ARGUMENT;
            }
            // The names abi.h lists for respond_raw_headers, as the host takes them.
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
            for (const auto& item : parsed.items()) {
                const std::string& k = item.key();  // not a structured binding: C++17 lambdas
                const auto& v = item.value();       // cannot capture one
                const bool ok =
                    v.is_string() &&
                    std::any_of(std::begin(allowed), std::end(allowed),
                                [&](const char* a) { return strcasecmp(a, k.c_str()) == 0; });
                if (!ok) {
                    finish(call, PLATFORM_INTERNAL,
                           "respond_raw_headers: a plugin may not set the header '" + k + "'", "");
                    return PLATFORM_INVALID_ARGUMENT;
                }
            }
            {
                auto* st = reinterpret_cast<CallState*>(call);
                std::lock_guard<std::mutex> g(st->m);
                if (!st->done)
                    for (const auto& [k, v] : parsed.items())
                        st->reply.headers[k] = v.get<std::string>();
            }
            return finish(call, PLATFORM_OK, platform::copy(bytes), platform::copy(ct));
        };
        api_.respond_chunk = [](platform_call_t* call, platform_str_t bytes) -> platform_status_t {
            auto* st = reinterpret_cast<CallState*>(call);
            std::lock_guard<std::mutex> g(st->m);
            if (st->done) return PLATFORM_INVALID_ARGUMENT;
            st->reply.chunks.push_back(platform::copy(bytes));
            st->reply.body += platform::copy(bytes);
            return PLATFORM_OK;
        };
        api_.respond_end = [](platform_call_t* call, platform_status_t code, platform_str_t msg) {
            auto* st = reinterpret_cast<CallState*>(call);
            std::string body;
            {
                std::lock_guard<std::mutex> g(st->m);
                body = code == PLATFORM_OK ? st->reply.body : platform::copy(msg);
            }
            return finish(call, code, body, "text/event-stream");
        };
        api_.get_service = [](platform_host_ctx_t* c, platform_str_t name,
                              uint32_t) -> const void* {
            auto n = platform::copy(name);
            if (n == PLATFORM_SERVICE_CLOCK) return &self(c)->clock_api_;
            if (n == PLATFORM_SERVICE_STORE) return &self(c)->store_api_;
            if (n == PLATFORM_SERVICE_SECRETS) return &self(c)->secrets_api_;
            return nullptr;
        };
        api_.call_service = [](platform_host_ctx_t* c, platform_call_t* parent,
                               platform_str_t service, platform_str_t method,
                               platform_str_t request, uint32_t, platform_reply_fn done,
                               void* user) -> platform_status_t {
            auto* h = self(c);
            std::string account =
                parent ? reinterpret_cast<CallState*>(parent)->account : h->service_account;
            return h->answer_call(service, method, request, account, done, user);
        };
        api_.grant_create = [](platform_call_t* call, platform_bytes_sink_fn sink,
                               void* user) -> platform_status_t {
            auto* st = reinterpret_cast<CallState*>(call);
            if (st->account.empty()) return PLATFORM_UNAUTHENTICATED;
            std::lock_guard<std::mutex> g(st->host->grants_mutex);
            const std::string id = "grant-" + std::to_string(++st->host->grant_ids);
            st->host->grants[id] = st->account;
            sink(user, platform::view(id));
            return PLATFORM_OK;
        };
        api_.grant_call_service = [](platform_host_ctx_t* c, platform_str_t grant,
                                     platform_str_t service, platform_str_t method,
                                     platform_str_t request, int64_t, platform_reply_fn done,
                                     void* user) -> platform_status_t {
            auto* h = self(c);
            std::string account;
            {
                std::lock_guard<std::mutex> g(h->grants_mutex);
                auto it = h->grants.find(platform::copy(grant));
                if (it == h->grants.end()) return PLATFORM_NOT_FOUND;
                account = it->second;
            }
            return h->answer_call(service, method, request, account, done, user);
        };
        api_.grant_revoke = [](platform_host_ctx_t* c, platform_str_t grant) -> platform_status_t {
            auto* h = self(c);
            std::lock_guard<std::mutex> g(h->grants_mutex);
            return h->grants.erase(platform::copy(grant)) ? PLATFORM_OK : PLATFORM_NOT_FOUND;
        };
        api_.http_fetch = [](platform_host_ctx_t* c, const platform_http_request_t* req,
                             platform_http_response_fn done, void* user) -> platform_status_t {
            auto* h = self(c);
            FakeHttp r;
            if (h->on_fetch)
                r = h->on_fetch(*req);
            else
                r.error = "no network in the fake host (set FakeHost::on_fetch)";
            std::string headers = r.headers.dump();
            platform_http_response_t resp{};
            resp.struct_size = sizeof resp;
            resp.status = r.status;
            resp.headers_json = platform::view(headers);
            resp.body = platform::view(r.body);
            resp.error = platform::view(r.error);
            resp.final_url = req->url;
            done(user, &resp);
            return r.code;
        };
        api_.events_publish = [](platform_host_ctx_t* c, const platform_event_t* e,
                                 uint64_t* out) -> platform_status_t {
            auto* h = self(c);
            std::lock_guard<std::mutex> g(h->events_mutex);
            auto& topic = h->events[platform::copy(e->topic)];
            StoredEvent ev{
                e->id.len ? platform::copy(e->id) : "ev" + std::to_string(++h->event_ids),
                e->timestamp_ms ? e->timestamp_ms : h->now_ms,
                e->metadata_json.len ? platform::copy(e->metadata_json) : "{}",
                platform::copy(e->payload)};
            topic.push_back(std::move(ev));
            *out = topic.size();
            h->events_cv.notify_all();
            return PLATFORM_OK;
        };
        api_.events_read = [](platform_host_ctx_t* c, platform_str_t topic, uint64_t from,
                              uint32_t limit, platform_event_sink_fn sink,
                              void* user) -> platform_status_t {
            auto* h = self(c);
            std::vector<StoredEvent> copy;
            std::string name = platform::copy(topic);
            {
                std::lock_guard<std::mutex> g(h->events_mutex);
                copy = h->events[name];
            }
            uint32_t sent = 0;
            for (uint64_t i = from ? from : 1; i <= copy.size(); ++i) {
                if (limit && sent == limit) break;
                const auto& ev = copy[i - 1];
                platform_event_t e{};
                e.struct_size = sizeof e;
                e.id = platform::view(ev.id);
                e.topic = platform::view(name);
                e.offset = i;
                e.timestamp_ms = ev.timestamp_ms;
                e.metadata_json = platform::view(ev.metadata);
                e.payload = platform::view(ev.payload);
                ++sent;
                if (!sink(user, &e)) break;
            }
            return PLATFORM_OK;
        };
        api_.events_wait = [](platform_host_ctx_t* c, platform_str_t topic, uint64_t after,
                              int32_t timeout_ms) -> platform_status_t {
            auto* h = self(c);
            std::unique_lock<std::mutex> lock(h->events_mutex);
            auto& t = h->events[platform::copy(topic)];
            bool ok = h->events_cv.wait_for(lock, std::chrono::milliseconds(timeout_ms),
                                            [&] { return t.size() > after; });
            return ok ? PLATFORM_OK : PLATFORM_TIMEOUT;
        };

        clock_api_ = {sizeof(platform_clock_api_t), 1, [](platform_host_ctx_t*) { return true; },
                      [](platform_host_ctx_t* c, int64_t ms) -> platform_status_t {
                          self(c)->now_ms = ms;
                          return PLATFORM_OK;
                      },
                      [](platform_host_ctx_t* c, int64_t d) -> platform_status_t {
                          self(c)->now_ms += d;
                          return PLATFORM_OK;
                      }};
        store_api_ = {
            sizeof(platform_store_api_t),
            2,
            [](platform_host_ctx_t* c, platform_str_t t, platform_str_t k, platform_bytes_sink_fn s,
               void* u) -> platform_status_t {
                return self(c)->table_get(platform::copy(t), k, s, u);
            },
            [](platform_host_ctx_t* c, platform_str_t t, platform_str_t k, platform_str_t v,
               int64_t ttl) -> platform_status_t {
                return self(c)->table_put(platform::copy(t), k, v, ttl);
            },
            [](platform_host_ctx_t* c, platform_str_t t, platform_str_t k) -> platform_status_t {
                return self(c)->table_del(platform::copy(t), k);
            },
            [](platform_host_ctx_t* c, platform_str_t t, const platform_scan_t* s,
               platform_record_sink_fn f, void* u) -> platform_status_t {
                return self(c)->table_scan(platform::copy(t), s, f, u);
            },
            [](platform_host_ctx_t* c, platform_bytes_sink_fn sink,
               void* user) -> platform_status_t {
                auto* h = self(c);
                nlohmann::json names = nlohmann::json::array();
                std::lock_guard<std::mutex> g(h->store_mutex);
                for (auto& [name, t] : h->tables)
                    if (!t.empty()) names.push_back(name.empty() ? h->own_table : name);
                std::string out = names.dump();
                sink(user, platform::view(out));
                return PLATFORM_OK;
            },
            [](platform_host_ctx_t* c, platform_str_t t, platform_str_t k, const platform_str_t* e,
               const platform_str_t* v, int64_t expires_at) -> platform_status_t {
                return self(c)->table_cas(platform::copy(t), k, e, v, expires_at);
            },
            [](platform_host_ctx_t* c, platform_str_t t, const platform_store_op_t* ops,
               uint32_t count, uint32_t stride) -> platform_status_t {
                return self(c)->table_batch(platform::copy(t), ops, count, stride);
            }};
        secrets_api_ = {
            sizeof(platform_secrets_api_t), 1,
            [](platform_host_ctx_t*, platform_str_t plain, platform_bytes_sink_fn sink,
               void* user) -> platform_status_t {
                std::string out = "fake-sealed:";
                for (unsigned char ch : platform::view(plain))
                    out += "0123456789abcdef"[ch >> 4], out += "0123456789abcdef"[ch & 15];
                sink(user, platform::view(out));
                return PLATFORM_OK;
            },
            [](platform_host_ctx_t*, platform_str_t sealed, platform_bytes_sink_fn sink,
               void* user) -> platform_status_t {
                auto text = platform::view(sealed);
                if (text.rfind("fake-sealed:", 0) != 0) return PLATFORM_PERMISSION_DENIED;
                std::string out;
                for (size_t i = 12; i + 1 < text.size(); i += 2)
                    out +=
                        static_cast<char>(std::stoi(std::string(text.substr(i, 2)), nullptr, 16));
                sink(user, platform::view(out));
                return PLATFORM_OK;
            }};
    }

    // Loads a plugin from its entry function with `config` as its profile config.
    FakePlugin load(platform_plugin_entry_fn entry,
                    const nlohmann::json& plugin_config = nlohmann::json::object()) {
        char err[512] = {0};
        platform_entry_args_t args{};
        args.struct_size = sizeof args;
        args.host_abi_version = PLATFORM_ABI_VERSION;
        args.api = &api_;
        args.error = err;
        args.error_size = sizeof err;
        const platform_plugin_desc_t* desc = entry(&args);
        if (!desc) throw std::runtime_error(std::string("entry refused: ") + err);
        FakePlugin::input_schemas(desc);  // an invalid schema fails before the plugin is created
        config = plugin_config;
        std::string cfg = plugin_config.dump();
        void* inst = desc->on_create(&api_, ctx(), platform::view(cfg), err, sizeof err);
        if (!inst) throw std::runtime_error(std::string("on_create failed: ") + err);
        if (desc->on_start && desc->on_start(inst) != PLATFORM_OK)
            throw std::runtime_error("on_start failed");
        return FakePlugin(this, desc, inst);
    }

    const platform_host_api_t* api() const { return &api_; }
    platform_host_ctx_t* ctx() { return reinterpret_cast<platform_host_ctx_t*>(this); }

    struct Entry {
        std::string value;
        int64_t expires_at;
    };
    struct StoredEvent {
        std::string id;
        int64_t timestamp_ms;
        std::string metadata, payload;
    };
    // What on_fetch answers: the host's status code, then the response (or an error).
    struct FakeHttp {
        platform_status_t code = PLATFORM_BAD_GATEWAY;
        int status = 0;
        nlohmann::json headers = nlohmann::json::object();
        std::string body, error;
    };

    int64_t now_ms = 1767225600000;  // 2026-01-01T00:00:00Z
    nlohmann::json config = nlohmann::json::object();
    std::string platform_namespace = "go.core.api";  // config_get("platform.namespace")
    // The host's other facts under "platform." (config_get("platform.mail_domain"), ...).
    nlohmann::json platform_facts = nlohmann::json::object();
    std::vector<std::string> logs;
    std::vector<std::string> operator_notices;  // PLATFORM_LOG_OPERATOR lines, kept apart
    std::vector<std::pair<std::string, std::string>> published;
    std::vector<std::string> updated_resources;          // resource_updated URIs, in order
    std::vector<std::string> updated_resource_accounts;  // and the account each was for
    // The plugin's own store table is tables[""], reported as `own_table` by the store sub-table.
    std::map<std::string, std::map<std::string, Entry>> tables;
    std::map<std::string, Entry>& store = tables[""];
    std::string own_table = "plugin";
    std::mutex store_mutex;
    // The PLATFORM_STORE_* features the fake store provider declares: without CAS, TRANSACTIONS or
    // TTL, the matching calls answer UNSUPPORTED as the real host does.
    uint64_t store_features = PLATFORM_STORE_TTL | PLATFORM_STORE_PREFIX | PLATFORM_STORE_ORDER |
                              PLATFORM_STORE_CAS | PLATFORM_STORE_TRANSACTIONS;
    std::map<std::string, std::vector<StoredEvent>> events;
    std::mutex events_mutex;
    std::condition_variable events_cv;
    uint64_t event_ids = 0;
    // Hooks: another service's answer (NOT_FOUND with an empty body = no such service), and the
    // network. `service_account` is the caller when a plugin calls as itself.
    std::function<Reply(const std::string& service, const std::string& method,
                        const nlohmann::json& request, const std::string& account)>
        on_call;
    std::function<FakeHttp(const platform_http_request_t&)> on_fetch;
    std::string service_account = "service";

    // The model (1.5): the next model_complete answers `answer` (the answer JSON of abi.h's
    // platform_model_provider_t), or fails with `code` and `message`; in the order pushed.
    void push_model_answer(const nlohmann::json& answer) {
        std::lock_guard<std::mutex> g(model_mutex);
        model_answers.push_back(Reply{PLATFORM_OK, answer.dump(), "", {}});
    }
    void push_model_failure(platform_status_t code, const std::string& message) {
        std::lock_guard<std::mutex> g(model_mutex);
        model_answers.push_back(Reply{code, message, "", {}});
    }
    std::deque<Reply> model_answers;             // not yet given
    std::vector<nlohmann::json> model_requests;  // every model_complete request, in order
    // What call_tools lends: {name, title, description, inputSchema, service, method} entries.
    nlohmann::json tools = nlohmann::json::array();
    std::mutex model_mutex;  // guards the four above while handlers run
    // Grants (1.6): id -> the account it acts for.
    std::map<std::string, std::string> grants;
    uint64_t grant_ids = 0;
    std::mutex grants_mutex;

private:
    static FakeHost* self(platform_host_ctx_t* c) { return reinterpret_cast<FakeHost*>(c); }
    // A call to another service (plain or through a grant) for `account`, answered by on_call;
    // NOT_FOUND, with no answer, when there is no on_call or it answers NOT_FOUND with no body.
    platform_status_t answer_call(platform_str_t service, platform_str_t method,
                                  platform_str_t request, const std::string& account,
                                  platform_reply_fn done, void* user) {
        if (!on_call) return PLATFORM_NOT_FOUND;
        auto req =
            request.len ? nlohmann::json::parse(platform::view(request)) : nlohmann::json::object();
        auto r = on_call(platform::copy(service), platform::copy(method), req, account);
        if (r.code == PLATFORM_NOT_FOUND && r.body.empty()) return PLATFORM_NOT_FOUND;
        done(user, r.code, platform::view(r.body));
        return PLATFORM_OK;
    }
    bool expired(const Entry& e) const { return e.expires_at && e.expires_at <= now_ms; }
    std::map<std::string, Entry>& table(const std::string& name) {
        return name == own_table ? tables[""] : tables[name];
    }

    platform_status_t table_get(const std::string& t, platform_str_t key,
                                platform_bytes_sink_fn sink, void* user) {
        std::string value;
        {
            std::lock_guard<std::mutex> g(store_mutex);
            auto& tab = table(t);
            auto it = tab.find(platform::copy(key));
            if (it == tab.end() || expired(it->second)) return PLATFORM_NOT_FOUND;
            value = it->second.value;
        }
        sink(user, platform::view(value));
        return PLATFORM_OK;
    }
    platform_status_t table_put(const std::string& t, platform_str_t key, platform_str_t value,
                                int64_t ttl) {
        if (ttl < 0) return PLATFORM_INVALID_ARGUMENT;
        if (ttl > 0 && !(store_features & PLATFORM_STORE_TTL)) return PLATFORM_UNSUPPORTED;
        std::lock_guard<std::mutex> g(store_mutex);
        table(t)[platform::copy(key)] = {platform::copy(value), ttl > 0 ? now_ms + ttl : 0};
        return PLATFORM_OK;
    }
    platform_status_t table_del(const std::string& t, platform_str_t key) {
        std::lock_guard<std::mutex> g(store_mutex);
        auto& tab = table(t);
        auto it = tab.find(platform::copy(key));
        if (it == tab.end() || expired(it->second)) return PLATFORM_NOT_FOUND;
        tab.erase(it);
        return PLATFORM_OK;
    }
    platform_status_t table_cas(const std::string& t, platform_str_t key,
                                const platform_str_t* expected, const platform_str_t* value,
                                int64_t expires_at) {
        if (!(store_features & PLATFORM_STORE_CAS)) return PLATFORM_UNSUPPORTED;
        if (expires_at < 0) return PLATFORM_INVALID_ARGUMENT;
        if (value && expires_at > 0 && !(store_features & PLATFORM_STORE_TTL))
            return PLATFORM_UNSUPPORTED;
        std::lock_guard<std::mutex> g(store_mutex);
        auto& tab = table(t);
        auto it = tab.find(platform::copy(key));
        bool present = it != tab.end() && !expired(it->second);
        if (expected ? !present || it->second.value != platform::view(*expected) : present)
            return PLATFORM_CONFLICT;
        if (value)
            tab[platform::copy(key)] = {platform::copy(*value), expires_at};
        else if (it != tab.end())
            tab.erase(it);
        return PLATFORM_OK;
    }
    platform_status_t table_batch(const std::string& t, const platform_store_op_t* ops,
                                  uint32_t count, uint32_t stride) {
        if (!(store_features & PLATFORM_STORE_TRANSACTIONS)) return PLATFORM_UNSUPPORTED;
        std::vector<platform::BatchOp> list;
        try {
            list = platform::read_store_ops(ops, count, stride);
        } catch (const platform::Error& e) {
            return static_cast<platform_status_t>(e.code());
        }
        for (const auto& op : list)
            if (op.expires_at_ms > 0 && !(store_features & PLATFORM_STORE_TTL))
                return PLATFORM_UNSUPPORTED;
        std::lock_guard<std::mutex> g(store_mutex);
        auto& tab = table(t);
        for (const auto& op : list) {
            if (op.kind == platform::BatchOp::put)
                tab[std::string(op.key)] = {std::string(op.value), op.expires_at_ms};
            else
                tab.erase(std::string(op.key));
        }
        return PLATFORM_OK;
    }
    platform_status_t table_scan(const std::string& t, const platform_scan_t* s,
                                 platform_record_sink_fn sink, void* user) {
        std::vector<std::pair<std::string, std::string>> hits;
        {
            std::lock_guard<std::mutex> g(store_mutex);
            auto& tab = table(t);
            std::string prefix = platform::copy(s->prefix);
            for (auto it = tab.lower_bound(prefix);
                 it != tab.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it)
                if (!expired(it->second)) hits.emplace_back(it->first, it->second.value);
        }
        if (s->order == PLATFORM_ORDER_DESC) std::reverse(hits.begin(), hits.end());
        uint32_t sent = 0;
        for (size_t i = s->offset; i < hits.size(); ++i) {
            if (s->limit && sent == s->limit) break;
            ++sent;
            if (!sink(user, platform::view(hits[i].first), platform::view(hits[i].second))) break;
        }
        return PLATFORM_OK;
    }

    platform_clock_api_t clock_api_{};
    platform_store_api_t store_api_{};
    platform_secrets_api_t secrets_api_{};
    static platform_status_t finish(platform_call_t* call, platform_status_t code, std::string body,
                                    std::string ct) {
        auto* st = reinterpret_cast<CallState*>(call);
        std::lock_guard<std::mutex> g(st->m);
        if (st->done) return PLATFORM_INVALID_ARGUMENT;
        st->reply.code = code;
        st->reply.body = std::move(body);
        st->reply.content_type = std::move(ct);
        st->done = true;
        st->cv.notify_all();
        return PLATFORM_OK;
    }
    platform_host_api_t api_{};
};

}  // namespace platform::testing
