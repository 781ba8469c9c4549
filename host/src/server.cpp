#include <platform/host/http_server.hpp>
#include <platform/host/profile.hpp>
#include <platform/host/runtime.hpp>
#include <platform/host/server.hpp>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <csignal>
#include <ctime>
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
        // Graceful shutdown: new requests get 503 + Connection: close, requests already read are
        // answered for up to http.drain_ms (a second signal cuts it short), then both ports stop
        // (Pistache takes 1-2 s) and the plugins.
        const auto drain = std::chrono::milliseconds(profile.http.drain_ms);
        http.begin_drain();
        spdlog::info("signal {}: draining ({} requests in flight, up to {} ms)", sig, http.in_flight(), drain.count());
        const auto deadline = std::chrono::steady_clock::now() + drain;
        while (http.in_flight() > 0 && std::chrono::steady_clock::now() < deadline) {
            const timespec tick{0, 10 * 1000 * 1000};
            if (sigtimedwait(&signals, nullptr, &tick) > 0) {
                spdlog::warn("second signal: stopping without waiting for {} requests", http.in_flight());
                break;
            }
        }
        if (http.in_flight() > 0) spdlog::warn("drain: {} requests still in flight, stopping anyway", http.in_flight());
        else spdlog::info("drained");
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
