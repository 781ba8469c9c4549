/*
 * abi_header_c.c — platform/abi.h compiled as strict C99 (-std=c99 -pedantic-errors), with the
 * layout asserted at compile time (negative-array-size typedefs) and a few run-time checks in
 * abi_c_layout_ok(), which the gtest in abi_header_cpp.cpp calls.
 */
#include <platform/abi.h>
#include <stdio.h>
#include <string.h>

#define ABI_CAT_(a, b) a##b
#define ABI_CAT(a, b) ABI_CAT_(a, b)
/* C99 has no _Static_assert: a negative array size fails the build. */
#define ABI_STATIC_ASSERT(cond) \
    typedef char ABI_CAT(abi_static_assert_line_, __LINE__)[(cond) ? 1 : -1]

/* ---- portable facts: hold on every platform ----------------------------------------------- */

ABI_STATIC_ASSERT(PLATFORM_ABI_VERSION == ((1u << 16) | 9u));
ABI_STATIC_ASSERT(PLATFORM_ABI_MAJOR == 1u && PLATFORM_ABI_MINOR == 9u);
ABI_STATIC_ASSERT(PLATFORM_ABI_PACK(2, 3) == 0x20003u);
ABI_STATIC_ASSERT(PLATFORM_ABI_MAJOR_OF(PLATFORM_ABI_PACK(7, 9)) == 7u);
ABI_STATIC_ASSERT(PLATFORM_ABI_MINOR_OF(PLATFORM_ABI_PACK(7, 9)) == 9u);
ABI_STATIC_ASSERT(PLATFORM_ABI_MINOR_OF(PLATFORM_ABI_PACK(1, 0x1ffff)) == 0xffffu);

ABI_STATIC_ASSERT(sizeof(platform_str_t) == 2 * sizeof(void*));
ABI_STATIC_ASSERT(offsetof(platform_str_t, ptr) == 0);
ABI_STATIC_ASSERT(offsetof(platform_str_t, len) == sizeof(void*));

/* Every struct starts with uint32_t struct_size. */
ABI_STATIC_ASSERT(offsetof(platform_endpoint_t, struct_size) == 0);
ABI_STATIC_ASSERT(offsetof(platform_call_info_t, struct_size) == 0);
ABI_STATIC_ASSERT(offsetof(platform_scan_t, struct_size) == 0);
ABI_STATIC_ASSERT(offsetof(platform_store_op_t, struct_size) == 0);
ABI_STATIC_ASSERT(offsetof(platform_store_api_t, struct_size) == 0);
ABI_STATIC_ASSERT(offsetof(platform_host_api_t, struct_size) == 0);
ABI_STATIC_ASSERT(offsetof(platform_registry_api_t, struct_size) == 0);
ABI_STATIC_ASSERT(offsetof(platform_clock_api_t, struct_size) == 0);
ABI_STATIC_ASSERT(offsetof(platform_store_provider_t, struct_size) == 0);
ABI_STATIC_ASSERT(offsetof(platform_broker_provider_t, struct_size) == 0);
ABI_STATIC_ASSERT(offsetof(platform_auth_provider_t, struct_size) == 0);
ABI_STATIC_ASSERT(offsetof(platform_model_provider_t, struct_size) == 0);
ABI_STATIC_ASSERT(offsetof(platform_plugin_desc_t, struct_size) == 0);
ABI_STATIC_ASSERT(offsetof(platform_entry_args_t, struct_size) == 0);
ABI_STATIC_ASSERT(sizeof(((platform_host_api_t*)0)->struct_size) == 4);
ABI_STATIC_ASSERT(sizeof(((platform_plugin_desc_t*)0)->struct_size) == 4);

/* The head of the host table: what any plugin reads before knowing anything else. */
ABI_STATIC_ASSERT(offsetof(platform_host_api_t, struct_size) == 0);
ABI_STATIC_ASSERT(offsetof(platform_host_api_t, abi_version) == 4);
ABI_STATIC_ASSERT(offsetof(platform_host_api_t, log) == 8);
ABI_STATIC_ASSERT(offsetof(platform_plugin_desc_t, abi_version) == 4);
ABI_STATIC_ASSERT(offsetof(platform_entry_args_t, host_abi_version) == 4);

/* Enumerations are append-only with explicit values. */
ABI_STATIC_ASSERT(sizeof(platform_status_t) == 4 && sizeof(platform_kind_t) == 4);
ABI_STATIC_ASSERT(PLATFORM_OK == 0 && PLATFORM_INVALID_ARGUMENT == 1 &&
                  PLATFORM_UNAUTHENTICATED == 2);
