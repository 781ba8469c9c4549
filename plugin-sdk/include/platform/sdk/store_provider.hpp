// platform/sdk/store_provider.hpp — a platform_store_provider_t from a C++ class.
//
//   class MyStore {
//   public:
//       MyStore(const platform::Host& host, const platform::json& config);
//       bool get(std::string_view table, std::string_view key, int64_t now_ms, const platform::ValueFn& fn);
//       void put(std::string_view table, std::string_view key, std::string_view value, int64_t expires_at_ms);
//       bool del(std::string_view table, std::string_view key);   // false: no such record
//       void scan(std::string_view table, const platform::ScanQuery& q, int64_t now_ms, const platform::RowFn& fn);
//       // optional: std::vector<std::string> tables();
//       // with PLATFORM_STORE_CAS (true: swapped, false: the current value differs):
//       bool cas(std::string_view table, std::string_view key, std::optional<std::string_view> expected,
//                std::optional<std::string_view> value, int64_t expires_at_ms, int64_t now_ms);
//       // with PLATFORM_STORE_TRANSACTIONS (all or nothing; throw to refuse the whole batch):
//       void batch(std::string_view table, const std::vector<platform::BatchOp>& ops);
//   };
//   PLATFORM_PROVIDER(MyStore, PLATFORM_KIND_STORE, "store-mine", "1.0.0", "My store",
//                     &platform::StoreProviderTable<MyStore, PLATFORM_STORE_TTL | ...>::table)
//
// The adapter reads the host's scan request and batch ops within their struct_size, turns "not
// found" into PLATFORM_NOT_FOUND and a failed compare into PLATFORM_CONFLICT, and never lets an
// exception cross the ABI. cas and batch are in the table only when Features declares them (and
// declaring one without the member function does not compile).
#pragma once

#include <platform/abi.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <platform/sdk/entry.hpp>
#include <platform/sdk/error.hpp>
#include <platform/sdk/str.hpp>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace platform {

struct ScanQuery {
    std::string_view prefix;
    bool descending = false;
    uint32_t limit = 0;   // 0 = no limit
    uint32_t offset = 0;  // visible records skipped first
};

// Receive bytes lent for the duration of the call; a row sink returns false to stop.
using ValueFn = std::function<void(std::string_view)>;
using RowFn = std::function<bool(std::string_view key, std::string_view value)>;

// The smallest byte string greater than every string starting with `prefix` (the exclusive upper
// bound of a prefix range), or nullopt when there is none (empty or all 0xFF).
inline std::optional<std::string> prefix_successor(std::string_view prefix) {
    std::string s(prefix);
    while (!s.empty() && static_cast<unsigned char>(s.back()) == 0xFF) s.pop_back();
    if (s.empty()) return std::nullopt;
    s.back() = static_cast<char>(static_cast<unsigned char>(s.back()) + 1);
    return s;
}

// One write of a batch, as a provider sees it; the views are lent for the call.
struct BatchOp {
    enum Kind : uint32_t { put = PLATFORM_STORE_OP_PUT, del = PLATFORM_STORE_OP_DEL };
    Kind kind = put;
    std::string_view key;
    std::string_view value;     // put only
    int64_t expires_at_ms = 0;  // put only; absolute business time, 0 = never
};

