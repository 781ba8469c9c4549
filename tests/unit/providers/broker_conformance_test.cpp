// Broker providers through their built .so: fan-out, queue groups, unsubscribe, headers. The same
// suite for broker-memory and broker-nats (on the test process's nats-server, started by
// scripts/nats.sh; skipped, saying so, when nats-server is not installed).
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include "../support/built_plugin.hpp"
#include "nats_server.hpp"

using namespace plugin_test;
using platform::test::NatsServer;
using platform::test::unique_nats_name;

namespace {

constexpr auto kWait = std::chrono::seconds(10);

platform_str_t bytes(const std::string& s) {
    return platform_str_t{s.data(), s.size()};
}

struct Received {
    std::string topic, body, headers;
};

// Collects the messages of one subscription; tests wait on its condition variable.
struct Inbox {
    std::mutex m;
    std::condition_variable cv;
    std::vector<Received> got;

    static void on_message(void* user, platform_str_t topic, platform_str_t body,
                           platform_str_t headers) {
        auto* self = static_cast<Inbox*>(user);
        std::lock_guard<std::mutex> lock(
            self->m);  // notify under the lock: a waiter may then destroy us
        self->got.push_back({platform::copy(topic), platform::copy(body), platform::copy(headers)});
        self->cv.notify_all();
    }
    bool wait_for(size_t n) {
        std::unique_lock<std::mutex> lock(m);
        return cv.wait_for(lock, kWait, [&] { return got.size() >= n; });
    }
    size_t size() {
        std::lock_guard<std::mutex> lock(m);
        return got.size();
    }
};

// The config of a provider under test: broker-nats gets the shared server and subjects of its own.
nlohmann::json config_for(const std::string& provider,
                          nlohmann::json extra = nlohmann::json::object()) {
    if (provider == "broker-nats") {
        extra["url"] = NatsServer::shared()->url();
        extra["subject_prefix"] = "conf." + unique_nats_name("B");
    }
    return extra;
}

class BrokerConformance : public ::testing::TestWithParam<std::string> {
protected:
    void SetUp() override {
        if (GetParam() == "broker-nats" && !NatsServer::shared())
            GTEST_SKIP() << "nats-server is not installed (Debian package nats-server, "
                            "scripts/deps.sh): broker-nats is not tested";
        instance = std::make_unique<Instance>(host, GetParam(), config_for(GetParam()));
        t = instance->table<platform_broker_provider_t>();
    }
    void TearDown() override { instance.reset(); }  // before the inboxes its callbacks fill

    // Declared before the broker so they outlive its delivery threads.
    std::deque<Inbox> inboxes;
    FakeHost host;
    std::unique_ptr<Instance> instance;
    const platform_broker_provider_t* t = nullptr;

    struct Ref {
        std::unique_ptr<Instance>& i;
        void* inst() { return i->inst(); }
        const platform_plugin_desc_t* desc() { return i->desc(); }
    } broker{instance};

    Inbox& inbox() { return inboxes.emplace_back(); }

    uint64_t subscribe(const std::string& topic, Inbox& inbox, const std::string& queue = "",
                       platform_message_fn fn = &Inbox::on_message) {
        uint64_t id = 0;
        EXPECT_EQ(t->subscribe(broker.inst(), bytes(topic), bytes(queue), fn, &inbox, &id),
                  PLATFORM_OK);
        EXPECT_NE(id, 0u);
        return id;
    }
    platform_status_t publish(const std::string& topic, const std::string& body,
                              const std::string& headers = "") {
        return t->publish(broker.inst(), bytes(topic), bytes(body), bytes(headers));
    }
    // Messages are dispatched in publish order, so once a later message on another topic has
    // arrived, every earlier one has been delivered.
    void flush() {
        Inbox& marker = inbox();
        uint64_t id = subscribe("flush-marker", marker);
        ASSERT_EQ(publish("flush-marker", "x"), PLATFORM_OK);
        ASSERT_TRUE(marker.wait_for(1));
        ASSERT_EQ(t->unsubscribe(broker.inst(), id), PLATFORM_OK);
    }
};

}  // namespace

