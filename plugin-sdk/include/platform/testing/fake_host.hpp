// platform/testing/fake_host.hpp — run a plugin's handlers in a unit test, without the host.
//
//   platform::testing::FakeHost host;
//   auto plugin = host.load(platform_plugin_entry);        // the plugin's entry, linked in
//   auto r = plugin.call("add", {{"title","a"},{"text","b"}}, "alice");
//   EXPECT_EQ(r.code, PLATFORM_OK);  EXPECT_EQ(r.json()["title"], "a");
//
// The fake host keeps an in-memory store (ordered, with TTL against a settable clock), records
// log lines, serves config from a JSON object, and answers calls synchronously (a handler that
// answers later from another thread is waited for, up to a timeout). It does not validate
// arguments: that is the real host's job and is tested there.
#pragma once

#include <platform/abi.h>
#include <platform/sdk/str.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <strings.h>
#include <condition_variable>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace platform::testing {

struct Reply {
    platform_status_t code = -1;
    std::string body;          // JSON result, or the error message
    std::string content_type;  // set by respond_raw
    nlohmann::json json() const { return nlohmann::json::parse(body); }
};

struct CallState {
    std::string account, service, endpoint;
    std::map<std::string, std::string> headers;
    Reply reply;
    bool done = false;
    std::mutex m;
    std::condition_variable cv;
};

class FakeHost;

// One loaded plugin instance bound to a FakeHost.
class FakePlugin {
public:
    FakePlugin(FakeHost* host, const platform_plugin_desc_t* desc, void* inst)
        : host_(host), desc_(desc), inst_(inst) {}
    FakePlugin(const FakePlugin&) = delete;
    FakePlugin(FakePlugin&& o) noexcept : host_(o.host_), desc_(o.desc_), inst_(o.inst_) { o.inst_ = nullptr; }
    ~FakePlugin() {
        if (!inst_) return;
        if (desc_->on_stop) desc_->on_stop(inst_);
        if (desc_->on_destroy) desc_->on_destroy(inst_);
    }

    const platform_plugin_desc_t* descriptor() const { return desc_; }

    // Calls an endpoint by name as `account` (empty = anonymous).
    Reply call(const std::string& endpoint, const nlohmann::json& args = nlohmann::json::object(),
               const std::string& account = "", std::map<std::string, std::string> headers = {}) {
        for (uint32_t i = 0; i < desc_->endpoint_count; ++i) {
            auto* ep = reinterpret_cast<const platform_endpoint_t*>(
                reinterpret_cast<const char*>(desc_->endpoints) + i * desc_->endpoint_stride);
            if (platform::view(ep->name) != endpoint) continue;
            CallState st;
            st.account = account;
            st.service = platform::copy(desc_->service);
            st.endpoint = endpoint;
            st.headers = std::move(headers);
            std::string body = args.dump();
            desc_->on_call(inst_, reinterpret_cast<platform_call_t*>(&st), i, platform::view(body));
            std::unique_lock<std::mutex> lock(st.m);
            if (!st.cv.wait_for(lock, std::chrono::seconds(10), [&] { return st.done; }))
                throw std::runtime_error("handler did not answer within 10 s: " + endpoint);
            return st.reply;
        }
        throw std::runtime_error("no such endpoint: " + endpoint);
    }

private:
    FakeHost* host_;
    const platform_plugin_desc_t* desc_;
    void* inst_;
};