ABI_STATIC_ASSERT(PLATFORM_PAYMENT_REQUIRED == 3 && PLATFORM_PERMISSION_DENIED == 4);
ABI_STATIC_ASSERT(PLATFORM_NOT_FOUND == 5 && PLATFORM_METHOD_NOT_ALLOWED == 6 &&
                  PLATFORM_TIMEOUT == 7);
ABI_STATIC_ASSERT(PLATFORM_CONFLICT == 8 && PLATFORM_PAYLOAD_TOO_LARGE == 9 &&
                  PLATFORM_RATE_LIMITED == 10);
ABI_STATIC_ASSERT(PLATFORM_INTERNAL == 11 && PLATFORM_UNSUPPORTED == 12 &&
                  PLATFORM_BAD_GATEWAY == 13);
ABI_STATIC_ASSERT(PLATFORM_UNAVAILABLE == 14 && PLATFORM_DEADLINE_EXCEEDED == 15);
ABI_STATIC_ASSERT(PLATFORM_KIND_SERVICE == 1 && PLATFORM_KIND_STORE == 2 &&
                  PLATFORM_KIND_BROKER == 3);
ABI_STATIC_ASSERT(PLATFORM_KIND_EVENTS == 4 && PLATFORM_KIND_AUTH == 5 && PLATFORM_KIND_MODEL == 6);
ABI_STATIC_ASSERT(PLATFORM_LOG_DEBUG == 0 && PLATFORM_LOG_INFO == 1 && PLATFORM_LOG_WARN == 2 &&
                  PLATFORM_LOG_ERROR == 3 && PLATFORM_LOG_OPERATOR == 4);
ABI_STATIC_ASSERT(PLATFORM_VERB_GET == 1 && PLATFORM_VERB_POST == 2);
ABI_STATIC_ASSERT(PLATFORM_ACCESS_PUBLIC == 0 && PLATFORM_ACCESS_ACCOUNT == 1);
ABI_STATIC_ASSERT(PLATFORM_ACCESS_OWNER == 2 && PLATFORM_ACCESS_ADMIN == 3);
ABI_STATIC_ASSERT(PLATFORM_ORDER_ASC == 0 && PLATFORM_ORDER_DESC == 1);
ABI_STATIC_ASSERT(PLATFORM_FLAG_READ_ONLY == 1u && PLATFORM_FLAG_DESTRUCTIVE == 2u);
ABI_STATIC_ASSERT(PLATFORM_FLAG_WITHHELD_FROM_AGENT == 4u && PLATFORM_FLAG_IDEMPOTENT == 8u);
ABI_STATIC_ASSERT(PLATFORM_FLAG_METERED == 16u && PLATFORM_FLAG_ACTION == 32u);
ABI_STATIC_ASSERT(PLATFORM_FLAG_STREAMING == 64u && PLATFORM_FLAG_OPEN_WORLD == 128u);
ABI_STATIC_ASSERT(PLATFORM_STORE_TTL == 1u && PLATFORM_STORE_PREFIX == 2u);
ABI_STATIC_ASSERT(PLATFORM_STORE_ORDER == 4u && PLATFORM_STORE_PERSISTENT == 8u);
ABI_STATIC_ASSERT(PLATFORM_STORE_CAS == 16u && PLATFORM_STORE_TRANSACTIONS == 32u);
ABI_STATIC_ASSERT(PLATFORM_STORE_OP_PUT == 1 && PLATFORM_STORE_OP_DEL == 2);
ABI_STATIC_ASSERT(PLATFORM_DEFAULT_MAX_BODY == 1048576u);

/* ---- the pinned x86_64 layout ------------------------------------------------------------- */

#if defined(__x86_64__) && defined(__LP64__)
#define ABI_PIN_SIZE(type, size) typedef char abi_size_##type[sizeof(type) == (size) ? 1 : -1];
#define ABI_PIN_OFFSET(type, member, off) \
    typedef char abi_offset_##type##_##member[offsetof(type, member) == (off) ? 1 : -1];
#include "abi_layout_x86_64.inc"
#undef ABI_PIN_SIZE
#undef ABI_PIN_OFFSET
#endif

/* ---- run-time checks ----------------------------------------------------------------------- */

int abi_c_layout_ok(void);

#define ABI_CHECK(cond)                                                                  \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            fprintf(stderr, "%s:%d: abi check failed: %s\n", __FILE__, __LINE__, #cond); \
            ok = 0;                                                                      \
        }                                                                                \
    } while (0)

