// common/sqlite's pool (and the library settings its connections make), used directly: leases
// from many threads at once, the idle cap, a connection left in a transaction, re-entry, and the
// shard a thread gives back to.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <thread>
#include <vector>

#include "../support/scratch_dir.hpp"
#include "common/sqlite/fenced_vfs.hpp"
#include "common/sqlite/pool.hpp"

namespace {

using common::sqlite::PoolCore;
using namespace std::chrono_literals;

// A connection that counts the live ones, numbers itself, and marks itself busy while leased.
class Counted : public common::sqlite::Connection {
public:
    explicit Counted(const std::string& path) : Connection(path), serial(next_serial.fetch_add(1)) {
        live.fetch_add(1);
        probe.emplace(db, "SELECT count(*) FROM sqlite_schema");
    }
    ~Counted() override { live.fetch_sub(1); }

    std::optional<SQLite::Statement> probe;
    std::atomic<bool> busy{false};
    const int serial;

    static inline std::atomic<int> live{0};
    static inline std::atomic<int> next_serial{0};
};

using Pool = common::sqlite::Pool<Counted>;

std::string db_in(const plugin_test::TempDir& dir) {
    return (dir.path() / "pool.db").string();
}

// Marks the leased connection busy for the scope; a connection already busy is a double lease.
class Busy {
public:
    Busy(Counted& c, std::atomic<int>& doubles) : c_(c) {
        if (c_.busy.exchange(true)) doubles.fetch_add(1);
    }
    ~Busy() { c_.busy.store(false); }

private:
    Counted& c_;
};

void wait_for(std::future<void>& f) {
    ASSERT_EQ(f.wait_for(10s), std::future_status::ready) << "the other thread never got there";
}

TEST(SqlitePool, ManyThreadsNeverShareAConnection) {
    plugin_test::TempDir dir;
    Pool pool(db_in(dir));
    constexpr int kThreads = 12, kRounds = 400;
    std::atomic<int> doubles{0}, waiting{kThreads}, failures{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&] {
            waiting.fetch_sub(1);
            const auto deadline = std::chrono::steady_clock::now() + 10s;
            while (waiting.load() > 0 && std::chrono::steady_clock::now() < deadline)
                std::this_thread::yield();  // all start together
            for (int i = 0; i < kRounds; ++i) {
                auto c = pool.acquire();
                Busy mark(*c, doubles);
                common::sqlite::StatementScope scope(*c->probe);
                if (!c->probe->executeStep()) failures.fetch_add(1);
                if (i % 7 == 0) {  // re-entry: a second connection while the first is leased
                    auto inner = pool.acquire();
                    Busy inner_mark(*inner, doubles);
                    if (inner->serial == c->serial) doubles.fetch_add(1);
                }
            }
        });
    for (auto& t : threads) t.join();
    EXPECT_EQ(doubles.load(), 0);
    EXPECT_EQ(failures.load(), 0);
    EXPECT_LE(pool.idle_count(), PoolCore::kMaxIdle);
    EXPECT_EQ(Counted::live.load(), static_cast<int>(pool.idle_count()));
}

TEST(SqlitePool, KeepsAtMostMaxIdleConnectionsGivenBackByManyThreads) {
    plugin_test::TempDir dir;
    Pool pool(db_in(dir));
    constexpr int kThreads = 40;
    std::atomic<int> holding{0};
    std::atomic<bool> release{false};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&] {
            auto c = pool.acquire();
            holding.fetch_add(1);
            const auto deadline = std::chrono::steady_clock::now() + 10s;
            while (!release.load() && std::chrono::steady_clock::now() < deadline)
                std::this_thread::yield();
        });
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (holding.load() < kThreads && std::chrono::steady_clock::now() < deadline)
        std::this_thread::yield();
    ASSERT_EQ(holding.load(), kThreads);
    EXPECT_EQ(Counted::live.load(), kThreads);  // 40 leased at once: 40 connections
    release.store(true);
    for (auto& t : threads) t.join();
    EXPECT_EQ(pool.idle_count(), PoolCore::kMaxIdle);
    EXPECT_EQ(Counted::live.load(), static_cast<int>(PoolCore::kMaxIdle));  // the rest closed
}

TEST(SqlitePool, KeepsAtMostMaxIdleConnectionsGivenBackByOneThread) {
    plugin_test::TempDir dir;
    Pool pool(db_in(dir));
    {
        std::vector<Pool::Lease> leases;
        for (int i = 0; i < 40; ++i) leases.push_back(pool.acquire());
        EXPECT_EQ(Counted::live.load(), 40);
    }
    EXPECT_EQ(pool.idle_count(), PoolCore::kMaxIdle);
    EXPECT_EQ(Counted::live.load(), static_cast<int>(PoolCore::kMaxIdle));
    // and they are all reused: 16 leased at once open none
    std::vector<Pool::Lease> again;
    for (size_t i = 0; i < PoolCore::kMaxIdle; ++i) again.push_back(pool.acquire());
    EXPECT_EQ(Counted::live.load(), static_cast<int>(PoolCore::kMaxIdle));
    EXPECT_EQ(pool.idle_count(), 0u);
}

