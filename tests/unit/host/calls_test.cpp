// calls.hpp: the process-wide table of in-flight calls behind the numeric handles plugins hold.
#include <gtest/gtest.h>

#include <atomic>
#include <platform/host/core/calls.hpp>
#include <platform/host/core/clock.hpp>
#include <platform/host/core/timer_queue.hpp>
#include <set>
#include <thread>
#include <vector>

namespace {

using platform::host::Call;
using platform::host::CallTable;
using platform::host::Outcome;
using platform::host::TimerQueue;

// A new call of `table` whose on_cancel is running (cancelling set, as the host sets it).
std::shared_ptr<Call> cancelling_call(CallTable& table) {
    auto c = table.create();
    std::lock_guard<std::mutex> g(c->m);
    c->cancelling = true;
    return c;
}

TEST(CallTable, CreateGivesDistinctIds) {
    auto& table = CallTable::global();
    const size_t before = table.size();
    std::vector<std::shared_ptr<Call>> calls;
    std::set<uint64_t> ids;
    for (int i = 0; i < 100; ++i) {
        calls.push_back(table.create());
        EXPECT_NE(calls.back()->id, 0u);  // 0 would be a NULL handle
        ids.insert(calls.back()->id);
    }
    EXPECT_EQ(ids.size(), 100u);
    EXPECT_EQ(table.size(), before + 100);
    for (auto& c : calls) {
        table.answer(c, {});
        table.handler_returned(c);
    }
    EXPECT_EQ(table.size(), before);
}

TEST(CallTable, FindByHandle) {
    auto& table = CallTable::global();
    auto a = table.create();
    auto b = table.create();
    EXPECT_EQ(table.find(CallTable::handle(*a)), a);
    EXPECT_EQ(table.find(CallTable::handle(*b)), b);
    EXPECT_NE(CallTable::handle(*a), CallTable::handle(*b));
    for (auto& c : {a, b}) {
        table.answer(c, {});
        table.handler_returned(c);
    }
}

TEST(CallTable, UnknownHandleIsNull) {
    auto& table = CallTable::global();
    EXPECT_EQ(table.find(nullptr), nullptr);
    EXPECT_EQ(table.find(reinterpret_cast<platform_call_t*>(uintptr_t{0xFFFFFFFFFFull})), nullptr);
    auto c = table.create();
    auto* h = CallTable::handle(*c);
    table.answer(c, {});
    table.handler_returned(c);
    EXPECT_EQ(table.find(h), nullptr);  // forgotten: a stale handle finds nothing
}

TEST(CallTable, AnswerDeliversOnce) {
    auto& table = CallTable::global();
    auto c = table.create();
    std::vector<Outcome> delivered;
    c->done = [&](Outcome o) { delivered.push_back(std::move(o)); };

    Outcome first;
    first.code = PLATFORM_NOT_FOUND;
    first.body = "no such note";
    EXPECT_TRUE(table.answer(c, first));
    Outcome second;
    second.body = "{}";
    EXPECT_FALSE(table.answer(c, second));

    ASSERT_EQ(delivered.size(), 1u);
    EXPECT_EQ(delivered[0].code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(delivered[0].body, "no such note");
    EXPECT_TRUE(c->answered);
    table.handler_returned(c);
}

// Both orders: the entry lives until it is answered AND the handler returned.
TEST(CallTable, ForgottenOnlyWhenAnsweredAndHandlerReturned) {
    auto& table = CallTable::global();
    for (bool answer_first : {true, false}) {
        SCOPED_TRACE(answer_first ? "answer, then handler returns"
                                  : "handler returns, then answer");
        auto c = table.create();
        auto* h = CallTable::handle(*c);
        if (answer_first)
            table.answer(c, {});
        else
            table.handler_returned(c);
        EXPECT_EQ(table.find(h), c) << "forgotten too early";
        if (answer_first)
            table.handler_returned(c);
        else
            table.answer(c, {});
        EXPECT_EQ(table.find(h), nullptr);
    }
}

TEST(CallTable, CancellingKeepsEntryUntilCancelFinished) {
    auto& table = CallTable::global();
    auto c = cancelling_call(table);
    auto* h = CallTable::handle(*c);
    EXPECT_TRUE(table.answer(c, {}));
    table.handler_returned(c);
    EXPECT_EQ(table.find(h), c) << "forgotten while on_cancel still runs";
    table.cancel_finished(c);
    EXPECT_EQ(table.find(h), nullptr);
}

TEST(CallTable, CancelFinishedBeforeAnswerDoesNotForget) {
    auto& table = CallTable::global();
    auto c = cancelling_call(table);
    auto* h = CallTable::handle(*c);
    table.cancel_finished(c);
    EXPECT_EQ(table.find(h), c);
    table.handler_returned(c);
    EXPECT_EQ(table.find(h), c);
    table.answer(c, {});
    EXPECT_EQ(table.find(h), nullptr);
}

// An answered call leaves nothing in the timer queue: its 30 s deadline timer goes with the answer.
TEST(CallTable, AnswerCancelsTheDeadlineTimer) {
    auto& table = CallTable::global();
    TimerQueue timers;
    std::vector<std::shared_ptr<Call>> calls;
    for (int i = 0; i < 1000; ++i) {
        auto c = table.create();
        std::weak_ptr<Call> weak = c;
        auto id = timers.at(platform::host::Clock::monotonic_ms() + 30000, [weak] { (void)weak; });
        std::lock_guard<std::mutex> g(c->m);
        c->timers = &timers;
        c->deadline_timer = id;
        calls.push_back(std::move(c));
    }
    EXPECT_EQ(timers.size(), 1000u);
    for (auto& c : calls) {
        EXPECT_TRUE(table.answer(c, {}));
        table.handler_returned(c);
    }
    EXPECT_EQ(timers.size(), 0u);
    for (auto& c : calls) EXPECT_EQ(c->timers, nullptr);
}

// Calls created on many threads at once: distinct ids across threads, each found from another
// thread (as a worker finds a call an I/O thread made), each answered exactly once, and the table
// back to where it was.
TEST(CallTable, ManyThreadsCreateFindAndForget) {
    auto& table = CallTable::global();
    const size_t before = table.size();
    constexpr int kThreads = 8, kEach = 3000;
    std::vector<std::vector<std::shared_ptr<Call>>> made(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            for (int i = 0; i < kEach; ++i) made[t].push_back(table.create());
        });
    for (auto& th : threads) th.join();
    threads.clear();
    std::set<uint64_t> ids;
    for (auto& list : made)
        for (auto& c : list) ids.insert(c->id);
    EXPECT_EQ(ids.size(), size_t(kThreads) * kEach);
    EXPECT_EQ(ids.count(0), 0u);
    EXPECT_EQ(table.size(), before + kThreads * kEach);
    std::atomic<int> answered{0}, found{0};
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            // Two threads race to answer each list: every call is answered once.
            for (auto& c : made[(t + 1) % kThreads]) {
                found += table.find(CallTable::handle(*c)) == c;
                answered += table.answer(c, {});
            }
            for (auto& c : made[t]) answered += table.answer(c, {});
        });
    for (auto& th : threads) th.join();
    EXPECT_EQ(answered.load(), kThreads * kEach);
    EXPECT_EQ(found.load(), kThreads * kEach);  // answered, but on_call has not returned yet
    threads.clear();
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            for (auto& c : made[t]) table.handler_returned(c);
        });
    for (auto& th : threads) th.join();
    EXPECT_EQ(table.size(), before);
    for (auto& list : made)
        for (auto& c : list) EXPECT_EQ(table.find(CallTable::handle(*c)), nullptr);
}

}  // namespace
