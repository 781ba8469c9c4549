// events-sqlite beyond the conformance suite: durability, configuration, two instances on one file.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <numeric>
#include <thread>

#include "events_client.hpp"

using namespace events_test;

namespace {

nlohmann::json at(const std::filesystem::path& p) {
    return {{"path", p.string()}};
}

TEST(EventsSqlite, EventsSurviveRecreatingTheInstance) {
    TempDir dir;
    FakeHost host;
    auto cfg = at(dir.path() / "events.db");
    const std::string payload("bin\0ary", 7);
    {
        EventsClient c(host, "events-sqlite", cfg);
        ASSERT_EQ(c.append("orders", payload, R"({"k":"v"})", "id-1", 1767225600001), 1u);
        ASSERT_EQ(c.append("orders", "two", "{}", "id-2", 1767225600002), 2u);
        ASSERT_EQ(c.append("audit", "a", "{}", "id-3", 5), 1u);
    }
    EventsClient c(host, "events-sqlite", cfg);
    auto evs = c.read("orders");
    ASSERT_EQ(evs.size(), 2u);
    EXPECT_EQ(evs[0].id, "id-1");
    EXPECT_EQ(evs[0].payload, payload);
    EXPECT_EQ(evs[0].metadata, R"({"k":"v"})");
    EXPECT_EQ(evs[0].timestamp_ms, 1767225600001);
    EXPECT_EQ(evs[1].payload, "two");
    EXPECT_EQ(c.read("audit").size(), 1u);
    EXPECT_EQ(c.append("orders", "three"), 3u);  // offsets continue after a restart
    EXPECT_EQ(c.wait("orders", 2, 0), PLATFORM_OK);
}

TEST(EventsSqlite, CreatesParentDirectoriesAndUsesWal) {
    TempDir dir;
    FakeHost host;
    auto db = dir.path() / "a" / "b" / "events.db";
    EventsClient c(host, "events-sqlite", at(db));
    ASSERT_EQ(c.append("t", "x"), 1u);
    EXPECT_TRUE(std::filesystem::exists(db));
    EXPECT_TRUE(std::filesystem::exists(db.string() + "-wal"));
}

TEST(EventsSqlite, MissingOrInMemoryPathIsRefused) {
    FakeHost host;
    EXPECT_NE(create_error(host, "events-sqlite", nlohmann::json::object()).find("`path`"),
              std::string::npos);
    EXPECT_NE(create_error(host, "events-sqlite", {{"path", 42}}).find("`path`"),
              std::string::npos);
    EXPECT_NE(create_error(host, "events-sqlite", {{"path", ""}}).find("`path`"),
              std::string::npos);
    EXPECT_NE(create_error(host, "events-sqlite", {{"path", ":memory:"}}).find(":memory:"),
              std::string::npos);
}

TEST(EventsSqlite, UnusablePathFailsNamingIt) {
    TempDir dir;
    FakeHost host;
    auto bad = below_a_file(dir, "events.db");
    std::string err = create_error(host, "events-sqlite", at(bad));
    EXPECT_NE(err.find(bad.string()), std::string::npos) << err;
    auto junk = junk_file(dir, "junk.db");
    err = create_error(host, "events-sqlite", at(junk));
    EXPECT_NE(err.find(junk.string()), std::string::npos) << err;
}

// Two instances on one file stand in for two processes: appends interleave without collisions,
// and a waiter sees the other instance's appends by re-checking the database.
TEST(EventsSqlite, TwoInstancesShareOneFile) {
    TempDir dir;
    FakeHost host;
    auto cfg = at(dir.path() / "events.db");
    EventsClient a(host, "events-sqlite", cfg), b(host, "events-sqlite", cfg);
    std::vector<uint64_t> got_a, got_b;
    std::thread ta([&] {
        for (int i = 0; i < 30; ++i) got_a.push_back(a.append("t", "a"));
    });
    std::thread tb([&] {
        for (int i = 0; i < 30; ++i) got_b.push_back(b.append("t", "b"));
    });
    ta.join();
    tb.join();
    std::vector<uint64_t> all = got_a;
    all.insert(all.end(), got_b.begin(), got_b.end());
    std::sort(all.begin(), all.end());
    std::vector<uint64_t> expected(60);
    std::iota(expected.begin(), expected.end(), 1);
    EXPECT_EQ(all, expected);

    platform_status_t result = -1;
    std::thread waiter([&] { result = a.wait("cross", 0, 120000); });
    b.append("cross", "x");  // not this instance's condition variable: found by polling
    waiter.join();
    EXPECT_EQ(result, PLATFORM_OK);
}

}  // namespace
