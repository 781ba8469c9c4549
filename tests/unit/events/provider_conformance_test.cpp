// Events providers through their built .so and C table: the same suite for every provider.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <numeric>
#include <thread>

#include "events_client.hpp"
#include "nats_server.hpp"

using namespace events_test;
using platform::test::NatsServer;
using platform::test::unique_nats_name;

namespace {

// A provider under test and the config it needs (events-sqlite gets a file in a temp dir;
// events-nats the test process's nats-server, started by scripts/nats.sh, with streams and subjects
// of its own per test).
class EventsConformance : public ::testing::TestWithParam<std::string> {
protected:
    void SetUp() override {
        if (GetParam() == "events-nats" && !NatsServer::shared())
            GTEST_SKIP() << "nats-server is not installed (Debian package nats-server, "
                            "scripts/deps.sh): events-nats is not tested";
        client = open();
    }
    std::unique_ptr<EventsClient> open() {
        nlohmann::json cfg = nlohmann::json::object();
        if (GetParam() == "events-sqlite") cfg["path"] = (dir.path() / "events.db").string();
        if (GetParam() == "events-nats") {
            if (nats_name.empty()) nats_name = unique_nats_name("T");
            cfg["url"] = NatsServer::shared()->url();
            cfg["stream_prefix"] = "CONF_" + nats_name;
            cfg["subject_prefix"] = "conf." + nats_name;
        }
        return std::make_unique<EventsClient>(host, GetParam(), cfg);
    }

    TempDir dir;
    FakeHost host;
    std::unique_ptr<EventsClient> client;
    std::string nats_name;
};

TEST_P(EventsConformance, DescriptorIsAnEventsProvider) {
    const auto* d = client->desc();
    EXPECT_EQ(d->kind, PLATFORM_KIND_EVENTS);
    EXPECT_EQ(platform::view(d->id), GetParam());
    ASSERT_NE(client->table(), nullptr);
    EXPECT_EQ(client->table()->struct_size, sizeof(platform_events_provider_t));
    EXPECT_EQ(client->table()->persistent, GetParam() != "events-memory");
}

TEST_P(EventsConformance, OffsetsStartAtOnePerTopic) {
    EXPECT_EQ(client->append("a", "1"), 1u);
    EXPECT_EQ(client->append("a", "2"), 2u);
    EXPECT_EQ(client->append("b", "1"), 1u);
    EXPECT_EQ(client->append("a", "3"), 3u);
    EXPECT_EQ(client->append("b", "2"), 2u);
    EXPECT_EQ(client->offsets("a"), (std::vector<uint64_t>{1, 2, 3}));
    EXPECT_EQ(client->offsets("b"), (std::vector<uint64_t>{1, 2}));
    EXPECT_TRUE(client->read("never").empty());
}

TEST_P(EventsConformance, ReadsInOffsetOrderWithFromAndLimit) {
    for (int i = 1; i <= 5; ++i) client->append("t", "p" + std::to_string(i));
    auto all = client->read("t");
    ASSERT_EQ(all.size(), 5u);
    for (size_t i = 0; i < all.size(); ++i) {
        EXPECT_EQ(all[i].offset, i + 1);
        EXPECT_EQ(all[i].payload, "p" + std::to_string(i + 1));
        EXPECT_EQ(all[i].topic, "t");
    }
    EXPECT_EQ(client->offsets("t", 2, 2), (std::vector<uint64_t>{2, 3}));
    EXPECT_EQ(client->offsets("t", 4), (std::vector<uint64_t>{4, 5}));
    EXPECT_EQ(client->offsets("t", 1, 1), (std::vector<uint64_t>{1}));
    EXPECT_EQ(client->offsets("t", 0, 2), (std::vector<uint64_t>{1, 2}));  // 0 reads as the start
    EXPECT_TRUE(client->offsets("t", 6).empty());
    EXPECT_TRUE(client->offsets("t", 1000000).empty());
}

TEST_P(EventsConformance, SinkReturningFalseStopsTheRead) {
    for (int i = 0; i < 4; ++i) client->append("t", "x");
    int seen = 0;
    auto sink = [](void* user, const platform_event_t*) -> bool {
        return ++*static_cast<int*>(user) < 2;
    };
    EXPECT_EQ(client->read_raw("t", 1, 0, sink, &seen), PLATFORM_OK);
    EXPECT_EQ(seen, 2);
}

TEST_P(EventsConformance, SinkMayReenterTheProvider) {
    client->append("t", "x");
    client->append("t", "y");
    struct Ctx {
        EventsClient* c;
        std::vector<uint64_t> appended;
    } ctx{client.get(), {}};
    auto sink = [](void* user, const platform_event_t*) -> bool {
        auto* x = static_cast<Ctx*>(user);
        x->appended.push_back(x->c->append("copy", "z"));
        return true;
    };
    EXPECT_EQ(client->read_raw("t", 1, 0, sink, &ctx), PLATFORM_OK);
    EXPECT_EQ(ctx.appended, (std::vector<uint64_t>{1, 2}));
}

TEST_P(EventsConformance, FieldsAndBytesRoundTrip) {
    const std::string nul_payload("a\0b\0\xff\xfe", 6);
    const std::string big(1 << 20, '\0');
    std::string big_payload = big;
    for (size_t i = 0; i < big_payload.size(); ++i)
        big_payload[i] = static_cast<char>(i * 131 % 256);
    const std::string metadata = R"({"k":"v","unicode":"é✓😀","empty":""})";
    ASSERT_EQ(client->append("bytes", nul_payload, metadata, "id-nul", 1767225600123), 1u);
    ASSERT_EQ(client->append("bytes", big_payload, "{}", "id-big", 42), 2u);
    ASSERT_EQ(client->append("bytes", "", "", "id-empty", 7), 3u);
    auto evs = client->read("bytes");
    ASSERT_EQ(evs.size(), 3u);
    EXPECT_EQ(evs[0].id, "id-nul");
    EXPECT_EQ(evs[0].payload, nul_payload);
    EXPECT_EQ(evs[0].timestamp_ms, 1767225600123);
    EXPECT_EQ(nlohmann::json::parse(evs[0].metadata), nlohmann::json::parse(metadata));
    EXPECT_EQ(evs[1].id, "id-big");
    EXPECT_EQ(evs[1].payload.size(), big_payload.size());
    EXPECT_TRUE(evs[1].payload == big_payload);
    EXPECT_EQ(evs[1].timestamp_ms, 42);
    EXPECT_EQ(evs[2].payload, "");
    EXPECT_EQ(nlohmann::json::parse(evs[2].metadata), nlohmann::json::object());  // empty means {}
}

TEST_P(EventsConformance, TopicNamesAreBytes) {
    const std::string odd("t\0/..\xff", 6);
    EXPECT_EQ(client->append(odd, "x"), 1u);
    EXPECT_EQ(client->append("t", "y"), 1u);
    EXPECT_EQ(client->read(odd).at(0).payload, "x");
    EXPECT_EQ(client->read("t").size(), 1u);
}

TEST_P(EventsConformance, WaitAnswersAtOnceWhenAnEventIsThere) {
    client->append("t", "x");
    EXPECT_EQ(client->wait("t", 0, 0), PLATFORM_OK);
    EXPECT_EQ(client->wait("t", 0, 60000), PLATFORM_OK);
    EXPECT_EQ(client->wait("t", 1, 0), PLATFORM_TIMEOUT);
}

TEST_P(EventsConformance, WaitTimesOut) {
    client->append("other", "x");
    EXPECT_EQ(client->wait("t", 0, 20), PLATFORM_TIMEOUT);
    client->append("t", "x");
    EXPECT_EQ(client->wait("t", 1, 20), PLATFORM_TIMEOUT);
}

TEST_P(EventsConformance, WaitWakesOnAppend) {
    std::mutex m;
    std::condition_variable cv;
    bool waiting = false;
    platform_status_t result = -1;
    auto started = std::chrono::steady_clock::now();
    std::thread waiter([&] {
        {
            std::lock_guard<std::mutex> g(m);
            waiting = true;
        }
        cv.notify_all();
        result = client->wait("live", 0, 120000);
    });
    {
        std::unique_lock<std::mutex> lock(m);
        cv.wait(lock, [&] { return waiting; });
    }
    client->append("live", "hello");
    waiter.join();
    EXPECT_EQ(result, PLATFORM_OK);
    // Woken by the append, not by its 120 s timeout (a generous bound, not a timing measurement).
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(60));
}

