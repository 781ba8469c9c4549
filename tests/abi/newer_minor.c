/*
 * abi-newer-minor — a plugin built against a NEWER minor than the host speaks
 * (PLATFORM_ABI_MINOR + 1), otherwise valid.
 *
 * The host must REFUSE it with a clear message: the plugin may call host functions the host does
 * not have. The entry deliberately does not check the host version itself, so the refusal proves
 * the host's check. If the host wrongly loaded it, abi.newer/ping would answer {"pong":true}.
 */
#include "abi_test_plugin.h"

static const platform_endpoint_t newer_endpoints[] = {
    {GET_ENDPOINT("ping", "Ping",
                  "Answers {\"pong\":true}; must never be served (newer ABI minor)."),
     .flags = PLATFORM_FLAG_READ_ONLY, .input_schema = EMPTY_OBJECT_SCHEMA},
};

static const platform_plugin_desc_t newer_desc = {
    SERVICE_DESC(PLATFORM_ABI_PACK(1, PLATFORM_ABI_MINOR + 1), "abi-newer-minor", "abi.newer",
                 "ABI test: built against a newer ABI minor; must be refused", newer_endpoints),
    PONG_CALLBACKS,
};

ABI_EXPORT const platform_plugin_desc_t* platform_plugin_entry(const platform_entry_args_t* args) {
    (void)args; /* no self-check on purpose: the host must refuse */
    return &newer_desc;
}
