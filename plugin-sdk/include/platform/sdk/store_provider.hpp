// platform/sdk/store_provider.hpp — a platform_store_provider_t from a C++ class.
//
//   class MyStore {
//   public:
//       MyStore(const platform::Host& host, const platform::json& config);
//       bool get(std::string_view table, std::string_view key, int64_t now_ms, const platform::ValueFn& fn);
//       void put(std::string_view table, std::string_view key, std::string_view value, int64_t expires_at_ms);
//       bool del(std::string_view table, std::string_view key);   // false: no such record
//       void scan(std::string_view table, const platform::ScanQuery& q, int64_t now_ms, const platform::RowFn& fn);
//   };
//   PLATFORM_PROVIDER(MyStore, PLATFORM_KIND_STORE, "store-mine", "1.0.0", "My store",
//                     &platform::StoreProviderTable<MyStore, PLATFORM_STORE_TTL | ...>::table)
//
// The adapter reads the host's scan request within its struct_size, turns "not found" into
// PLATFORM_NOT_FOUND, and never lets an exception cross the ABI.
#pragma once

#include <platform/abi.h>
#include <platform/sdk/entry.hpp>
#include <platform/sdk/error.hpp>
#include <platform/sdk/str.hpp>

#include <cstdint>
#include <functional>
#include <optional>
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

// Reads a scan request, honouring the struct_size the host gave (absent fields keep defaults).
inline ScanQuery scan_query(const platform_scan_t* s) {
    if (!s) throw invalid_argument("scan: missing request");
    ScanQuery q;
    if (PLATFORM_HAS_FIELD(platform_scan_t, s, prefix)) q.prefix = view(s->prefix);
    if (PLATFORM_HAS_FIELD(platform_scan_t, s, order)) q.descending = s->order == PLATFORM_ORDER_DESC;
    if (PLATFORM_HAS_FIELD(platform_scan_t, s, limit)) q.limit = s->limit;
    if (PLATFORM_HAS_FIELD(platform_scan_t, s, offset)) q.offset = s->offset;
    return q;
}

template <class T, uint64_t Features>
struct StoreProviderTable {
    static T* self(void* inst) { return static_cast<T*>(inst); }
    static platform_str_t bytes(std::string_view s) { return platform_str_t{s.empty() ? "" : s.data(), s.size()}; }

    static platform_status_t get(void* inst, platform_str_t table, platform_str_t key, int64_t now_ms,
                                 platform_bytes_sink_fn sink, void* user) {
        bool found = false;
        auto g = guard([&] {
            found = self(inst)->get(view(table), view(key), now_ms, [&](std::string_view v) {
                if (sink) sink(user, bytes(v));
            });
        });
        return g != PLATFORM_OK ? g : (found ? PLATFORM_OK : PLATFORM_NOT_FOUND);
    }
    static platform_status_t put(void* inst, platform_str_t table, platform_str_t key, platform_str_t value,
                                 int64_t expires_at_ms) {
        return guard([&] { self(inst)->put(view(table), view(key), view(value), expires_at_ms); });
    }
    static platform_status_t del(void* inst, platform_str_t table, platform_str_t key) {
        bool found = false;
        auto g = guard([&] { found = self(inst)->del(view(table), view(key)); });
        return g != PLATFORM_OK ? g : (found ? PLATFORM_OK : PLATFORM_NOT_FOUND);
    }
    static platform_status_t scan(void* inst, platform_str_t table, const platform_scan_t* s, int64_t now_ms,
                                  platform_record_sink_fn sink, void* user) {
        return guard([&] {
            self(inst)->scan(view(table), scan_query(s), now_ms, [&](std::string_view k, std::string_view v) {
                return !sink || sink(user, bytes(k), bytes(v));
            });
        });
    }

    // Optional: std::vector<std::string> T::tables() lists the tables that hold records.
    template <class U, class = void> struct has_tables : std::false_type {};
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

    static inline const platform_store_provider_t table = {
        sizeof(platform_store_provider_t), Features, get, put, del, scan,
        has_tables<T>::value ? &StoreProviderTable::tables : nullptr};
};

}  // namespace platform
