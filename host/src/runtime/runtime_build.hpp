// host/src/runtime/runtime_build.hpp — how the `runtime` built-in gets a plugin from source
// (docs/decisions.md 27): run a command, fetch a source (uploaded archive or git), build it with
// CMake, Cargo, Go, make or cc against the SDK this host was built with.
//
// Every function reports progress line by line through a LogFn (build output goes to the
// service's `logs`), runs its commands in their own process group with no inherited descriptors
// beyond stdin/stdout/stderr, and gives up when `cancel` becomes true (host stopping).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace platform::host::runtime {

using LogFn = std::function<void(const std::string& line)>;

// Runs argv in `cwd` (stdout and stderr merged, one call of `log` per line; stdin /dev/null).
// Returns the exit status, 128+signal when killed, -1 when it could not start (reason logged).
// The whole process group is killed after timeout_ms or once *cancel is true. `env` (NAME=value
// entries) is added to the host's environment, replacing a variable of the same name.
int run_process(const std::vector<std::string>& argv, const std::string& cwd, const LogFn& log,
                int64_t timeout_ms, const std::atomic<bool>* cancel = nullptr,
                const std::vector<std::string>& env = {});

// Where a source comes from. kind "archive": a .tar.gz (the CLI's upload of a local folder);
// kind "git": anything `git clone` takes (a path, file://, https://, ssh), at `ref` (a branch, a
// tag or a commit; "" = the default branch).
struct Source {
    std::string kind, url, ref;
    std::string archive;  // the .tar.gz bytes (kind "archive")
};

// Unpacks or clones into `dir` (created; must not exist). For git, `commit` is the checked-out
// commit (40 hex digits) and `ref_is_commit` whether the ref named a commit rather than a branch
// or tag. Returns "" or the reason.
std::string fetch_source(const Source& source, const std::string& dir, std::string& commit,
                         bool& ref_is_commit, const LogFn& log, const std::atomic<bool>* cancel);

// The folder find_package(PlatformSDK) should use: PLATFORM_SDK_DIR when set; the installed
// <exe_dir>/../lib/cmake/PlatformSDK next to an installed host; else, for a host run from its build
// tree, a small folder written under `work_dir` that includes the source tree's
// plugin-sdk/cmake/PlatformSDKConfig.cmake and the build tree's version file (paths compiled in).
// "" when none is usable.
std::string sdk_dir(const std::string& exe_dir, const std::string& work_dir);

// A prefix laid out like an installed SDK for the builds that are not CMake's: <prefix>/include
// (platform/abi.h) and <prefix>/lib/cmake/PlatformSDK/plugin.map (the version script that keeps
// every symbol but the entry local). The installed prefix itself when there is one; else a folder
// of symbolic links, <work_dir>/.sdk-prefix, to the SDK this host was built with. "" when none is
// usable.
std::string sdk_prefix(const std::string& exe_dir, const std::string& work_dir);

// What a build needs besides the source: the SDK as CMake finds it (sdk_dir), as a prefix
// (sdk_prefix), and a folder for the toolchains' caches (Go's build cache, Cargo's home) when the
// host's environment names none.
struct BuildEnv {
    std::string cmake_dir, prefix, cache_dir;
};

// The kind of folder `src` is, by what is at its top, first match wins (docs/decisions.md 84):
// "cmake" (CMakeLists.txt), "cargo" (Cargo.toml), "go" (go.mod or a *.go file), "make"
// (Makefile, makefile or GNUmakefile), "c" (*.c files and nothing above: every *.c but *_test.c,
// one cc -shared with plugin.map); "" when none.
std::string source_kind(const std::string& src);

// Builds `src` with its kind's tool, into `build` where the tool allows (CMake, Cargo's target
// folder, go build -o, cc -o; make builds in `src`), then picks the plugin and checks that it
// exports exactly one entry symbol (check_entry_symbol). Tools are found on the host's PATH; a
// missing one is an error naming the Debian package. CMake: cmake -G Ninja when ninja exists,
// Release, ccache as the compiler launcher when present, BUILD_TESTING=OFF, plugins to
// <build>/plugins, then <build>/plugins/<name>.so or the only .so there. Returns the .so path, or
// "" with `error` set — for a compile failure, the compiler's first error line.
std::string build_plugin(const std::string& src, const std::string& build, const BuildEnv& env,
                         const std::string& name, std::string& error, const LogFn& log,
                         const std::atomic<bool>* cancel);

// The names of the symbols the shared library at `path` exports (defined, global or weak, default
// or protected visibility, in .dynsym), read from the file. Returns "" or why it could not.
std::string read_exports(const std::string& path, std::vector<std::string>& exports);

// "" when the library exports exactly one entry-like symbol (one whose name starts with
// PLATFORM_ENTRY_SYMBOL, counting each version of a versioned name) and it is
// PLATFORM_ENTRY_SYMBOL; else the refusal. Other exports (a Go runtime's, a C plugin's functions
// left visible) are allowed and counted in the log.
std::string check_entry_symbol(const std::string& path, const LogFn& log);

}  // namespace platform::host::runtime
