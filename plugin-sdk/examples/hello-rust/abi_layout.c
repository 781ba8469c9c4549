/*
 * abi_layout.c — prints the layout of the abi.h structs that src/platform.rs declares by hand:
 * one line per size, alignment and field offset, in the format of abi_layout.txt.
 *
 *   cc -I$HOME/.local/include abi_layout.c -o abi_layout && ./abi_layout > abi_layout.txt
 *
 * The Rust layout tests (cargo test) check platform.rs against abi_layout.txt, and the SDK's
 * out-of-tree test compiles this file against the installed abi.h and compares its output with
 * abi_layout.txt: a change on either side fails one of the two.
 */
#include <platform/abi.h>
#include <stdio.h>

#define TYPE(t) printf("%s size %zu\n%s align %zu\n", #t, sizeof(t), #t, _Alignof(t))
#define FIELD(t, f) printf("%s.%s %zu\n", #t, #f, offsetof(t, f))

int main(void) {
    printf("PLATFORM_ABI_VERSION %u\n", (unsigned)PLATFORM_ABI_VERSION);

    TYPE(platform_str_t);
    FIELD(platform_str_t, ptr);
    FIELD(platform_str_t, len);

    TYPE(platform_endpoint_t);
    FIELD(platform_endpoint_t, struct_size);
    FIELD(platform_endpoint_t, name);
    FIELD(platform_endpoint_t, title);
    FIELD(platform_endpoint_t, description);
    FIELD(platform_endpoint_t, verb);
    FIELD(platform_endpoint_t, access);
    FIELD(platform_endpoint_t, flags);
    FIELD(platform_endpoint_t, input_schema);
    FIELD(platform_endpoint_t, output_schema);
    FIELD(platform_endpoint_t, max_body_bytes);
    FIELD(platform_endpoint_t, price);
    FIELD(platform_endpoint_t, since);
    FIELD(platform_endpoint_t, http_path);
    FIELD(platform_endpoint_t, mcp_role);
    FIELD(platform_endpoint_t, mcp_uri_prefix);
    FIELD(platform_endpoint_t, live_input);
    FIELD(platform_endpoint_t, resume_arg);

    TYPE(platform_call_info_t);
    FIELD(platform_call_info_t, struct_size);
    FIELD(platform_call_info_t, service);
    FIELD(platform_call_info_t, endpoint);
    FIELD(platform_call_info_t, account);
    FIELD(platform_call_info_t, scopes);
    FIELD(platform_call_info_t, request_id);
    FIELD(platform_call_info_t, deadline_ms);

    TYPE(platform_host_api_t);
    FIELD(platform_host_api_t, struct_size);
    FIELD(platform_host_api_t, abi_version);
    FIELD(platform_host_api_t, log);
    FIELD(platform_host_api_t, config_get);
    FIELD(platform_host_api_t, store_get);
    FIELD(platform_host_api_t, store_put);
    FIELD(platform_host_api_t, store_delete);
    FIELD(platform_host_api_t, store_scan);
    FIELD(platform_host_api_t, broker_publish);
    FIELD(platform_host_api_t, broker_subscribe);
    FIELD(platform_host_api_t, broker_unsubscribe);
    FIELD(platform_host_api_t, clock_now_ms);
    FIELD(platform_host_api_t, call_info);
    FIELD(platform_host_api_t, call_header);
    FIELD(platform_host_api_t, respond);
    FIELD(platform_host_api_t, respond_raw);
    FIELD(platform_host_api_t, respond_chunk);
    FIELD(platform_host_api_t, respond_end);
    FIELD(platform_host_api_t, get_service);
    FIELD(platform_host_api_t, call_service);
    FIELD(platform_host_api_t, http_fetch);
    FIELD(platform_host_api_t, events_publish);
    FIELD(platform_host_api_t, events_read);
    FIELD(platform_host_api_t, events_wait);
    FIELD(platform_host_api_t, store_cas);
    FIELD(platform_host_api_t, store_batch);
    FIELD(platform_host_api_t, call_progress);
    FIELD(platform_host_api_t, call_log);
    FIELD(platform_host_api_t, call_client_request);
    FIELD(platform_host_api_t, resource_updated);
    FIELD(platform_host_api_t, model_complete);
    FIELD(platform_host_api_t, call_tools);
    FIELD(platform_host_api_t, grant_create);
    FIELD(platform_host_api_t, grant_call_service);
    FIELD(platform_host_api_t, grant_revoke);
    FIELD(platform_host_api_t, respond_raw_headers);

    TYPE(platform_plugin_desc_t);
    FIELD(platform_plugin_desc_t, struct_size);
    FIELD(platform_plugin_desc_t, abi_version);
    FIELD(platform_plugin_desc_t, id);
    FIELD(platform_plugin_desc_t, version);
    FIELD(platform_plugin_desc_t, kind);
    FIELD(platform_plugin_desc_t, summary);
    FIELD(platform_plugin_desc_t, config_schema);
    FIELD(platform_plugin_desc_t, service);
    FIELD(platform_plugin_desc_t, endpoints);
    FIELD(platform_plugin_desc_t, endpoint_count);
    FIELD(platform_plugin_desc_t, endpoint_stride);
    FIELD(platform_plugin_desc_t, on_create);
    FIELD(platform_plugin_desc_t, on_start);
    FIELD(platform_plugin_desc_t, on_stop);
    FIELD(platform_plugin_desc_t, on_destroy);
    FIELD(platform_plugin_desc_t, on_call);
    FIELD(platform_plugin_desc_t, on_cancel);
    FIELD(platform_plugin_desc_t, provider);

    TYPE(platform_entry_args_t);
    FIELD(platform_entry_args_t, struct_size);
    FIELD(platform_entry_args_t, host_abi_version);
    FIELD(platform_entry_args_t, api);
    FIELD(platform_entry_args_t, error);
    FIELD(platform_entry_args_t, error_size);
    return 0;
}
