// entry_args.hpp — the arguments a unit test hands a plugin's entry point, filled as the host
// fills them (platform_entry_args_t in platform/abi.h).
//
//   char err[512] = {0};
//   platform_entry_args_t args = plugin_test::entry_args(host.api(), err);
//   const platform_plugin_desc_t* desc = platform_plugin_entry(&args);  // null: refused, see err
//
// Header-only. The arguments borrow `error`: keep it alive while the entry point runs.
#pragma once

#include <platform/abi.h>

#include <cstddef>

namespace plugin_test {

// This build's ABI version, the host table `api` (null when the test has none) and `error`
// (all of its N bytes) for the plugin's refusal.
template <size_t N>
inline platform_entry_args_t entry_args(const platform_host_api_t* api, char (&error)[N]) {
    platform_entry_args_t args{};
    args.struct_size = sizeof args;
    args.host_abi_version = PLATFORM_ABI_VERSION;
    args.api = api;
    args.error = error;
    args.error_size = N;
    return args;
}

}  // namespace plugin_test
