// The broker service (plugins/broker) through the fake host. The fake host records publishes
// without their headers and never delivers to subscribers, so these tests load the plugin with a
// copy of its host table whose broker functions keep headers and deliver (TestHost below).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "../support/plugin_under_test.hpp"

namespace {

using namespace plugin_test;

struct Published {
    std::string topic, body;
    json headers;
};

// A FakeHost whose broker keeps headers and delivers synchronously to subscribers.
struct TestHost : FakeHost {
    struct Sub {
        std::string topic, queue;
        platform_message_fn fn;
        void* user;
    };
    std::mutex m;
    std::vector<Published> sent;
    std::map<uint64_t, Sub> subs;
    uint64_t next = 1;
    std::atomic<int> chunks_allowed{-1};  // respond_chunk fails after this many (-1 = never)
    platform_host_api_t table{};

    static TestHost* self(platform_host_ctx_t* c) {
        return static_cast<TestHost*>(reinterpret_cast<FakeHost*>(c));
    }
    static TestHost*& current() {
        static TestHost* t = nullptr;
        return t;
    }

    TestHost() {
        current() = this;
        table = *api();
        table.broker_publish = [](platform_host_ctx_t* c, platform_str_t topic, platform_str_t body,
                                  platform_str_t headers) -> platform_status_t {
            auto* h = self(c);
            std::lock_guard<std::mutex> g(h->m);
            h->sent.push_back({platform::copy(topic), platform::copy(body),
                               json::parse(platform::view(headers))});
            for (auto& [id, s] : h->subs)
                if (s.topic == platform::copy(topic)) s.fn(s.user, topic, body, headers);
            return PLATFORM_OK;
        };
        table.broker_subscribe = [](platform_host_ctx_t* c, platform_str_t topic,
                                    platform_str_t queue, platform_message_fn fn, void* user,
                                    uint64_t* out) -> platform_status_t {
            auto* h = self(c);
            std::lock_guard<std::mutex> g(h->m);
            *out = h->next++;
            h->subs[*out] = {platform::copy(topic), platform::copy(queue), fn, user};
            return PLATFORM_OK;
        };
        table.broker_unsubscribe = [](platform_host_ctx_t* c, uint64_t id) -> platform_status_t {
            auto* h = self(c);
            std::lock_guard<std::mutex> g(h->m);
            return h->subs.erase(id) ? PLATFORM_OK : PLATFORM_NOT_FOUND;
        };
        original_chunk() = table.respond_chunk;
        table.respond_chunk = [](platform_call_t* call, platform_str_t bytes) -> platform_status_t {
            auto* h = current();
            if (h->chunks_allowed.load() == 0) return PLATFORM_INVALID_ARGUMENT;
            if (h->chunks_allowed.load() > 0) --h->chunks_allowed;
            return original_chunk()(call, bytes);
        };
    }
    static decltype(platform_host_api_t::respond_chunk)& original_chunk() {
        static decltype(platform_host_api_t::respond_chunk) f = nullptr;
        return f;
    }

    FakePlugin load_broker() {
        char err[512] = {0};
        platform_entry_args_t args = plugin_test::entry_args(&table, err);
        const platform_plugin_desc_t* desc = platform_plugin_entry(&args);
        if (!desc) throw std::runtime_error(err);
        void* inst = desc->on_create(&table, ctx(), platform::view("{}"), err, sizeof err);
        if (!inst) throw std::runtime_error(err);
        if (desc->on_start) desc->on_start(inst);
        return FakePlugin(this, desc, inst);
    }

