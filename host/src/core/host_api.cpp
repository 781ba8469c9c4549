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

// A privileged sub-table of `version`, every member filled from host_table::<name>.
#define PLATFORM_HOST_SUBTABLE(type, name, list, version_number) \
    const type* name##_table() {                                 \
        static const type table = [] {                           \
            type table{};                                        \
            table.struct_size = sizeof table;                    \
            table.version = version_number;                      \
            list(PLATFORM_HOST_FILL_MEMBER) return table;        \
        }();                                                     \
        return &table;                                           \
    }
#define PLATFORM_HOST_FILL_FROM registry
PLATFORM_HOST_SUBTABLE(platform_registry_api_t, registry, PLATFORM_REGISTRY_API_MEMBERS, 2)
#undef PLATFORM_HOST_FILL_FROM
#define PLATFORM_HOST_FILL_FROM clock
PLATFORM_HOST_SUBTABLE(platform_clock_api_t, clock, PLATFORM_CLOCK_API_MEMBERS, 1)
#undef PLATFORM_HOST_FILL_FROM
#define PLATFORM_HOST_FILL_FROM network
PLATFORM_HOST_SUBTABLE(platform_network_api_t, network, PLATFORM_NETWORK_API_MEMBERS, 1)
#undef PLATFORM_HOST_FILL_FROM
#define PLATFORM_HOST_FILL_FROM store
PLATFORM_HOST_SUBTABLE(platform_store_api_t, store, PLATFORM_STORE_API_MEMBERS, 2)
#undef PLATFORM_HOST_FILL_FROM
#define PLATFORM_HOST_FILL_FROM secrets
PLATFORM_HOST_SUBTABLE(platform_secrets_api_t, secrets, PLATFORM_SECRETS_API_MEMBERS, 1)
#undef PLATFORM_HOST_FILL_FROM
#undef PLATFORM_HOST_SUBTABLE

template <typename T>
bool fits(const T* table, uint32_t min_version) {
    return min_version <= table->version;
}

}  // namespace

const void* get_service(platform_host_ctx_t* c, platform_str_t name, uint32_t min_version) {
    const std::string n = str(name);
    if (!hctx(c).plugin->privileged) return nullptr;
    if (n == PLATFORM_SERVICE_REGISTRY && fits(registry_table(), min_version))
        return registry_table();
    if (n == PLATFORM_SERVICE_CLOCK && fits(clock_table(), min_version)) return clock_table();
    if (n == PLATFORM_SERVICE_NETWORK && fits(network_table(), min_version)) return network_table();
    if (n == PLATFORM_SERVICE_STORE && fits(store_table(), min_version)) return store_table();
    if (n == PLATFORM_SERVICE_SECRETS && fits(secrets_table(), min_version)) return secrets_table();
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
