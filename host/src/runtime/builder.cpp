#include <elf.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <platform/host/core/build_tree.hpp>

#include "runtime_build.hpp"

namespace platform::host::runtime {

namespace fs = std::filesystem;

namespace {
constexpr int64_t kBuildTimeoutMs = 10 * 60 * 1000;

bool on_path(const std::string& program) {
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/bin:/bin";
    for (size_t i = 0; i <= dirs.size();) {
        size_t j = dirs.find(':', i);
        if (j == std::string::npos) j = dirs.size();
        if (j > i && ::access((dirs.substr(i, j - i) + "/" + program).c_str(), X_OK) == 0)
            return true;
        i = j + 1;
    }
    return false;
}
// The C header folder and the version script of the SDK whose CMake folder is `sdk`: an installed
// <prefix>/lib/cmake/PlatformSDK (headers in <prefix>/include), plugin-sdk/cmake in a source tree
// (headers in plugin-sdk/include), or the folder sdk_dir() writes for a host run from its build
// tree (the source tree's, compiled in). False when none has both.
bool c_sdk_paths(const std::string& sdk, std::string& include, std::string& map) {
    std::vector<std::string> cmake_dirs = {sdk};
    if (const std::string source = build_tree::sdk_source_cmake_dir(); !source.empty())
        cmake_dirs.push_back(source);
    for (const auto& dir : cmake_dirs) {
        if (!fs::exists(dir + "/plugin.map")) continue;
        for (const char* up : {"/../../../include", "/../include"}) {
            if (fs::exists(dir + up + "/platform/abi.h")) {
                include = fs::weakly_canonical(dir + up).string();
                map = fs::weakly_canonical(dir + "/plugin.map").string();
                return true;
            }
        }
    }
    return false;
}

// A plain-C folder: C sources at its top, no CMakeLists.txt. Every *.c there but *_test.c is
// compiled into one module with the flags platform_add_plugin gives C++ plugins.
std::string build_plain_c(const std::string& src, const std::string& build, const std::string& sdk,
                          const std::string& name, std::string& error, const LogFn& log,
                          const std::atomic<bool>* cancel) {
    std::string include, map;
    if (!c_sdk_paths(sdk, include, map)) {
        error = "the host's SDK (" + sdk + ") has no include/platform/abi.h and plugin.map";
        log(error);
        return "";
    }
    if (!on_path("cc")) {
        error = "a plain-C folder needs a C compiler, cc: apt-get install gcc";
        log(error);
        return "";
    }
    std::vector<std::string> sources;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(src, ec)) {
        const std::string file = e.path().filename().string();
        if (e.is_regular_file() && e.path().extension() == ".c" &&
            !(file.size() > 7 && file.compare(file.size() - 7, 7, "_test.c") == 0))
            sources.push_back(file);
    }
    std::sort(sources.begin(), sources.end());
    const std::string out = build + "/plugins/" + name + ".so";
    fs::create_directories(build + "/plugins", ec);
    std::vector<std::string> cc = {"cc",
                                   "-std=c99",
                                   "-O2",
                                   "-fPIC",
                                   "-fvisibility=hidden",
                                   "-I" + include,
                                   "-shared",
                                   "-Wl,--no-undefined",
                                   "-Wl,--version-script=" + map,
                                   "-o",
                                   out};
    cc.insert(cc.end(), sources.begin(), sources.end());
    std::string first_error;
    auto capture = [&](const std::string& line) {
        if (first_error.empty() && line.find("error:") != std::string::npos) first_error = line;
        log(line);
    };
    log("$ cc -std=c99 -shared ... " + std::to_string(sources.size()) + " C file(s) (SDK " +
        include + ")");
    if (int rc = run_process(cc, src, capture, kBuildTimeoutMs, cancel); rc != 0) {
        error = "build failed" + (first_error.empty() ? " (cc exited " + std::to_string(rc) + ")"
                                                      : ": " + first_error);
        return "";
    }
    return out;
}
// Runs a build command, keeping the first line that names an error for the build's error.
bool run_build(const std::vector<std::string>& argv, const std::string& cwd,
               const std::string& what, std::string& error, const LogFn& log,
               const std::atomic<bool>* cancel) {
    std::string first_error;
    auto capture = [&](const std::string& line) {
        if (first_error.empty() && line.find("error") != std::string::npos) first_error = line;
        log(line);
    };
    if (int rc = run_process(argv, cwd, capture, kBuildTimeoutMs, cancel); rc != 0) {
        error = "build failed" + (first_error.empty()
                                      ? " (" + what + " exited " + std::to_string(rc) + ")"
                                      : ": " + first_error);
        return false;
    }
    return true;
}

// A Cargo folder (Cargo.toml at its top, a cdylib): `cargo build --release --offline` with the
// target folder in <build>; the one lib*.so it makes becomes <build>/plugins/<name>.so. Caches
// shared by every run build live in <runtime folder>/.cargo-home (a dot: never a service's name).
std::string build_cargo(const std::string& src, const std::string& build, const std::string& name,
                        std::string& error, const LogFn& log, const std::atomic<bool>* cancel) {
    if (!on_path("cargo")) {
        error = "a Cargo folder needs cargo and rustc: apt-get install cargo rustc";
        log(error);
        return "";
    }
    const std::string home = fs::path(build).parent_path().parent_path().string();
    log("$ cargo build --release --offline");
    if (!run_build(
            {"env", "CARGO_HOME=" + home + "/.cargo-home", "CARGO_TARGET_DIR=" + build + "/target",
             "cargo", "build", "--release", "--offline"},
            src, "cargo build", error, log, cancel))
        return "";
    std::vector<fs::path> found;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(build + "/target/release", ec))
        if (e.path().extension() == ".so" && e.is_regular_file()) found.push_back(e.path());
    if (found.size() != 1) {
        error = found.empty() ? "the build made no shared library (Cargo.toml: [lib] crate-type = "
                                "[\"cdylib\"])"
                              : "the build made several shared libraries in target/release";
        log(error);
        return "";
    }
    const std::string out = build + "/plugins/" + name + ".so";
    fs::create_directories(build + "/plugins", ec);
    fs::copy_file(found[0], out, fs::copy_options::overwrite_existing, ec);
    if (ec) return error = "copying the plugin: " + ec.message(), log(error), "";
    return out;
}