TEST_P(BrokerConformance, DeclaresItsKind) {
    EXPECT_EQ(broker.desc()->kind, PLATFORM_KIND_BROKER);
    EXPECT_EQ(platform::view(broker.desc()->id), GetParam());
}

TEST_P(BrokerConformance, FansOutToEveryPlainSubscriber) {
    Inbox &a = inbox(), &b = inbox(), &other = inbox();
    subscribe("orders", a);
    subscribe("orders", b);
    subscribe("orders.other", other);
    for (int i = 0; i < 3; ++i) ASSERT_EQ(publish("orders", "m" + std::to_string(i)), PLATFORM_OK);
    ASSERT_TRUE(a.wait_for(3));
    ASSERT_TRUE(b.wait_for(3));
    flush();
    EXPECT_EQ(a.size(), 3u);
    EXPECT_EQ(b.size(), 3u);
    EXPECT_EQ(other.size(), 0u);
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(a.got[i].body, "m" + std::to_string(i));
        EXPECT_EQ(b.got[i].topic, "orders");
    }
}

TEST_P(BrokerConformance, QueueGroupDeliversEachMessageOnceInTotal) {
    Inbox &m1 = inbox(), &m2 = inbox(), &plain = inbox();
    uint64_t id1 = subscribe("jobs", m1, "workers");
    uint64_t id2 = subscribe("jobs", m2, "workers");
    subscribe("jobs", plain);
    constexpr int kMessages = 20;
    for (int i = 0; i < kMessages; ++i) ASSERT_EQ(publish("jobs", std::to_string(i)), PLATFORM_OK);
    ASSERT_TRUE(plain.wait_for(kMessages));
    flush();
    ASSERT_EQ(t->unsubscribe(broker.inst(), id1), PLATFORM_OK);
    ASSERT_EQ(t->unsubscribe(broker.inst(), id2), PLATFORM_OK);
    EXPECT_EQ(m1.size() + m2.size(), size_t{kMessages});
    if (GetParam() == "broker-memory") EXPECT_EQ(m1.size(), size_t{kMessages / 2});  // round-robin
    std::set<std::string> bodies;
    for (auto& r : m1.got) bodies.insert(r.body);
    for (auto& r : m2.got) bodies.insert(r.body);
    EXPECT_EQ(bodies.size(), size_t{kMessages});
}

TEST_P(BrokerConformance, UnsubscribeStopsDelivery) {
    Inbox &gone = inbox(), &stays = inbox();
    uint64_t id = subscribe("news", gone);
    subscribe("news", stays);
    ASSERT_EQ(publish("news", "first"), PLATFORM_OK);
    ASSERT_TRUE(gone.wait_for(1));
    ASSERT_EQ(t->unsubscribe(broker.inst(), id), PLATFORM_OK);
    EXPECT_EQ(t->unsubscribe(broker.inst(), id), PLATFORM_NOT_FOUND);
    ASSERT_EQ(publish("news", "second"), PLATFORM_OK);
    ASSERT_TRUE(stays.wait_for(2));
    flush();
    EXPECT_EQ(gone.size(), 1u);
}

TEST_P(BrokerConformance, UnsubscribeWaitsForARunningCallback) {
    struct Blocking {
        std::mutex m;
        std::condition_variable cv;
        bool entered = false, release = false, finished = false;
        static void on_message(void* user, platform_str_t, platform_str_t, platform_str_t) {
            auto* b = static_cast<Blocking*>(user);
            std::unique_lock<std::mutex> lock(b->m);
            b->entered = true;
            b->cv.notify_all();
            b->cv.wait(lock, [&] { return b->release; });
            b->finished = true;
        }
    } b;
    uint64_t id = 0;
    ASSERT_EQ(t->subscribe(broker.inst(), bytes("slow"), bytes(""), &Blocking::on_message, &b, &id),
              PLATFORM_OK);
    ASSERT_EQ(publish("slow", "x"), PLATFORM_OK);
    {
        std::unique_lock<std::mutex> lock(b.m);
        ASSERT_TRUE(b.cv.wait_for(lock, kWait, [&] { return b.entered; }));
    }
    bool finished_when_returned = false;
    std::thread unsub([&] {
        EXPECT_EQ(t->unsubscribe(broker.inst(), id), PLATFORM_OK);
        std::lock_guard<std::mutex> lock(b.m);
        finished_when_returned = b.finished;
    });
    {
        std::lock_guard<std::mutex> lock(b.m);
        b.release = true;
    }
    b.cv.notify_all();
    unsub.join();
    EXPECT_TRUE(finished_when_returned);
}