    size_t subscriptions() {
        std::lock_guard<std::mutex> g(m);
        return subs.size();
    }
    bool wait_for_subscriptions(size_t n) {
        for (int i = 0; i < 500; ++i) {
            if (subscriptions() == n) return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        return false;
    }
    void deliver(const std::string& topic, const std::string& body,
                 const json& headers = json::object()) {
        std::string h = headers.dump();
        table.broker_publish(ctx(), platform::view(topic), platform::view(body), platform::view(h));
    }
};

class BrokerTest : public ::testing::Test {
protected:
    TestHost host;
    FakePlugin broker = host.load_broker();
};

TEST(BrokerPlain, PublishReachesTheFakeHostsRecord) {
    FakeHost host;
    FakePlugin broker = host.load(platform_plugin_entry);
    Reply r = broker.call("publish", {{"topic", "greetings"}, {"body", "hello"}}, "alice");
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    EXPECT_EQ(r.json(), json({{"published", true}}));
    ASSERT_EQ(host.published.size(), 1u);
    EXPECT_EQ(host.published[0], (std::pair<std::string, std::string>{"greetings", "hello"}));
}

TEST_F(BrokerTest, PublishCopiesCallMetadataIntoHeaders) {
    Reply r = broker.call(
        "publish",
        {{"topic", "orders"}, {"body", R"({"id":1})"}, {"headers", {{"X-Custom", "yes"}}}}, "alice",
        {{"Content-Type", "application/json"},
         {"X-Request-Id", "req-42"},
         {"Platform-Namespace", "go.core.api"},
         {"User-Agent", "test"}});
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    ASSERT_EQ(host.sent.size(), 1u);
    EXPECT_EQ(host.sent[0].topic, "orders");
    EXPECT_EQ(host.sent[0].body, R"({"id":1})");
    EXPECT_EQ(host.sent[0].headers, json({{"X-Custom", "yes"},
                                          {"Content-Type", "application/json"},
                                          {"X-Request-Id", "req-42"},
                                          {"Platform-Namespace", "go.core.api"},
                                          {"Platform-Account", "alice"}}));
}

TEST_F(BrokerTest, GivenHeadersWinExceptThePublisher) {
    Reply r = broker.call(
        "publish",
        {{"topic", "t"},
         {"body", "b"},
         {"headers", {{"content-type", "text/plain"}, {"platform-account", "mallory"}}}},
        "alice", {{"Content-Type", "application/json"}});
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    ASSERT_EQ(host.sent.size(), 1u);
    EXPECT_EQ(host.sent[0].headers,
              json({{"content-type", "text/plain"}, {"Platform-Account", "alice"}}));
}

TEST_F(BrokerTest, PublishNamesBadArguments) {
    Reply r = broker.call("publish", {{"topic", ""}, {"body", "b"}}, "alice");
    EXPECT_EQ(r.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(r.body.rfind("topic:", 0), 0u) << r.body;
    r = broker.call("publish", {{"topic", "t"}}, "alice");
    EXPECT_EQ(r.body.rfind("body:", 0), 0u) << r.body;
    r = broker.call("publish", {{"topic", "t"}, {"body", "b"}, {"headers", {{"n", 1}}}}, "alice");
    EXPECT_EQ(r.body.rfind("headers.n:", 0), 0u) << r.body;
    EXPECT_TRUE(host.sent.empty());
}

TEST_F(BrokerTest, SubscribeStreamsMessagesUntilTheLimit) {
    auto reply = std::async(std::launch::async, [&] {
        return broker.call("subscribe", {{"topic", "news"}, {"limit", 2}, {"wait_ms", 5000}},
                           "bob");
    });
    ASSERT_TRUE(host.wait_for_subscriptions(1));
    host.deliver("other", "ignored");
    host.deliver("news", "first", {{"Content-Type", "text/plain"}});
    host.deliver("news", "second");
    host.deliver("news", "third");  // may be queued, never streamed
    Reply r = reply.get();
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    ASSERT_EQ(r.chunks.size(), 2u);
    EXPECT_EQ(json::parse(r.chunks[0]), json({{"topic", "news"},
                                              {"body", "first"},
                                              {"headers", {{"Content-Type", "text/plain"}}}}));
    EXPECT_EQ(json::parse(r.chunks[1]),
              json({{"topic", "news"}, {"body", "second"}, {"headers", json::object()}}));
    EXPECT_EQ(host.subscriptions(), 0u);  // unsubscribed
}

TEST_F(BrokerTest, SubscribeEndsAfterWaitMsWithoutMessages) {
    auto start = std::chrono::steady_clock::now();
    Reply r = broker.call("subscribe", {{"topic", "quiet"}, {"wait_ms", 200}}, "bob");
    auto took = std::chrono::steady_clock::now() - start;
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    EXPECT_TRUE(r.chunks.empty());
    EXPECT_GE(took, std::chrono::milliseconds(190));
    EXPECT_LT(took, std::chrono::seconds(5));
    EXPECT_EQ(host.subscriptions(), 0u);
}

TEST_F(BrokerTest, TheIdleTimerRestartsWithEachMessage) {
    auto reply = std::async(std::launch::async, [&] {
        return broker.call("subscribe", {{"topic", "tick"}, {"wait_ms", 1500}}, "bob");
    });
    ASSERT_TRUE(host.wait_for_subscriptions(1));
    for (int i = 0; i < 4; ++i) {  // 4 x 500 ms > wait_ms, but never 1500 ms of silence
        host.deliver("tick", std::to_string(i));
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
    Reply r = reply.get();
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    EXPECT_EQ(r.chunks.size(), 4u);
}

TEST_F(BrokerTest, SubscribeStopsWhenTheClientIsGone) {
    host.chunks_allowed = 1;  // the second chunk finds the client gone
    auto reply = std::async(std::launch::async, [&] {
        return broker.call("subscribe", {{"topic", "news"}, {"wait_ms", 60000}}, "bob");
    });
    ASSERT_TRUE(host.wait_for_subscriptions(1));
    host.deliver("news", "one");
    host.deliver("news", "two");
    ASSERT_TRUE(host.wait_for_subscriptions(0)) << "the handler did not unsubscribe";
    Reply r = reply.get();  // well before wait_ms
    EXPECT_EQ(r.chunks.size(), 1u);
}

TEST_F(BrokerTest, QueueGroupIsPassedToTheBroker) {
    auto reply = std::async(std::launch::async, [&] {
        return broker.call(
            "subscribe", {{"topic", "jobs"}, {"queue", "workers"}, {"limit", 1}, {"wait_ms", 5000}},
            "bob");
    });
    ASSERT_TRUE(host.wait_for_subscriptions(1));
    {
        std::lock_guard<std::mutex> g(host.m);
        EXPECT_EQ(host.subs.begin()->second.queue, "workers");
    }
    host.deliver("jobs", "job-1");
    EXPECT_EQ(reply.get().chunks.size(), 1u);
}

TEST_F(BrokerTest, DescriptorDeclaresAStreamingSubscribe) {
    const platform_plugin_desc_t* d = broker.descriptor();
    EXPECT_EQ(platform::view(d->service), "broker");
    ASSERT_EQ(d->endpoint_count, 2u);
    for (uint32_t i = 0; i < d->endpoint_count; ++i) {
        auto* e = reinterpret_cast<const platform_endpoint_t*>(
            reinterpret_cast<const char*>(d->endpoints) + i * d->endpoint_stride);
        json schema = json::parse(platform::view(e->input_schema));
        EXPECT_EQ(schema.at("additionalProperties"), false);
        EXPECT_EQ(e->access, PLATFORM_ACCESS_ACCOUNT);
        for (auto& [name, prop] : schema.at("properties").items())
            EXPECT_TRUE(prop.contains("description")) << name;
        if (platform::view(e->name) == "subscribe") {
            EXPECT_EQ(e->verb, PLATFORM_VERB_GET);
            EXPECT_TRUE(e->flags & PLATFORM_FLAG_STREAMING);
            EXPECT_EQ(schema.at("properties").at("wait_ms").at("default"), 30000);
            EXPECT_EQ(schema.at("properties").at("wait_ms").at("maximum"), 300000);
        } else {
            EXPECT_EQ(platform::view(e->name), "publish");
            EXPECT_EQ(e->verb, PLATFORM_VERB_POST);
            EXPECT_EQ(schema.at("required"), json({"topic", "body"}));
        }
    }
}

}  // namespace
