/*
 * abi-missing-entry — a shared module that exports `platform_plugin_entry_v0` and no
 * `platform_plugin_entry`.
 *
 * The host must REFUSE it with a clear message naming the missing symbol, and keep serving the
 * other plugins. Everything else is valid, so the missing symbol is the only defect. Built by
 * tests/abi/CMakeLists.txt with its own version script (missing_entry.map), not platform_add_plugin.
 */
#include <platform/abi.h>

#define ABI_EXPORT __attribute__((visibility("default")))
#define STR(lit) \
    { lit, sizeof(lit) - 1 }

static const platform_host_api_t* g_api;

static void* missing_create(const platform_host_api_t* api, platform_host_ctx_t* ctx,
                            platform_str_t config_json, char* err, size_t err_size) {
    (void)ctx, (void)config_json, (void)err, (void)err_size;
    g_api = api;
    return &g_api;
}

static void missing_destroy(void* inst) {
    (void)inst;
}

static void missing_call(void* inst, platform_call_t* call, uint32_t endpoint_index,
                         platform_str_t request_json) {
    static const platform_str_t pong = STR("{\"pong\":true}");
    (void)inst, (void)endpoint_index, (void)request_json;
    g_api->respond(call, PLATFORM_OK, pong);
}

static const platform_endpoint_t missing_endpoints[] = {
    {
        .struct_size = sizeof(platform_endpoint_t),
        .name = STR("ping"),
        .title = STR("Ping"),
        .description = STR("Answers {\"pong\":true}; must never be served (no entry symbol)."),
        .verb = PLATFORM_VERB_GET,
        .access = PLATFORM_ACCESS_PUBLIC,
        .flags = PLATFORM_FLAG_READ_ONLY,
        .input_schema =
            STR("{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}"),
        .since = STR("1.0.0"),
    },
};

static const platform_plugin_desc_t missing_desc = {
    .struct_size = sizeof(platform_plugin_desc_t),
    .abi_version = PLATFORM_ABI_VERSION,
    .id = STR("abi-missing-entry"),
    .version = STR("1.0.0"),
    .kind = PLATFORM_KIND_SERVICE,
    .summary = STR("ABI test: exports the wrong entry symbol; must be refused"),
    .service = STR("abi.missing"),
    .endpoints = missing_endpoints,
    .endpoint_count = sizeof missing_endpoints / sizeof missing_endpoints[0],
    .endpoint_stride = sizeof(platform_endpoint_t),
    .on_create = missing_create,
    .on_destroy = missing_destroy,
    .on_call = missing_call,
};

/* Same signature as platform_plugin_entry_fn, wrong name. */
ABI_EXPORT const platform_plugin_desc_t* platform_plugin_entry_v0(
    const platform_entry_args_t* args);

ABI_EXPORT const platform_plugin_desc_t* platform_plugin_entry_v0(
    const platform_entry_args_t* args) {
    (void)args;
    return &missing_desc;
}