// A Go folder (go.mod at its top, package main with cgo over abi.h): `go build
// -buildmode=c-shared` against the SDK's include folder, linked with its plugin.map, offline
// (GOPROXY=off), the build cache shared by every run build in <runtime folder>/.go-cache.
std::string build_go(const std::string& src, const std::string& build, const std::string& sdk,
                     const std::string& name, std::string& error, const LogFn& log,
                     const std::atomic<bool>* cancel) {
    std::string include, map;
    if (!c_sdk_paths(sdk, include, map)) {
        error = "the host's SDK (" + sdk + ") has no include/platform/abi.h and plugin.map";
        log(error);
        return "";
    }
    if (!on_path("go")) {
        error = "a Go folder needs go: apt-get install golang-go";
        log(error);
        return "";
    }
    if (!on_path("cc")) {
        error = "a Go folder needs a C compiler for cgo, cc: apt-get install gcc";
        log(error);
        return "";
    }
    const std::string home = fs::path(build).parent_path().parent_path().string();
    const std::string out = build + "/plugins/" + name + ".so";
    std::error_code ec;
    fs::create_directories(build + "/plugins", ec);
    log("$ go build -buildmode=c-shared (SDK " + include + ")");
    if (!run_build(
            {"env", "GOCACHE=" + home + "/.go-cache", "GOPATH=" + home + "/.gopath", "GOPROXY=off",
             "GOFLAGS=", "CGO_ENABLED=1", "CGO_CFLAGS=-I" + include + " -O2", "go", "build",
             "-buildmode=c-shared", "-ldflags",
             "-extldflags '-Wl,--no-undefined -Wl,--version-script=" + map + "'", "-o", out, "."},
            src, "go build", error, log, cancel))
        return "";
    fs::remove(build + "/plugins/" + name + ".h", ec);  // cgo's header for C callers
    return out;
}
}  // namespace

