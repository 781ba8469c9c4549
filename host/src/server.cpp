#include <platform/host/http_server.hpp>
#include <platform/host/profile.hpp>
#include <platform/host/runtime.hpp>
#include <platform/host/server.hpp>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <pthread.h>

namespace platform::host {

int run_server(Settings settings) {
    // Workers inherit this mask, so only the sigwait below sees SIGINT/SIGTERM.
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);
    std::signal(SIGPIPE, SIG_IGN);

    auto logger = spdlog::stderr_color_mt("platform");
    spdlog::set_default_logger(logger);
    spdlog::set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%l%$ %v");

    std::error_code ec;
    std::filesystem::create_directories(settings.home + "/data", ec);
    if (ec) {
        spdlog::critical("PLATFORM_HOME {}: cannot create: {}", settings.home, ec.message());
        return 1;
    }
    setenv("PLATFORM_HOME", settings.home.c_str(), 1);

    try {
        Profile profile = load_profile(settings.profile, profile_search_dirs(settings.home, settings.exe_dir));
        spdlog::info("profile {} ({})", profile.name, profile.file);
        Runtime runtime(settings, profile);
        runtime.start();
        if (Plugin* auth = runtime.provider("auth"))
            if (auth->config.value("anonymous_account", "") != "")
                spdlog::warn("single-user mode: anonymous callers act as account '{}' (profile {}, provider {})",
                             auth->config.value("anonymous_account", ""), profile.name, auth->id);
        HttpServer http(runtime);
        http.start(settings.api_address, settings.proxy_address);
        auto host_of = [](const std::string& a) { return split_address(a).first; };
        runtime.set_addresses(host_of(settings.api_address) + ":" + std::to_string(http.api_port()),
                              host_of(settings.proxy_address) + ":" + std::to_string(http.proxy_port()));
        spdlog::info("listening api={}:{} proxy={}:{}", host_of(settings.api_address), http.api_port(),
                     host_of(settings.proxy_address), http.proxy_port());
        int sig = 0;
        sigwait(&signals, &sig);
        spdlog::info("signal {}: shutting down", sig);
        http.stop();
        runtime.stop();
        spdlog::info("stopped");
        return 0;
    } catch (const std::exception& e) {
        spdlog::critical("{}", e.what());
        return 1;
    }
}

}  // namespace platform::host
