// make_host_api: the host-services table (abi.h) as plugins see it, filled from the member lists
// of host_protocol.hpp with the functions of host_table.hpp; and the few functions that belong to
// no area: log, config, business time, get_service and the MCP resource notification.
#include <spdlog/spdlog.h>

#include <cstring>
#include <platform/host/outbound/filter_proxy.hpp>

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
    // "platform.*" is the host's own part of the table (abi.h config_get; plugin-sdk/README.md
    // lists the facts).
    // The SMTP relay goes out without its user and password: plugins learn that a relay is set
    // and where, never the credentials (decisions.md, the mail service).
    const Settings& settings = hctx(c).runtime->settings();
    const json platform_part = {{"namespace", settings.ns},
                                {"node", hctx(c).runtime->registry().node_id()},
                                {"mail_domain", settings.mail_domain},
                                {"smtp_relay", smtp_relay_without_credentials(settings.smtp_relay)},
                                {"smtp_listening", hctx(c).runtime->smtp_listening()}};
    // The browser's filtering proxy starts on the first ask (filter_proxy.hpp), so a host whose
    // plugins never ask runs none.
    json asked = platform_part;
    if (p == "platform.browser_proxy")
        asked["browser_proxy"] = browser_proxy_address(hctx(c).runtime->outbound().settings());
    const json* node = &hctx(c).plugin->config;
    if (p == "platform" || p.rfind("platform.", 0) == 0) {
        node = &asked;
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

const void* get_service(platform_host_ctx_t* c, platform_str_t name, uint32_t min_version) {
    if (!hctx(c).plugin->privileged) return nullptr;
    return sub_table(str(name), min_version);
}

}  // namespace platform::host::host_table

namespace platform::host {

platform_host_api_t make_host_api() {
    platform_host_api_t table{};
    table.struct_size = sizeof table;
    table.abi_version = PLATFORM_ABI_VERSION;
    host_table::fill(table);
    return table;
}

}  // namespace platform::host
