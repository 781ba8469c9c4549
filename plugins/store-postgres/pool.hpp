// store-postgres — a small pool of libpqxx connections, each with the store's prepared statements.
//
// A pqxx::connection must not be used by two threads at once, so every call leases one for its
// duration. At most `pool_size` connections are open; a caller finding none free waits up to
// `acquire_timeout_ms` (then UNAVAILABLE). Connections are opened lazily, and one that failed
// (pqxx::broken_connection: the server restarted, the socket dropped) is closed instead of
// given back, so the next caller opens a fresh one. The store copies every result out before it
// calls a sink, so a sink that re-enters the store never needs a second lease of its own.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <pqxx/pqxx>
#include <string>
#include <utility>
#include <vector>

#include "config.hpp"

namespace store_postgres {

// The prepared statements (names) every pooled connection has; the SQL is in pool.cpp.
namespace stmt {
inline constexpr const char* get = "get";
inline constexpr const char* put = "put";
inline constexpr const char* del = "del";
inline constexpr const char* purge = "purge";
inline constexpr const char* cas_insert = "cas_insert";  // expected absent, value set
inline constexpr const char* cas_update = "cas_update";  // expected value, value set
inline constexpr const char* cas_delete = "cas_delete";  // expected value, value deleted
inline constexpr const char* cas_absent = "cas_absent";  // expected absent, value deleted
inline constexpr const char* tables = "tables";
// scan(bounded, desc): with or without an upper key bound, ascending or descending.
const char* scan(bool bounded, bool desc);
}  // namespace stmt

class Pool {
public:
    // Opens one connection and creates the schema, table and index when missing (under an
    // advisory lock, so replicas starting together do not race). Throws pqxx errors.
    explicit Pool(const Config& config);

    class Lease {
    public:
        Lease(Pool& pool, std::unique_ptr<pqxx::connection> c) : pool_(&pool), c_(std::move(c)) {}
        Lease(Lease&& o) noexcept : pool_(std::exchange(o.pool_, nullptr)), c_(std::move(o.c_)) {}
        Lease(const Lease&) = delete;
        Lease& operator=(const Lease&) = delete;
        Lease& operator=(Lease&&) = delete;
        ~Lease() {
            if (pool_) pool_->give_back(std::move(c_));
        }
        pqxx::connection& operator*() { return *c_; }
        pqxx::connection* operator->() { return c_.get(); }
        void discard() { c_.reset(); }  // the connection failed: close it, never pool it

    private:
        Pool* pool_;
        std::unique_ptr<pqxx::connection> c_;
    };

    // A connection for one call: an idle one, a new one, or the first freed within the timeout.
    // Throws platform::unavailable on timeout, pqxx::broken_connection when connecting fails.
    Lease acquire();

    const std::string& table() const { return table_; }  // "schema".records, quoted

private:
    std::unique_ptr<pqxx::connection> open();
    void give_back(std::unique_ptr<pqxx::connection> c);

    Config config_;
    std::string table_;
    std::mutex m_;
    std::condition_variable freed_;
    std::vector<std::unique_ptr<pqxx::connection>> idle_;
    size_t open_ = 0;  // leased + idle (+ being opened)
};

}  // namespace store_postgres