std::string exported_symbols(const std::string& path, std::vector<std::string>& names) {
    names.clear();
    std::ifstream in(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    Elf64_Ehdr eh;
    if (bytes.size() < sizeof eh) return "not an ELF file";
    std::memcpy(&eh, bytes.data(), sizeof eh);
    if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64)
        return "not a 64-bit ELF file";
    if (eh.e_shentsize != sizeof(Elf64_Shdr) ||
        eh.e_shoff + uint64_t(eh.e_shnum) * sizeof(Elf64_Shdr) > bytes.size())
        return "truncated ELF file";
    auto section = [&](size_t i) {
        Elf64_Shdr sh;
        std::memcpy(&sh, bytes.data() + eh.e_shoff + i * sizeof sh, sizeof sh);
        return sh;
    };
    for (size_t i = 0; i < eh.e_shnum; ++i) {
        const Elf64_Shdr sh = section(i);
        if (sh.sh_type != SHT_DYNSYM) continue;
        if (sh.sh_link >= eh.e_shnum || sh.sh_offset + sh.sh_size > bytes.size())
            return "truncated ELF file";
        const Elf64_Shdr strtab = section(sh.sh_link);
        if (strtab.sh_offset + strtab.sh_size > bytes.size()) return "truncated ELF file";
        for (uint64_t at = 0; at + sizeof(Elf64_Sym) <= sh.sh_size; at += sizeof(Elf64_Sym)) {
            Elf64_Sym sym;
            std::memcpy(&sym, bytes.data() + sh.sh_offset + at, sizeof sym);
            const unsigned bind = ELF64_ST_BIND(sym.st_info);
            if (sym.st_shndx == SHN_UNDEF || sym.st_name >= strtab.sh_size ||
                (bind != STB_GLOBAL && bind != STB_WEAK && bind != STB_GNU_UNIQUE))
                continue;
            const char* text = bytes.data() + strtab.sh_offset + sym.st_name;
            names.emplace_back(text, strnlen(text, strtab.sh_size - sym.st_name));
        }
    }
    std::sort(names.begin(), names.end());
    return "";
}

std::string check_exports(const std::string& path) {
    std::vector<std::string> names;
    if (auto problem = exported_symbols(path, names); !problem.empty()) return problem;
    std::vector<std::string> others;
    for (const auto& n : names)
        if (n != "platform_plugin_entry") others.push_back(n);
    if (others.empty() && names.size() == 1) return "";
    if (names.size() == others.size())
        return "the plugin does not export platform_plugin_entry (declare it with C linkage and "
               "default visibility)";
    std::string list;
    for (size_t i = 0; i < others.size() && i < 5; ++i) list += (i ? ", " : "") + others[i];
    if (others.size() > 5) list += ", ... (" + std::to_string(others.size()) + " in all)";
    return "the plugin exports " + list +
           " besides platform_plugin_entry; a plugin exports exactly one symbol: link it with the "
           "SDK's version script (plugin.map, as platform_add_plugin does)";
}

std::string sdk_dir(const std::string& exe_dir, const std::string& work_dir) {
    if (const char* env = std::getenv("PLATFORM_SDK_DIR"); env && *env) return env;
    const std::string installed = exe_dir + "/../lib/cmake/PlatformSDK";
    if (fs::exists(installed + "/PlatformSDKConfig.cmake"))
        return fs::weakly_canonical(installed).string();
    const std::string source = build_tree::sdk_source_cmake_dir(),
                      build = build_tree::sdk_build_dir();
    if (source.empty() || !fs::exists(source + "/PlatformSDKConfig.cmake")) return "";
    const std::string dir = work_dir + "/sdk";
    std::error_code ec;
    fs::create_directories(dir, ec);
    std::ofstream(dir + "/PlatformSDKConfig.cmake")
        << "# Written by the platform host run from its build tree: the SDK it was built with.\n"
        << "include(\"" << source << "/PlatformSDKConfig.cmake\")\n";
    std::ofstream version(dir + "/PlatformSDKConfigVersion.cmake");
    if (!build.empty() && fs::exists(build + "/PlatformSDKConfigVersion.cmake"))
        version << "include(\"" << build << "/PlatformSDKConfigVersion.cmake\")\n";
    else
        version << "set(PACKAGE_VERSION \"0.0.0\")\nset(PACKAGE_VERSION_COMPATIBLE TRUE)\n";
    return dir;
}

