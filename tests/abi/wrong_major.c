/*
 * abi-wrong-major — a plugin built against ABI major 2 (PLATFORM_ABI_PACK(2, 0)),
 * otherwise valid.
 *
 * The host must REFUSE it with a clear message: majors must match exactly (a different major is
 * a different contract, and would come with a new entry symbol). The entry deliberately does not
 * check the host version itself, so the refusal proves the host's check. If the host wrongly
 * loaded it, abi.wrongmajor/ping would answer {"pong":true}.
 */
#include "abi_test_plugin.h"

static const platform_endpoint_t wrong_endpoints[] = {
    {GET_ENDPOINT("ping", "Ping",
                  "Answers {\"pong\":true}; must never be served (wrong ABI major)."),
     .flags = PLATFORM_FLAG_READ_ONLY, .input_schema = EMPTY_OBJECT_SCHEMA},
};

static const platform_plugin_desc_t wrong_desc = {
    SERVICE_DESC(PLATFORM_ABI_PACK(2, 0), "abi-wrong-major", "abi.wrongmajor",
                 "ABI test: built against ABI major 2; must be refused", wrong_endpoints),
    PONG_CALLBACKS,
};

ABI_EXPORT const platform_plugin_desc_t* platform_plugin_entry(const platform_entry_args_t* args) {
    (void)args; /* no self-check on purpose: the host must refuse */
    return &wrong_desc;
}
