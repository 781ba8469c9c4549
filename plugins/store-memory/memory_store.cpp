// store-memory — table operations. See memory_store.hpp for the contract.
#include "memory_store.hpp"

#include <mutex>

namespace store_memory {


MemoryStore::MemoryStore(const platform::Host& host, const platform::json&) : host_(host) {}

void MemoryStore::seen(int64_t now_ms) const {
    int64_t cur = latest_now_.load(std::memory_order_relaxed);
    while (now_ms > cur && !latest_now_.compare_exchange_weak(cur, now_ms, std::memory_order_relaxed)) {
    }
}

void MemoryStore::purge(Table& t, int64_t now_ms) {
    while (!t.expiries.empty() && t.expiries.begin()->first <= now_ms) {
        t.records.erase(t.expiries.begin()->second);
        t.expiries.erase(t.expiries.begin());
    }
}

std::optional<std::string> MemoryStore::get(std::string_view table, std::string_view key,
                                            int64_t now_ms) const {
    seen(now_ms);
    std::shared_lock lock(mutex_);
    auto t = tables_.find(table);
    if (t == tables_.end()) return std::nullopt;
    auto r = t->second.records.find(key);
    if (r == t->second.records.end() || expired(r->second, now_ms)) return std::nullopt;
    return r->second.value;
}

void MemoryStore::put(std::string_view table, std::string_view key, std::string value,
                      int64_t expires_at_ms) {
    if (expires_at_ms < 0) expires_at_ms = 0;
    std::string k(key);
    std::unique_lock lock(mutex_);
    auto t = tables_.find(table);
    if (t == tables_.end()) t = tables_.emplace(std::string(table), Table{}).first;
    Table& tab = t->second;
    auto [it, inserted] = tab.records.try_emplace(k);
    if (!inserted && it->second.expires_at_ms > 0) tab.expiries.erase({it->second.expires_at_ms, k});
    it->second.value = std::move(value);
    it->second.expires_at_ms = expires_at_ms;
    if (expires_at_ms > 0) tab.expiries.emplace(expires_at_ms, std::move(k));
    purge(tab, latest_now_.load(std::memory_order_relaxed));
}

bool MemoryStore::del(std::string_view table, std::string_view key) {
    std::unique_lock lock(mutex_);
    auto t = tables_.find(table);
    if (t == tables_.end()) return false;
    Table& tab = t->second;
    auto r = tab.records.find(key);
    if (r == tab.records.end()) return false;
    if (r->second.expires_at_ms > 0) tab.expiries.erase({r->second.expires_at_ms, r->first});
    tab.records.erase(r);
    if (tab.records.empty()) tables_.erase(t);
    return true;
}

std::vector<Row> MemoryStore::scan(std::string_view table, const ScanQuery& q, int64_t now_ms) const {
    seen(now_ms);
    std::vector<Row> out;
    std::shared_lock lock(mutex_);
    auto t = tables_.find(table);
    if (t == tables_.end()) return out;
    const auto& recs = t->second.records;
    auto first = recs.lower_bound(q.prefix);
    auto succ = platform::prefix_successor(q.prefix);
    auto last = succ ? recs.lower_bound(*succ) : recs.end();
    uint32_t skip = q.offset;
    auto visit = [&](const auto& kv) {  // false when the limit is reached
        if (expired(kv.second, now_ms)) return true;
        if (skip) {
            --skip;
            return true;
        }
        out.emplace_back(kv.first, kv.second.value);
        return !(q.limit && out.size() >= q.limit);
    };
    if (q.descending) {
        for (auto it = last; it != first;)
            if (!visit(*--it)) break;
    } else {
        for (auto it = first; it != last; ++it)
            if (!visit(*it)) break;
    }
    return out;
}

std::vector<std::string> MemoryStore::tables() const {
    std::shared_lock lock(mutex_);
    std::vector<std::string> out;
    for (const auto& [name, t] : tables_)
        if (!t.records.empty()) out.push_back(name);
    return out;
}

}  // namespace store_memory
