// A test-side client for a loaded store provider: C++ calls over platform_store_provider_t (the
// loader and the scratch directory are in ../support).
#pragma once

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "../support/built_plugin.hpp"
#include "../support/scratch_dir.hpp"

namespace providers_test {

using namespace plugin_test;

constexpr int64_t kNow = 1767225600000;  // the FakeHost's default business time

using Rows = std::vector<std::pair<std::string, std::string>>;

inline platform_str_t bytes(const std::string& s) {
    return platform_str_t{s.data(), s.size()};
}

class StoreClient {
public:
    StoreClient(platform::testing::FakeHost& host, const std::string& name,
                const nlohmann::json& config, const std::string& dir = "")
        : plugin_(std::make_unique<Instance>(host, name, config, dir)),
          t_(plugin_->table<platform_store_provider_t>()) {}

    const platform_store_provider_t* table() const { return t_; }
    const Instance& plugin() const { return *plugin_; }
    bool declares(uint64_t features) const { return (t_->features & features) == features; }

    platform_status_t put(const std::string& tbl, const std::string& key, const std::string& value,
                          int64_t expires_at_ms = 0) const {
        return t_->put(plugin_->inst(), bytes(tbl), bytes(key), bytes(value), expires_at_ms);
    }
    std::optional<std::string> get(const std::string& tbl, const std::string& key,
                                   int64_t now = kNow) const {
        std::string out;
        auto st =
            t_->get(plugin_->inst(), bytes(tbl), bytes(key), now, platform::append_sink, &out);
        if (st == PLATFORM_NOT_FOUND) return std::nullopt;
        if (st != PLATFORM_OK) throw std::runtime_error("get failed: " + std::to_string(st));
        return out;
    }
    platform_status_t get_status(const std::string& tbl, const std::string& key,
                                 int64_t now = kNow) const {
        std::string out;
        return t_->get(plugin_->inst(), bytes(tbl), bytes(key), now, platform::append_sink, &out);
    }
    platform_status_t del(const std::string& tbl, const std::string& key) const {
        return t_->del(plugin_->inst(), bytes(tbl), bytes(key));
    }
    Rows scan(const std::string& tbl, const std::string& prefix = "", bool desc = false,
              uint32_t limit = 0, uint32_t offset = 0, int64_t now = kNow) const {
        platform_scan_t s{};
        s.struct_size = sizeof s;
        s.prefix = bytes(prefix);
        s.order = desc ? PLATFORM_ORDER_DESC : PLATFORM_ORDER_ASC;
        s.limit = limit;
        s.offset = offset;
        return scan_raw(tbl, &s, now);
    }
    Rows scan_raw(const std::string& tbl, const platform_scan_t* s, int64_t now = kNow) const {
        Rows out;
        auto sink = [](void* user, platform_str_t k, platform_str_t v) -> bool {
            static_cast<Rows*>(user)->emplace_back(platform::copy(k), platform::copy(v));
            return true;
        };
        auto st = t_->scan(plugin_->inst(), bytes(tbl), s, now, sink, &out);
        if (st != PLATFORM_OK) throw std::runtime_error("scan failed: " + std::to_string(st));
        return out;
    }
    std::vector<std::string> keys(const std::string& tbl, const std::string& prefix = "",
                                  bool desc = false, uint32_t limit = 0, uint32_t offset = 0,
                                  int64_t now = kNow) const {
        std::vector<std::string> out;
        for (auto& r : scan(tbl, prefix, desc, limit, offset, now)) out.push_back(r.first);
        return out;
    }

    // (1.3) Compare-and-set: nullopt expected = must be absent, nullopt value = delete.
    platform_status_t cas(const std::string& tbl, const std::string& key,
                          const std::optional<std::string>& expected,
                          const std::optional<std::string>& value, int64_t expires_at_ms = 0,
                          int64_t now = kNow) const {
        platform_str_t e = expected ? bytes(*expected) : platform_str_t{nullptr, 0};
        platform_str_t v = value ? bytes(*value) : platform_str_t{nullptr, 0};
        return t_->cas(plugin_->inst(), bytes(tbl), bytes(key), expected ? &e : nullptr,
                       value ? &v : nullptr, expires_at_ms, now);
    }

    // (1.3) One batch op; `value` nullopt makes a delete.
    struct Op {
        std::string key;
        std::optional<std::string> value;
        int64_t expires_at_ms = 0;
    };
    static Op put_op(std::string key, std::string value, int64_t expires_at_ms = 0) {
        return Op{std::move(key), std::move(value), expires_at_ms};
    }
    static Op del_op(std::string key) { return Op{std::move(key), std::nullopt, 0}; }
    platform_status_t batch(const std::string& tbl, const std::vector<Op>& ops) const {
        std::vector<platform_store_op_t> raw(ops.size());
        for (size_t i = 0; i < ops.size(); ++i) {
            raw[i].struct_size = sizeof raw[i];
            raw[i].kind = ops[i].value ? PLATFORM_STORE_OP_PUT : PLATFORM_STORE_OP_DEL;
            raw[i].key = bytes(ops[i].key);
            if (ops[i].value) raw[i].value = bytes(*ops[i].value);
            raw[i].expires_at_ms = ops[i].expires_at_ms;
        }
        return batch_raw(tbl, raw.data(), static_cast<uint32_t>(raw.size()),
                         sizeof(platform_store_op_t));
    }
    platform_status_t batch_raw(const std::string& tbl, const platform_store_op_t* ops,
                                uint32_t count, uint32_t stride) const {
        return t_->batch(plugin_->inst(), bytes(tbl), ops, count, stride);
    }

private:
    std::unique_ptr<Instance> plugin_;
    const platform_store_provider_t* t_;
};

}  // namespace providers_test
