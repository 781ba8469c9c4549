// platform/sdk/store.hpp — the plugin's key-value table and owner-scoped JSON collections.
//
// Store is the raw table (bytes in, bytes out). Collection is what services should use for user
// data: every key is prefixed with the collection name and the owner's account id, so a handler
// that only ever goes through Request::owned() cannot read or write another account's records.
//
// Compare-and-set and batches (ABI 1.3) need a store provider that declares them
// (PLATFORM_STORE_CAS, PLATFORM_STORE_TRANSACTIONS); otherwise, or on an older host, they throw
// Error(Code::unsupported). TTLs are milliseconds from now everywhere in this header.
#pragma once

#include <platform/abi.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <platform/sdk/error.hpp>
#include <platform/sdk/json_text.hpp>
#include <platform/sdk/str.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace platform {

struct Record {
    std::string key;
    std::string value;
};

// One write of Store::batch: a put (value set) or a delete (value nullopt; an absent key is fine).
struct StoreWrite {
    std::string key;
    std::optional<std::string> value;
    int64_t ttl_ms = 0;  // puts only; 0 = forever

    static StoreWrite put(std::string key, std::string value, int64_t ttl_ms = 0) {
        return StoreWrite{std::move(key), std::move(value), ttl_ms};
    }
    static StoreWrite erase(std::string key) { return StoreWrite{std::move(key), std::nullopt, 0}; }
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

    // Atomically: when the key's current value is `expected` (nullopt: the key is absent or
    // expired), sets it to `value` (nullopt: deletes it) and returns true; otherwise changes
    // nothing and returns false. Compares bytes.
    bool compare_and_set(std::string_view key, std::optional<std::string_view> expected,
                         std::optional<std::string_view> value, int64_t ttl_ms = 0) const {
        require(PLATFORM_HAS_FIELD(platform_host_api_t, api_, store_cas) && api_->store_cas,
                "store_cas");
        platform_str_t e = view(expected.value_or(std::string_view()));
        platform_str_t v = view(value.value_or(std::string_view()));
        auto st = api_->store_cas(ctx_, view(key), expected ? &e : nullptr, value ? &v : nullptr,
                                  expires_at(value ? ttl_ms : 0));
        if (st == PLATFORM_CONFLICT) return false;
        check(st, "store compare-and-set failed");
        return true;
    }

    // Writes the key only when it is absent (or expired); false when it already holds a value.
    bool insert_if_absent(std::string_view key, std::string_view value, int64_t ttl_ms = 0) const {
        return compare_and_set(key, std::nullopt, value, ttl_ms);
    }

    // Applies every write or none, in order (a later write to the same key wins); readers never
    // see part of a batch.
    void batch(const std::vector<StoreWrite>& writes) const {
        require(PLATFORM_HAS_FIELD(platform_host_api_t, api_, store_batch) && api_->store_batch,
                "store_batch");
        if (writes.empty()) return;
        std::vector<platform_store_op_t> ops(writes.size());
        const int64_t now = api_->clock_now_ms(ctx_);
        for (size_t i = 0; i < writes.size(); ++i) {
            const auto& w = writes[i];
            if (w.ttl_ms < 0) throw invalid_argument("batch: ttl_ms must not be negative");
            auto& op = ops[i];
            op.struct_size = sizeof op;
            op.kind = w.value ? PLATFORM_STORE_OP_PUT : PLATFORM_STORE_OP_DEL;
            op.key = view(w.key);
            if (w.value) {
                op.value = view(*w.value);
                op.expires_at_ms = w.ttl_ms > 0 ? now + w.ttl_ms : 0;
            }
        }
        check(api_->store_batch(ctx_, ops.data(), static_cast<uint32_t>(ops.size()),
                                sizeof(platform_store_op_t)),
              "store batch failed");
    }

private:
    // The absolute expiry the 1.3 functions take, from a TTL (0 = never).
    int64_t expires_at(int64_t ttl_ms) const {
        if (ttl_ms < 0) throw invalid_argument("ttl_ms must not be negative");
        return ttl_ms > 0 ? api_->clock_now_ms(ctx_) + ttl_ms : 0;
    }
    // Throws UNSUPPORTED when the host is older than the function this needs.
    static void require(bool present, const char* what) {
        if (!present)
            throw Error(Code::unsupported,
                        std::string("the host does not offer ") + what + " (ABI 1.3)");
    }

    const platform_host_api_t* api_;
    platform_host_ctx_t* ctx_;
};

// One write of Collection::batch: a put (value set) or a delete (value nullopt).
struct JsonWrite {
    std::string id;
    std::optional<nlohmann::json> value;
    int64_t ttl_ms = 0;  // puts only; 0 = forever