int abi_c_layout_ok(void) {
    int ok = 1;
    platform_host_api_t api;
    platform_call_info_t info;
    platform_plugin_desc_t desc;

    ABI_CHECK(strcmp(PLATFORM_ENTRY_SYMBOL, "platform_plugin_entry") == 0);

    /* PLATFORM_HAS_FIELD: a field is present iff offset + size <= struct_size. */
    memset(&api, 0, sizeof api);
    api.struct_size = (uint32_t)sizeof api;
    ABI_CHECK(PLATFORM_HAS_FIELD(platform_host_api_t, &api, log));
    ABI_CHECK(PLATFORM_HAS_FIELD(platform_host_api_t, &api, get_service));

    /* A 1.0 host table ends after respond_end. */
    api.struct_size = (uint32_t)offsetof(platform_host_api_t, get_service);
    ABI_CHECK(PLATFORM_HAS_FIELD(platform_host_api_t, &api, respond_end));
    ABI_CHECK(!PLATFORM_HAS_FIELD(platform_host_api_t, &api, get_service));

    /* One byte short of a field is not enough. */
    api.struct_size = (uint32_t)(offsetof(platform_host_api_t, get_service) + sizeof(void*) - 1);
    ABI_CHECK(!PLATFORM_HAS_FIELD(platform_host_api_t, &api, get_service));

    /* struct_size 0 (or just the size field) has nothing after it. */
    api.struct_size = 0;
    ABI_CHECK(!PLATFORM_HAS_FIELD(platform_host_api_t, &api, abi_version));
    api.struct_size = 4;
    ABI_CHECK(PLATFORM_HAS_FIELD(platform_host_api_t, &api, struct_size));
    ABI_CHECK(!PLATFORM_HAS_FIELD(platform_host_api_t, &api, abi_version));
    api.struct_size = 8;
    ABI_CHECK(PLATFORM_HAS_FIELD(platform_host_api_t, &api, abi_version));
    ABI_CHECK(!PLATFORM_HAS_FIELD(platform_host_api_t, &api, log));

    /* A 1.2 host table ends after events_wait: no store_cas/store_batch. */
    api.struct_size = (uint32_t)offsetof(platform_host_api_t, store_cas);
    ABI_CHECK(PLATFORM_HAS_FIELD(platform_host_api_t, &api, events_wait));
    ABI_CHECK(!PLATFORM_HAS_FIELD(platform_host_api_t, &api, store_cas));
    ABI_CHECK(!PLATFORM_HAS_FIELD(platform_host_api_t, &api, store_batch));

    /* A 1.4 host table ends after resource_updated: no model_complete/call_tools. */
    api.struct_size = (uint32_t)offsetof(platform_host_api_t, model_complete);
    ABI_CHECK(PLATFORM_HAS_FIELD(platform_host_api_t, &api, resource_updated));
    ABI_CHECK(!PLATFORM_HAS_FIELD(platform_host_api_t, &api, model_complete));
    ABI_CHECK(!PLATFORM_HAS_FIELD(platform_host_api_t, &api, call_tools));

    /* A 1.5 host table ends after call_tools: no grants. */
    api.struct_size = (uint32_t)offsetof(platform_host_api_t, grant_create);
    ABI_CHECK(PLATFORM_HAS_FIELD(platform_host_api_t, &api, call_tools));
    ABI_CHECK(!PLATFORM_HAS_FIELD(platform_host_api_t, &api, grant_create));
    ABI_CHECK(!PLATFORM_HAS_FIELD(platform_host_api_t, &api, grant_revoke));

    /* A larger struct_size (a newer peer) still reports every field we know. */
    api.struct_size = (uint32_t)sizeof api + 64;
    ABI_CHECK(PLATFORM_HAS_FIELD(platform_host_api_t, &api, get_service));

    memset(&info, 0, sizeof info);
    info.struct_size = (uint32_t)offsetof(platform_call_info_t, deadline_ms);
    ABI_CHECK(PLATFORM_HAS_FIELD(platform_call_info_t, &info, request_id));
    ABI_CHECK(!PLATFORM_HAS_FIELD(platform_call_info_t, &info, deadline_ms));

    memset(&desc, 0, sizeof desc);
    desc.struct_size = (uint32_t)offsetof(platform_plugin_desc_t, on_cancel);
    ABI_CHECK(PLATFORM_HAS_FIELD(platform_plugin_desc_t, &desc, on_call));
    ABI_CHECK(!PLATFORM_HAS_FIELD(platform_plugin_desc_t, &desc, on_cancel));
    ABI_CHECK(!PLATFORM_HAS_FIELD(platform_plugin_desc_t, &desc, provider));

    /* Version helpers on a run-time value. */
    {
        volatile uint32_t v = PLATFORM_ABI_VERSION;
        ABI_CHECK(PLATFORM_ABI_MAJOR_OF(v) == 1u);
        ABI_CHECK(PLATFORM_ABI_MINOR_OF(v) == 9u);
    }
    return ok;
}
