// ActivityRecord: calls are coalesced into one scheduled flush; what a flush writes and what it
// keeps when the write fails.
#include <gtest/gtest.h>

#include <platform/host/core/activity_record.hpp>

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

}  // namespace
