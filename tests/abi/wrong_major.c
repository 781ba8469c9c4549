/*
 * abi-wrong-major — a plugin built against ABI major 2 (PLATFORM_ABI_PACK(2, 0)),
 * otherwise valid.
 *
 * The host must REFUSE it with a clear message: majors must match exactly (a different major is
 * a different contract, and would come with a new entry symbol). The entry deliberately does not
 * check the host version itself, so the refusal proves the host's check. If the host wrongly
 * loaded it, abi.wrongmajor/ping would answer {"pong":true}.
 */
#include <platform/abi.h>

#define ABI_EXPORT __attribute__((visibility("default")))
#define STR(lit) \
    { lit, sizeof(lit) - 1 }

typedef struct wrong {
    const platform_host_api_t* api;
} wrong_t;

static wrong_t g_wrong;

static void* wrong_create(const platform_host_api_t* api, platform_host_ctx_t* ctx,
                          platform_str_t config_json, char* err, size_t err_size) {
    (void)ctx, (void)config_json, (void)err, (void)err_size;
    g_wrong.api = api;
    return &g_wrong;
}

static void wrong_destroy(void* inst) {
    (void)inst;
}

static void wrong_call(void* inst, platform_call_t* call, uint32_t endpoint_index,
                       platform_str_t request_json) {
    static const platform_str_t pong = STR("{\"pong\":true}");
    (void)endpoint_index, (void)request_json;
    ((wrong_t*)inst)->api->respond(call, PLATFORM_OK, pong);
}

static const platform_endpoint_t wrong_endpoints[] = {
    {
        .struct_size = sizeof(platform_endpoint_t),
        .name = STR("ping"),
        .title = STR("Ping"),
        .description = STR("Answers {\"pong\":true}; must never be served (wrong ABI major)."),
        .verb = PLATFORM_VERB_GET,
        .access = PLATFORM_ACCESS_PUBLIC,
        .flags = PLATFORM_FLAG_READ_ONLY,
        .input_schema =
            STR("{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}"),
        .since = STR("1.0.0"),
    },
};

static const platform_plugin_desc_t wrong_desc = {
    .struct_size = sizeof(platform_plugin_desc_t),
    .abi_version = PLATFORM_ABI_PACK(2, 0),
    .id = STR("abi-wrong-major"),
    .version = STR("1.0.0"),
    .kind = PLATFORM_KIND_SERVICE,
    .summary = STR("ABI test: built against ABI major 2; must be refused"),
    .service = STR("abi.wrongmajor"),
    .endpoints = wrong_endpoints,
    .endpoint_count = sizeof wrong_endpoints / sizeof wrong_endpoints[0],
    .endpoint_stride = sizeof(platform_endpoint_t),
    .on_create = wrong_create,
    .on_destroy = wrong_destroy,
    .on_call = wrong_call,
};

ABI_EXPORT const platform_plugin_desc_t* platform_plugin_entry(const platform_entry_args_t* args);

ABI_EXPORT const platform_plugin_desc_t* platform_plugin_entry(const platform_entry_args_t* args) {
    (void)args; /* no self-check on purpose: the host must refuse */
    return &wrong_desc;
}
