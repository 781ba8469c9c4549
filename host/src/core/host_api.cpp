// make_host_api: the host-services table (abi.h) as plugins see it, filled from the member lists
// of host_protocol.hpp with the functions of host_table.hpp; and the few functions that belong to
// no area: log, config, business time, get_service and the MCP resource notification.
#include <spdlog/spdlog.h>

#include <cstring>

#include "host_table.hpp"

namespace platform::host::host_table {

using nlohmann::json;

void log(platform_host_ctx_t* c, platform_log_level_t level, platform_str_t m) {
    const std::string& id = hctx(c).plugin->id;
    if (level == PLATFORM_LOG_OPERATOR) return hctx(c).runtime->console().notice(id, str(m));
    hctx(c).runtime->plugin_logged(*hctx(c).plugin, level, str(m));
    switch (level) {
        case PLATFORM_LOG_DEBUG:
            spdlog::debug("[{}] {}", id, str(m));
            break;
        case PLATFORM_LOG_WARN:
            spdlog::warn("[{}] {}", id, str(m));
            break;
        case PLATFORM_LOG_ERROR:
            spdlog::error("[{}] {}", id, str(m));
            break;
        default:
            spdlog::info("[{}] {}", id, str(m));
    }
}

platform_status_t config_get(platform_host_ctx_t* c, platform_str_t path,
                             platform_bytes_sink_fn sink, void* user) {
    std::string p = str(path);
    // "platform.*" is the host's own part of the table (abi.h, config_get).
    const json platform_part = {{"namespace", hctx(c).runtime->settings().ns}};
    const json* node = &hctx(c).plugin->config;
    if (p == "platform" || p.rfind("platform.", 0) == 0) {
        node = &platform_part;
        p.erase(0, p.size() > 8 ? 9 : 8);
    }
    for (size_t i = 0, j; !p.empty() && i <= p.size(); i = j + 1) {
        j = p.find('.', i);
        if (j == std::string::npos) j = p.size();
        std::string part = p.substr(i, j - i);
        if (!node->is_object() || !node->contains(part)) return PLATFORM_NOT_FOUND;
        node = &(*node)[part];
    }
    std::string out = node->dump();
    sink(user, view(out));
    return PLATFORM_OK;
}

int64_t clock_now_ms(platform_host_ctx_t* c) {
    return hctx(c).runtime->clock().now_ms();
}

void resource_updated(platform_host_ctx_t* c, platform_str_t uri, platform_str_t account) {
    hctx(c).runtime->resource_updated(str(uri), str(account));
}

namespace {

// Each privileged sub-table's members, from host_table::<sub-table>.
void fill(platform_registry_api_t& table) {
#define PLATFORM_HOST_FILL_FROM registry
    PLATFORM_REGISTRY_API_MEMBERS(PLATFORM_HOST_FILL_MEMBER)
#undef PLATFORM_HOST_FILL_FROM
}
void fill(platform_store_api_t& table) {
#define PLATFORM_HOST_FILL_FROM store
    PLATFORM_STORE_API_MEMBERS(PLATFORM_HOST_FILL_MEMBER)
#undef PLATFORM_HOST_FILL_FROM
}
void fill(platform_secrets_api_t& table) {
#define PLATFORM_HOST_FILL_FROM secrets
    PLATFORM_SECRETS_API_MEMBERS(PLATFORM_HOST_FILL_MEMBER)
#undef PLATFORM_HOST_FILL_FROM
}
void fill(platform_network_api_t& table) {
#define PLATFORM_HOST_FILL_FROM network
    PLATFORM_NETWORK_API_MEMBERS(PLATFORM_HOST_FILL_MEMBER)
#undef PLATFORM_HOST_FILL_FROM
}
void fill(platform_clock_api_t& table) {
#define PLATFORM_HOST_FILL_FROM clock
    PLATFORM_CLOCK_API_MEMBERS(PLATFORM_HOST_FILL_MEMBER)
#undef PLATFORM_HOST_FILL_FROM
}

// The sub-table T of `Version`, filled once.
template <typename T, uint32_t Version>
const T* sub_table() {
    static const T table = [] {
        T t{};
        t.struct_size = sizeof t;
        t.version = Version;
        fill(t);
        return t;
    }();
    return &table;
}

template <typename T>
const void* offer(const T* table, uint32_t min_version) {
    return min_version <= table->version ? table : nullptr;
}

}  // namespace

const void* get_service(platform_host_ctx_t* c, platform_str_t name, uint32_t min_version) {
    const std::string n = str(name);
    if (!hctx(c).plugin->privileged) return nullptr;
    if (n == PLATFORM_SERVICE_REGISTRY)
        return offer(sub_table<platform_registry_api_t, 2>(), min_version);
    if (n == PLATFORM_SERVICE_CLOCK)
        return offer(sub_table<platform_clock_api_t, 1>(), min_version);
    if (n == PLATFORM_SERVICE_NETWORK)
        return offer(sub_table<platform_network_api_t, 1>(), min_version);
    if (n == PLATFORM_SERVICE_STORE)
        return offer(sub_table<platform_store_api_t, 2>(), min_version);
    if (n == PLATFORM_SERVICE_SECRETS)
        return offer(sub_table<platform_secrets_api_t, 1>(), min_version);
    return nullptr;
}

}  // namespace platform::host::host_table

namespace platform::host {

platform_host_api_t make_host_api() {
    platform_host_api_t table{};
    table.struct_size = sizeof table;
    table.abi_version = PLATFORM_ABI_VERSION;
#define PLATFORM_HOST_FILL_FROM host_table
    PLATFORM_HOST_API_MEMBERS(PLATFORM_HOST_FILL_MEMBER)
#undef PLATFORM_HOST_FILL_FROM
    return table;
}

}  // namespace platform::host
