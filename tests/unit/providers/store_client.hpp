// A test-side client for a loaded store provider: C++ calls over platform_store_provider_t, plus
// a scratch directory for providers that need a file.
#pragma once

#include "plugin_loader.hpp"

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace providers_test {

constexpr int64_t kNow = 1767225600000;  // the FakeHost's default business time

using Rows = std::vector<std::pair<std::string, std::string>>;

inline platform_str_t bytes(const std::string& s) { return platform_str_t{s.data(), s.size()}; }

// A fresh directory removed with the object.
class TempDir {
public:
    TempDir() {
        std::string tmpl = (std::filesystem::temp_directory_path() / "providers-test-XXXXXX").string();
        if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
        path_ = tmpl;
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

class StoreClient {
public:
    StoreClient(platform::testing::FakeHost& host, const std::string& name, const nlohmann::json& config)
        : plugin_(std::make_unique<Instance>(host, name, config)),
          t_(plugin_->table<platform_store_provider_t>()) {}

    const platform_store_provider_t* table() const { return t_; }
    const Instance& plugin() const { return *plugin_; }

    platform_status_t put(const std::string& tbl, const std::string& key, const std::string& value,
                          int64_t expires_at_ms = 0) const {
        return t_->put(plugin_->inst(), bytes(tbl), bytes(key), bytes(value), expires_at_ms);
    }
    std::optional<std::string> get(const std::string& tbl, const std::string& key, int64_t now = kNow) const {
        std::string out;
        auto st = t_->get(plugin_->inst(), bytes(tbl), bytes(key), now, platform::append_sink, &out);
        if (st == PLATFORM_NOT_FOUND) return std::nullopt;
        if (st != PLATFORM_OK) throw std::runtime_error("get failed: " + std::to_string(st));
        return out;
    }
    platform_status_t get_status(const std::string& tbl, const std::string& key, int64_t now = kNow) const {
        std::string out;
        return t_->get(plugin_->inst(), bytes(tbl), bytes(key), now, platform::append_sink, &out);
    }
    platform_status_t del(const std::string& tbl, const std::string& key) const {
        return t_->del(plugin_->inst(), bytes(tbl), bytes(key));
    }
    Rows scan(const std::string& tbl, const std::string& prefix = "", bool desc = false, uint32_t limit = 0,
              uint32_t offset = 0, int64_t now = kNow) const {
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
    std::vector<std::string> keys(const std::string& tbl, const std::string& prefix = "", bool desc = false,
                                  uint32_t limit = 0, uint32_t offset = 0, int64_t now = kNow) const {
        std::vector<std::string> out;
        for (auto& r : scan(tbl, prefix, desc, limit, offset, now)) out.push_back(r.first);
        return out;
    }

private:
    std::unique_ptr<Instance> plugin_;
    const platform_store_provider_t* t_;
};

}  // namespace providers_test
