// host/src/acme/acme_settings.cpp — AcmeSettings::from_env and the host-name rules.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <platform/host/acme/acme_client.hpp>

namespace platform::host {
namespace {

std::string env_or(const char* name, const std::string& fallback) {
    const char* v = std::getenv(name);
    return v && *v ? std::string(v) : fallback;
}

}  // namespace

AcmeSettings AcmeSettings::from_env(const std::string& hosts_csv,
                                    const std::string& platform_home) {
    AcmeSettings s;
    std::string current;
    auto flush = [&] {
        if (!current.empty() && std::find(s.hosts.begin(), s.hosts.end(), current) == s.hosts.end())
            s.hosts.push_back(current);
        current.clear();
    };
    for (char c : hosts_csv) {
        if (c == ',' || std::isspace(static_cast<unsigned char>(c)))
            flush();
        else
            current += char(std::tolower(static_cast<unsigned char>(c)));
    }
    flush();
    s.state_dir = platform_home.empty() ? std::string("acme") : platform_home + "/acme";
    s.directory_url = env_or("PLATFORM_ACME_DIRECTORY_URL", kLetsEncryptDirectory);
    s.ca_file = env_or("PLATFORM_ACME_CA_FILE", "");
    s.contact_email = env_or("PLATFORM_ACME_EMAIL", "");
    return s;
}

std::optional<std::string> acme_host_problem(const std::string& host) {
    if (host.empty()) return "empty name";
    if (host.size() > 253) return "longer than 253 characters";
    if (host.find('*') != std::string::npos)
        return "wildcards are not supported (http-01 cannot validate them)";
    if (host.find(':') != std::string::npos || host.front() == '[')
        return "IP addresses are not supported (DNS names only)";
    if (host.back() == '.') return "no trailing dot";
    for (char c : host)
        if (c >= 'A' && c <= 'Z') return "must be lower case";
    size_t start = 0;
    std::string last;
    while (start <= host.size()) {
        size_t end = host.find('.', start);
        if (end == std::string::npos) end = host.size();
        std::string label = host.substr(start, end - start);
        if (label.empty()) return "empty label";
        if (label.size() > 63) return "a label is longer than 63 characters";
        for (char c : label)
            if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'))
                return std::string("character '") + c + "' is not allowed (a-z, 0-9, '-', '.')";
        if (label.front() == '-' || label.back() == '-') return "a label starts or ends with '-'";
        last = label;
        start = end + 1;
    }
    if (std::all_of(last.begin(), last.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return "IP addresses are not supported (DNS names only)";  // also rejects 10.0.0.1
    return std::nullopt;
}

std::optional<std::string> AcmeSettings::problem() const {
    if (hosts.empty()) return "PLATFORM_ACME_HOSTS: no host names (comma-separated DNS names)";
    for (const auto& h : hosts)
        if (auto why = acme_host_problem(h)) return "PLATFORM_ACME_HOSTS: '" + h + "': " + *why;
    if (directory_url.rfind("https://", 0) != 0 || directory_url.size() <= 8)
        return "PLATFORM_ACME_DIRECTORY_URL: '" + directory_url +
               "' is not an https:// URL (RFC 8555 §6.1)";
    if (state_dir.empty()) return "ACME: no state directory";
    if (request_timeout_ms <= 0 || poll_attempts <= 0 || poll_interval_ms < 0 ||
        max_retry_after_s < 0 || renew_before_days < 0 || bad_nonce_retries < 0)
        return "ACME: timeouts, poll counts and retry limits must not be negative";
    return std::nullopt;
}

}  // namespace platform::host
