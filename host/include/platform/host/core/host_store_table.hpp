// platform/host/core/host_store_table.hpp — one of the host's own tables in the profile's store
// provider (decision 72): `_nodes` (node records), `_registry` (registered services),
// `_ratelimit` (shared rate-limit counters), beside `_mcp` and `_grants`. No plugin owns a table
// starting with '_', so these are the host's alone; with a shared store (store-postgres) every
// replica reads and writes the same records.
//
// The provider is looked up at each call (Runtime::provider("store")), so a table made before the
// providers start works once they have. Every function is thread-safe and answers the provider's
// status: UNAVAILABLE when the profile has no store, NOT_FOUND for an absent key.
#pragma once

#include <platform/abi.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace platform::host {

class Runtime;

class HostStoreTable {
public:
    HostStoreTable(const Runtime& runtime, std::string table);

    const std::string& name() const { return table_; }
    // Whether the profile has a store provider (started).
    bool available() const;
    // Whether it compares and sets atomically (PLATFORM_STORE_CAS).
    bool has_cas() const;

    // now_ms: the time records expire by (0 < expires_at_ms <= now_ms are absent).
    platform_status_t get(const std::string& key, int64_t now_ms, std::string& out) const;
    platform_status_t put(const std::string& key, const std::string& value,
                          int64_t expires_at_ms) const;
    platform_status_t del(const std::string& key) const;
    // expected null = the key must be absent; value null = delete. CONFLICT when the live value
    // differs; UNSUPPORTED when the provider has no compare-and-set.
    platform_status_t cas(const std::string& key, const std::string* expected,
                          const std::string* value, int64_t expires_at_ms, int64_t now_ms) const;
    // Every live record whose key starts with `prefix`, in key order when the provider orders.
    platform_status_t scan(int64_t now_ms, std::vector<std::pair<std::string, std::string>>& out,
                           const std::string& prefix = "") const;

    // Waits a little before compare-and-set attempt `attempt` + 1 after a CONFLICT: a random
    // span up to 25 µs << attempt, at most 2 ms, so that replicas (or threads) writing the same
    // record do not retry in lockstep and starve one another. Attempt 0 does not wait.
    static void wait_after_conflict(int attempt);

private:
    const Runtime& runtime_;
    std::string table_;
};

}  // namespace platform::host
