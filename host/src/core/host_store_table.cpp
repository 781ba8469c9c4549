// The host's own tables in the store provider (host_store_table.hpp).
#include <algorithm>
#include <chrono>
#include <platform/host/core/host_store_table.hpp>
#include <platform/host/core/runtime.hpp>
#include <random>
#include <thread>

namespace platform::host {

namespace {

struct Store {
    const platform_store_provider_t* table = nullptr;
    void* inst = nullptr;
};
Store store_of(const Runtime& rt) {
    Plugin* p = rt.provider("store");
    if (!p || !p->instance || !p->desc || !p->desc->provider) return {};
    return {static_cast<const platform_store_provider_t*>(p->desc->provider), p->instance};
}
platform_str_t view(const std::string& s) {
    return {s.data(), s.size()};
}
void assign(void* user, platform_str_t b) {
    static_cast<std::string*>(user)->assign(b.ptr ? b.ptr : "", b.len);
}
struct Collect {
    std::vector<std::pair<std::string, std::string>>* out;
    const std::string* prefix;
    static bool next(void* user, platform_str_t k, platform_str_t v) {
        auto* c = static_cast<Collect*>(user);
        std::string key(k.ptr ? k.ptr : "", k.len);
        if (key.compare(0, c->prefix->size(), *c->prefix) == 0)  // a provider without PREFIX
            c->out->emplace_back(std::move(key), std::string(v.ptr ? v.ptr : "", v.len));
        return true;
    }
};

}  // namespace

HostStoreTable::HostStoreTable(const Runtime& runtime, std::string table)
    : runtime_(runtime), table_(std::move(table)) {}

bool HostStoreTable::available() const {
    return store_of(runtime_).table != nullptr;
}

bool HostStoreTable::has_cas() const {
    Store s = store_of(runtime_);
    return s.table && (s.table->features & PLATFORM_STORE_CAS) &&
           PLATFORM_HAS_FIELD(platform_store_provider_t, s.table, cas) && s.table->cas;
}

platform_status_t HostStoreTable::get(const std::string& key, int64_t now_ms,
                                      std::string& out) const {
    Store s = store_of(runtime_);
    if (!s.table) return PLATFORM_UNAVAILABLE;
    return s.table->get(s.inst, view(table_), view(key), now_ms, assign, &out);
}

platform_status_t HostStoreTable::put(const std::string& key, const std::string& value,
                                      int64_t expires_at_ms) const {
    Store s = store_of(runtime_);
    if (!s.table) return PLATFORM_UNAVAILABLE;
    if (expires_at_ms && !(s.table->features & PLATFORM_STORE_TTL))
        expires_at_ms = 0;  // the readers check the expiry written in the record too
    return s.table->put(s.inst, view(table_), view(key), view(value), expires_at_ms);
}

platform_status_t HostStoreTable::del(const std::string& key) const {
    Store s = store_of(runtime_);
    if (!s.table) return PLATFORM_UNAVAILABLE;
    return s.table->del(s.inst, view(table_), view(key));
}

platform_status_t HostStoreTable::cas(const std::string& key, const std::string* expected,
                                      const std::string* value, int64_t expires_at_ms,
                                      int64_t now_ms) const {
    Store s = store_of(runtime_);
    if (!s.table) return PLATFORM_UNAVAILABLE;
    if (!has_cas()) return PLATFORM_UNSUPPORTED;
    if (expires_at_ms && !(s.table->features & PLATFORM_STORE_TTL)) expires_at_ms = 0;
    platform_str_t e = expected ? view(*expected) : platform_str_t{};
    platform_str_t v = value ? view(*value) : platform_str_t{};
    return s.table->cas(s.inst, view(table_), view(key), expected ? &e : nullptr,
                        value ? &v : nullptr, expires_at_ms, now_ms);
}

platform_status_t HostStoreTable::scan(int64_t now_ms,
                                       std::vector<std::pair<std::string, std::string>>& out,
                                       const std::string& prefix) const {
    Store s = store_of(runtime_);
    if (!s.table) return PLATFORM_UNAVAILABLE;
    platform_scan_t scan{};
    scan.struct_size = sizeof scan;
    scan.prefix = view(prefix);
    scan.order = PLATFORM_ORDER_ASC;
    Collect c{&out, &prefix};
    return s.table->scan(s.inst, view(table_), &scan, now_ms, &Collect::next, &c);
}

void HostStoreTable::wait_after_conflict(int attempt) {
    if (attempt <= 0) return;
    static thread_local std::minstd_rand jitter{std::random_device{}()};
    const long cap = std::min(2'000L, 25L << std::min(attempt, 7));
    std::this_thread::sleep_for(
        std::chrono::microseconds(std::uniform_int_distribution<long>(0, cap)(jitter)));
}

}  // namespace platform::host
