// events-nats beyond the shared suite: durability across kill -9 of nats-server, a restart under a
// connected provider, and on_create's failure naming the URL. Each test that kills the server
// starts its own (scripts/nats.sh), never the shared one.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "events_client.hpp"
#include "nats_server.hpp"

using namespace events_test;
using platform::test::NatsServer;
using platform::test::unique_nats_name;

namespace {

class EventsNats : public ::testing::Test {
protected:
    void SetUp() override {
        if (!NatsServer::installed())
            GTEST_SKIP() << "nats-server is not installed (Debian package nats-server, "
                            "scripts/deps.sh): events-nats is not tested";
    }
    nlohmann::json config(const NatsServer& s) const {
        return {{"url", s.url()}, {"timeout_ms", 10000}};
    }
    FakeHost host;
};

TEST_F(EventsNats, AcknowledgedAppendsSurviveKill9OfTheServer) {
    NatsServer server;
    constexpr int kEvents = 200;
    {
        EventsClient client(host, "events-nats", config(server));
        for (int i = 1; i <= kEvents; ++i)
            ASSERT_EQ(client.append("durable", "payload-" + std::to_string(i)),
                      static_cast<uint64_t>(i));
    }  // every append above was acknowledged by the server
    server.kill9();
    server.restart();  // same port, same JetStream store
    EventsClient client(host, "events-nats", config(server));
    auto evs = client.read("durable");
    ASSERT_EQ(evs.size(), static_cast<size_t>(kEvents));
    for (int i = 0; i < kEvents; ++i) {
        EXPECT_EQ(evs[i].offset, static_cast<uint64_t>(i + 1));
        EXPECT_EQ(evs[i].payload, "payload-" + std::to_string(i + 1));
    }
    EXPECT_EQ(client.append("durable", "after"), static_cast<uint64_t>(kEvents + 1));
}

TEST_F(EventsNats, Kill9DuringAppendsLosesNoAcknowledgedEvent) {
    NatsServer server;
    EventsClient writer(host, "events-nats", {{"url", server.url()}, {"timeout_ms", 3000}});
    std::mutex m;
    std::condition_variable cv;
    std::vector<std::pair<uint64_t, std::string>> acked;  // (offset, payload) answered OK
    std::thread appender([&] {
        for (int i = 1; i < 100000; ++i) {
            platform_status_t st = PLATFORM_OK;
            const std::string payload = "p" + std::to_string(i);
            uint64_t offset = writer.append("crash", payload, "{}", "", 1767225600000, &st);
            if (st != PLATFORM_OK) return;  // the server is gone: stop at the first failure
            std::lock_guard<std::mutex> lock(m);
            acked.emplace_back(offset, payload);
            cv.notify_all();
        }
    });
    {
        std::unique_lock<std::mutex> lock(m);
        ASSERT_TRUE(
            cv.wait_for(lock, std::chrono::seconds(60), [&] { return acked.size() >= 300; }));
    }
    server.kill9();  // while appends are in flight
    appender.join();
    server.restart();
    EventsClient reader(host, "events-nats", config(server));
    auto evs = reader.read("crash");
    ASSERT_GE(evs.size(), acked.size());
    for (const auto& [offset, payload] : acked) {
        ASSERT_LE(offset, evs.size());
        EXPECT_EQ(evs[offset - 1].offset, offset);
        EXPECT_EQ(evs[offset - 1].payload, payload) << "offset " << offset;
    }
}

TEST_F(EventsNats, AConnectedProviderCarriesOnAfterTheServerRestarts) {
    NatsServer server;
    EventsClient client(host, "events-nats", config(server));
    ASSERT_EQ(client.append("t", "before"), 1u);
    server.kill9();
    server.restart();
    // cnats reconnects on its own; the first calls may answer UNAVAILABLE while it does.
    platform_status_t st = PLATFORM_UNAVAILABLE;
    uint64_t offset = 0;
    for (int attempt = 0; attempt < 100 && st == PLATFORM_UNAVAILABLE; ++attempt) {
        offset = client.append("t", "after", "{}", "", 1767225600000, &st);
        if (st == PLATFORM_UNAVAILABLE) client.wait("never", 0, 100);  // a pause that is a call
    }
    ASSERT_EQ(st, PLATFORM_OK);
    EXPECT_EQ(offset, 2u);
    auto evs = client.read("t");
    ASSERT_EQ(evs.size(), 2u);
    EXPECT_EQ(evs[0].payload, "before");
    EXPECT_EQ(evs[1].payload, "after");
}

TEST_F(EventsNats, LongTopicsAreNamedByTheirHashAndListedByName) {
    NatsServer& server = *NatsServer::shared();
    nlohmann::json cfg = config(server);
    cfg["stream_prefix"] = "LONG_" + unique_nats_name("L");
    cfg["subject_prefix"] = "long." + unique_nats_name("L");
    EventsClient client(host, "events-nats", cfg);
    const std::string t200(200, 'a'), t1024(1024, '\xff'), t64(64, 'b');
    EXPECT_EQ(client.append(t200, "x"), 1u);
    EXPECT_EQ(client.append(t200, "y"), 2u);
    EXPECT_EQ(client.append(t1024, "z"), 1u);
    EXPECT_EQ(client.append(t64, "w"), 1u);
    EXPECT_EQ(client.read(t200).at(1).payload, "y");
    EXPECT_EQ(client.read(t1024).at(0).payload, "z");
    EXPECT_EQ(client.wait(t200, 1, 0), PLATFORM_OK);
    auto topics = client.topics();
    ASSERT_EQ(topics.size(), 3u);
    EXPECT_EQ(topics[0]["topic"], t200);  // ordered by topic: "aaa…" < "bbb…" < "\xff…"
    EXPECT_EQ(topics[0]["events"], 2);
    EXPECT_EQ(topics[1]["topic"], t64);
    EXPECT_EQ(topics[2]["last_offset"], 1);
    platform_status_t st = PLATFORM_OK;
    client.append(std::string(1025, 'c'), "too long", "{}", "", 1, &st);
    EXPECT_EQ(st, PLATFORM_INVALID_ARGUMENT);
}

// Two instances on one server, as two host replicas: one log, gapless offsets across both, and a
// wait on one woken by an append on the other.
TEST_F(EventsNats, TwoInstancesShareOneLog) {
    NatsServer& server = *NatsServer::shared();
    nlohmann::json cfg = config(server);
    cfg["stream_prefix"] = "TWO_" + unique_nats_name("R");
    cfg["subject_prefix"] = "two." + unique_nats_name("R");
    EventsClient a(host, "events-nats", cfg), b(host, "events-nats", cfg);
    std::vector<uint64_t> got_a, got_b;
    std::string failure_a, failure_b;  // a failed append's message, rather than a terminate
    auto appender = [](const EventsClient& c, const char* payload, std::vector<uint64_t>& got,
                       std::string& failure) {
        try {
            for (int i = 0; i < 50; ++i) got.push_back(c.append("shared", payload));
        } catch (const std::exception& e) {
            failure = e.what();
        }
    };
    std::thread ta(appender, std::cref(a), "a", std::ref(got_a), std::ref(failure_a));
    std::thread tb(appender, std::cref(b), "b", std::ref(got_b), std::ref(failure_b));
    ta.join();
    tb.join();
    ASSERT_EQ(failure_a, "");
    ASSERT_EQ(failure_b, "");
    std::vector<uint64_t> all(got_a);
    all.insert(all.end(), got_b.begin(), got_b.end());
    std::sort(all.begin(), all.end());
    for (size_t i = 0; i < all.size(); ++i) ASSERT_EQ(all[i], i + 1);
    EXPECT_EQ(a.read("shared").size(), 100u);

    platform_status_t result = -1;
    const auto started = std::chrono::steady_clock::now();
    std::thread waiter([&] { result = a.wait("live", 0, 120000); });
    b.append("live", "hello");  // before or during a's wait: either way it answers OK
    waiter.join();
    EXPECT_EQ(result, PLATFORM_OK);
    // Woken by b's append, not by its 120 s timeout (a generous bound, not a timing measurement).
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(60));
    EXPECT_EQ(a.read("live").at(0).payload, "hello");
}

TEST_F(EventsNats, CreateFailsNamingTheUrlWhenNoServerListens) {
    std::string url;
    {
        NatsServer server;
        url = server.url();
    }  // stopped: nothing listens on that port now
    try {
        EventsClient client(host, "events-nats", {{"url", url}, {"timeout_ms", 1000}});
        FAIL() << "on_create succeeded without a server";
    } catch (const std::exception& e) {
        EXPECT_NE(std::string(e.what()).find("cannot connect to '" + url + "'"), std::string::npos)
            << e.what();
    }
}

}  // namespace