    static JsonWrite put(std::string id, nlohmann::json value, int64_t ttl_ms = 0) {
        return JsonWrite{std::move(id), std::move(value), ttl_ms};
    }
    static JsonWrite erase(std::string id) { return JsonWrite{std::move(id), std::nullopt, 0}; }
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
        store_.put(prefix_ + std::string(id), encode(value), ttl_ms);
    }

    bool erase(std::string_view id) const { return store_.erase(prefix_ + std::string(id)); }

    // Compare-and-set on one record of this owner (Store::compare_and_set). `expected` is compared
    // in its serialised form, which is exactly what put() and this class write; for a record
    // read and changed in one step, update() compares the stored bytes instead.
    bool compare_and_set(std::string_view id, const std::optional<nlohmann::json>& expected,
                         const std::optional<nlohmann::json>& value, int64_t ttl_ms = 0) const {
        std::optional<std::string> e, v;
        if (expected) e = encode(*expected);
        if (value) v = encode(*value);
        return store_.compare_and_set(
            prefix_ + std::string(id), e ? std::optional<std::string_view>(*e) : std::nullopt,
            v ? std::optional<std::string_view>(*v) : std::nullopt, ttl_ms);
    }

    // Creates the record only when the id is free (or its record expired); false otherwise.
    bool insert_if_absent(std::string_view id, const nlohmann::json& value,
                          int64_t ttl_ms = 0) const {
        return compare_and_set(id, std::nullopt, value, ttl_ms);
    }

    // Read-modify-write without lost updates: calls fn with the current record (nullopt when
    // absent) and writes what it returns (nullopt deletes) if nobody wrote the record meanwhile,
    // else calls fn again with the newer record, at most `attempts` times (then throws
    // Error(conflict)). Returns what was written.
    std::optional<nlohmann::json> update(
        std::string_view id,
        const std::function<std::optional<nlohmann::json>(const std::optional<nlohmann::json>&)>&
            fn,
        int64_t ttl_ms = 0, int attempts = 16) const {
        const std::string key = prefix_ + std::string(id);
        for (int i = 0; i < attempts; ++i) {
            auto raw = store_.get(key);
            std::optional<nlohmann::json> cur;
            if (raw) cur = nlohmann::json::parse(*raw);
            auto next = fn(cur);
            std::optional<std::string> v;
            if (next) v = encode(*next);
            if (store_.compare_and_set(
                    key, raw ? std::optional<std::string_view>(*raw) : std::nullopt,
                    v ? std::optional<std::string_view>(*v) : std::nullopt, ttl_ms))
                return next;
        }
        throw conflict("update: the record kept changing; gave up after " +
                       std::to_string(attempts) + " attempts");
    }

    // Store::batch on this owner's records: every write or none.
    void batch(const std::vector<JsonWrite>& writes) const {
        std::vector<StoreWrite> out;
        out.reserve(writes.size());
        for (const auto& w : writes)
            out.push_back(w.value ? StoreWrite::put(prefix_ + w.id, encode(*w.value), w.ttl_ms)
                                  : StoreWrite::erase(prefix_ + w.id));
        store_.batch(out);
    }

    // Records whose id starts with o.prefix, ordered by id.
    std::vector<std::pair<std::string, nlohmann::json>> list(ScanOptions o = {}) const {
        o.prefix = prefix_ + o.prefix;
        std::vector<std::pair<std::string, nlohmann::json>> out;
        for (auto& r : store_.scan(o))
            out.emplace_back(r.key.substr(prefix_.size()), nlohmann::json::parse(r.value));
        return out;
    }

    // The same records' values as one JSON array, [v1,v2,...], in the same order: the stored
    // texts joined as they are, none parsed (json_text.hpp says why; put() wrote each as JSON).
    JsonText list_array(ScanOptions o = {}) const {
        o.prefix = prefix_ + o.prefix;
        JsonText out{"["};
        for (const auto& r : store_.scan(o)) {
            if (out.text.size() > 1) out.text += ',';
            out.text += r.value;
        }
        out.text += ']';
        return out;
    }

    // Owner ids may hold any byte; '/' and '%' are escaped so one owner's prefix never covers
    // another's.
    static std::string escape(std::string_view owner) {
        std::string out;
        for (char c : owner) {
            if (c == '%')
                out += "%25";
            else if (c == '/')
                out += "%2F";
            else
                out += c;
        }
        return out;
    }

private:
    static std::string encode(const nlohmann::json& value) {
        return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }

    Store store_;
    std::string prefix_;
};

}  // namespace platform
