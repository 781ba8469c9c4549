#include <sched.h>
#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <platform/host/core/settings.hpp>
#include <platform/sdk/text.hpp>
#include <stdexcept>
#include <thread>

namespace platform::host {

namespace {
const char* env(const char* name) {
    return std::getenv(name);
}
void take(std::string& out, const char* name) {
    if (const char* v = env(name)) out = v;
}
// A whole number >= `min` from `name`, or `fallback` when unset; throws naming the variable.
int64_t whole(const char* name, int64_t min, int64_t fallback, const char* unit) {
    const char* v = env(name);
    if (!v || !*v) return fallback;
    char* end = nullptr;
    long long n = std::strtoll(v, &end, 10);
    if (!end || *end || n < min)
        throw std::invalid_argument(std::string(name) + ": '" + v + "' is not a whole number of " +
                                    unit + " >= " + std::to_string(min));
    return n;
}
bool truthy(const char* v) {
    std::string s = v ? v : "";
    return s == "1" || s == "true" || s == "yes" || s == "on";
}
}  // namespace

int64_t Settings::io_threads() const {
    if (http_io_threads > 0) return http_io_threads;
    cpu_set_t cpus;
    CPU_ZERO(&cpus);
    if (sched_getaffinity(0, sizeof cpus, &cpus) == 0 && CPU_COUNT(&cpus) > 0)
        return CPU_COUNT(&cpus);
    const unsigned n = std::thread::hardware_concurrency();
    return n > 0 ? n : 2;
}

Settings Settings::from_environment() {
    Settings s;
    take(s.api_address, "PLATFORM_API_ADDRESS");
    take(s.proxy_address, "PLATFORM_PROXY_ADDRESS");
    take(s.smtp_address, "PLATFORM_SMTP_ADDRESS");
    try {
        split_address(s.smtp_address);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(std::string("PLATFORM_SMTP_ADDRESS: ") + e.what());
    }
    take(s.ns, "PLATFORM_NAMESPACE");
    take(s.handler, "PLATFORM_API_HANDLER");
    take(s.profile, "PLATFORM_PROFILE");
    take(s.config_secret_key, "PLATFORM_CONFIG_SECRET_KEY");
    take(s.admin_secret, "PLATFORM_ADMIN_SECRET");
    take(s.tls_cert_file, "PLATFORM_TLS_CERT_FILE");
    take(s.tls_key_file, "PLATFORM_TLS_KEY_FILE");
    take(s.acme_hosts, "PLATFORM_ACME_HOSTS");
    take(s.mcp_allowed_hosts, "PLATFORM_MCP_ALLOWED_HOSTS");
    take(s.console_dir, "PLATFORM_CONSOLE_DIR");
    if (const char* idle = env("PLATFORM_MCP_SESSION_IDLE_SECONDS"); idle && *idle) {
        char* end = nullptr;
        long long secs = std::strtoll(idle, &end, 10);
        if (!end || *end || secs < 1)
            throw std::invalid_argument(std::string("PLATFORM_MCP_SESSION_IDLE_SECONDS: '") + idle +
                                        "' is not a whole number of seconds >= 1");
        s.mcp_session_idle_ms = secs * 1000;
    }
    s.websocket_max_message_bytes =
        whole("PLATFORM_WEBSOCKET_MAX_MESSAGE_BYTES", 125, s.websocket_max_message_bytes, "bytes");
    s.websocket_idle_ms =
        whole("PLATFORM_WEBSOCKET_IDLE_SECONDS", 1, s.websocket_idle_ms / 1000, "seconds") * 1000;
    s.http_io_threads = whole("PLATFORM_HTTP_IO_THREADS", 0, s.http_io_threads, "threads");
    if (const char* level = env("PLATFORM_LOG_LEVEL"); level && *level) {
        const std::string v = platform::lower(level);
        if (v != "trace" && v != "debug" && v != "info" && v != "warn" && v != "error" &&
            v != "off")
            throw std::invalid_argument(std::string("PLATFORM_LOG_LEVEL: '") + level +
                                        "' is not a log level (trace, debug, info, warn, error "
                                        "or off)");
        s.log_level = v;
    }
    s.enable_tls = truthy(env("PLATFORM_ENABLE_TLS"));
    s.enable_acme = truthy(env("PLATFORM_ENABLE_ACME"));
    s.xmpp = truthy(env("PLATFORM_XMPP"));
    if (const char* domain = env("PLATFORM_MAIL_DOMAIN")) {
        s.mail_domain = platform::lower(domain);
        if (auto problem = mail_domain_problem(s.mail_domain))
            throw std::invalid_argument("PLATFORM_MAIL_DOMAIN: '" + s.mail_domain + "' " +
                                        *problem);
    }
    if (const char* relay = env("PLATFORM_SMTP_RELAY")) {
        s.smtp_relay = relay;
        if (auto problem = smtp_relay_problem(s.smtp_relay))
            throw std::invalid_argument("PLATFORM_SMTP_RELAY: " + *problem);
    }
    if (const char* url = env("PLATFORM_POSTGRES_URL"); url && *url) {
        s.postgres_url = url;
        if (auto problem = postgres_url_problem(s.postgres_url))
            throw std::invalid_argument("PLATFORM_POSTGRES_URL: " + *problem);
    }
    if (const char* url = env("PLATFORM_NATS_URL"); url && *url) {
        s.nats_url = url;
        if (auto problem = nats_url_problem(s.nats_url))
            throw std::invalid_argument("PLATFORM_NATS_URL: '" + s.nats_url + "' " + *problem);
    }
    if (const char* id = env("PLATFORM_NODE_ID"); id && *id) {
        s.node_id = id;
        if (auto problem = node_id_problem(s.node_id))
            throw std::invalid_argument("PLATFORM_NODE_ID: '" + s.node_id + "' " + *problem);
    }
    if (const char* home = env("PLATFORM_HOME"); home && *home) {
        s.home = home;
    } else {
        const char* user_home = env("HOME");
        s.home = std::string(user_home && *user_home ? user_home : "/tmp") + "/.platform";
    }
    if (const char* path = env("PLATFORM_PLUGIN_PATH")) {
        std::string all = path;
        size_t i = 0;
        while (i <= all.size()) {
            size_t j = all.find(':', i);
            if (j == std::string::npos) j = all.size();
            if (j > i) s.plugin_path.push_back(all.substr(i, j - i));
            i = j + 1;
        }
    }
    std::error_code ec;
    auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    s.exe_dir = ec ? "." : exe.parent_path().string();
    return s;
}

std::optional<std::string> mail_domain_problem(const std::string& domain) {
    if (domain.empty()) return std::nullopt;
    if (domain.size() > 253) return "is longer than 253 characters";
    size_t start = 0;
    for (;;) {
        const size_t dot = domain.find('.', start);
        const std::string label =
            domain.substr(start, dot == std::string::npos ? dot : dot - start);
        if (label.empty() || label.size() > 63 || label.front() == '-' || label.back() == '-')
            return "is not a domain name: each dot-separated label has 1 to 63 characters and "
                   "neither starts nor ends with '-'";
        for (char c : label)
            if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'))
                return "is not a domain name: labels hold lower-case letters, digits and '-'";
        if (dot == std::string::npos) return std::nullopt;
        start = dot + 1;
    }
}

namespace {
// {scheme, userinfo, host, port} of an smtp[s]:// URL, or nullopt with *why set.
struct RelayParts {
    std::string scheme, userinfo, host, port;
};
std::optional<RelayParts> relay_parts(const std::string& url, std::string* why) {
    RelayParts p;
    const size_t sep = url.find("://");
    p.scheme = sep == std::string::npos ? "" : platform::lower(url.substr(0, sep));
    if (p.scheme != "smtp" && p.scheme != "smtps") {
        *why = "must start with smtp:// or smtps://";
        return std::nullopt;
    }
    std::string rest = url.substr(sep + 3);
    if (rest.find_first_of("/?# \t\r\n") != std::string::npos) {
        *why = "must be smtp[s]://[user:pass@]host[:port] with nothing after the port";
        return std::nullopt;
    }
    if (const size_t at = rest.rfind('@'); at != std::string::npos) {
        p.userinfo = rest.substr(0, at);
        rest = rest.substr(at + 1);
    }
    const size_t colon = rest.rfind(':');
    const bool bracketed = !rest.empty() && rest.front() == '[';
    if (colon != std::string::npos && (!bracketed || rest.find(']') < colon)) {
        p.port = rest.substr(colon + 1);
        rest = rest.substr(0, colon);
        char* end = nullptr;
        const long n = std::strtol(p.port.c_str(), &end, 10);
        if (p.port.empty() || *end || n < 1 || n > 65535) {
            *why = "the port must be a number from 1 to 65535";
            return std::nullopt;
        }
    }
    p.host = rest;
    if (p.host.empty()) {
        *why = "names no host";
        return std::nullopt;
    }
    return p;
}
}  // namespace

std::optional<std::string> smtp_relay_problem(const std::string& url) {
    if (url.empty()) return std::nullopt;
    std::string why;
    if (!relay_parts(url, &why)) return why;
    return std::nullopt;
}

std::string smtp_relay_without_credentials(const std::string& url) {
    std::string why;
    auto p = url.empty() ? std::nullopt : relay_parts(url, &why);
    if (!p) return "";
    return p->scheme + "://" + p->host + (p->port.empty() ? "" : ":" + p->port);
}

std::optional<std::string> postgres_url_problem(const std::string& url) {
    if (url.empty()) return std::nullopt;
    for (char c : url)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            return "must be one line without control characters";
    const std::string scheme = platform::lower(url.substr(0, url.find("://")));
    if (url.find("://") != std::string::npos) {
        if (scheme != "postgresql" && scheme != "postgres")
            return "a URI must start with postgresql:// or postgres:// (e.g. "
                   "postgresql://user:password@host:5432/dbname)";
        return std::nullopt;
    }
    // keyword=value pairs separated by spaces; at least one, each keyword a word.
    if (url.find('=') == std::string::npos)
        return "is neither a postgresql:// URI nor libpq keyword=value pairs (e.g. "
               "\"host=db port=5432 dbname=platform user=platform\")";
    const size_t eq = url.find('=');
    const size_t start = url.find_first_not_of(' ');
    if (start == eq) return "a keyword=value pair has no keyword";
    for (size_t i = start; i < eq; ++i)
        if (!(std::isalnum(static_cast<unsigned char>(url[i])) || url[i] == '_'))
            return "is neither a postgresql:// URI nor libpq keyword=value pairs (e.g. "
                   "\"host=db port=5432 dbname=platform user=platform\")";
    return std::nullopt;
}

std::optional<std::string> nats_url_problem(const std::string& url) {
    if (url.empty()) return std::nullopt;
    size_t i = 0;
    while (i <= url.size()) {
        size_t j = url.find(',', i);
        if (j == std::string::npos) j = url.size();
        std::string one = url.substr(i, j - i);
        while (!one.empty() && one.front() == ' ') one.erase(0, 1);
        while (!one.empty() && one.back() == ' ') one.pop_back();
        const size_t sep = one.find("://");
        const std::string scheme =
            sep == std::string::npos ? "" : platform::lower(one.substr(0, sep));
        if (scheme != "nats" && scheme != "tls")
            return "must be nats://host:port (or tls://), comma-separated for a cluster";
        std::string rest = one.substr(sep + 3);
        if (const size_t at = rest.rfind('@'); at != std::string::npos) rest = rest.substr(at + 1);
        if (rest.find_first_of("/?# \t") != std::string::npos)
            return "must be nats://host:port with nothing after the port";
        const size_t colon = rest.rfind(':');
        const bool bracketed = !rest.empty() && rest.front() == '[';
        std::string host = rest;
        if (colon != std::string::npos && (!bracketed || rest.find(']') < colon)) {
            const std::string port = rest.substr(colon + 1);
            host = rest.substr(0, colon);
            char* end = nullptr;
            const long n = std::strtol(port.c_str(), &end, 10);
            if (port.empty() || *end || n < 1 || n > 65535)
                return "the port must be a number from 1 to 65535";
        }
        if (host.empty() || host == "[]") return "names no host";
        i = j + 1;
    }
    return std::nullopt;
}

std::optional<std::string> node_id_problem(const std::string& id) {
    if (id.empty()) return "is empty";
    if (id.size() > 64) return "is longer than 64 characters";
    if (!std::isalnum(static_cast<unsigned char>(id.front())))
        return "must start with a letter or digit";
    for (char c : id)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-'))
            return "may hold only letters, digits, '.', '_' and '-'";
    return std::nullopt;
}

std::pair<std::string, int> split_address(const std::string& address) {
    auto colon = address.rfind(':');
    std::string host = colon == std::string::npos ? "" : address.substr(0, colon);
    std::string port = colon == std::string::npos ? address : address.substr(colon + 1);
    if (host.size() > 1 && host.front() == '[' && host.back() == ']')
        host = host.substr(1, host.size() - 2);
    if (host.empty()) host = "0.0.0.0";
    char* end = nullptr;
    long p = std::strtol(port.c_str(), &end, 10);
    if (port.empty() || *end || p < 0 || p > 65535)
        throw std::invalid_argument("address '" + address +
                                    "': port must be a number from 0 to 65535");
    return {host, static_cast<int>(p)};
}

}  // namespace platform::host
