/*
 * abi-never-responds — service abi.silent.
 *
 *   wait       on_call returns without ever answering. The host must answer 504
 *              (DEADLINE_EXCEEDED) at the call's deadline, or drop it when the client goes away,
 *              and in both cases call on_cancel exactly once.
 *   cancelled  answers {"count":N}: how many times on_cancel ran (it also logs "cancelled").
 *
 * Per abi.h, after on_cancel returns the plugin never touches that call again; `wait` never
 * touches it at all.
 */
#include "abi_test_plugin.h"

enum { SILENT_WAIT = 0, SILENT_CANCELLED = 1 };

typedef struct silent {
    const platform_host_api_t* api;
    platform_host_ctx_t* ctx;
} silent_t;

static silent_t g_silent;
static unsigned long g_cancel_count; /* only touched through __atomic builtins */

static void* silent_create(const platform_host_api_t* api, platform_host_ctx_t* ctx,
                           platform_str_t config_json, char* err, size_t err_size) {
    (void)config_json, (void)err, (void)err_size;
    g_silent.api = api;
    g_silent.ctx = ctx;
    return &g_silent;
}

static void silent_destroy(void* inst) {
    (void)inst;
}

static void silent_call(void* inst, platform_call_t* call, uint32_t endpoint_index,
                        platform_str_t request_json) {
    silent_t* self = (silent_t*)inst;
    (void)request_json;
    if (endpoint_index == SILENT_WAIT) return; /* never answers */
    if (endpoint_index == SILENT_CANCELLED) {
        char body[64];
        int n = snprintf(body, sizeof body, "{\"count\":%lu}",
                         __atomic_load_n(&g_cancel_count, __ATOMIC_SEQ_CST));
        platform_str_t reply;
        reply.ptr = body;
        reply.len = (size_t)n;
        self->api->respond(call, PLATFORM_OK, reply);
        return;
    }
    {
        static const platform_str_t unknown = STR("unknown endpoint index");
        self->api->respond(call, PLATFORM_NOT_FOUND, unknown);
    }
}

static void silent_cancel(void* inst, platform_call_t* call) {
    static const platform_str_t cancelled = STR("cancelled");
    silent_t* self = (silent_t*)inst;
    (void)call;
    __atomic_add_fetch(&g_cancel_count, 1, __ATOMIC_SEQ_CST);
    if (self->api->log) self->api->log(self->ctx, PLATFORM_LOG_INFO, cancelled);
}

static const platform_endpoint_t silent_endpoints[] = {
    {GET_ENDPOINT("wait", "Wait forever",
                  "Never answers: the host must give 504 at the deadline and call on_cancel."),
     .flags = PLATFORM_FLAG_READ_ONLY, .input_schema = EMPTY_OBJECT_SCHEMA},
    {GET_ENDPOINT("cancelled", "Cancellations",
                  "How many calls the host has cancelled so far: {\"count\":N}."),
     .flags = PLATFORM_FLAG_READ_ONLY, .input_schema = EMPTY_OBJECT_SCHEMA,
     .output_schema =
         STR("{\"type\":\"object\",\"properties\":{\"count\":{\"type\":\"integer\"}}}")},
};

static const platform_plugin_desc_t silent_desc = {
    SERVICE_DESC(PLATFORM_ABI_VERSION, "abi-never-responds", "abi.silent",
                 "ABI test: a handler that never answers; counts cancellations", silent_endpoints),
    .on_create = silent_create,
    .on_destroy = silent_destroy,
    .on_call = silent_call,
    .on_cancel = silent_cancel,
};

ABI_EXPORT const platform_plugin_desc_t* platform_plugin_entry(const platform_entry_args_t* args) {
    return same_major_or_null(args, "abi-never-responds", &silent_desc);
}
