#include <pthread.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <optional>
#include <platform/host/acme/acme_client.hpp>
#include <platform/host/acme/http_challenges.hpp>
#include <platform/host/core/names.hpp>
#include <platform/host/core/private_home.hpp>
#include <platform/host/core/profile.hpp>
#include <platform/host/core/runtime.hpp>
#include <platform/host/core/stop_signals.hpp>
#include <platform/host/http/http_server.hpp>
#include <platform/host/http/tls_listener.hpp>
#include <platform/host/isolation/worker_plugin.hpp>
#include <platform/host/server/server.hpp>
#include <platform/host/smtp/mail_handoff.hpp>
#include <platform/host/smtp/smtp_listener.hpp>
#include <platform/host/xmpp/chat_bridge.hpp>
#include <string>
#include <thread>
#include <vector>

#include "runtime/runtime_service.hpp"

namespace platform::host {

namespace {

// The gateway port's first certificate (decision 18): PLATFORM_TLS_CERT_FILE and
// PLATFORM_TLS_KEY_FILE, which must be readable and belong together — else start-up fails
// naming the setting. With ACME on, a missing or unusable pair is replaced by a self-signed
// certificate for the first ACME host until ACME delivers a real one.
TlsCertificate first_certificate(const Settings& s) {
    using Part = TlsCertificateError::Part;
    auto name = [](Part p) {
        return p == Part::certificate ? "PLATFORM_TLS_CERT_FILE" : "PLATFORM_TLS_KEY_FILE";
    };
    std::string problem;
    try {
        if (s.tls_cert_file.empty())
            throw TlsCertificateError(Part::certificate,
                                      "not set (a certificate file is needed when TLS is on)");
        if (s.tls_key_file.empty())
            throw TlsCertificateError(Part::key, "not set (a key file is needed when TLS is on)");
        TlsCertificate c = TlsListener::read_files(s.tls_cert_file, s.tls_key_file);
        TlsListener::check(c);
        return c;
    } catch (const TlsCertificateError& e) {
        // "PLATFORM_TLS_CERT_FILE: cannot read /x: No such file or directory",
        // "PLATFORM_TLS_KEY_FILE: /k: the key does not match the certificate (...)".
        const std::string what = e.what(),
                          file = e.part == Part::certificate ? s.tls_cert_file : s.tls_key_file;
        const bool names_file = file.empty() || what.rfind("cannot read ", 0) == 0;
        problem = std::string(name(e.part)) + ": " + (names_file ? "" : file + ": ") + what;
        if (!s.enable_acme) throw std::runtime_error(problem);
    }
    const auto hosts = comma_list(s.acme_hosts);
    const std::string host = hosts.empty() ? "localhost" : hosts.front();
    if (s.tls_cert_file.empty() && s.tls_key_file.empty())
        spdlog::info(
            "tls: serving a temporary self-signed certificate for {} until ACME delivers one",
            host);
    else
        spdlog::warn(
            "{}; serving a temporary self-signed certificate for {} until ACME delivers one",
            problem, host);
    return TlsListener::self_signed({host});
}

// Settings::log_level -> spdlog's level; anything else is info.
spdlog::level::level_enum log_level_of(const std::string& name) {
    if (name == "trace") return spdlog::level::trace;
    if (name == "debug") return spdlog::level::debug;
    if (name == "warn") return spdlog::level::warn;
    if (name == "error") return spdlog::level::err;
    if (name == "off") return spdlog::level::off;
    return spdlog::level::info;
}

}  // namespace

int run_server(Settings settings) {
    // Workers inherit this mask, so only the sigwait below sees SIGINT/SIGTERM.
    const sigset_t signals = block_stop_signals();

    auto logger = spdlog::stderr_color_mt("platform");
    spdlog::set_default_logger(logger);
    spdlog::set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%l%$ %v");
    // PLATFORM_LOG_LEVEL (checked by Settings::from_environment). The access log keeps its own
    // switch, http.access_log; the operator's console notices are not log lines.
    spdlog::set_level(log_level_of(settings.log_level));

    // Everything under PLATFORM_HOME is this user's alone (private_home.hpp).
    if (std::string problem = make_home_private(settings.home); !problem.empty()) {
        spdlog::critical("{}", problem);
        return 1;
    }
    setenv("PLATFORM_HOME", settings.home.c_str(), 1);
    // Flags reach the profile's ${VAR} expansion: --postgres_url and --nats_url set the variables
    // the kubernetes profile passes to its providers (an empty setting leaves the environment).
    if (!settings.postgres_url.empty())
        setenv("PLATFORM_POSTGRES_URL", settings.postgres_url.c_str(), 1);
    if (!settings.nats_url.empty()) setenv("PLATFORM_NATS_URL", settings.nats_url.c_str(), 1);

    try {
        // TLS on the gateway port (PLATFORM_ENABLE_TLS): checked before any plugin loads.
        std::optional<TlsCertificate> tls;
        if (settings.enable_tls || settings.enable_acme) tls = first_certificate(settings);
        Profile profile =
            load_profile(settings.profile, profile_search_dirs(settings.home, settings.exe_dir));
        spdlog::info("profile {} ({})", profile.name, profile.file);
        Runtime runtime(settings, profile);
        // The layers above the core: isolated plugins run in platform-worker processes, and the
        // `runtime` service is built in.
        runtime.set_isolated_loader([exe_dir = settings.exe_dir](const std::string& so_path) {
            return WorkerPlugin::load(so_path, WorkerOptions{find_worker_binary(exe_dir)});
        });
        runtime.add_builtin("runtime", make_runtime_plugin);
        runtime.start();
        if (Plugin* auth = runtime.provider("auth"))
            if (auth->config.value("anonymous_account", "") != "")
                spdlog::warn(
                    "single-user mode: anonymous callers act as account '{}' (profile {}, provider "
                    "{})",
                    auth->config.value("anonymous_account", ""), profile.name, auth->id);
        // ACME http-01 answers, served by both gateways, filled by the ACME client below.
        auto challenges = std::make_shared<HttpChallenges>();
        HttpServer http(runtime, challenges);
        http.start(settings.api_address, settings.proxy_address, tls);
        auto host_of = [](const std::string& a) { return split_address(a).first; };
        runtime.set_addresses(
            host_of(settings.api_address) + ":" + std::to_string(http.api_port()),
            host_of(settings.proxy_address) + ":" + std::to_string(http.proxy_port()));
        if (TlsListener* t = http.tls())
            spdlog::info(
                "tls: api port {} speaks TLS ({}); internal api endpoint 127.0.0.1:{}; proxy port "
                "stays plaintext",
                http.api_port(), t->certificate_summary(), http.internal_api_port());
        // XMPP federation of chat (PLATFORM_XMPP): the component connection to the XMPP server.
        std::unique_ptr<ChatBridge> xmpp;
        std::string xmpp_part;
        if (settings.xmpp) {
            XmppSettings x = effective_xmpp_settings(profile.xmpp);
            auto [xhost, xport] = split_address(x.server);
            xmpp_part = " xmpp=" + xhost + ":" + std::to_string(xport);
            xmpp = std::make_unique<ChatBridge>(runtime, std::move(x));
        }
        // Inbound mail (PLATFORM_SMTP_ADDRESS), only for an instance with a mail domain:
        // STARTTLS with the gateway's certificate when TLS is on.
        std::unique_ptr<smtp::Listener> smtp;
        std::string smtp_part;
        if (!settings.mail_domain.empty()) {
            smtp::ListenerOptions o;
            o.hostname = settings.mail_domain;
            smtp = std::make_unique<smtp::Listener>(
                o, std::make_shared<smtp::MailHandoff>(runtime, settings.mail_domain));
            smtp->start(settings.smtp_address, tls);
            smtp_part =
                " smtp=" + host_of(settings.smtp_address) + ":" + std::to_string(smtp->port());
            runtime.set_smtp_listening(true);
        }
        spdlog::info("listening api={}:{} proxy={}:{}{}{} io_threads={}",
                     host_of(settings.api_address), http.api_port(),
                     host_of(settings.proxy_address), http.proxy_port(), smtp_part, xmpp_part,
                     settings.io_threads());
        if (xmpp) xmpp->start();
        // Where this machine's operator reaches the server (a wildcard address through loopback).
        auto local = [&](const std::string& address, int port) {
            std::string h = host_of(address);
            if (h.empty() || h == "0.0.0.0") h = "127.0.0.1";
            if (h == "::" || h == "[::]") h = "[::1]";
            return h + ":" + std::to_string(port);
        };
        if (std::string e = runtime.console().write_credential(
                settings.home, local(settings.api_address, http.api_port()),
                local(settings.proxy_address, http.proxy_port()));
            !e.empty())
            spdlog::warn("{}: `platform admin` commands will not work", e);
        runtime.console().open();
        // ACME (PLATFORM_ENABLE_ACME): certificates for PLATFORM_ACME_HOSTS, renewed off the I/O
        // threads; http-01 answers are served by the gateway on both ports.
        std::shared_ptr<AcmeClient> acme;
        std::thread acme_thread;
        if (settings.enable_acme && http.tls()) {
            acme = std::make_shared<AcmeClient>(
                AcmeSettings::from_env(settings.acme_hosts, settings.home), *challenges);
            TlsListener* listener = http.tls();
            std::string served;
            if (auto stored = acme->stored()) {
                listener->reload(stored->cert_pem, stored->key_pem);
                if (smtp) smtp->reload({stored->cert_pem, stored->key_pem});
                served = stored->cert_pem;
            }
            smtp::Listener* mail_listener = smtp.get();
            acme_thread = std::thread([acme, listener, mail_listener, served]() mutable {
                for (auto next = std::chrono::hours(12);; next = std::chrono::hours(12)) {
                    try {
                        Certificate c = acme->obtain();
                        if (c.cert_pem != served) {
                            listener->reload(c.cert_pem, c.key_pem);
                            if (mail_listener) mail_listener->reload({c.cert_pem, c.key_pem});
                            spdlog::info("acme: serving {}", listener->certificate_summary());
                        }
                        served = c.cert_pem;
                    } catch (const std::exception& e) {
                        spdlog::error("{}", e.what());
                        next = std::chrono::hours(1);
                    }
                    if (!acme->wait_for_cancel(next)) break;
                }
            });
        }
        auto stop_acme = [&] {
            if (!acme) return;
            acme->cancel();
            if (acme_thread.joinable()) acme_thread.join();
        };
        int sig = 0;
        sigwait(&signals, &sig);
        // Graceful shutdown: new requests get 503 + Connection: close, requests already read are
        // answered for up to http.drain_ms (a second signal cuts it short), then both ports stop
        // (Pistache takes 1-2 s) and the plugins.
        const auto drain = std::chrono::milliseconds(profile.http.drain_ms);
        http.begin_drain();
        spdlog::info("signal {}: draining ({} requests in flight, up to {} ms)", sig,
                     http.in_flight(), drain.count());
        const auto deadline = std::chrono::steady_clock::now() + drain;
        while (http.in_flight() > 0 && std::chrono::steady_clock::now() < deadline) {
            const timespec tick{0, 10 * 1000 * 1000};
            if (sigtimedwait(&signals, nullptr, &tick) > 0) {
                spdlog::warn("second signal: stopping without waiting for {} requests",
                             http.in_flight());
                break;
            }
        }
        if (http.in_flight() > 0)
            spdlog::warn("drain: {} requests still in flight, stopping anyway", http.in_flight());
        else
            spdlog::info("drained");
        stop_acme();
        if (xmpp) xmpp->stop();
        if (smtp) {
            runtime.set_smtp_listening(false);
            smtp->stop();
        }
        http.stop();
        runtime.console().remove_credential();
        runtime.stop();
        spdlog::info("stopped");
        return 0;
    } catch (const std::exception& e) {
        spdlog::critical("{}", e.what());
        return 1;
    }
}

}  // namespace platform::host
