// store-minimal — test-only: the smallest store provider that is still useful, so the store
// conformance suite can prove that it tests exactly the declared features. It declares no
// feature at all: get, put, del and a scan of the whole table in no particular order (hash maps).
// No TTL (expires_at_ms is ignored: the host refuses expiring writes to it), no prefix (the scan
// ignores it: the host filters), no order, not persistent, no compare-and-set, no batches (cas and
// batch are NULL in its table).
//
// Built into <build>/tests/plugins/store-minimal/, a folder the `test` profile does not scan.
#include <mutex>
#include <platform/sdk/provider.hpp>
#include <platform/sdk/store_provider.hpp>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace store_minimal {

class MinimalStore {
public:
    MinimalStore(const platform::Host&, const platform::json&) {}

    bool get(std::string_view table, std::string_view key, int64_t, const platform::ValueFn& fn) {
        std::string value;
        {
            std::lock_guard<std::mutex> g(mutex_);
            auto t = tables_.find(std::string(table));
            if (t == tables_.end()) return false;
            auto r = t->second.find(std::string(key));
            if (r == t->second.end()) return false;
            value = r->second;
        }
        fn(value);
        return true;
    }
    void put(std::string_view table, std::string_view key, std::string_view value, int64_t) {
        std::lock_guard<std::mutex> g(mutex_);
        tables_[std::string(table)][std::string(key)] = std::string(value);
    }
    bool del(std::string_view table, std::string_view key) {
        std::lock_guard<std::mutex> g(mutex_);
        auto t = tables_.find(std::string(table));
        return t != tables_.end() && t->second.erase(std::string(key)) > 0;
    }
    // Ignores the prefix and the order asked for; limit and offset count in the map's own order.
    void scan(std::string_view table, const platform::ScanQuery& q, int64_t,
              const platform::RowFn& fn) {
        std::vector<std::pair<std::string, std::string>> rows;
        {
            std::lock_guard<std::mutex> g(mutex_);
            auto t = tables_.find(std::string(table));
            if (t == tables_.end()) return;
            uint32_t skip = q.offset;
            for (const auto& [k, v] : t->second) {
                if (skip) {
                    --skip;
                    continue;
                }
                rows.emplace_back(k, v);
                if (q.limit && rows.size() >= q.limit) break;
            }
        }
        for (const auto& [k, v] : rows)
            if (!fn(k, v)) break;
    }

private:
    std::mutex mutex_;
    std::unordered_map<std::string, std::unordered_map<std::string, std::string>> tables_;
};

using Table = platform::StoreProviderTable<MinimalStore, 0>;

}  // namespace store_minimal

PLATFORM_PROVIDER(store_minimal::MinimalStore, PLATFORM_KIND_STORE, "store-minimal", "1.0.0",
                  "Test-only store that declares no feature (get, put, del, unordered scans)",
                  &store_minimal::Table::table)
