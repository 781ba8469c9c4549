// Node records in the store's `_nodes` table (node_records.hpp).
#include <spdlog/spdlog.h>

#include <algorithm>
#include <platform/host/core/node_records.hpp>
#include <platform/host/core/status.hpp>

namespace platform::host {

using nlohmann::json;

NodeRecords::NodeRecords(const Runtime& runtime) : table_(runtime, kTable) {}

bool NodeRecords::write(json record, int64_t now_ms) {
    if (!table_.available()) return false;
    record["last_seen"] = now_ms;
    const std::string id = record.value("id", "");
    const platform_status_t st = table_.put(id, record.dump(), now_ms + kLiveMs);
    if (st != PLATFORM_OK) {
        if (!write_failing_.exchange(true))
            spdlog::warn(
                "network: cannot write this node's record to the store ({}); other "
                "replicas will stop listing node {} after {} s",
                status_info(st).name, id, kLiveMs / 1000);
        return false;
    }
    if (write_failing_.exchange(false))
        spdlog::info("network: node {}'s record is written to the store again", id);
    return true;
}

void NodeRecords::remove(const std::string& id) {
    if (table_.available()) table_.del(id);
}

std::optional<std::vector<json>> NodeRecords::others(const std::string& self, int64_t now_ms) {
    if (!table_.available()) return std::nullopt;
    std::vector<std::pair<std::string, std::string>> rows;
    const platform_status_t st = table_.scan(now_ms, rows);
    if (st != PLATFORM_OK) {
        if (!read_failing_.exchange(true))
            spdlog::warn(
                "network: cannot read the other nodes' records from the store ({}); "
                "listing this node only",
                status_info(st).name);
        return std::nullopt;
    }
    if (read_failing_.exchange(false)) spdlog::info("network: node records readable again");
    std::vector<json> out;
    for (auto& [id, text] : rows) {
        if (id == self) continue;
        json r = json::parse(text, nullptr, false);
        if (!r.is_object() || !r.contains("last_seen") || !r["last_seen"].is_number_integer())
            continue;
        if (r["last_seen"].get<int64_t>() <= now_ms - kLiveMs) continue;  // a store without TTL
        r["id"] = id;
        out.push_back(std::move(r));
    }
    std::sort(out.begin(), out.end(), [](const json& a, const json& b) {
        return a["id"].get<std::string>() < b["id"].get<std::string>();
    });
    return out;
}

}  // namespace platform::host