std::string build_plugin(const std::string& src, const std::string& build, const std::string& sdk,
                         const std::string& name, std::string& error, const LogFn& log,
                         const std::atomic<bool>* cancel) {
    if (!fs::exists(src + "/CMakeLists.txt")) {
        bool has_c = false;
        std::error_code ec;
        for (const auto& e : fs::directory_iterator(src, ec))
            if (e.path().extension() == ".c" && e.is_regular_file()) has_c = true;
        std::string so;
        if (fs::exists(src + "/Cargo.toml"))
            so = build_cargo(src, build, name, error, log, cancel);
        else if (fs::exists(src + "/go.mod"))
            so = build_go(src, build, sdk, name, error, log, cancel);
        else if (has_c)
            so = build_plain_c(src, build, sdk, name, error, log, cancel);
        else
            error =
                "source: none of CMakeLists.txt (find_package(PlatformSDK) and "
                "platform_add_plugin), Cargo.toml, go.mod or C files at the top of the source";
        if (!so.empty())
            if (error = check_exports(so); !error.empty()) so.clear();
        if (so.empty()) log(error);
        return so;
    }
    std::string first_error;
    auto capture = [&](const std::string& line) {
        if (first_error.empty() && (line.find("error:") != std::string::npos ||
                                    line.find("CMake Error") != std::string::npos))
            first_error = line;
        log(line);
    };
    std::vector<std::string> configure = {"cmake",
                                          "-S",
                                          src,
                                          "-B",
                                          build,
                                          "-DCMAKE_BUILD_TYPE=Release",
                                          "-DPlatformSDK_DIR=" + sdk,
                                          "-DBUILD_TESTING=OFF",
                                          "-DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF",
                                          "-DPLATFORM_PLUGIN_OUTPUT_DIR=" + build + "/plugins"};
    if (on_path("ninja")) configure.insert(configure.begin() + 1, {"-G", "Ninja"});
    if (on_path("ccache")) configure.push_back("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache");
    log("$ cmake -S <source> -B <build> (SDK " + sdk + ")");
    if (int rc = run_process(configure, src, capture, kBuildTimeoutMs, cancel); rc != 0) {
        error = "build failed (cmake configure exited " + std::to_string(rc) + ")" +
                (first_error.empty() ? "" : ": " + first_error);
        return "";
    }
    log("$ cmake --build <build>");
    if (int rc = run_process({"cmake", "--build", build, "--parallel", "2"}, src, capture,
                             kBuildTimeoutMs, cancel);
        rc != 0) {
        error = "build failed" + (first_error.empty()
                                      ? " (cmake --build exited " + std::to_string(rc) + ")"
                                      : ": " + first_error);
        return "";
    }
    const std::string out = build + "/plugins";
    std::vector<std::string> found;
    std::error_code ec;
    if (fs::exists(out + "/" + name + ".so"))
        found = {out + "/" + name + ".so"};
    else
        for (const auto& e : fs::directory_iterator(out, ec))
            if (e.path().extension() == ".so") found.push_back(e.path().string());
    if (found.size() == 1) {
        if (error = check_exports(found[0]); error.empty()) return found[0];
        log(error);
        return "";
    }
    error = found.empty()
                ? "the build made no plugin (no .so in <build>/plugins; use platform_add_plugin)"
                : "the build made several plugins and none is named " + name + ".so";
    log(error);
    return "";
}

}  // namespace platform::host::runtime
