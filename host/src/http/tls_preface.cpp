#include <arpa/inet.h>

#include <algorithm>
#include <cctype>
#include <platform/host/http/http_framing.hpp>

namespace platform::host {

namespace {

// Equal contents, in time that depends only on the lengths.
bool constant_time_equal(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    volatile unsigned char diff = 0;
    for (size_t i = 0; i < a.size(); ++i) diff = diff | static_cast<unsigned char>(a[i] ^ b[i]);
    return diff == 0;
}

constexpr std::string_view kTlsPrefaceTag = "PLATFORM-TLS ";

}  // namespace

TlsPreface parse_tls_preface(std::string_view in, std::string_view secret) {
    TlsPreface p;
    auto invalid = [&p] {
        p.state = TlsPreface::State::invalid;
        return p;
    };
    // A wrong first byte is refused at once, not after the line would have ended.
    const size_t have = std::min(in.size(), kTlsPrefaceTag.size());
    if (in.substr(0, have) != kTlsPrefaceTag.substr(0, have)) return invalid();
    const size_t eol = in.find("\r\n");
    if (eol == std::string_view::npos) return in.size() >= kMaxTlsPreface ? invalid() : p;
    if (eol + 2 > kMaxTlsPreface || secret.empty()) return invalid();
    std::string_view rest = in.substr(kTlsPrefaceTag.size(), eol - kTlsPrefaceTag.size());
    const size_t sp1 = rest.find(' ');
    const size_t sp2 = sp1 == std::string_view::npos ? sp1 : rest.find(' ', sp1 + 1);
    if (sp2 == std::string_view::npos || rest.find(' ', sp2 + 1) != std::string_view::npos)
        return invalid();
    const std::string_view given = rest.substr(0, sp1), ip = rest.substr(sp1 + 1, sp2 - sp1 - 1),
                           port = rest.substr(sp2 + 1);
    if (!constant_time_equal(given, secret)) return invalid();
    const std::string ip_text(ip);
    unsigned char addr[sizeof(in6_addr)];
    if (inet_pton(AF_INET, ip_text.c_str(), addr) != 1 &&
        inet_pton(AF_INET6, ip_text.c_str(), addr) != 1)
        return invalid();
    if (port.empty() || port.size() > 5) return invalid();
    int number = 0;
    for (char c : port) {
        if (!std::isdigit(static_cast<unsigned char>(c))) return invalid();
        number = number * 10 + (c - '0');
    }
    if (number > 65535) return invalid();
    p.state = TlsPreface::State::ok;
    p.length = eol + 2;
    p.client_ip = ip_text;
    p.client_port = number;
    return p;
}

std::string tls_preface(std::string_view secret, std::string_view client_ip, int client_port) {
    std::string line(kTlsPrefaceTag);
    line.append(secret)
        .append(" ")
        .append(client_ip)
        .append(" ")
        .append(std::to_string(client_port))
        .append("\r\n");
    return line;
}

}  // namespace platform::host
