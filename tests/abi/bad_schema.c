/*
 * abi-bad-schema — an endpoint whose input_schema is not a valid JSON Schema:
 * {"type":"object","properties":{"x":{"type":"strnig"}}} ("strnig" is no JSON type).
 *
 * The host must REFUSE the whole plugin at load with a message naming the endpoint and the
 * schema error, rather than serve an endpoint it cannot validate arguments for.
 */
#include <platform/abi.h>

#define ABI_EXPORT __attribute__((visibility("default")))
#define STR(lit) \
    { lit, sizeof(lit) - 1 }

static const platform_host_api_t* g_api;

static void* bad_create(const platform_host_api_t* api, platform_host_ctx_t* ctx,
                        platform_str_t config_json, char* err, size_t err_size) {
    (void)ctx, (void)config_json, (void)err, (void)err_size;
    g_api = api;
    return &g_api;
}

static void bad_destroy(void* inst) {
    (void)inst;
}

static void bad_call(void* inst, platform_call_t* call, uint32_t endpoint_index,
                     platform_str_t request_json) {
    static const platform_str_t ok = STR("{\"ok\":true}");
    (void)inst, (void)endpoint_index, (void)request_json;
    g_api->respond(call, PLATFORM_OK, ok);
}

static const platform_endpoint_t bad_endpoints[] = {
    {
        .struct_size = sizeof(platform_endpoint_t),
        .name = STR("check"),
        .title = STR("Check"),
        .description = STR("Declares an invalid input schema; must never be served."),
        .verb = PLATFORM_VERB_GET,
        .access = PLATFORM_ACCESS_PUBLIC,
        .flags = PLATFORM_FLAG_READ_ONLY,
        .input_schema = STR("{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"strnig\"}}}"),
        .since = STR("1.0.0"),
    },
};

static const platform_plugin_desc_t bad_desc = {
    .struct_size = sizeof(platform_plugin_desc_t),
    .abi_version = PLATFORM_ABI_VERSION,
    .id = STR("abi-bad-schema"),
    .version = STR("1.0.0"),
    .kind = PLATFORM_KIND_SERVICE,
    .summary = STR("ABI test: an endpoint with an invalid input schema; must be refused"),
    .service = STR("abi.badschema"),
    .endpoints = bad_endpoints,
    .endpoint_count = sizeof bad_endpoints / sizeof bad_endpoints[0],
    .endpoint_stride = sizeof(platform_endpoint_t),
    .on_create = bad_create,
    .on_destroy = bad_destroy,
    .on_call = bad_call,
};

ABI_EXPORT const platform_plugin_desc_t* platform_plugin_entry(const platform_entry_args_t* args);

ABI_EXPORT const platform_plugin_desc_t* platform_plugin_entry(const platform_entry_args_t* args) {
    (void)args;
    return &bad_desc;
}
