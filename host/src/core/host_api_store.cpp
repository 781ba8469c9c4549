// The store functions of the host table (the plugin's own table) and of the privileged "store"
// sub-table (any table), both through the profile's store provider.
#include <algorithm>
#include <cstring>
#include <platform/host/core/store_ops.hpp>
#include <vector>

#include "host_table.hpp"

namespace platform::host::host_table {

namespace {

// The store provider and a table: the plugin's own ("one table per service") or a named one.
struct StoreRef {
    const platform_store_provider_t* table = nullptr;
    void* inst = nullptr;
    std::string name;
};
StoreRef store_of(platform_host_ctx_t* c, std::string table) {
    Plugin* p = hctx(c).runtime->provider("store");
    if (!p) return {};
    return {static_cast<const platform_store_provider_t*>(p->desc->provider), p->instance,
            std::move(table)};
}
StoreRef own_store(platform_host_ctx_t* c) {
    return store_of(c, hctx(c).plugin->id);
}

platform_status_t get_in(platform_host_ctx_t* c, const StoreRef& s, platform_str_t key,
                         platform_bytes_sink_fn sink, void* user) {
    if (!s.table) return PLATFORM_UNAVAILABLE;
    return s.table->get(s.inst, view(s.name), key, now(c), sink, user);
}
bool declares(const StoreRef& s, uint64_t feature) {
    return (s.table->features & feature) == feature;
}
platform_status_t put_in(platform_host_ctx_t* c, const StoreRef& s, platform_str_t key,
                         platform_str_t value, int64_t ttl) {
    if (!s.table) return PLATFORM_UNAVAILABLE;
    if (ttl < 0) return PLATFORM_INVALID_ARGUMENT;
    if (ttl > 0 && !declares(s, PLATFORM_STORE_TTL)) return PLATFORM_UNSUPPORTED;
    return s.table->put(s.inst, view(s.name), key, value, ttl > 0 ? now(c) + ttl : 0);
}
platform_status_t delete_in(platform_host_ctx_t* c, const StoreRef& s, platform_str_t key) {
    if (!s.table) return PLATFORM_UNAVAILABLE;
    // The provider's del has no clock: an expired, unpurged record must still read as absent.
    auto ignore = [](void*, platform_str_t) {};
    platform_status_t st = s.table->get(s.inst, view(s.name), key, now(c), ignore, nullptr);
    if (st != PLATFORM_OK) return st;
    return s.table->del(s.inst, view(s.name), key);
}
// A provider without PLATFORM_STORE_PREFIX may ignore the prefix: the host then filters the keys
// and counts offset and limit itself, so an owner-scoped scan never sees another owner's records.
struct PrefixFilter {
    std::string_view prefix;
    uint32_t skip, limit, sent;
    platform_record_sink_fn sink;
    void* user;
    static bool next(void* u, platform_str_t key, platform_str_t value) {
        auto* f = static_cast<PrefixFilter*>(u);
        if (view_of(key).substr(0, f->prefix.size()) != f->prefix) return true;
        if (f->skip) {
            --f->skip;
            return true;
        }
        ++f->sent;
        bool more = !f->sink || f->sink(f->user, key, value);
        return more && !(f->limit && f->sent >= f->limit);
    }
};
platform_status_t scan_in(platform_host_ctx_t* c, const StoreRef& s, const platform_scan_t* scan,
                          platform_record_sink_fn sink, void* user) {
    if (!s.table) return PLATFORM_UNAVAILABLE;
    if (!scan) return PLATFORM_INVALID_ARGUMENT;
    platform_scan_t copy{};  // normalise an older, smaller struct
    std::memcpy(&copy, scan, std::min<size_t>(scan->struct_size, sizeof copy));
    copy.struct_size = sizeof copy;
    if (copy.prefix.len && !declares(s, PLATFORM_STORE_PREFIX)) {
        PrefixFilter f{view_of(copy.prefix), copy.offset, copy.limit, 0, sink, user};
        copy.offset = copy.limit = 0;
        return s.table->scan(s.inst, view(s.name), &copy, now(c), &PrefixFilter::next, &f);
    }
    return s.table->scan(s.inst, view(s.name), &copy, now(c), sink, user);
}

// (1.3) Compare-and-set and batches reach the provider only when it declares the feature and its
// table (by struct_size) has the function; otherwise UNSUPPORTED.
platform_status_t cas_in(platform_host_ctx_t* c, const StoreRef& s, platform_str_t key,
                         const platform_str_t* expected, const platform_str_t* value,
                         int64_t expires_at_ms) {
    if (!s.table) return PLATFORM_UNAVAILABLE;
    if (!declares(s, PLATFORM_STORE_CAS) ||
        !PLATFORM_HAS_FIELD(platform_store_provider_t, s.table, cas) || !s.table->cas)
        return PLATFORM_UNSUPPORTED;
    if (expires_at_ms < 0) return PLATFORM_INVALID_ARGUMENT;
    if (!value) expires_at_ms = 0;
    if (expires_at_ms > 0 && !declares(s, PLATFORM_STORE_TTL)) return PLATFORM_UNSUPPORTED;
    return s.table->cas(s.inst, view(s.name), key, expected, value, expires_at_ms, now(c));
}
platform_status_t batch_in(const StoreRef& s, const platform_store_op_t* ops, uint32_t count,
                           uint32_t stride) {
    if (!s.table) return PLATFORM_UNAVAILABLE;
    if (!declares(s, PLATFORM_STORE_TRANSACTIONS) ||
        !PLATFORM_HAS_FIELD(platform_store_provider_t, s.table, batch) || !s.table->batch)
        return PLATFORM_UNSUPPORTED;
    if (count == 0) return PLATFORM_OK;
    // Normalise the plugin's ops into the host's layout, refusing the whole batch before the
    // provider sees any of it.
    std::vector<platform_store_op_t> copy(count);
    for (uint32_t i = 0; i < count; ++i) {
        platform_store_op_t& op = copy[i];
        if (!read_store_op(ops, stride, i, op)) return PLATFORM_INVALID_ARGUMENT;
        if (op.kind == PLATFORM_STORE_OP_DEL) {
            op.value = {};
            op.expires_at_ms = 0;
        } else if (op.kind != PLATFORM_STORE_OP_PUT || op.expires_at_ms < 0) {
            return PLATFORM_INVALID_ARGUMENT;
        } else if (op.expires_at_ms > 0 && !declares(s, PLATFORM_STORE_TTL)) {
            return PLATFORM_UNSUPPORTED;
        }
    }
    return s.table->batch(s.inst, view(s.name), copy.data(), count, sizeof(platform_store_op_t));
}

}  // namespace

platform_status_t store_get(platform_host_ctx_t* c, platform_str_t key, platform_bytes_sink_fn sink,
                            void* user) {
    return get_in(c, own_store(c), key, sink, user);
}
platform_status_t store_put(platform_host_ctx_t* c, platform_str_t key, platform_str_t value,
                            int64_t ttl) {
    return put_in(c, own_store(c), key, value, ttl);
}
platform_status_t store_delete(platform_host_ctx_t* c, platform_str_t key) {
    return delete_in(c, own_store(c), key);
}
platform_status_t store_scan(platform_host_ctx_t* c, const platform_scan_t* scan,
                             platform_record_sink_fn sink, void* user) {
    return scan_in(c, own_store(c), scan, sink, user);
}
platform_status_t store_cas(platform_host_ctx_t* c, platform_str_t key,
                            const platform_str_t* expected, const platform_str_t* value,
                            int64_t expires_at_ms) {
    return cas_in(c, own_store(c), key, expected, value, expires_at_ms);
}
platform_status_t store_batch(platform_host_ctx_t* c, const platform_store_op_t* ops,
                              uint32_t count, uint32_t stride) {
    return batch_in(own_store(c), ops, count, stride);
}

namespace store {

platform_status_t get(platform_host_ctx_t* c, platform_str_t t, platform_str_t k,
                      platform_bytes_sink_fn sink, void* u) {
    return get_in(c, store_of(c, str(t)), k, sink, u);
}
platform_status_t put(platform_host_ctx_t* c, platform_str_t t, platform_str_t k, platform_str_t v,
                      int64_t ttl) {
    return put_in(c, store_of(c, str(t)), k, v, ttl);
}
platform_status_t del(platform_host_ctx_t* c, platform_str_t t, platform_str_t k) {
    return delete_in(c, store_of(c, str(t)), k);
}
platform_status_t scan(platform_host_ctx_t* c, platform_str_t t, const platform_scan_t* scan,
                       platform_record_sink_fn sink, void* u) {
    return scan_in(c, store_of(c, str(t)), scan, sink, u);
}
platform_status_t cas(platform_host_ctx_t* c, platform_str_t t, platform_str_t k,
                      const platform_str_t* expected, const platform_str_t* value,
                      int64_t expires_at_ms) {
    return cas_in(c, store_of(c, str(t)), k, expected, value, expires_at_ms);
}
platform_status_t batch(platform_host_ctx_t* c, platform_str_t t, const platform_store_op_t* ops,
                        uint32_t count, uint32_t stride) {
    return batch_in(store_of(c, str(t)), ops, count, stride);
}
platform_status_t tables(platform_host_ctx_t* c, platform_bytes_sink_fn sink, void* user) {
    auto s = store_of(c, "");
    if (!s.table) return PLATFORM_UNAVAILABLE;
    if (!PLATFORM_HAS_FIELD(platform_store_provider_t, s.table, tables) || !s.table->tables)
        return PLATFORM_UNSUPPORTED;
    return s.table->tables(s.inst, sink, user);
}

}  // namespace store

}  // namespace platform::host::host_table
