// The privileged sub-tables "registry", "network", "clock" and "secrets" (the "store" one is in
// host_api_store.cpp).
#include "host_table.hpp"

namespace platform::host::host_table {

using nlohmann::json;

namespace registry {

platform_status_t list_services(platform_host_ctx_t* c, platform_bytes_sink_fn sink, void* user) {
    std::string out = hctx(c).runtime->registry().list(now(c)).dump();
    sink(user, view(out));
    return PLATFORM_OK;
}

platform_status_t get_service(platform_host_ctx_t* c, platform_str_t name,
                              platform_bytes_sink_fn sink, void* user) {
    json found = hctx(c).runtime->registry().get(str(name), now(c));
    if (found.is_null()) return PLATFORM_NOT_FOUND;
    std::string out = found.dump();
    sink(user, view(out));
    return PLATFORM_OK;
}

platform_status_t register_service(platform_host_ctx_t* c, platform_str_t service, int64_t ttl_s,
                                   platform_bytes_sink_fn error_sink, void* user) {
    json record = json::parse(str(service), nullptr, false);
    std::string error;
    auto& rt = *hctx(c).runtime;
    platform_status_t st =
        record.is_discarded()
            ? (error = "service: invalid JSON", PLATFORM_INVALID_ARGUMENT)
            : rt.registry().register_external(record, ttl_s * 1000, rt.clock().now_ms(), error);
    if (st != PLATFORM_OK && error_sink) error_sink(user, view(error));
    return st;
}

platform_status_t deregister_service(platform_host_ctx_t* c, platform_str_t service,
                                     platform_bytes_sink_fn error_sink, void* user) {
    json record = json::parse(str(service), nullptr, false);
    std::string error;
    platform_status_t st = record.is_discarded()
                               ? (error = "service: invalid JSON", PLATFORM_INVALID_ARGUMENT)
                               : hctx(c).runtime->registry().deregister_external(record, error);
    if (st != PLATFORM_OK && error_sink) error_sink(user, view(error));
    return st;
}

platform_status_t watch(platform_host_ctx_t* c, platform_bytes_sink_fn fn, void* user,
                        uint64_t* out) {
    if (!fn || !out) return PLATFORM_INVALID_ARGUMENT;
    *out = hctx(c).runtime->registry().watch([fn, user](const json& event) {
        std::string text = event.dump();
        fn(user, view(text));
    });
    return PLATFORM_OK;
}

platform_status_t unwatch(platform_host_ctx_t* c, uint64_t id) {
    return hctx(c).runtime->registry().unwatch(id) ? PLATFORM_OK : PLATFORM_NOT_FOUND;
}

}  // namespace registry

namespace network {

platform_status_t nodes(platform_host_ctx_t* c, platform_bytes_sink_fn sink, void* user) {
    std::string out = hctx(c).runtime->network_nodes().dump();
    sink(user, view(out));
    return PLATFORM_OK;
}

}  // namespace network

namespace clock {

bool is_manual(platform_host_ctx_t* c) {
    return hctx(c).runtime->clock().manual();
}
platform_status_t set_ms(platform_host_ctx_t* c, int64_t ms) {
    return hctx(c).runtime->clock().set_ms(ms) ? PLATFORM_OK : PLATFORM_UNSUPPORTED;
}
platform_status_t advance_ms(platform_host_ctx_t* c, int64_t d) {
    return hctx(c).runtime->clock().advance_ms(d) ? PLATFORM_OK : PLATFORM_UNSUPPORTED;
}

}  // namespace clock

namespace secrets {

platform_status_t seal(platform_host_ctx_t* c, platform_str_t plain, platform_bytes_sink_fn sink,
                       void* user) {
    std::string sealed = hctx(c).runtime->secrets().seal(view_of(plain));
    sink(user, view(sealed));
    return PLATFORM_OK;
}
platform_status_t open(platform_host_ctx_t* c, platform_str_t sealed, platform_bytes_sink_fn sink,
                       void* user) {
    auto plain = hctx(c).runtime->secrets().open(view_of(sealed));
    if (!plain) return PLATFORM_PERMISSION_DENIED;
    sink(user, view(*plain));
    return PLATFORM_OK;
}

}  // namespace secrets

}  // namespace platform::host::host_table
