// broker-nats across instances — two connections to one nats-server, as two host replicas would
// have: a message published on one reaches subscribers on the other, and a queue group spread over
// both gets each message exactly once.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string>

#include "../support/built_plugin.hpp"
#include "nats_server.hpp"

using namespace plugin_test;
using platform::test::NatsServer;
using platform::test::unique_nats_name;

namespace {

platform_str_t bytes(const std::string& s) {
    return platform_str_t{s.data(), s.size()};
}

// Counts bodies per subscription; waits on the total.
struct Counter {
    std::mutex m;
    std::condition_variable cv;
    std::map<std::string, int> bodies;
    int total = 0;
    static void on_message(void* user, platform_str_t, platform_str_t body, platform_str_t) {
        auto* c = static_cast<Counter*>(user);
        std::lock_guard<std::mutex> lock(c->m);
        ++c->bodies[platform::copy(body)];
        ++c->total;
        c->cv.notify_all();
    }
    bool wait_for(int n) {
        std::unique_lock<std::mutex> lock(m);
        return cv.wait_for(lock, std::chrono::seconds(10), [&] { return total >= n; });
    }
};

class BrokerNats : public ::testing::Test {
protected:
    void SetUp() override {
        if (!NatsServer::shared())
            GTEST_SKIP() << "nats-server is not installed (Debian package nats-server, "
                            "scripts/deps.sh): broker-nats is not tested";
        const std::string prefix = "conf." + unique_nats_name("X");
        nlohmann::json cfg = {{"url", NatsServer::shared()->url()}, {"subject_prefix", prefix}};
        a = std::make_unique<Instance>(host, "broker-nats", cfg);
        b = std::make_unique<Instance>(host, "broker-nats", cfg);
    }
    void TearDown() override {
        a.reset();
        b.reset();
    }
    uint64_t subscribe(Instance& i, const std::string& topic, Counter& c,
                       const std::string& queue = "") {
        uint64_t id = 0;
        EXPECT_EQ(i.table<platform_broker_provider_t>()->subscribe(
                      i.inst(), bytes(topic), bytes(queue), &Counter::on_message, &c, &id),
                  PLATFORM_OK);
        return id;
    }
    void publish(Instance& i, const std::string& topic, const std::string& body) {
        ASSERT_EQ(i.table<platform_broker_provider_t>()->publish(i.inst(), bytes(topic),
                                                                 bytes(body), bytes("")),
                  PLATFORM_OK);
    }

    // Declared before the instances so they outlive their callbacks.
    Counter on_a, on_b, group_a, group_b, marker_a, marker_b;
    FakeHost host;
    std::unique_ptr<Instance> a, b;
};

TEST_F(BrokerNats, APublishOnOneInstanceReachesTheOther) {
    subscribe(*b, "orders.created", on_b);
    subscribe(*a, "orders.created", on_a);
    publish(*a, "orders.created", "from a");
    publish(*b, "orders.created", "from b");
    ASSERT_TRUE(on_a.wait_for(2));
    ASSERT_TRUE(on_b.wait_for(2));
    EXPECT_EQ(on_b.bodies["from a"], 1);
    EXPECT_EQ(on_a.bodies["from b"], 1);
}

TEST_F(BrokerNats, AQueueGroupOverTwoInstancesGetsEachMessageOnce) {
    subscribe(*a, "jobs", group_a, "workers");
    subscribe(*b, "jobs", group_b, "workers");
    subscribe(*a, "marker", marker_a);
    subscribe(*b, "marker", marker_b);
    constexpr int kMessages = 200;
    for (int i = 0; i < kMessages; ++i) publish(i % 2 ? *a : *b, "jobs", std::to_string(i));
    // The server forwards each publisher's messages in order to each connection: once both
    // markers (published after the jobs, from both) arrived, every job has been delivered.
    publish(*a, "marker", "a");
    publish(*b, "marker", "b");
    ASSERT_TRUE(marker_a.wait_for(2));
    ASSERT_TRUE(marker_b.wait_for(2));
    std::lock_guard<std::mutex> la(group_a.m), lb(group_b.m);
    EXPECT_EQ(group_a.total + group_b.total, kMessages);
    EXPECT_GT(group_a.total, 0);  // the server spreads the group (200 messages: both get some)
    EXPECT_GT(group_b.total, 0);
    for (int i = 0; i < kMessages; ++i) {
        const std::string body = std::to_string(i);
        EXPECT_EQ(group_a.bodies[body] + group_b.bodies[body], 1) << body;
    }
}

}  // namespace