class FakeHost {
public:
    FakeHost() {
        api_.struct_size = sizeof api_;
        api_.abi_version = PLATFORM_ABI_VERSION;
        api_.log = [](platform_host_ctx_t* c, platform_log_level_t, platform_str_t m) {
            self(c)->logs.push_back(platform::copy(m));
        };
        api_.config_get = [](platform_host_ctx_t* c, platform_str_t path, platform_bytes_sink_fn sink,
                             void* user) -> platform_status_t {
            const nlohmann::json* node = &self(c)->config;
            std::string p = platform::copy(path);
            size_t start = 0;
            while (!p.empty() && start <= p.size()) {
                size_t dot = p.find('.', start);
                std::string part = p.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
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
                            void* user) -> platform_status_t {
            auto* h = self(c);
            std::lock_guard<std::mutex> g(h->store_mutex);
            auto it = h->store.find(platform::copy(key));
            if (it == h->store.end() || h->expired(it->second)) return PLATFORM_NOT_FOUND;
            sink(user, platform::view(it->second.value));
            return PLATFORM_OK;
        };
        api_.store_put = [](platform_host_ctx_t* c, platform_str_t key, platform_str_t value,
                            int64_t ttl) -> platform_status_t {
            auto* h = self(c);
            std::lock_guard<std::mutex> g(h->store_mutex);
            h->store[platform::copy(key)] = {platform::copy(value), ttl > 0 ? h->now_ms + ttl : 0};
            return PLATFORM_OK;
        };
        api_.store_delete = [](platform_host_ctx_t* c, platform_str_t key) -> platform_status_t {
            auto* h = self(c);
            std::lock_guard<std::mutex> g(h->store_mutex);
            auto it = h->store.find(platform::copy(key));
            if (it == h->store.end() || h->expired(it->second)) return PLATFORM_NOT_FOUND;
            h->store.erase(it);
            return PLATFORM_OK;
        };
        api_.store_scan = [](platform_host_ctx_t* c, const platform_scan_t* s, platform_record_sink_fn sink,
                             void* user) -> platform_status_t {
            auto* h = self(c);
            std::vector<std::pair<std::string, std::string>> hits;
            {
                std::lock_guard<std::mutex> g(h->store_mutex);
                std::string prefix = platform::copy(s->prefix);
                for (auto it = h->store.lower_bound(prefix);
                     it != h->store.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it)
                    if (!h->expired(it->second)) hits.emplace_back(it->first, it->second.value);
            }
            if (s->order == PLATFORM_ORDER_DESC) std::reverse(hits.begin(), hits.end());
            uint32_t sent = 0;
            for (size_t i = s->offset; i < hits.size(); ++i) {
                if (s->limit && sent == s->limit) break;
                ++sent;
                if (!sink(user, platform::view(hits[i].first), platform::view(hits[i].second))) break;
            }
            return PLATFORM_OK;
        };
        api_.broker_publish = [](platform_host_ctx_t* c, platform_str_t topic, platform_str_t body,
                                 platform_str_t) -> platform_status_t {
            self(c)->published.emplace_back(platform::copy(topic), platform::copy(body));
            return PLATFORM_OK;
        };
        api_.broker_subscribe = [](platform_host_ctx_t*, platform_str_t, platform_str_t, platform_message_fn,
                                   void*, uint64_t* id) -> platform_status_t {
            *id = 1;
            return PLATFORM_OK;
        };
        api_.broker_unsubscribe = [](platform_host_ctx_t*, uint64_t) -> platform_status_t { return PLATFORM_OK; };
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
                if (strcasecmp(k.c_str(), platform::copy(name).c_str()) == 0) return platform::view(v);
            return platform_str_t{nullptr, 0};
        };
        api_.respond = [](platform_call_t* call, platform_status_t code, platform_str_t body) {
            return finish(call, code, platform::copy(body), "application/json");
        };
        api_.respond_raw = [](platform_call_t* call, platform_str_t ct, platform_str_t bytes) {
            return finish(call, PLATFORM_OK, platform::copy(bytes), platform::copy(ct));
        };
        api_.respond_chunk = [](platform_call_t* call, platform_str_t bytes) -> platform_status_t {
            auto* st = reinterpret_cast<CallState*>(call);
            std::lock_guard<std::mutex> g(st->m);
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
        api_.get_service = [](platform_host_ctx_t*, platform_str_t, uint32_t) -> const void* { return nullptr; };
    }

    // Loads a plugin from its entry function with `config` as its profile config.
    FakePlugin load(platform_plugin_entry_fn entry, const nlohmann::json& plugin_config = nlohmann::json::object()) {
        char err[512] = {0};
        platform_entry_args_t args{};
        args.struct_size = sizeof args;
        args.host_abi_version = PLATFORM_ABI_VERSION;
        args.api = &api_;
        args.error = err;
        args.error_size = sizeof err;
        const platform_plugin_desc_t* desc = entry(&args);
        if (!desc) throw std::runtime_error(std::string("entry refused: ") + err);
        config = plugin_config;
        std::string cfg = plugin_config.dump();
        void* inst = desc->on_create(&api_, ctx(), platform::view(cfg), err, sizeof err);
        if (!inst) throw std::runtime_error(std::string("on_create failed: ") + err);
        if (desc->on_start && desc->on_start(inst) != PLATFORM_OK) throw std::runtime_error("on_start failed");
        return FakePlugin(this, desc, inst);
    }

    const platform_host_api_t* api() const { return &api_; }
    platform_host_ctx_t* ctx() { return reinterpret_cast<platform_host_ctx_t*>(this); }

    struct Entry {
        std::string value;
        int64_t expires_at;
    };
    int64_t now_ms = 1767225600000;  // 2026-01-01T00:00:00Z
    nlohmann::json config = nlohmann::json::object();
    std::vector<std::string> logs;
    std::vector<std::pair<std::string, std::string>> published;
    std::map<std::string, Entry> store;
    std::mutex store_mutex;

private:
    static FakeHost* self(platform_host_ctx_t* c) { return reinterpret_cast<FakeHost*>(c); }
    bool expired(const Entry& e) const { return e.expires_at && e.expires_at <= now_ms; }
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
