#include <CLI/CLI.hpp>
#include <cstdio>
#include <optional>
#include <platform/host/core/settings.hpp>
#include <platform/host/server/server.hpp>
#include <platform/sdk/text.hpp>
#include <stdexcept>

#include "commands.hpp"

namespace platform::cli {

int server_command(int argc, char** argv) {
    using platform::host::Settings;
    Settings s;
    try {
        s = Settings::from_environment();
    } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "platform server: %s\n", e.what());
        return 2;
    }
    CLI::App server{
        "Start the host: HTTP gateway (PLATFORM_API_ADDRESS) and RPC proxy "
        "(PLATFORM_PROXY_ADDRESS)",
        "platform server"};
    server.add_option("--profile", s.profile, "Profile name or YAML path (PLATFORM_PROFILE)")
        ->capture_default_str();
    server
        .add_option("--api_address", s.api_address,
                    "Gateway address host:port, port 0 = any (PLATFORM_API_ADDRESS)")
        ->capture_default_str();
    server
        .add_option("--proxy_address", s.proxy_address,
                    "RPC proxy address (PLATFORM_PROXY_ADDRESS)")
        ->capture_default_str();
    server
        .add_option("--namespace", s.ns, "Service namespace, empty disables (PLATFORM_NAMESPACE)")
        ->capture_default_str();
    server.add_option("--handler", s.handler, "Gateway handler (PLATFORM_API_HANDLER)")
        ->capture_default_str();
    server.add_option("--home", s.home, "State directory (PLATFORM_HOME)")->capture_default_str();
    server.add_option("--config_secret_key", s.config_secret_key,
                      "Config secret key (PLATFORM_CONFIG_SECRET_KEY)");
    server.add_option("--plugin_path", s.plugin_path,
                      "Extra plugin folders (PLATFORM_PLUGIN_PATH)");
    server.add_flag(
        "--enable_tls", s.enable_tls,
        "Serve the gateway port over TLS; the proxy port stays plain HTTP (PLATFORM_ENABLE_TLS)");
    server.add_option("--tls_cert_file", s.tls_cert_file,
                      "TLS certificate PEM file, chain after the leaf (PLATFORM_TLS_CERT_FILE)");
    server.add_option("--tls_key_file", s.tls_key_file,
                      "TLS private key PEM file, unencrypted (PLATFORM_TLS_KEY_FILE)");
    server.add_flag("--enable_acme", s.enable_acme,
                    "Automatic certificates (PLATFORM_ENABLE_ACME)");
    server.add_option("--acme_hosts", s.acme_hosts, "ACME host allow-list (PLATFORM_ACME_HOSTS)");
    server.add_flag("--xmpp", s.xmpp,
                    "Bridge chat with XMPP through the profile's xmpp server (PLATFORM_XMPP)");
    server
        .add_option("--mail_domain", s.mail_domain,
                    "The instance's mail domain; empty = no outside mail (PLATFORM_MAIL_DOMAIN)")
        ->transform([](std::string v) { return platform::lower(v); })
        ->check([](const std::string& v) {
            auto problem = platform::host::mail_domain_problem(v);
            return problem ? "'" + v + "' " + *problem : std::string();
        });
    server
        .add_option("--smtp_relay", s.smtp_relay,
                    "Outbound mail relay, smtp[s]://user:pass@host:port (PLATFORM_SMTP_RELAY)")
        ->check([](const std::string& v) {
            auto problem = platform::host::smtp_relay_problem(v);
            return problem ? *problem : std::string();
        });
    server
        .add_option("--smtp_address", s.smtp_address,
                    "Inbound SMTP listener host:port, on only with a mail domain; port 0 = any "
                    "free port (PLATFORM_SMTP_ADDRESS)")
        ->check([](const std::string& v) {
            try {
                platform::host::split_address(v);
                return std::string();
            } catch (const std::invalid_argument& e) {
                return std::string(e.what());
            }
        })
        ->capture_default_str();
    server
        .add_option("--console_dir", s.console_dir,
                    "Serve the web console's files from this folder, read on every request, "
                    "instead of the copy built in (PLATFORM_CONSOLE_DIR)")
        ->check(CLI::ExistingDirectory);
    server
        .add_option("--postgres_url", s.postgres_url,
                    "PostgreSQL connection string for a profile's store-postgres, e.g. "
                    "postgresql://user:pass@host:5432/db (PLATFORM_POSTGRES_URL)")
        ->check([](const std::string& v) {
            auto problem = platform::host::postgres_url_problem(v);
            return problem ? *problem : std::string();
        });
    server
        .add_option("--nats_url", s.nats_url,
                    "NATS server for a profile's broker-nats and events-nats, nats://host:port, "
                    "comma-separated for a cluster (PLATFORM_NATS_URL)")
        ->check([](const std::string& v) {
            auto problem = platform::host::nats_url_problem(v);
            return problem ? "'" + v + "' " + *problem : std::string();
        });
    server
        .add_option("--node_id", s.node_id,
                    "This replica's node id; empty = the one kept in $PLATFORM_HOME/node-id "
                    "(PLATFORM_NODE_ID)")
        ->check([](const std::string& v) {
            auto problem = v.empty() ? std::nullopt : platform::host::node_id_problem(v);
            return problem ? "'" + v + "' " + *problem : std::string();
        });
    server.add_option("--mcp_allowed_hosts", s.mcp_allowed_hosts,
                      "Host names /mcp accepts besides loopback and the ACME hosts, "
                      "comma-separated, * = any (PLATFORM_MCP_ALLOWED_HOSTS)");
    server
        .add_option("--websocket_max_message_bytes", s.websocket_max_message_bytes,
                    "Longest WebSocket message a client may send; larger closes the socket with "
                    "1009 (PLATFORM_WEBSOCKET_MAX_MESSAGE_BYTES)")
        ->check(CLI::Range(int64_t{125}, int64_t{1} << 40))
        ->capture_default_str();
    server
        .add_option_function<int64_t>(
            "--websocket_idle_seconds", [&s](int64_t secs) { s.websocket_idle_ms = secs * 1000; },
            "Seconds without WebSocket traffic before a ping; no pong as long again closes "
            "the socket (PLATFORM_WEBSOCKET_IDLE_SECONDS, default 30)")
        ->check(CLI::Range(int64_t{1}, int64_t{86400}));
    server
        .add_option("--http_io_threads", s.http_io_threads,
                    "I/O threads per HTTP port (reading requests, writing answers; plugin calls "
                    "run on the worker pool); 0 = the number of cores the server may use "
                    "(PLATFORM_HTTP_IO_THREADS)")
        ->check(CLI::Range(int64_t{0}, int64_t{1024}))
        ->capture_default_str();
    server
        .add_option("--log_level", s.log_level,
                    "Log level: trace, debug, info, warn, error or off (PLATFORM_LOG_LEVEL)")
        ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}))
        ->capture_default_str();
    for (auto* opt : server.get_options())  // a later flag wins, like a later environment setting
        if (opt->get_name() != "--plugin_path")
            opt->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    try {
        server.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return server.exit(e) == 0 ? 0 : 2;
    }
    return platform::host::run_server(s);
}

}  // namespace platform::cli
