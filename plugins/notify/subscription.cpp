#include "subscription.hpp"

#include <algorithm>
#include <cctype>

namespace notify {

namespace {

[[noreturn]] void bad(const std::string& arg, const std::string& rule) {
    throw platform::invalid_argument(arg + ": " + rule);
}

}  // namespace

WebUrl web_url(const std::string& arg, const std::string& text, size_t max) {
    if (text.size() > max) bad(arg, "at most " + std::to_string(max) + " bytes");
    for (unsigned char c : text)
        if (c <= 0x20 || c == 0x7F || c == '\\') bad(arg, "no spaces, control characters or '\\'");
    WebUrl u;
    const size_t colon = text.find("://");
    if (colon == std::string::npos) bad(arg, "must be an absolute http or https URL");
    u.scheme = platform::lower(text.substr(0, colon));
    if (u.scheme != "https" && u.scheme != "http") bad(arg, "must be an http or https URL");
    const size_t start = colon + 3, end = text.find_first_of("/?#", start);
    const std::string authority =
        text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (authority.find('@') != std::string::npos) bad(arg, "must not hold a user name or password");
    std::string port;
    if (!authority.empty() && authority[0] == '[') {  // an IPv6 literal
        const size_t close = authority.find(']');
        if (close == std::string::npos) bad(arg, "unclosed '[' in the host");
        u.host = authority.substr(0, close + 1);
        if (close + 1 < authority.size()) {
            if (authority[close + 1] != ':') bad(arg, "malformed host");
            port = authority.substr(close + 2);
        }
    } else {
        const size_t c = authority.rfind(':');
        u.host = authority.substr(0, c);
        if (c != std::string::npos) port = authority.substr(c + 1);
    }
    u.host = platform::lower(u.host);
    if (u.host.empty() || u.host == "[]") bad(arg, "must name a host");
    const int default_port = u.scheme == "https" ? 443 : 80;
    u.port = default_port;
    if (!port.empty()) {
        if (port.size() > 5 || !std::all_of(port.begin(), port.end(), ::isdigit))
            bad(arg, "the port must be a number from 1 to 65535");
        u.port = std::stoi(port);
        if (u.port < 1 || u.port > 65535) bad(arg, "the port must be a number from 1 to 65535");
    }
    u.origin = u.scheme + "://" + u.host +
               (u.port == default_port ? std::string() : ":" + std::to_string(u.port));
    u.host_port = u.host + ":" + std::to_string(u.port);
    return u;
}

WebUrl push_endpoint(const std::string& text, const std::vector<std::string>& trusted) {
    WebUrl u = web_url("subscription.endpoint", text, 2000);
    const bool is_trusted = std::find(trusted.begin(), trusted.end(), u.host_port) != trusted.end();
    if (u.scheme != "https" && !is_trusted)
        bad("subscription.endpoint",
            "must be an https URL (a push service); http only for the operator's "
            "notify.trusted_endpoints");
    return u;
}

std::string key_bytes(const std::string& arg, const std::string& text, size_t bytes) {
    std::string_view t(text);
    while (!t.empty() && t.back() == '=') t.remove_suffix(1);
    auto raw = platform::base64url_decode(t);
    if (!raw || raw->size() != bytes)
        bad(arg, "must be " + std::to_string(bytes) + " bytes in base64url");
    return *raw;
}

}  // namespace notify