TEST_P(EventsConformance, StopWakesWaitersWithUnavailable) {
    std::mutex m;
    std::condition_variable cv;
    bool waiting = false;
    platform_status_t result = -1;
    std::thread waiter([&] {
        {
            std::lock_guard<std::mutex> g(m);
            waiting = true;
        }
        cv.notify_all();
        result = client->wait("quiet", 0, 120000);
    });
    {
        std::unique_lock<std::mutex> lock(m);
        cv.wait(lock, [&] { return waiting; });
    }
    client->stop();
    waiter.join();
    EXPECT_EQ(result, PLATFORM_UNAVAILABLE);
    EXPECT_EQ(client->wait("quiet", 0, 120000), PLATFORM_UNAVAILABLE);
}

TEST_P(EventsConformance, ConcurrentAppendsGiveGaplessUniqueOffsets) {
    constexpr int kThreads = 4, kEach = 50;
    std::vector<std::vector<uint64_t>> got(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            for (int i = 0; i < kEach; ++i)
                got[t].push_back(
                    client->append("shared", std::to_string(t) + ":" + std::to_string(i)));
        });
    for (auto& th : threads) th.join();
    std::vector<uint64_t> all;
    for (int t = 0; t < kThreads; ++t) {
        EXPECT_TRUE(std::is_sorted(got[t].begin(), got[t].end())) << "thread " << t;
        all.insert(all.end(), got[t].begin(), got[t].end());
    }
    std::sort(all.begin(), all.end());
    std::vector<uint64_t> expected(kThreads * kEach);
    std::iota(expected.begin(), expected.end(), 1);
    EXPECT_EQ(all, expected);
    auto evs = client->read("shared");
    ASSERT_EQ(evs.size(), expected.size());
    for (int t = 0; t < kThreads; ++t)  // each append's offset holds that append's payload
        for (int i = 0; i < kEach; ++i)
            EXPECT_EQ(evs[got[t][i] - 1].payload, std::to_string(t) + ":" + std::to_string(i));
}

TEST_P(EventsConformance, TopicsListsEveryTopicWithItsCount) {
    EXPECT_EQ(client->topics(), nlohmann::json::array());
    client->append("b", "1");
    client->append("a", "1");
    client->append("a", "2");
    EXPECT_EQ(client->topics(), nlohmann::json::parse(R"([{"topic":"a","events":2,"last_offset":2},
                                                         {"topic":"b","events":1,"last_offset":1}])"));
}

INSTANTIATE_TEST_SUITE_P(Providers, EventsConformance,
                         ::testing::Values("events-memory", "events-sqlite", "events-nats"),
                         [](const auto& info) {
                             return info.param == "events-memory"   ? "Memory"
                                    : info.param == "events-sqlite" ? "Sqlite"
                                                                    : "Nats";
                         });

}  // namespace
