/*
 * abi-null-descriptor — the entry writes a message into args->error and returns NULL.
 *
 * The host must REFUSE the plugin and log that message ("null-descriptor plugin refuses to
 * load"), never dereference the NULL, and keep serving the other plugins.
 */
#include "abi_test_plugin.h"

ABI_EXPORT const platform_plugin_desc_t* platform_plugin_entry(const platform_entry_args_t* args) {
    if (args && args->error && args->error_size)
        snprintf(args->error, args->error_size, "%s", "null-descriptor plugin refuses to load");
    return NULL;
}
