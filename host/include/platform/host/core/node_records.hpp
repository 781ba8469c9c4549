// platform/host/core/node_records.hpp — every replica's node record in the store (decision 72), so
// the network service lists every host sharing the store, not only the one answering.
//
// Each host writes {id, address, metadata {proxy, profile}, services, started, last_seen} under
// its node id in the host table `_nodes` when it starts listening, again every kRefreshMs, and
// removes it on a clean stop. A record not refreshed within kLiveMs (a replica killed) is not
// listed, and expires from the store. Times are the business clock's (real in any deployment):
// every call to a store provider must use one clock, since stores purge expired records by the
// latest time they were given. Without a store provider only the host's own node is known
// (Runtime::network_nodes).
#pragma once

#include <atomic>
#include <nlohmann/json.hpp>
#include <optional>
#include <platform/host/core/host_store_table.hpp>
#include <string>
#include <vector>

namespace platform::host {

class NodeRecords {
public:
    static constexpr int64_t kRefreshMs = 15'000;
    static constexpr int64_t kLiveMs = 90'000;
    static constexpr const char* kTable = "_nodes";

    explicit NodeRecords(const Runtime& runtime);

    // Writes `record` (keyed by its "id") with "last_seen" = now_ms, expiring kLiveMs later.
    // False when the store refused it (logged once until a write succeeds again).
    bool write(nlohmann::json record, int64_t now_ms);
    // Removes node `id`'s record (a clean stop).
    void remove(const std::string& id);
    // Every live record (last_seen > now_ms - kLiveMs) but `self`'s, ordered by id; nullopt when
    // the store cannot be read (logged once until it can).
    std::optional<std::vector<nlohmann::json>> others(const std::string& self, int64_t now_ms);

private:
    HostStoreTable table_;
    std::atomic<bool> write_failing_{false}, read_failing_{false};
};

}  // namespace platform::host
