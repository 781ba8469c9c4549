/* shim.c — see shim.h. Compiled by cgo with the Go package. */
#include "shim.h"

#include <stdio.h>
#include <string.h>

#include "_cgo_export.h" /* the Go functions exported in abi.go */

#define STR(lit) \
    { lit, sizeof(lit) - 1 }

/* The host validates every call against these schemas before on_call runs. */
static const char GREET_SCHEMA[] =
    "{\"type\":\"object\","
    "\"properties\":{\"name\":{\"type\":\"string\",\"maxLength\":100,\"description\":\"Who to "
    "greet\"}},"
    "\"required\":[\"name\"],\"additionalProperties\":false}";
static const char NO_ARGUMENTS[] =
    "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}";

/* The order is the endpoint index Go's helloCall receives (endpointGreet, endpointCount). */
static const platform_endpoint_t ENDPOINTS[] = {
    {.struct_size = sizeof(platform_endpoint_t),
     .name = STR("greet"),
     .title = STR("Greet someone"),
     .description = STR("Answers with a greeting for `name`."),
     .verb = PLATFORM_VERB_GET,
     .access = PLATFORM_ACCESS_PUBLIC,
     .flags = PLATFORM_FLAG_READ_ONLY,
     .input_schema = {GREET_SCHEMA, sizeof GREET_SCHEMA - 1},
     .since = STR("1.0.0")},
    {.struct_size = sizeof(platform_endpoint_t),
     .name = STR("count"),
     .title = STR("Count my calls"),
     .description = STR("Adds one to the caller's own counter and answers with its new value."),
     .verb = PLATFORM_VERB_POST,
     .access = PLATFORM_ACCESS_OWNER,
     .input_schema = {NO_ARGUMENTS, sizeof NO_ARGUMENTS - 1},
     .since = STR("1.0.0")},
};

/* on_create with abi.h's exact type (cgo's export of helloCreate drops the const). */
static void* on_create(const platform_host_api_t* api, platform_host_ctx_t* ctx,
                       platform_str_t config_json, char* err, size_t err_size) {
    return helloCreate((platform_host_api_t*)api, ctx, config_json, err, err_size);
}

static platform_plugin_desc_t DESCRIPTOR = {
    .struct_size = sizeof(platform_plugin_desc_t),
    .abi_version = PLATFORM_ABI_VERSION,
    .version = STR("1.0.0"),
    .kind = PLATFORM_KIND_SERVICE,
    .summary = STR("Greets people and counts calls (Go)"),
    .endpoints = ENDPOINTS,
    .endpoint_count = sizeof ENDPOINTS / sizeof ENDPOINTS[0],
    .endpoint_stride = sizeof(platform_endpoint_t),
    .on_create = on_create,
    .on_destroy = helloDestroy,
    .on_call = helloCall,
};

static platform_str_t kept(const char* text) {
    platform_str_t s;
    s.len = strlen(text);
    s.ptr = memcpy(malloc(s.len + 1), text, s.len + 1); /* lives as long as the process */
    return s;
}

const platform_plugin_desc_t* hello_descriptor(const char* id, const char* service) {
    if (!DESCRIPTOR.id.ptr) {
        DESCRIPTOR.id = kept(id);
        DESCRIPTOR.service = kept(service);
    }
    return &DESCRIPTOR;
}

int hello_has_store_cas(const platform_host_api_t* api) {
    return PLATFORM_HAS_FIELD(platform_host_api_t, api, store_cas) && api->store_cas != NULL;
}

void hello_write_error(char* err, size_t err_size, const char* message) {
    if (err && err_size) snprintf(err, err_size, "%s", message);
}

platform_str_t hello_call_account(const hello_host_t* host, platform_call_t* call) {
    platform_call_info_t info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    host->api->call_info(call, &info);
    return info.account;
}

platform_status_t hello_respond(const hello_host_t* host, platform_call_t* call,
                                platform_status_t code, const char* body, size_t len) {
    platform_str_t b;
    b.ptr = body;
    b.len = len;
    return host->api->respond(call, code, b);
}

typedef struct copy {
    char* data;
    size_t len;
} copy_t;

static void sink_copy(void* user, platform_str_t bytes) {
    copy_t* c = (copy_t*)user;
    c->data = malloc(bytes.len ? bytes.len : 1);
    if (c->data) memcpy(c->data, bytes.ptr, bytes.len);
    c->len = bytes.len;
}

platform_status_t hello_store_get(const hello_host_t* host, const char* key, size_t key_len,
                                  char** out, size_t* out_len) {
    platform_str_t k;
    copy_t c = {NULL, 0};
    platform_status_t got;
    k.ptr = key;
    k.len = key_len;
    got = host->api->store_get(host->ctx, k, sink_copy, &c);
    if (got == PLATFORM_OK && !c.data) got = PLATFORM_INTERNAL; /* out of memory */
    *out = c.data;
    *out_len = c.len;
    return got;
}

platform_status_t hello_store_cas(const hello_host_t* host, const char* key, size_t key_len,
                                  int has_expected, const char* expected, size_t expected_len,
                                  const char* value, size_t value_len) {
    platform_str_t k, e, v;
    k.ptr = key;
    k.len = key_len;
    e.ptr = expected;
    e.len = expected_len;
    v.ptr = value;
    v.len = value_len;
    return host->api->store_cas(host->ctx, k, has_expected ? &e : NULL, &v, 0);
}
