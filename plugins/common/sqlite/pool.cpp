#include "common/sqlite/pool.hpp"

#include <sqlite3.h>

#include <filesystem>

namespace common::sqlite {

void PoolCore::require_wal(Connection& c) {
    if (c.db.execAndGet("PRAGMA journal_mode").getString() != "wal")
        throw SQLite::Exception("the file system does not support WAL mode");
}

std::unique_ptr<Connection> PoolCore::take_idle() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (idle_.empty()) return nullptr;
    auto c = std::move(idle_.back());
    idle_.pop_back();
    return c;
}

void PoolCore::give_back(std::unique_ptr<Connection> c) {
    if (!sqlite3_get_autocommit(c->db.getHandle())) return;  // inside a transaction: closed
    std::lock_guard<std::mutex> lock(mutex_);
    if (idle_.size() < kMaxIdle) idle_.push_back(std::move(c));
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
