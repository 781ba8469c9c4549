/*
 * abi-bad-schema — an endpoint whose input_schema is not a valid JSON Schema:
 * {"type":"object","properties":{"x":{"type":"strnig"}}} ("strnig" is no JSON type).
 *
 * The host must REFUSE the whole plugin at load with a message naming the endpoint and the
 * schema error, rather than serve an endpoint it cannot validate arguments for.
 */
#include "abi_test_plugin.h"

static const platform_endpoint_t bad_endpoints[] = {
    {GET_ENDPOINT("check", "Check", "Declares an invalid input schema; must never be served."),
     .flags = PLATFORM_FLAG_READ_ONLY,
     .input_schema = STR("{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"strnig\"}}}")},
};

static const platform_plugin_desc_t bad_desc = {
    SERVICE_DESC(PLATFORM_ABI_VERSION, "abi-bad-schema", "abi.badschema",
                 "ABI test: an endpoint with an invalid input schema; must be refused",
                 bad_endpoints),
    PONG_CALLBACKS,
};

ABI_EXPORT const platform_plugin_desc_t* platform_plugin_entry(const platform_entry_args_t* args) {
    (void)args;
    return &bad_desc;
}