// Reads an array of platform_store_op_t walked by `stride`, each element within its own
// struct_size (absent fields read as zero). Throws invalid_argument, naming the op, for NULL ops
// with count > 0, a stride or element too small to hold a key, an element larger than the
// stride, an unknown kind or a put with a negative expiry.
inline std::vector<BatchOp> read_store_ops(const platform_store_op_t* ops, uint32_t count,
                                           uint32_t stride) {
    std::vector<BatchOp> out;
    if (count == 0) return out;
    constexpr size_t kMin = offsetof(platform_store_op_t, key) + sizeof(platform_str_t);
    if (!ops) throw invalid_argument("batch: ops is NULL with count " + std::to_string(count));
    if (stride < kMin)
        throw invalid_argument("batch: op_stride " + std::to_string(stride) + " is too small");
    out.reserve(count);
    const auto* base = reinterpret_cast<const unsigned char*>(ops);
    for (uint32_t i = 0; i < count; ++i) {
        const unsigned char* at = base + size_t{i} * stride;
        uint32_t size = 0;
        std::memcpy(&size, at, sizeof size);
        const std::string which = "batch: op " + std::to_string(i);
        if (size < kMin || size > stride)
            throw invalid_argument(which + ": struct_size " + std::to_string(size) +
                                   " is out of range");
        platform_store_op_t op{};
        std::memcpy(&op, at, std::min<size_t>(size, sizeof op));
        BatchOp b;
        if (op.kind == PLATFORM_STORE_OP_PUT)
            b.kind = BatchOp::put;
        else if (op.kind == PLATFORM_STORE_OP_DEL)
            b.kind = BatchOp::del;
        else
            throw invalid_argument(which + ": unknown kind " + std::to_string(op.kind));
        b.key = view(op.key);
        if (b.kind == BatchOp::put) {
            if (op.expires_at_ms < 0)
                throw invalid_argument(which + ": expires_at_ms must not be negative");
            b.value = view(op.value);
            b.expires_at_ms = op.expires_at_ms;
        }
        out.push_back(b);
    }
    return out;
}

// Reads a scan request, honouring the struct_size the host gave (absent fields keep defaults).
inline ScanQuery scan_query(const platform_scan_t* s) {
    if (!s) throw invalid_argument("scan: missing request");
    ScanQuery q;
    if (PLATFORM_HAS_FIELD(platform_scan_t, s, prefix)) q.prefix = view(s->prefix);
    if (PLATFORM_HAS_FIELD(platform_scan_t, s, order))
        q.descending = s->order == PLATFORM_ORDER_DESC;
    if (PLATFORM_HAS_FIELD(platform_scan_t, s, limit)) q.limit = s->limit;
    if (PLATFORM_HAS_FIELD(platform_scan_t, s, offset)) q.offset = s->offset;
    return q;
}

template <class T, uint64_t Features>
struct StoreProviderTable {
    static T* self(void* inst) { return static_cast<T*>(inst); }
    static platform_str_t bytes(std::string_view s) {
        return platform_str_t{s.empty() ? "" : s.data(), s.size()};
    }

    static platform_status_t get(void* inst, platform_str_t table, platform_str_t key,
                                 int64_t now_ms, platform_bytes_sink_fn sink, void* user) {
        bool found = false;
        auto g = guard([&] {
            found = self(inst)->get(view(table), view(key), now_ms, [&](std::string_view v) {
                if (sink) sink(user, bytes(v));
            });
        });
        return g != PLATFORM_OK ? g : (found ? PLATFORM_OK : PLATFORM_NOT_FOUND);
    }
    static platform_status_t put(void* inst, platform_str_t table, platform_str_t key,
                                 platform_str_t value, int64_t expires_at_ms) {
        return guard([&] { self(inst)->put(view(table), view(key), view(value), expires_at_ms); });
    }
    static platform_status_t del(void* inst, platform_str_t table, platform_str_t key) {
        bool found = false;
        auto g = guard([&] { found = self(inst)->del(view(table), view(key)); });
        return g != PLATFORM_OK ? g : (found ? PLATFORM_OK : PLATFORM_NOT_FOUND);
    }
    static platform_status_t scan(void* inst, platform_str_t table, const platform_scan_t* s,
                                  int64_t now_ms, platform_record_sink_fn sink, void* user) {
        return guard([&] {
            self(inst)->scan(view(table), scan_query(s), now_ms,
                             [&](std::string_view k, std::string_view v) {
                                 return !sink || sink(user, bytes(k), bytes(v));
                             });
        });
    }

