/*
 * abi-older-minor — a plugin built against ABI 1.0 while the host speaks 1.1.
 *
 * Older minors must LOAD: tables only grow, so everything a 1.0 plugin knows is still there.
 * Serves abi.older/ping -> {"pong":true}. Uses only host-table entries of ABI 1.0 (log,
 * respond); never get_service, which 1.1 added.
 */
#include "abi_test_plugin.h"

typedef struct older {
    const platform_host_api_t* api;
    platform_host_ctx_t* ctx;
} older_t;

static older_t g_older; /* the host creates each in-process plugin once */

static void* older_create(const platform_host_api_t* api, platform_host_ctx_t* ctx,
                          platform_str_t config_json, char* err, size_t err_size) {
    static const platform_str_t hello = STR("older-minor plugin created (built against ABI 1.0)");
    (void)config_json;
    /* A 1.0 plugin only relies on 1.0 entries, and checks they are within the given size. */
    if (!api || !PLATFORM_HAS_FIELD(platform_host_api_t, api, respond_end) || !api->respond) {
        if (err && err_size) snprintf(err, err_size, "host table lacks the ABI 1.0 entries");
        return NULL;
    }
    g_older.api = api;
    g_older.ctx = ctx;
    if (api->log) api->log(ctx, PLATFORM_LOG_INFO, hello);
    return &g_older;
}

static void older_destroy(void* inst) {
    (void)inst;
}

static void older_call(void* inst, platform_call_t* call, uint32_t endpoint_index,
                       platform_str_t request_json) {
    static const platform_str_t pong = STR("{\"pong\":true}");
    static const platform_str_t unknown = STR("unknown endpoint index");
    older_t* self = (older_t*)inst;
    (void)request_json;
    if (endpoint_index == 0)
        self->api->respond(call, PLATFORM_OK, pong);
    else
        self->api->respond(call, PLATFORM_NOT_FOUND, unknown);
}

static const platform_endpoint_t older_endpoints[] = {
    {GET_ENDPOINT("ping", "Ping",
                  "Answers {\"pong\":true}. Proves a plugin built against an older ABI minor "
                  "loads and serves."),
     .flags = PLATFORM_FLAG_READ_ONLY | PLATFORM_FLAG_IDEMPOTENT,
     .input_schema = EMPTY_OBJECT_SCHEMA,
     .output_schema =
         STR("{\"type\":\"object\",\"properties\":{\"pong\":{\"type\":\"boolean\"}}}")},
};

/* The descriptor's size did not change in 1.1. */
static const platform_plugin_desc_t older_desc = {
    SERVICE_DESC(PLATFORM_ABI_PACK(1, 0), "abi-older-minor", "abi.older",
                 "ABI test: built against ABI 1.0; must load on a 1.1 host", older_endpoints),
    .on_create = older_create,
    .on_destroy = older_destroy,
    .on_call = older_call,
};

ABI_EXPORT const platform_plugin_desc_t* platform_plugin_entry(const platform_entry_args_t* args) {
    /* What a 1.0 plugin checks: same major (any minor >= 0 will do). */
    if (args && PLATFORM_ABI_MAJOR_OF(args->host_abi_version) != 1) {
        if (args->error && args->error_size)
            snprintf(args->error, args->error_size,
                     "abi-older-minor needs ABI major 1, host speaks %u.%u",
                     (unsigned)PLATFORM_ABI_MAJOR_OF(args->host_abi_version),
                     (unsigned)PLATFORM_ABI_MINOR_OF(args->host_abi_version));
        return NULL;
    }
    return &older_desc;
}