TEST(SqlitePool, AConnectionLeftInATransactionIsClosedNotReused) {
    plugin_test::TempDir dir;
    Pool pool(db_in(dir));
    ASSERT_EQ(Counted::live.load(), 1);  // the first, opened by the pool
    int in_tx;
    {
        auto c = pool.acquire();
        in_tx = c->serial;
        c->db.exec("BEGIN IMMEDIATE");  // holds the write lock until closed
    }
    EXPECT_EQ(Counted::live.load(), 0);
    EXPECT_EQ(pool.idle_count(), 0u);
    auto c = pool.acquire();
    EXPECT_NE(c->serial, in_tx);
    EXPECT_TRUE(sqlite3_get_autocommit(c->db.getHandle()));
    c->db.exec("CREATE TABLE t(x)");  // the write lock was released with the closed connection
}

TEST(SqlitePool, ReentryFromTheSameThreadGetsASecondConnection) {
    plugin_test::TempDir dir;
    Pool pool(db_in(dir));
    auto outer = pool.acquire();
    auto inner = pool.acquire();
    EXPECT_NE(outer->serial, inner->serial);
    EXPECT_EQ(Counted::live.load(), 2);
}

// Two threads lease at once; A gives back first, B second. A's next lease is the connection A gave
// back (its shard's), not B's, the last one given back (which one lock and one stack would hand).
TEST(SqlitePool, AThreadGetsBackTheConnectionItGaveBack) {
    plugin_test::TempDir dir;
    Pool pool(db_in(dir));
    std::promise<void> a_has, b_has, a_gave, b_gave;
    auto a_has_f = a_has.get_future(), b_has_f = b_has.get_future();
    auto a_gave_f = a_gave.get_future(), b_gave_f = b_gave.get_future();
    int a_first = -1, a_second = -2, b_first = -3;
    std::thread a([&] {
        {
            auto c = pool.acquire();
            a_first = c->serial;
            a_has.set_value();
            wait_for(b_has_f);
        }
        a_gave.set_value();
        wait_for(b_gave_f);
        a_second = pool.acquire()->serial;
    });
    std::thread b([&] {
        wait_for(a_has_f);
        {
            auto c = pool.acquire();
            b_first = c->serial;
            b_has.set_value();
            wait_for(a_gave_f);
        }
        b_gave.set_value();
    });
    a.join();
    b.join();
    EXPECT_NE(a_first, b_first);
    EXPECT_EQ(a_second, a_first);
}

TEST(SqlitePool, DestroyingThePoolClosesEveryIdleConnection) {
    plugin_test::TempDir dir;
    {
        Pool pool(db_in(dir));
        std::vector<std::thread> threads;
        for (int t = 0; t < 6; ++t)
            threads.emplace_back([&] {
                auto outer = pool.acquire();
                auto inner = pool.acquire();
            });
        for (auto& t : threads) t.join();
        EXPECT_GT(Counted::live.load(), 1);
    }
    EXPECT_EQ(Counted::live.load(), 0);
}

// SQLite's memory statistics (and the process-wide mutex every allocation takes for them) are off
// when this library opened SQLite first: nothing is counted.
TEST(SqliteLibrary, MemoryStatisticsAreOff) {
    plugin_test::TempDir dir;
    Pool pool(db_in(dir));
    auto c = pool.acquire();
    common::sqlite::StatementScope scope(*c->probe);
    ASSERT_TRUE(c->probe->executeStep());
    sqlite3_int64 used = -1, highest = -1;
    ASSERT_EQ(sqlite3_status64(SQLITE_STATUS_MEMORY_USED, &used, &highest, 0), SQLITE_OK);
    EXPECT_EQ(used, 0);
    EXPECT_EQ(highest, 0);
}

// Connections open through the fenced unix VFS: its name, and a shared-memory barrier that is not
// the unix VFS's (which takes the VFS's global mutex).
TEST(SqliteLibrary, ConnectionsUseTheFencedVfs) {
    plugin_test::TempDir dir;
    Pool pool(db_in(dir));
    auto c = pool.acquire();
    sqlite3* db = c->db.getHandle();
    sqlite3_vfs* vfs = nullptr;
    ASSERT_EQ(sqlite3_file_control(db, "main", SQLITE_FCNTL_VFS_POINTER, &vfs), SQLITE_OK);
    ASSERT_NE(vfs, nullptr);
    EXPECT_STREQ(vfs->zName, common::sqlite::kFencedVfs);

    sqlite3_file* ours = nullptr;
    ASSERT_EQ(sqlite3_file_control(db, "main", SQLITE_FCNTL_FILE_POINTER, &ours), SQLITE_OK);
    sqlite3* plain = nullptr;
    ASSERT_EQ(sqlite3_open_v2(db_in(dir).c_str(), &plain, SQLITE_OPEN_READWRITE, nullptr),
              SQLITE_OK);
    sqlite3_file* theirs = nullptr;
    ASSERT_EQ(sqlite3_file_control(plain, "main", SQLITE_FCNTL_FILE_POINTER, &theirs), SQLITE_OK);
    ASSERT_NE(ours->pMethods, nullptr);
    ASSERT_NE(theirs->pMethods, nullptr);
    EXPECT_NE(ours->pMethods->xShmBarrier, theirs->pMethods->xShmBarrier);
    EXPECT_EQ(ours->pMethods->xShmMap, theirs->pMethods->xShmMap);  // the rest is unix's own
    EXPECT_EQ(ours->pMethods->xLock, theirs->pMethods->xLock);
    sqlite3_close(plain);
}

}  // namespace
