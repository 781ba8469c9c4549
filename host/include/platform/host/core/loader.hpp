// platform/host/core/loader.hpp — finds plugin files and loads them through the one entry symbol.
//
// Boost.DLL is only the portable dlopen (rtld_now | rtld_local). Before dlopen the file is
// checked to be a complete ELF shared object (a truncated file would SIGBUS inside dlopen).
// Every refusal is one clear message; the caller logs it and keeps serving the other plugins.
// Libraries are never unloaded: stop joins a plugin's threads; the process exits with them mapped.
#pragma once

#include <platform/abi.h>

#include <filesystem>
#include <memory>
#include <platform/host/core/plugin.hpp>
#include <string>
#include <variant>
#include <vector>

namespace platform::host {

// The *.so files directly inside each existing directory, sorted by name within a directory.
std::vector<std::filesystem::path> find_plugin_files(
    const std::vector<std::filesystem::path>& dirs);

// Checks that `path` is a complete ELF64 shared object; returns a problem or "".
std::string check_elf(const std::filesystem::path& path);

// Checks a descriptor (version policy, kind, names, endpoint schemas) and fills `p` from it:
// id, version, kind, service, endpoints. Returns the problem or "". Used by load_plugin and for
// the descriptors isolated workers send (worker_plugin.hpp).
std::string check_descriptor(const platform_plugin_desc_t* d, Plugin& p);

// Loads one plugin and checks its descriptor (version policy, kind, names, endpoint schemas).
// Does not create the instance. Returns the plugin or the reason it was refused.
std::variant<std::unique_ptr<Plugin>, std::string> load_plugin(const std::filesystem::path& path,
                                                               const platform_host_api_t* api);

}  // namespace platform::host
