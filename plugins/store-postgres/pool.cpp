// store-postgres — the schema, the prepared statements and the connection pool.
#include "pool.hpp"

#include <chrono>
#include <platform/sdk/error.hpp>

namespace store_postgres {

namespace {

// A fixed advisory lock key ("store-pg" in ASCII) serialising schema creation across replicas.
constexpr const char* kSchemaLock = "SELECT pg_advisory_xact_lock(8318822101812536167)";

// Live records as of $now: 0 = never expires.
std::string live(const std::string& now) {
    return "(expires_at = 0 OR expires_at > " + now + ")";
}

std::string scan_sql(const std::string& t, bool bounded, bool desc) {
    // $1 table, $2 prefix (lower bound), $3 now, $4 limit, $5 offset, $6 upper bound.
    return "SELECT key, value FROM " + t + " WHERE tbl = $1 AND key >= $2 AND " + live("$3") +
           (bounded ? " AND key < $6" : "") + " ORDER BY key " + (desc ? "DESC" : "ASC") +
           " LIMIT $4 OFFSET $5";
}

void prepare_all(pqxx::connection& c, const std::string& t) {
    c.prepare(stmt::get,
              "SELECT value FROM " + t + " WHERE tbl = $1 AND key = $2 AND " + live("$3"));
    c.prepare(stmt::put, "INSERT INTO " + t +
                             " AS r (tbl, key, value, expires_at) VALUES ($1, $2, $3, $4)"
                             " ON CONFLICT (tbl, key) DO UPDATE"
                             " SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at");
    c.prepare(stmt::del, "DELETE FROM " + t + " WHERE tbl = $1 AND key = $2");
    c.prepare(stmt::purge, "DELETE FROM " + t + " WHERE expires_at > 0 AND expires_at <= $1");
    // Inserts, or replaces a record that has expired; a live record (even one being inserted by a
    // concurrent transaction, which ON CONFLICT waits for) makes it write nothing.
    c.prepare(stmt::cas_insert, "INSERT INTO " + t +
                                    " AS r (tbl, key, value, expires_at) VALUES ($1, $2, $3, $4)"
                                    " ON CONFLICT (tbl, key) DO UPDATE"
                                    " SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at"
                                    " WHERE r.expires_at <> 0 AND r.expires_at <= $5");
    // READ COMMITTED re-checks the WHERE against a row a concurrent writer changed first, so the
    // compare and the write are one atomic step.
    c.prepare(stmt::cas_update, "UPDATE " + t +
                                    " SET value = $3, expires_at = $4"
                                    " WHERE tbl = $1 AND key = $2 AND value = $6 AND " +
                                    live("$5"));
    c.prepare(stmt::cas_delete,
              "DELETE FROM " + t + " WHERE tbl = $1 AND key = $2 AND value = $4 AND " + live("$3"));
    // "Must be absent, then delete": drops an expired, unpurged record and answers whether a live
    // one exists (then the compare failed).
    c.prepare(stmt::cas_absent,
              "WITH gone AS (DELETE FROM " + t +
                  " WHERE tbl = $1 AND key = $2 AND expires_at <> 0 AND expires_at <= $3)"
                  " SELECT EXISTS (SELECT 1 FROM " +
                  t + " WHERE tbl = $1 AND key = $2 AND " + live("$3") + ")");
    c.prepare(stmt::tables, "SELECT DISTINCT tbl FROM " + t + " ORDER BY tbl");
    for (int b = 0; b < 2; ++b)
        for (int d = 0; d < 2; ++d) c.prepare(stmt::scan(b, d), scan_sql(t, b, d));
}

}  // namespace

const char* stmt::scan(bool bounded, bool desc) {
    static const char* names[2][2] = {{"scan_asc", "scan_desc"},
                                      {"scan_bounded_asc", "scan_bounded_desc"}};
    return names[bounded][desc];
}

Pool::Pool(const Config& config) : config_(config) {
    auto c = std::make_unique<pqxx::connection>(config_.dsn);
    const std::string schema = c->quote_name(config_.schema);
    table_ = schema + ".records";
    {
        pqxx::work w(*c);
        w.exec(kSchemaLock);
        // "already exists, skipping" notices would reach stderr through libpqxx's notice handler.
        w.exec("SET LOCAL client_min_messages = warning");
        w.exec("CREATE SCHEMA IF NOT EXISTS " + schema);
        // Keys and values are bytea: any bytes, NUL included, compared and ordered bytewise.
        w.exec("CREATE TABLE IF NOT EXISTS " + table_ +
               " (tbl bytea NOT NULL, key bytea NOT NULL, value bytea NOT NULL,"
               " expires_at bigint NOT NULL DEFAULT 0, PRIMARY KEY (tbl, key))");
        w.exec("CREATE INDEX IF NOT EXISTS records_expiry ON " + table_ +
               " (expires_at) WHERE expires_at > 0");
        w.commit();
    }
    prepare_all(*c, table_);
    open_ = 1;
    idle_.push_back(std::move(c));
}

std::unique_ptr<pqxx::connection> Pool::open() {
    auto c = std::make_unique<pqxx::connection>(config_.dsn);
    prepare_all(*c, table_);
    return c;
}

Pool::Lease Pool::acquire() {
    std::unique_lock<std::mutex> lock(m_);
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(config_.acquire_timeout_ms);
    while (idle_.empty() && open_ >= config_.pool_size)
        if (freed_.wait_until(lock, deadline) == std::cv_status::timeout && idle_.empty() &&
            open_ >= config_.pool_size)
            throw platform::unavailable("store-postgres: all " + std::to_string(config_.pool_size) +
                                        " connections stayed busy for " +
                                        std::to_string(config_.acquire_timeout_ms) + " ms");
    if (!idle_.empty()) {
        auto c = std::move(idle_.back());
        idle_.pop_back();
        return Lease(*this, std::move(c));
    }
    ++open_;  // counted while it opens, so the limit holds
    lock.unlock();
    try {
        return Lease(*this, open());
    } catch (...) {
        lock.lock();
        --open_;
        freed_.notify_one();
        throw;
    }
}

void Pool::give_back(std::unique_ptr<pqxx::connection> c) {
    {
        std::lock_guard<std::mutex> lock(m_);
        if (c && c->is_open())
            idle_.push_back(std::move(c));
        else
            --open_;
    }
    freed_.notify_one();
}

}  // namespace store_postgres
