// common/sqlite/pool — a small pool of connections to one SQLite file, leased one call at a time.
//
// SQLiteCpp's Database must not be used by two threads at once, so each call leases a connection
// for its duration and gives it back afterwards. A caller that re-enters the provider from a sink
// (same thread, connection still leased) simply gets a second connection. WAL lets readers and one
// writer proceed together; writers queue on busy_timeout (Connection::kBusyTimeoutMs).
//
// Pool<C> holds connections of type C, a Connection subclass constructible from the path (the
// provider's schema and prepared statements). At most kMaxIdle (16) idle connections are kept; a
// connection given back while still inside a transaction (a rollback that failed) would hold the
// write lock and leak its state into the next caller, so it is closed instead. acquire() and the
// leases may be used from any thread; the pool must outlive its leases.
//
// No lock is shared by every thread: the idle connections sit in kShards shards, each with its own
// mutex and at most kMaxIdle / kShards connections. A thread takes from and gives back to the
// shard of its turn (the order in which threads first used any pool of this library), so a
// thread's connection normally comes back to it and two threads share a lock only when their
// turns fall on the same shard. A thread whose shard is empty takes from the next shard that holds
// one (each shard's count is read without its lock; only a shard that seems to hold one is locked)
// before it opens a connection; one whose shard is full gives to the next shard with room, else
// closes it.
// Nothing is kept per thread: a pool destroyed (its plugin unloaded or updated) closes all its
// idle connections, whatever threads gave them back.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <platform/sdk/host.hpp>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/sqlite/connection.hpp"

namespace common::sqlite {

// The connection-type-independent part of Pool<C>.
class PoolCore {
public:
    static constexpr size_t kMaxIdle = 16;
    static constexpr size_t kShards = 8;

    const std::string& path() const { return path_; }
    size_t idle_count();  // idle connections, all shards (a snapshot; for tests)

protected:
    explicit PoolCore(std::string path);
    // Throws SQLite::Exception when the file system cannot do WAL (the first connection's check).
    static void require_wal(Connection& c);
    std::unique_ptr<Connection> take_idle();  // nullptr when none is idle
    void give_back(std::unique_ptr<Connection> c);

private:
    static_assert(kMaxIdle % kShards == 0, "every shard keeps the same number");
    struct alignas(64) Shard {  // a cache line each: threads on other shards do not share it
        std::mutex mutex;
        std::vector<std::unique_ptr<Connection>> idle;  // at most kMaxIdle / kShards
        std::atomic<size_t> count{0};  // idle.size(), written under mutex, read without it
    };
    std::string path_;
    std::array<Shard, kShards> shards_;
};

template <class C>
class Pool : public PoolCore {
    static_assert(std::is_base_of_v<Connection, C>, "Pool<C>: C must derive from Connection");

public:
    // Opens one connection now: throws (SQLite::Exception) if the file is unusable.
    explicit Pool(std::string path) : PoolCore(std::move(path)) {
        auto first = std::make_unique<C>(this->path());
        require_wal(*first);
        give_back(std::move(first));
    }

    class Lease {
    public:
        Lease(Pool* pool, std::unique_ptr<C> c) : pool_(pool), c_(std::move(c)) {}
        Lease(Lease&&) = default;
        ~Lease() {
            if (c_) pool_->give_back(std::move(c_));
        }
        C* operator->() const { return c_.get(); }
        C& operator*() const { return *c_; }

    private:
        Pool* pool_;
        std::unique_ptr<C> c_;
    };

    Lease acquire() {
        if (auto idle = take_idle())
            return Lease(this, std::unique_ptr<C>(static_cast<C*>(idle.release())));
        return Lease(this, std::make_unique<C>(path()));
    }
};

// The database file a provider's config names, {"path": "<file>"}, with its parent directories
// created. Throws std::runtime_error starting with `provider` ("store-sqlite: ...") when the path is
// missing or empty, is not a file path (":memory:", "file:..."; the message adds `in_memory_hint`,
// e.g. "use store-memory for an in-memory store"), or its directory cannot be created.
std::string database_path(const platform::json& config, const std::string& provider,
                          const std::string& in_memory_hint);

// Pool<C> on database_path(config, ...): failing to open is std::runtime_error
// "<provider>: cannot open database '<path>': <why>".
template <class C>
Pool<C> open_pool(const platform::json& config, const std::string& provider,
                  const std::string& in_memory_hint) {
    const std::string path = database_path(config, provider, in_memory_hint);
    try {
        return Pool<C>(path);
    } catch (const std::exception& e) {
        throw std::runtime_error(provider + ": cannot open database '" + path + "': " + e.what());
    }
}

}  // namespace common::sqlite