    // Optional: std::vector<std::string> T::tables() lists the tables that hold records.
    template <class U, class = void>
    struct has_tables : std::false_type {};
    template <class U>
    struct has_tables<U, std::void_t<decltype(std::declval<U&>().tables())>> : std::true_type {};
    static platform_status_t tables(void* inst, platform_bytes_sink_fn sink, void* user) {
        if constexpr (has_tables<T>::value) {
            return guard([&] {
                std::string out = "[";
                for (const auto& name : self(inst)->tables()) {
                    out += out.size() > 1 ? "," : "";
                    out += "\"";
                    for (char c : name) {
                        if (c == '"' || c == '\\') out += '\\';
                        if (static_cast<unsigned char>(c) < 0x20) continue;
                        out += c;
                    }
                    out += "\"";
                }
                out += "]";
                sink(user, bytes(out));
            });
        }
        (void)inst, (void)sink, (void)user;
        return PLATFORM_UNSUPPORTED;
    }

    // With PLATFORM_STORE_CAS: bool T::cas(table, key, optional expected, optional value,
    // expires_at_ms, now_ms), true when it swapped.
    template <class U, class = void>
    struct has_cas : std::false_type {};
    template <class U>
    struct has_cas<U, std::void_t<decltype(bool(std::declval<U&>().cas(
                          std::string_view(), std::string_view(), std::optional<std::string_view>(),
                          std::optional<std::string_view>(), int64_t(), int64_t())))>>
        : std::true_type {};
    static constexpr bool kCas = (Features & PLATFORM_STORE_CAS) != 0;
    static_assert(!kCas || has_cas<T>::value,
                  "declares PLATFORM_STORE_CAS but has no bool cas(table, key, expected, value, "
                  "expires_at_ms, now_ms)");
    static platform_status_t cas(void* inst, platform_str_t table, platform_str_t key,
                                 const platform_str_t* expected, const platform_str_t* value,
                                 int64_t expires_at_ms, int64_t now_ms) {
        if constexpr (kCas) {
            bool swapped = false;
            auto g = guard([&] {
                if (expires_at_ms < 0)
                    throw invalid_argument("cas: expires_at_ms must not be negative");
                std::optional<std::string_view> e, v;
                if (expected) e = view(*expected);
                if (value) v = view(*value);
                swapped = self(inst)->cas(view(table), view(key), e, v, expires_at_ms, now_ms);
            });
            return g != PLATFORM_OK ? g : (swapped ? PLATFORM_OK : PLATFORM_CONFLICT);
        }
        (void)inst, (void)table, (void)key, (void)expected, (void)value, (void)expires_at_ms,
            (void)now_ms;
        return PLATFORM_UNSUPPORTED;
    }

    // With PLATFORM_STORE_TRANSACTIONS: void T::batch(table, const std::vector<BatchOp>&),
    // applying every op or none (throwing).
    template <class U, class = void>
    struct has_batch : std::false_type {};
    template <class U>
    struct has_batch<U, std::void_t<decltype(std::declval<U&>().batch(
                            std::string_view(), std::declval<const std::vector<BatchOp>&>()))>>
        : std::true_type {};
    static constexpr bool kBatch = (Features & PLATFORM_STORE_TRANSACTIONS) != 0;
    static_assert(!kBatch || has_batch<T>::value,
                  "declares PLATFORM_STORE_TRANSACTIONS but has no void batch(table, const "
                  "std::vector<BatchOp>&)");
    static platform_status_t batch(void* inst, platform_str_t table, const platform_store_op_t* ops,
                                   uint32_t count, uint32_t stride) {
        if constexpr (kBatch) {
            return guard([&] {
                auto list = read_store_ops(ops, count, stride);
                if (!list.empty()) self(inst)->batch(view(table), list);
            });
        }
        (void)inst, (void)table, (void)ops, (void)count, (void)stride;
        return PLATFORM_UNSUPPORTED;
    }

    static inline const platform_store_provider_t table = {
        sizeof(platform_store_provider_t),
        Features,
        get,
        put,
        del,
        scan,
        has_tables<T>::value ? &StoreProviderTable::tables : nullptr,
        kCas ? &StoreProviderTable::cas : nullptr,
        kBatch ? &StoreProviderTable::batch : nullptr};
};

}  // namespace platform