TEST_P(BrokerConformance, CallbackMayUnsubscribeItself) {
    struct Self {
        const platform_broker_provider_t* t = nullptr;
        void* inst = nullptr;
        uint64_t id = 0;
        Inbox inbox;
        static void on_message(void* user, platform_str_t topic, platform_str_t body,
                               platform_str_t headers) {
            auto* s = static_cast<Self*>(user);
            s->t->unsubscribe(s->inst, s->id);
            Inbox::on_message(&s->inbox, topic, body, headers);
        }
    } self;
    self.t = t;
    self.inst = broker.inst();
    ASSERT_EQ(
        t->subscribe(broker.inst(), bytes("once"), bytes(""), &Self::on_message, &self, &self.id),
        PLATFORM_OK);
    ASSERT_EQ(publish("once", "1"), PLATFORM_OK);
    ASSERT_EQ(publish("once", "2"), PLATFORM_OK);
    ASSERT_TRUE(self.inbox.wait_for(1));
    flush();
    EXPECT_EQ(self.inbox.size(), 1u);
}

TEST_P(BrokerConformance, HeadersArePassedThrough) {
    Inbox& in = inbox();
    subscribe("h", in);
    std::string headers = R"({"Content-Type":"application/json","X-Trace":"abc \"q\""})";
    ASSERT_EQ(publish("h", std::string("{\"a\":1}\0tail", 12), headers), PLATFORM_OK);
    ASSERT_EQ(publish("h", "no headers"), PLATFORM_OK);
    ASSERT_TRUE(in.wait_for(2));
    EXPECT_EQ(in.got[0].headers, headers);
    EXPECT_EQ(in.got[0].body, std::string("{\"a\":1}\0tail", 12));
    EXPECT_EQ(in.got[1].headers, "{}");
}

TEST_P(BrokerConformance, RejectsBadArguments) {
    Inbox& in = inbox();
    uint64_t id = 0;
    EXPECT_EQ(t->subscribe(broker.inst(), bytes(""), bytes(""), &Inbox::on_message, &in, &id),
              PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(t->subscribe(broker.inst(), bytes("t"), bytes(""), nullptr, &in, &id),
              PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(t->subscribe(broker.inst(), bytes("t"), bytes(""), &Inbox::on_message, &in, nullptr),
              PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(publish("", "x"), PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(publish("nobody-listens", "x"), PLATFORM_OK);
    EXPECT_EQ(t->unsubscribe(broker.inst(), 987654321), PLATFORM_NOT_FOUND);
}

TEST_P(BrokerConformance, DestroyingWithPendingMessagesJoinsCleanly) {
    FakeHost h;
    auto b = std::make_unique<Instance>(
        h, GetParam(),
        config_for(GetParam(), GetParam() == "broker-memory" ? nlohmann::json{{"max_pending", 1000}}
                                                             : nlohmann::json::object()));
    auto* bt = b->table<platform_broker_provider_t>();
    Inbox in;
    uint64_t id = 0;
    ASSERT_EQ(bt->subscribe(b->inst(), bytes("t"), bytes(""), &Inbox::on_message, &in, &id),
              PLATFORM_OK);
    for (int i = 0; i < 500; ++i)
        ASSERT_EQ(bt->publish(b->inst(), bytes("t"), bytes("m"), bytes("")), PLATFORM_OK);
    b.reset();  // must stop and join the dispatcher, whatever is still queued
    size_t n = in.size();
    EXPECT_LE(n, 500u);
    EXPECT_EQ(in.size(), n);
}

INSTANTIATE_TEST_SUITE_P(Providers, BrokerConformance,
                         ::testing::Values("broker-memory", "broker-nats"), [](const auto& info) {
                             return info.param == "broker-memory" ? "Memory" : "Nats";
                         });
