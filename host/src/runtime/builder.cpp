#include <unistd.h>

#include <cstdlib>
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

std::string build_plugin(const std::string& src, const std::string& build, const std::string& sdk,
                         const std::string& name, std::string& error, const LogFn& log,
                         const std::atomic<bool>* cancel) {
    if (!fs::exists(src + "/CMakeLists.txt")) {
        error =
            "source: no CMakeLists.txt at the top of the source (find_package(PlatformSDK) and "
            "platform_add_plugin)";
        log(error);
        return "";
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
    if (fs::exists(out + "/" + name + ".so")) return out + "/" + name + ".so";
    std::vector<std::string> found;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(out, ec))
        if (e.path().extension() == ".so") found.push_back(e.path().string());
    if (found.size() == 1) return found[0];
    error = found.empty()
                ? "the build made no plugin (no .so in <build>/plugins; use platform_add_plugin)"
                : "the build made several plugins and none is named " + name + ".so";
    log(error);
    return "";
}

}  // namespace platform::host::runtime
