/*
 * shim.h — the C side of hello-go: what Go cannot do itself through cgo. Go cannot call a C
 * function pointer, so every host-table function the plugin uses has a small C wrapper here;
 * the descriptor is static C data in shim.c, pointing at the Go functions exported in abi.go.
 */
#ifndef HELLO_GO_SHIM_H
#define HELLO_GO_SHIM_H

#include <platform/abi.h>
#include <stdlib.h>

/* The descriptor, with the id and service names filled in (copied, kept for the process). */
const platform_plugin_desc_t* hello_descriptor(const char* id, const char* service);

/* The host table and our handle, from on_create. */
typedef struct hello_host {
    const platform_host_api_t* api;
    platform_host_ctx_t* ctx;
} hello_host_t;

int hello_has_store_cas(const platform_host_api_t* api);
void hello_write_error(char* err, size_t err_size, const char* message);

/* call_info's account: a view valid until the call is answered. */
platform_str_t hello_call_account(const hello_host_t* host, platform_call_t* call);
platform_status_t hello_respond(const hello_host_t* host, platform_call_t* call,
                                platform_status_t code, const char* body, size_t len);
/* store_get into a malloc'd copy (*out, *out_len; free it), NOT_FOUND when absent. */
platform_status_t hello_store_get(const hello_host_t* host, const char* key, size_t key_len,
                                  char** out, size_t* out_len);
/* store_cas: has_expected 0 means "the key must be absent". */
platform_status_t hello_store_cas(const hello_host_t* host, const char* key, size_t key_len,
                                  int has_expected, const char* expected, size_t expected_len,
                                  const char* value, size_t value_len);

#endif
