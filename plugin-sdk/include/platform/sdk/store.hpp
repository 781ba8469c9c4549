// platform/sdk/store.hpp — the plugin's key-value table and owner-scoped JSON collections.
//
// Store is the raw table (bytes in, bytes out). Collection is what services should use for user
// data: every key is prefixed with the collection name and the owner's account id, so a handler
// that only ever goes through Request::owned() cannot read or write another account's records.
#pragma once

#include <platform/abi.h>
#include <platform/sdk/error.hpp>
#include <platform/sdk/str.hpp>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace platform {

struct Record {
    std::string key;
    std::string value;
};

struct ScanOptions {
    std::string prefix;
    bool descending = false;
    uint32_t limit = 0;  // 0 = all
    uint32_t offset = 0;
};

class Store {
public:
    Store(const platform_host_api_t* api, platform_host_ctx_t* ctx) : api_(api), ctx_(ctx) {}

    std::optional<std::string> get(std::string_view key) const {
        std::string out;
        auto st = api_->store_get(ctx_, view(key), append_sink, &out);
        if (st == PLATFORM_NOT_FOUND) return std::nullopt;
        check(st, "store get failed");
        return out;
    }

    // ttl_ms 0 keeps the record until deleted.
    void put(std::string_view key, std::string_view value, int64_t ttl_ms = 0) const {
        check(api_->store_put(ctx_, view(key), view(value), ttl_ms), "store put failed");
    }

    // False when there was no such key.
    bool erase(std::string_view key) const {
        auto st = api_->store_delete(ctx_, view(key));
        if (st == PLATFORM_NOT_FOUND) return false;
        check(st, "store delete failed");
        return true;
    }

    std::vector<Record> scan(const ScanOptions& o) const {
        std::vector<Record> out;
        platform_scan_t s{};
        s.struct_size = sizeof s;
        s.prefix = view(o.prefix);
        s.order = o.descending ? PLATFORM_ORDER_DESC : PLATFORM_ORDER_ASC;
        s.limit = o.limit;
        s.offset = o.offset;
        auto sink = [](void* user, platform_str_t k, platform_str_t v) -> bool {
            static_cast<std::vector<Record>*>(user)->push_back({copy(k), copy(v)});
            return true;
        };
        check(api_->store_scan(ctx_, &s, sink, &out), "store scan failed");
        return out;
    }

private:
    const platform_host_api_t* api_;
    platform_host_ctx_t* ctx_;
};

// JSON records of one owner in one named collection. Ids are arbitrary strings.
class Collection {
public:
    Collection(Store store, std::string_view name, std::string_view owner)
        : store_(store), prefix_(std::string(name) + "/" + escape(owner) + "/") {}

    std::optional<nlohmann::json> get(std::string_view id) const {
        auto raw = store_.get(prefix_ + std::string(id));
        if (!raw) return std::nullopt;
        return nlohmann::json::parse(*raw);
    }

    void put(std::string_view id, const nlohmann::json& value, int64_t ttl_ms = 0) const {
        store_.put(prefix_ + std::string(id),
                   value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), ttl_ms);
    }

    bool erase(std::string_view id) const { return store_.erase(prefix_ + std::string(id)); }

    // Records whose id starts with o.prefix, ordered by id.
    std::vector<std::pair<std::string, nlohmann::json>> list(ScanOptions o = {}) const {
        o.prefix = prefix_ + o.prefix;
        std::vector<std::pair<std::string, nlohmann::json>> out;
        for (auto& r : store_.scan(o))
            out.emplace_back(r.key.substr(prefix_.size()), nlohmann::json::parse(r.value));
        return out;
    }

    // Owner ids may hold any byte; '/' and '%' are escaped so one owner's prefix never covers
    // another's.
    static std::string escape(std::string_view owner) {
        std::string out;
        for (char c : owner) {
            if (c == '%') out += "%25";
            else if (c == '/') out += "%2F";
            else out += c;
        }
        return out;
    }

private:
    Store store_;
    std::string prefix_;
};

}  // namespace platform
