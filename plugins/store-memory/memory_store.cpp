// store-memory — table operations. See memory_store.hpp for the contract.
#include "memory_store.hpp"

#include <algorithm>
#include <mutex>

namespace store_memory {

MemoryStore::MemoryStore(const platform::Host& host, const platform::json&) : host_(host) {}

// The clock of the most recent call, not the largest ever seen: a business clock set back (the
// manual clock) must not purge records that are live at the new time.
void MemoryStore::seen(int64_t now_ms) const {
    latest_now_.store(now_ms, std::memory_order_relaxed);
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

MemoryStore::Table& MemoryStore::table_for_write(std::string_view table) {
    auto t = tables_.find(table);
    if (t == tables_.end()) t = tables_.emplace(std::string(table), Table{}).first;
    return t->second;
}

void MemoryStore::set(Table& tab, std::string k, std::string value, int64_t expires_at_ms) {
    if (expires_at_ms < 0) expires_at_ms = 0;
    auto [it, inserted] = tab.records.try_emplace(k);
    if (!inserted && it->second.expires_at_ms > 0)
        tab.expiries.erase({it->second.expires_at_ms, k});
    it->second.value = std::move(value);
    it->second.expires_at_ms = expires_at_ms;
    if (expires_at_ms > 0) tab.expiries.emplace(expires_at_ms, std::move(k));
}

void MemoryStore::put(std::string_view table, std::string_view key, std::string value,
                      int64_t expires_at_ms) {
    std::string k(key);
    std::unique_lock lock(mutex_);
    Table& tab = table_for_write(table);
    set(tab, std::move(k), std::move(value), expires_at_ms);
    // A writer's clock is before the expiry it sets: when the most recent call's clock is later
    // (a business clock set back since, and this put the first call after it), purge no further
    // than that, so the record just written stays.
    const int64_t latest = latest_now_.load(std::memory_order_relaxed);
    purge(tab, expires_at_ms > 0 ? std::min(latest, expires_at_ms - 1) : latest);
}

bool MemoryStore::cas(std::string_view table, std::string_view key,
                      std::optional<std::string_view> expected,
                      std::optional<std::string_view> value, int64_t expires_at_ms,
                      int64_t now_ms) {
    seen(now_ms);
    std::string k(key), v(value.value_or(std::string_view()));  // allocate before locking
    std::unique_lock lock(mutex_);
    const Record* cur = nullptr;
    if (auto t = tables_.find(table); t != tables_.end()) {
        auto r = t->second.records.find(key);
        if (r != t->second.records.end() && !expired(r->second, now_ms)) cur = &r->second;
    }
    if (expected ? !cur || cur->value != *expected : cur != nullptr) return false;
    if (value) {
        Table& tab = table_for_write(table);
        set(tab, std::move(k), std::move(v), expires_at_ms);
        purge(tab, latest_now_.load(std::memory_order_relaxed));
    } else {
        erase(table, key);  // also drops an expired, unpurged record
    }
    return true;
}

void MemoryStore::batch(std::string_view table, const std::vector<platform::BatchOp>& ops) {
    std::vector<std::pair<std::string, std::string>> copies;  // allocate before locking
    copies.reserve(ops.size());
    for (const auto& op : ops) copies.emplace_back(std::string(op.key), std::string(op.value));
    std::unique_lock lock(mutex_);
    for (size_t i = 0; i < ops.size(); ++i) {
        if (ops[i].kind == platform::BatchOp::put)
            set(table_for_write(table), std::move(copies[i].first), std::move(copies[i].second),
                ops[i].expires_at_ms);
        else
            erase(table, ops[i].key);
    }
    if (auto t = tables_.find(table); t != tables_.end())
        purge(t->second, latest_now_.load(std::memory_order_relaxed));
}

bool MemoryStore::del(std::string_view table, std::string_view key) {
    std::unique_lock lock(mutex_);
    return erase(table, key);
}

bool MemoryStore::erase(std::string_view table, std::string_view key) {
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

std::vector<Row> MemoryStore::scan(std::string_view table, const ScanQuery& q,
                                   int64_t now_ms) const {
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
