/*
 * abi-missing-entry — a shared module that exports `platform_plugin_entry_v0` and no
 * `platform_plugin_entry`.
 *
 * The host must REFUSE it with a clear message naming the missing symbol, and keep serving the
 * other plugins. Everything else is valid, so the missing symbol is the only defect. Built by
 * tests/abi/CMakeLists.txt with its own version script (missing_entry.map), not platform_add_plugin.
 */
#include "abi_test_plugin.h"

static const platform_endpoint_t missing_endpoints[] = {
    {GET_ENDPOINT("ping", "Ping",
                  "Answers {\"pong\":true}; must never be served (no entry symbol)."),
     .flags = PLATFORM_FLAG_READ_ONLY, .input_schema = EMPTY_OBJECT_SCHEMA},
};

static const platform_plugin_desc_t missing_desc = {
    SERVICE_DESC(PLATFORM_ABI_VERSION, "abi-missing-entry", "abi.missing",
                 "ABI test: exports the wrong entry symbol; must be refused", missing_endpoints),
    PONG_CALLBACKS,
};

/* Same signature as platform_plugin_entry_fn, wrong name. */
ABI_EXPORT const platform_plugin_desc_t* platform_plugin_entry_v0(
    const platform_entry_args_t* args);

ABI_EXPORT const platform_plugin_desc_t* platform_plugin_entry_v0(
    const platform_entry_args_t* args) {
    (void)args;
    return &missing_desc;
}
