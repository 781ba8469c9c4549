// platform/host/core/settings.hpp — the server's settings (README.md, "Settings").
//
// Each spec variable is also a flag: PLATFORM_API_ADDRESS / --api_address, and so on. Flags
// override the environment. Port 0 picks a free port.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace platform::host {

struct Settings {
    std::string api_address = ":8080";
    std::string proxy_address = ":8081";
    std::string ns = "go.core.api";  // PLATFORM_NAMESPACE; empty disables the prefix
    std::string handler = "rpc";     // PLATFORM_API_HANDLER
    std::string profile = "local";   // PLATFORM_PROFILE
    std::string home;                // PLATFORM_HOME, default ~/.platform
    std::string config_secret_key;   // PLATFORM_CONFIG_SECRET_KEY
    std::string admin_secret;        // PLATFORM_ADMIN_SECRET
    bool enable_tls = false, enable_acme = false;
    // XMPP federation of chat (PLATFORM_XMPP, off by default): the profile's `xmpp:` section says
    // where the XMPP server is (profile.hpp XmppSettings).
    bool xmpp = false;
    // Mail (the mail service): the instance's mail domain (PLATFORM_MAIL_DOMAIN; empty = no mail
    // from or to outside addresses) and the outbound relay (PLATFORM_SMTP_RELAY,
    // smtp[s]://user:pass@host:port; empty = none). Plugins read the domain as
    // platform.mail_domain and the relay without its credentials as platform.smtp_relay.
    std::string mail_domain, smtp_relay;
    // The inbound SMTP listener (host/src/smtp/, PLATFORM_SMTP_ADDRESS): where it listens; it
    // runs only when mail_domain is set. Port 0 picks a free port.
    std::string smtp_address = ":2525";
    std::string tls_cert_file, tls_key_file, acme_hosts;
    // MCP (mcp.hpp): extra Host names /mcp accepts besides the loopback ones and the ACME hosts
    // (PLATFORM_MCP_ALLOWED_HOSTS, comma-separated, "*" = any), and how long an unused session
    // lives (PLATFORM_MCP_SESSION_IDLE_SECONDS).
    std::string mcp_allowed_hosts;
    int64_t mcp_session_idle_ms = 3600 * 1000;
    // WebSocket sessions (http_websocket.cpp): the longest message a client may send
    // (PLATFORM_WEBSOCKET_MAX_MESSAGE_BYTES; larger closes with 1009), and the quiet time after
    // which the server pings, closing when no pong comes within as long again
    // (PLATFORM_WEBSOCKET_IDLE_SECONDS).
    int64_t websocket_max_message_bytes = 64 * 1024;
    int64_t websocket_idle_ms = 30 * 1000;
    // The HTTP front's I/O threads per listening port (PLATFORM_HTTP_IO_THREADS): they read
    // requests and write answers; plugin calls never run on them. 0 = the number of cores this
    // process may run on (its CPU affinity, so `taskset` counts), io_threads() resolves it.
    int64_t http_io_threads = 0;
    int64_t io_threads() const;
    // The host log's level (PLATFORM_LOG_LEVEL): trace, debug, info, warn, error or off. A value
    // that is none of these stops from_environment with a message naming the setting.
    std::string log_level = "info";
    // Shared state for replicas (decision 72): the PostgreSQL connection string
    // (PLATFORM_POSTGRES_URL, libpq keyword=value or postgresql:// URI) and the NATS server
    // (PLATFORM_NATS_URL, nats://host:port, comma-separated for a cluster). The host does not use
    // them itself: a profile passes them to its providers as ${PLATFORM_POSTGRES_URL} and
    // ${PLATFORM_NATS_URL} (a flag sets the variable before the profile is read).
    std::string postgres_url, nats_url;
    // This host's node id (PLATFORM_NODE_ID; node_id.hpp): empty = the one kept in
    // $PLATFORM_HOME/node-id, created at the first start.
    std::string node_id;
    // The web console's files (console_route.cpp): empty = the copy built into the binary; a
    // folder (PLATFORM_CONSOLE_DIR) = its files, read again on every request, for working on
    // the console without rebuilding the host.
    std::string console_dir;
    std::vector<std::string> plugin_path;  // PLATFORM_PLUGIN_PATH (colon-separated)
    std::string exe_dir;                   // folder of the running binary

    // Defaults overridden by PLATFORM_* variables.
    static Settings from_environment();
};

// Why `domain` cannot be the mail domain (lower-case DNS labels of letters, digits and '-',
// joined by dots, at most 253 characters), or nullopt when it can (empty included).
std::optional<std::string> mail_domain_problem(const std::string& domain);
// Why `url` cannot be the SMTP relay (smtp:// or smtps://, optional user:pass@, a host, an
// optional port 1-65535, nothing after), or nullopt when it can (empty included).
std::optional<std::string> smtp_relay_problem(const std::string& url);
// The relay URL without its user and password ("smtps://user:pw@mx:465" -> "smtps://mx:465"):
// what plugins are told; empty for an empty or unusable URL.
std::string smtp_relay_without_credentials(const std::string& url);

// Why `url` cannot be PLATFORM_POSTGRES_URL (a libpq URI postgresql://... or postgres://..., or
// keyword=value pairs such as "host=db dbname=platform"), or nullopt when it can (empty
// included). The answer never repeats the value (it may hold a password).
std::optional<std::string> postgres_url_problem(const std::string& url);
// Why `url` cannot be PLATFORM_NATS_URL (nats:// or tls:// URLs host[:port], comma-separated),
// or nullopt when it can (empty included).
std::optional<std::string> nats_url_problem(const std::string& url);
// Why `id` cannot be a node id (1 to 64 letters, digits, '.', '_' or '-', starting with a letter
// or digit), or nullopt when it can. Empty is a problem here; Settings treats it as unset.
std::optional<std::string> node_id_problem(const std::string& id);

// "host:port" or ":port" -> {host, port}; host defaults to 0.0.0.0. Throws on a bad port.
std::pair<std::string, int> split_address(const std::string& address);

}  // namespace platform::host
