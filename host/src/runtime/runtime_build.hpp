// host/src/runtime/runtime_build.hpp — how the `runtime` built-in gets a plugin from source
// (docs/decisions.md 27): run a command, fetch a source (uploaded archive or git), build it with
// CMake against the SDK this host was built with.
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
// The whole process group is killed after timeout_ms or once *cancel is true.
int run_process(const std::vector<std::string>& argv, const std::string& cwd, const LogFn& log,
                int64_t timeout_ms, const std::atomic<bool>* cancel = nullptr);

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

// The names of the symbols the shared object at `path` exports (defined, global or weak, in
// .dynsym), sorted. Returns "" or why the file could not be read.
std::string exported_symbols(const std::string& path, std::vector<std::string>& names);

// "" when the shared object at `path` exports exactly platform_plugin_entry, else the problem
// (what else it exports, or that the entry is missing), for the runtime's build error.
std::string check_exports(const std::string& path);

// What is at the top of `src` decides the tool: CMakeLists.txt, CMake (below); else Cargo.toml,
// `cargo build --release --offline` (a cdylib; target folder in <build>); else go.mod, `go build
// -buildmode=c-shared` through cgo against the SDK's include folder, linked with its plugin.map,
// offline; else C files, a plain-C plugin: every *.c but *_test.c compiled with `cc` (-std=c99,
// hidden visibility, -Wl,--no-undefined, plugin.map). A missing tool is an error naming the Debian
// package. Cargo's and Go's caches are shared by every run build, under the runtime's folder.
// Whatever the tool, the result must export exactly platform_plugin_entry (check_exports) before
// it is returned as <build>/plugins/<name>.so.
//
// Configures and builds `src` into `build` (cmake -G Ninja when ninja exists, Release, ccache as
// the compiler launcher when present, BUILD_TESTING=OFF, plugins to <build>/plugins), then
// picks the plugin: <build>/plugins/<name>.so, else the only .so there. Returns the .so path, or
// "" with `error` set — for a compile failure, the compiler's first `error:` line.
std::string build_plugin(const std::string& src, const std::string& build, const std::string& sdk,
                         const std::string& name, std::string& error, const LogFn& log,
                         const std::atomic<bool>* cancel);

}  // namespace platform::host::runtime
