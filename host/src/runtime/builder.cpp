#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <platform/host/core/build_tree.hpp>
#include <regex>

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
}  // namespace

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

std::string sdk_prefix(const std::string& exe_dir, const std::string& work_dir) {
    std::string cmake_dir;
    if (const char* env = std::getenv("PLATFORM_SDK_DIR"); env && *env)
        cmake_dir = env;
    else if (fs::exists(exe_dir + "/../lib/cmake/PlatformSDK/PlatformSDKConfig.cmake"))
        cmake_dir = exe_dir + "/../lib/cmake/PlatformSDK";
    else
        cmake_dir = build_tree::sdk_source_cmake_dir();
    if (cmake_dir.empty() || !fs::exists(cmake_dir + "/plugin.map")) return "";
    std::error_code ec;
    cmake_dir = fs::weakly_canonical(cmake_dir, ec).string();
    // As PlatformSDKConfig.cmake does: the first parent with include/platform/abi.h.
    fs::path root = cmake_dir;
    for (int up = 0; up < 5 && !fs::exists(root / "include/platform/abi.h"); ++up)
        root = root.parent_path();
    if (!fs::exists(root / "include/platform/abi.h")) return "";
    if (fs::equivalent(root / "lib/cmake/PlatformSDK", cmake_dir, ec)) return root.string();
    // A host run from its build tree; a dot folder, never a service's name (dir_of).
    const fs::path prefix = work_dir + "/.sdk-prefix";
    fs::remove_all(prefix, ec);
    fs::create_directories(prefix / "lib/cmake/PlatformSDK", ec);
    fs::create_directory_symlink(root / "include", prefix / "include", ec);
    fs::create_symlink(cmake_dir + "/plugin.map", prefix / "lib/cmake/PlatformSDK/plugin.map", ec);
    return ec ? "" : prefix.string();
}

std::string source_kind(const std::string& src) {
    auto has = [&](const char* f) { return fs::exists(src + "/" + f); };
    auto any = [&](const char* ext) {
        std::error_code ec;
        for (const auto& e : fs::directory_iterator(src, ec))
            if (e.path().extension() == ext && e.is_regular_file()) return true;
        return false;
    };
    if (has("CMakeLists.txt")) return "cmake";
    if (has("Cargo.toml")) return "cargo";
    if (has("go.mod") || any(".go")) return "go";
    if (has("Makefile") || has("makefile") || has("GNUmakefile")) return "make";
    if (any(".c")) return "c";
    return "";
}

namespace {

// What each tool is and where Debian has it, for the error when it is missing.
std::string missing_tool(const std::vector<std::pair<std::string, std::string>>& tools,
                         const std::string& kind) {
    for (const auto& [tool, package] : tools)
        if (!on_path(tool))
            return "toolchain: " + tool + " is not on the host's PATH; a " + kind +
                   " folder is built with it: apt-get install " + package +
                   " (scripts/deps.sh installs it)";
    return "";
}

// The only .so in `dir` (not below), preferring <name>.so; "" when none or several.
std::string pick_so(const std::string& dir, const std::string& name, size_t& count) {
    count = 0;
    if (fs::exists(dir + "/" + name + ".so")) return count = 1, dir + "/" + name + ".so";
    std::string found;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.path().extension() == ".so" && e.is_regular_file())
            found = e.path().string(), ++count;
    return count == 1 ? found : "";
}

// Whether `line` is a compiler's, CMake's, Cargo's or Go's error line (the first is the error).
bool error_line(const std::string& line) {
    static const std::regex go_error(R"(^\S+\.go:\d+(:\d+)?: )");
    return line.find("error:") != std::string::npos || line.find("CMake Error") == 0 ||
           line.rfind("error[", 0) == 0 || line.rfind("error: ", 0) == 0 ||
           std::regex_search(line, go_error);
}

}  // namespace

