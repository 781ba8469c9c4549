// platform/sdk/host.hpp — RAII C++ view of the host-services table for one plugin.
//
// A Host is cheap to copy (two pointers). It is valid for the life of the plugin instance.
// Every method is thread-safe because the host table is. Functions the host does not have (an
// older host minor) throw Error(Code::unsupported).
#pragma once

#include <platform/abi.h>
#include <platform/sdk/error.hpp>
#include <platform/sdk/store.hpp>
#include <platform/sdk/str.hpp>

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace platform {

using json = nlohmann::json;

class Host {
public:
    Host() = default;
    Host(const platform_host_api_t* api, platform_host_ctx_t* ctx) : api_(api), ctx_(ctx) {}

    const platform_host_api_t* api() const { return api_; }
    platform_host_ctx_t* ctx() const { return ctx_; }

    void log(platform_log_level_t level, std::string_view message) const {
        if (api_ && api_->log) api_->log(ctx_, level, view(message));
    }
    void debug(std::string_view m) const { log(PLATFORM_LOG_DEBUG, m); }
    void info(std::string_view m) const { log(PLATFORM_LOG_INFO, m); }
    void warn(std::string_view m) const { log(PLATFORM_LOG_WARN, m); }
    void error(std::string_view m) const { log(PLATFORM_LOG_ERROR, m); }

    // Business time, Unix milliseconds (manual in the test profile).
    int64_t now_ms() const { return api_->clock_now_ms(ctx_); }

    // The plugin's profile config at a dotted path; null when absent.
    json config(std::string_view path = "") const {
        std::string out;
        if (api_->config_get(ctx_, view(path), append_sink, &out) != PLATFORM_OK) return nullptr;
        return json::parse(out, nullptr, false);
    }

    // This plugin's own store table.
    Store store() const { return Store(api_, ctx_); }

    // A sub-table such as platform_registry_api_t, or nullptr.
    template <class Table>
    const Table* service(std::string_view name, uint32_t min_version) const {
        if (!api_->get_service) return nullptr;
        return static_cast<const Table*>(api_->get_service(ctx_, view(name), min_version));
    }

private:
    const platform_host_api_t* api_ = nullptr;
    platform_host_ctx_t* ctx_ = nullptr;
};

}  // namespace platform
