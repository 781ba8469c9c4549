/*
 * abi-newer-minor — a plugin built against a NEWER minor than the host speaks
 * (PLATFORM_ABI_MINOR + 1), otherwise valid.
 *
 * The host must REFUSE it with a clear message: the plugin may call host functions the host does
 * not have. The entry deliberately does not check the host version itself, so the refusal proves
 * the host's check. If the host wrongly loaded it, abi.newer/ping would answer {"pong":true}.
 */
#include <platform/abi.h>

#define ABI_EXPORT __attribute__((visibility("default")))
#define STR(lit) \
    { lit, sizeof(lit) - 1 }

typedef struct newer {
    const platform_host_api_t* api;
} newer_t;

static newer_t g_newer;

static void* newer_create(const platform_host_api_t* api, platform_host_ctx_t* ctx,
                          platform_str_t config_json, char* err, size_t err_size) {
    (void)ctx, (void)config_json, (void)err, (void)err_size;
    g_newer.api = api;
    return &g_newer;
}

static void newer_destroy(void* inst) {
    (void)inst;
}

static void newer_call(void* inst, platform_call_t* call, uint32_t endpoint_index,
                       platform_str_t request_json) {
    static const platform_str_t pong = STR("{\"pong\":true}");
    (void)endpoint_index, (void)request_json;
    ((newer_t*)inst)->api->respond(call, PLATFORM_OK, pong);
}

static const platform_endpoint_t newer_endpoints[] = {
    {
        .struct_size = sizeof(platform_endpoint_t),
        .name = STR("ping"),
        .title = STR("Ping"),
        .description = STR("Answers {\"pong\":true}; must never be served (newer ABI minor)."),
        .verb = PLATFORM_VERB_GET,
        .access = PLATFORM_ACCESS_PUBLIC,
        .flags = PLATFORM_FLAG_READ_ONLY,
        .input_schema =
            STR("{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}"),
        .since = STR("1.0.0"),
    },
};

static const platform_plugin_desc_t newer_desc = {
    .struct_size = sizeof(platform_plugin_desc_t),
    .abi_version = PLATFORM_ABI_PACK(1, PLATFORM_ABI_MINOR + 1),
    .id = STR("abi-newer-minor"),
    .version = STR("1.0.0"),
    .kind = PLATFORM_KIND_SERVICE,
    .summary = STR("ABI test: built against a newer ABI minor; must be refused"),
    .service = STR("abi.newer"),
    .endpoints = newer_endpoints,
    .endpoint_count = sizeof newer_endpoints / sizeof newer_endpoints[0],
    .endpoint_stride = sizeof(platform_endpoint_t),
    .on_create = newer_create,
    .on_destroy = newer_destroy,
    .on_call = newer_call,
};

ABI_EXPORT const platform_plugin_desc_t* platform_plugin_entry(const platform_entry_args_t* args);

ABI_EXPORT const platform_plugin_desc_t* platform_plugin_entry(const platform_entry_args_t* args) {
    (void)args; /* no self-check on purpose: the host must refuse */
    return &newer_desc;
}