std::string build_plugin(const std::string& src, const std::string& build, const BuildEnv& env,
                         const std::string& name, std::string& error, const LogFn& log,
                         const std::atomic<bool>* cancel) {
    const std::string kind = source_kind(src);
    auto fail = [&](const std::string& why) {
        error = why;
        log(error);
        return std::string();
    };
    if (kind.empty())
        return fail(
            "source: no CMakeLists.txt, Cargo.toml, go.mod, *.go, Makefile or *.c at the top of "
            "the source: nothing says how to build it");
    std::string first_error;
    auto capture = [&](const std::string& line) {
        if (first_error.empty() && error_line(line)) first_error = line;
        // Cargo names the place on the next line: "  --> src/lib.rs:3:5".
        else if (first_error.rfind("error[", 0) == 0 && line.find("--> ") != std::string::npos &&
                 first_error.find(" (at ") == std::string::npos)
            first_error += " (at " + line.substr(line.find("--> ") + 4) + ")";
        log(line);
    };
    // Runs one step; "" or the failure (the first error line when there was one).
    auto step = [&](const std::vector<std::string>& argv, const std::string& shown,
                    const std::vector<std::string>& vars = {}) -> std::string {
        log("$ " + shown);
        int rc = run_process(argv, src, capture, kBuildTimeoutMs, cancel, vars);
        if (rc == 0) return "";
        return "build failed" + (first_error.empty()
                                     ? " (" + argv[0] + " exited " + std::to_string(rc) + ")"
                                     : ": " + first_error);
    };
    std::error_code ec;
    fs::create_directories(build + "/plugins", ec);
    const std::string out = build + "/plugins", so_out = out + "/" + name + ".so";
    const std::string map = env.prefix + "/lib/cmake/PlatformSDK/plugin.map";
    auto cache = [&](const char* var, const char* sub) {
        const char* set = std::getenv(var);
        return std::string(var) + "=" + (set && *set ? set : env.cache_dir + "/" + sub);
    };
    std::string so;

    if (kind == "cmake") {
        if (std::string why = missing_tool({{"cmake", "cmake"}}, "CMake"); !why.empty())
            return fail(why);
        std::vector<std::string> configure = {"cmake",
                                              "-S",
                                              src,
                                              "-B",
                                              build,
                                              "-DCMAKE_BUILD_TYPE=Release",
                                              "-DPlatformSDK_DIR=" + env.cmake_dir,
                                              "-DBUILD_TESTING=OFF",
                                              "-DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF",
                                              "-DPLATFORM_PLUGIN_OUTPUT_DIR=" + out};
        if (on_path("ninja")) configure.insert(configure.begin() + 1, {"-G", "Ninja"});
        if (on_path("ccache")) configure.push_back("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache");
        log("$ cmake -S <source> -B <build> (SDK " + env.cmake_dir + ")");
        if (int rc = run_process(configure, src, capture, kBuildTimeoutMs, cancel); rc != 0) {
            error = "build failed (cmake configure exited " + std::to_string(rc) + ")" +
                    (first_error.empty() ? "" : ": " + first_error);
            return "";
        }
        if (error = step({"cmake", "--build", build, "--parallel", "2"}, "cmake --build <build>");
            !error.empty())
            return "";
        size_t count = 0;
        so = pick_so(out, name, count);
        if (so.empty())
            return fail(count ? "the build made several plugins and none is named " + name + ".so"
                              : "the build made no plugin (no .so in <build>/plugins; use "
                                "platform_add_plugin)");
    } else if (kind == "cargo") {
        if (std::string why = missing_tool({{"cargo", "cargo"}, {"rustc", "rustc"}}, "Cargo");
            !why.empty())
            return fail(why);
        log("runtime: a Cargo folder (Cargo.toml): cargo build --release --offline");
        if (error = step({"cargo", "build", "--release", "--offline", "--color", "never"},
                         "cargo build --release --offline (target folder <build>/target)",
                         {"CARGO_TARGET_DIR=" + build + "/target", "CARGO_TERM_COLOR=never",
                          cache("CARGO_HOME", "cargo")});
            !error.empty())
            return "";
        size_t count = 0;
        std::string lib = name;
        for (char& c : lib) c = c == '-' ? '_' : c;
        so = pick_so(build + "/target/release", "lib" + lib, count);
        if (so.empty())
            return fail(count ? "the Cargo build made several libraries; keep one cdylib"
                              : "the Cargo build made no shared library (crate-type = "
                                "[\"cdylib\"] under [lib] in Cargo.toml)");
    } else if (kind == "go") {
        if (std::string why =
                missing_tool({{"go", "golang-go"}, {"cc", "gcc"}}, "Go (cgo, -buildmode=c-shared)");
            !why.empty())
            return fail(why);
        if (env.prefix.empty()) return fail("the host does not know where its SDK's abi.h is");
        log("runtime: a Go folder (go.mod or *.go): go build -buildmode=c-shared");
        if (error = step(
                {"go", "build", "-buildmode=c-shared", "-trimpath",
                 "-ldflags=-extldflags '-Wl,--no-undefined -Wl,--version-script=" + map + "'", "-o",
                 so_out, "."},
                "go build -buildmode=c-shared -o <build>/plugins/" + name + ".so .",
                {"CGO_ENABLED=1", "CGO_CFLAGS=-I" + env.prefix + "/include -O2 -g", "GOPROXY=off",
                 "GOTOOLCHAIN=local", cache("GOCACHE", "go-build"), cache("GOPATH", "gopath"),
                 // *.go files without go.mod: built as one package outside any module.
                 fs::exists(src + "/go.mod") ? "GOFLAGS=" : "GO111MODULE=off"});
            !error.empty())
            return "";
        fs::remove(out + "/" + name + ".h", ec);  // the header c-shared writes beside it
        so = so_out;
    } else if (kind == "make") {
        if (std::string why = missing_tool({{"make", "make"}, {"cc", "gcc"}}, "Makefile");
            !why.empty())
            return fail(why);
        if (env.prefix.empty()) return fail("the host does not know where its SDK's abi.h is");
        log("runtime: a Makefile folder: make PLATFORM_PREFIX=<SDK prefix>");
        if (error = step({"make", "-j2", "PLATFORM_PREFIX=" + env.prefix},
                         "make PLATFORM_PREFIX=" + env.prefix, {"PLATFORM_PREFIX=" + env.prefix});
            !error.empty())
            return "";
        size_t count = 0;
        so = pick_so(src + "/plugins", name, count);
        if (so.empty() && count == 0) so = pick_so(src, name, count);
        if (so.empty())
            return fail(count ? "make made several .so files and none is named " + name + ".so"
                              : "make made no plugin (its default target leaves one .so in "
                                "plugins/ or at the top of the folder)");
    } else {  // "c": every *.c at the top but *_test.c, one shared library
        if (std::string why = missing_tool({{"cc", "gcc"}}, "C"); !why.empty()) return fail(why);
        if (env.prefix.empty()) return fail("the host does not know where its SDK's abi.h is");
        std::vector<std::string> argv = {"cc",
                                         "-O2",
                                         "-g",
                                         "-fPIC",
                                         "-shared",
                                         "-I" + env.prefix + "/include",
                                         "-Wl,--no-undefined",
                                         "-Wl,--version-script=" + map,
                                         "-o",
                                         so_out};
        std::vector<std::string> files;
        for (const auto& e : fs::directory_iterator(src, ec)) {
            const std::string file = e.path().filename().string();
            if (e.path().extension() == ".c" && e.is_regular_file() &&
                !(file.size() > 7 && file.compare(file.size() - 7, 7, "_test.c") == 0))
                files.push_back(file);  // a unit test's main (hello_test.c) is not the plugin's
        }
        std::sort(files.begin(), files.end());
        argv.insert(argv.end(), files.begin(), files.end());
        std::string shown = "cc -O2 -fPIC -shared ... -o <build>/plugins/" + name + ".so";
        for (const auto& f : files) shown += " " + f;
        log("runtime: a C folder (*.c, no Makefile): one cc command");
        if (error = step(argv, shown); !error.empty()) return "";
        so = so_out;
    }
    if (std::string why = check_entry_symbol(so, log); !why.empty()) return fail(why);
    return so;
}

}  // namespace platform::host::runtime
