#include "common/sqlite/pool.hpp"

#include <sqlite3.h>

#include <atomic>
#include <filesystem>

namespace common::sqlite {

void PoolCore::require_wal(Connection& c) {
    if (c.db.execAndGet("PRAGMA journal_mode").getString() != "wal")
        throw SQLite::Exception("the file system does not support WAL mode");
}

namespace {

// The calling thread's number, in the order threads first ask (as the host's thread_turn(), which
// plugins cannot include): its shard in every pool is this modulo kShards.
size_t thread_turn() {
    static std::atomic<size_t> next{0};
    thread_local const size_t mine = next.fetch_add(1, std::memory_order_relaxed);
    return mine;
}

}  // namespace

PoolCore::PoolCore(std::string path) : path_(std::move(path)) {
    for (Shard& shard : shards_) shard.idle.reserve(kMaxIdle / kShards);  // no allocation locked
}

std::unique_ptr<Connection> PoolCore::take_idle() {
    const size_t first = thread_turn();
    for (size_t i = 0; i < kShards; ++i) {
        Shard& shard = shards_[(first + i) % kShards];
        if (shard.count.load(std::memory_order_relaxed) == 0) continue;
        std::lock_guard<std::mutex> lock(shard.mutex);
        if (shard.idle.empty()) continue;
        auto c = std::move(shard.idle.back());
        shard.idle.pop_back();
        shard.count.store(shard.idle.size(), std::memory_order_relaxed);
        return c;
    }
    return nullptr;
}

void PoolCore::give_back(std::unique_ptr<Connection> c) {
    if (!sqlite3_get_autocommit(c->db.getHandle())) return;  // inside a transaction: closed
    const size_t first = thread_turn();
    for (size_t i = 0; i < kShards; ++i) {
        Shard& shard = shards_[(first + i) % kShards];
        std::lock_guard<std::mutex> lock(shard.mutex);
        if (shard.idle.size() < kMaxIdle / kShards) {
            shard.idle.push_back(std::move(c));
            shard.count.store(shard.idle.size(), std::memory_order_relaxed);
            return;
        }
    }
    // every shard full: c is closed here, outside the shards' locks
}

size_t PoolCore::idle_count() {
    size_t n = 0;
    for (Shard& shard : shards_) {
        std::lock_guard<std::mutex> lock(shard.mutex);
        n += shard.idle.size();
    }
    return n;
}

std::string database_path(const platform::json& config, const std::string& provider,
                          const std::string& in_memory_hint) {
    auto it = config.find("path");
    if (it == config.end() || !it->is_string() || it->get<std::string>().empty())
        throw std::runtime_error(provider + ": config `path` (the database file) is required");
    std::string path = it->get<std::string>();
    if (path == ":memory:" || path.rfind("file:", 0) == 0)
        throw std::runtime_error(provider + ": config `path` must be a file path, got '" + path +
                                 "' (" + in_memory_hint + ")");
    auto parent = std::filesystem::path(path).parent_path();
    std::error_code ec;
    if (!parent.empty()) std::filesystem::create_directories(parent, ec);
    if (ec)
        throw std::runtime_error(provider + ": cannot create the directory of '" + path +
                                 "': " + ec.message());
    return path;
}

}  // namespace common::sqlite
