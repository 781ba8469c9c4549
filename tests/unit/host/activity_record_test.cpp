// ActivityRecord: calls are coalesced into one scheduled flush; what a flush writes and what it
// keeps when the write fails.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <platform/host/core/activity_record.hpp>
#include <string>
#include <thread>
#include <vector>

namespace {

using platform::host::ActivityRecord;
using platform::host::Seen;

// A record whose scheduled flushes wait in `scheduled` and whose writes land in `writes`.
struct Harness {
    std::vector<std::function<void()>> scheduled;
    std::vector<std::vector<Seen>> writes;
    bool write_ok = true;
    ActivityRecord record{
        [this](const std::vector<Seen>& s) {
            writes.push_back(s);
            return write_ok;
        },
        [this](std::function<void()> flush) { scheduled.push_back(std::move(flush)); }};

    void run_scheduled() {
        auto due = std::move(scheduled);
        scheduled.clear();
        for (auto& f : due) f();
    }
};

TEST(ActivityRecord, ManyCallsScheduleOneFlushThatWritesOnce) {
    Harness h;
    for (int i = 0; i < 1000; ++i) h.record.seen("ann", "Ann", "user", 1000 + i);
    h.record.seen("bob", "bob", "service", 5000);
    EXPECT_EQ(h.scheduled.size(), 1u);
    EXPECT_TRUE(h.writes.empty());  // nothing is written on the call path

    h.run_scheduled();
    ASSERT_EQ(h.writes.size(), 1u);
    ASSERT_EQ(h.writes[0].size(), 2u);
    const Seen& ann = h.writes[0][0];
    EXPECT_EQ(ann.id, "ann");
    EXPECT_EQ(ann.name, "Ann");
    EXPECT_EQ(ann.type, "user");
    EXPECT_EQ(ann.first_ms, 1000);
    EXPECT_EQ(ann.last_ms, 1999);
    EXPECT_EQ(h.writes[0][1].id, "bob");
    EXPECT_EQ(h.record.pending(), 0u);
}

TEST(ActivityRecord, ACallAfterAFlushArmsTheNextOne) {
    Harness h;
    h.record.seen("ann", "ann", "user", 1);
    h.run_scheduled();
    h.run_scheduled();  // nothing armed: no second write
    EXPECT_EQ(h.writes.size(), 1u);

    h.record.seen("ann", "ann", "user", 2);
    EXPECT_EQ(h.scheduled.size(), 1u);
    h.run_scheduled();
    ASSERT_EQ(h.writes.size(), 2u);
    EXPECT_EQ(h.writes[1][0].last_ms, 2);
}

TEST(ActivityRecord, AnExplicitFlushWritesWhatIsPendingAndNothingTwice) {
    Harness h;
    h.record.seen("ann", "ann", "user", 7);
    h.record.flush();  // as on stop
    ASSERT_EQ(h.writes.size(), 1u);
    h.run_scheduled();  // the timer's flush finds nothing left
    h.record.flush();
    EXPECT_EQ(h.writes.size(), 1u);
}

TEST(ActivityRecord, AFailedWriteIsKeptForTheNextFlush) {
    Harness h;
    h.write_ok = false;
    h.record.seen("ann", "ann", "user", 10);
    h.run_scheduled();
    EXPECT_EQ(h.record.pending(), 1u);
    EXPECT_EQ(h.scheduled.size(), 1u);  // re-armed

    h.write_ok = true;
    h.record.seen("ann", "ann", "user", 20);
    h.run_scheduled();
    ASSERT_EQ(h.writes.size(), 2u);
    EXPECT_EQ(h.writes[1][0].first_ms, 10);
    EXPECT_EQ(h.writes[1][0].last_ms, 20);
    EXPECT_EQ(h.record.pending(), 0u);
}

// Call threads mark accounts on their own maps while flushes run: every account is written with
// the earliest and the latest time any thread saw it, none twice in one write, none lost.
TEST(ActivityRecord, ManyThreadsAndConcurrentFlushesLoseNothing) {
    std::mutex m;
    std::vector<std::vector<Seen>> writes;
    std::atomic<int> scheduled{0};
    ActivityRecord record(
        [&](const std::vector<Seen>& s) {
            std::lock_guard<std::mutex> g(m);
            writes.push_back(s);
            return true;
        },
        [&](std::function<void()>) { scheduled.fetch_add(1); });
    constexpr int kThreads = 8, kEach = 3000, kAccounts = 10;
    std::atomic<bool> calling{true};
    std::thread flusher([&] {
        while (calling.load()) record.flush();
    });
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            for (int i = 0; i < kEach; ++i)
                record.seen("a" + std::to_string(i % kAccounts), "name", "user",
                            1000 + t * kEach + i);
        });
    for (auto& th : threads) th.join();
    calling = false;
    flusher.join();
    record.flush();
    EXPECT_EQ(record.pending(), 0u);
    EXPECT_GE(scheduled.load(), 1);

    std::map<std::string, std::pair<int64_t, int64_t>> seen;  // id -> first, last over writes
    for (const auto& w : writes) {
        std::map<std::string, int> in_this;
        for (const auto& s : w) {
            EXPECT_EQ(++in_this[s.id], 1) << s.id << " twice in one write";
            auto [it, fresh] = seen.try_emplace(s.id, s.first_ms, s.last_ms);
            if (!fresh) {
                it->second.first = std::min(it->second.first, s.first_ms);
                it->second.second = std::max(it->second.second, s.last_ms);
            }
        }
    }
    ASSERT_EQ(seen.size(), static_cast<size_t>(kAccounts));
    for (int a = 0; a < kAccounts; ++a) {
        // account a is seen at i = a, a + kAccounts, ... by every thread
        const int last_i = a + ((kEach - 1 - a) / kAccounts) * kAccounts;
        EXPECT_EQ(seen["a" + std::to_string(a)].first, 1000 + a);
        EXPECT_EQ(seen["a" + std::to_string(a)].second, 1000 + (kThreads - 1) * kEach + last_i);
    }
}

}  // namespace
