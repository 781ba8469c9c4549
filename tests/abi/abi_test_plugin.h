/*
 * abi_test_plugin.h — what the ABI test plugins here share besides the one defect each is about:
 * string literals as platform_str_t, the export attribute, a public read-only GET endpoint, the
 * descriptor fields of a one-service plugin, an instance that keeps the host table and answers
 * {"pong":true}, and the entry's check of the host's major.
 *
 * Plain C99 over <platform/abi.h>. Everything is static: each plugin (its own module) includes it
 * once and gets its own copy. The host creates an in-process plugin once, so the one instance is
 * a static; calls may come from any of the host's workers, and nothing here changes after
 * on_create.
 */
#ifndef ABI_TEST_PLUGIN_H
#define ABI_TEST_PLUGIN_H

#include <platform/abi.h>
#include <stdio.h>

#define ABI_EXPORT __attribute__((visibility("default")))
#define STR(lit) \
    { lit, sizeof(lit) - 1 }
#define EMPTY_OBJECT_SCHEMA \
    STR("{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}")

/* The fields of a public GET endpoint since 1.0.0; the plugin adds flags and schemas. */
#define GET_ENDPOINT(name_, title_, description_)                                                  \
    .struct_size = sizeof(platform_endpoint_t), .name = STR(name_), .title = STR(title_),          \
    .description = STR(description_), .verb = PLATFORM_VERB_GET, .access = PLATFORM_ACCESS_PUBLIC, \
    .since = STR("1.0.0")

/* The fields of the descriptor of service `service_` at version 1.0.0, built against `abi`,
 * serving the array `endpoints_`; the plugin adds its callbacks. */
#define SERVICE_DESC(abi, id_, service_, summary_, endpoints_)                         \
    .struct_size = sizeof(platform_plugin_desc_t), .abi_version = abi, .id = STR(id_), \
    .version = STR("1.0.0"), .kind = PLATFORM_KIND_SERVICE, .summary = STR(summary_),  \
    .service = STR(service_), .endpoints = endpoints_,                                 \
    .endpoint_count = sizeof endpoints_ / sizeof endpoints_[0],                        \
    .endpoint_stride = sizeof(platform_endpoint_t)

/* The callbacks of a plugin that keeps the host table and answers {"pong":true}. */
#define PONG_CALLBACKS \
    .on_create = keep_api_create, .on_destroy = keep_api_destroy, .on_call = pong_call

/* The entry point every plugin here but abi-missing-entry exports. */
ABI_EXPORT const platform_plugin_desc_t* platform_plugin_entry(const platform_entry_args_t* args);

/* The host table, kept by on_create; the instance is its address. */
static const platform_host_api_t* g_api __attribute__((unused));

static inline void* keep_api_create(const platform_host_api_t* api, platform_host_ctx_t* ctx,
                                    platform_str_t config_json, char* err, size_t err_size) {
    (void)ctx, (void)config_json, (void)err, (void)err_size;
    g_api = api;
    return &g_api;
}

static inline void keep_api_destroy(void* inst) {
    (void)inst;
}

/* Answers every call with {"pong":true}. */
static inline void pong_call(void* inst, platform_call_t* call, uint32_t endpoint_index,
                             platform_str_t request_json) {
    static const platform_str_t pong = STR("{\"pong\":true}");
    (void)inst, (void)endpoint_index, (void)request_json;
    g_api->respond(call, PLATFORM_OK, pong);
}

/* What an entry answers when it checks the host: `desc` when the host speaks this major, NULL
 * with a message naming `id` in args->error otherwise. */
static inline const platform_plugin_desc_t* same_major_or_null(const platform_entry_args_t* args,
                                                               const char* id,
                                                               const platform_plugin_desc_t* desc) {
    if (args && PLATFORM_ABI_MAJOR_OF(args->host_abi_version) != PLATFORM_ABI_MAJOR) {
        if (args->error && args->error_size)
            snprintf(args->error, args->error_size, "%s needs ABI major %u", id,
                     (unsigned)PLATFORM_ABI_MAJOR);
        return NULL;
    }
    return desc;
}

#endif
