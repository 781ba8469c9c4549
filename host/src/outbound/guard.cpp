// The SSRF guard's pure parts: URL parsing and normalisation, the special-address table, the
// metadata names and the operator allow-list (outbound.hpp). No I/O here.
#include <arpa/inet.h>
#include <netinet/in.h>

#include <algorithm>
#include <cstring>
#include <platform/host/outbound/outbound.hpp>
#include <platform/sdk/text.hpp>

namespace platform::host {

namespace {

using platform::lower;

bool hex_digit(char c) {
    return std::isxdigit(static_cast<unsigned char>(c)) != 0;
}
bool dec_digit(char c) {
    return c >= '0' && c <= '9';
}

// One inet_aton part: decimal, octal with a leading 0, hex with 0x. nullopt when not a number
// or above 2^32 - 1.
std::optional<uint64_t> number_part(const std::string& p) {
    if (p.empty()) return std::nullopt;
    unsigned base = 10;
    size_t i = 0;
    if (p.size() >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        base = 16, i = 2;
    else if (p.size() > 1 && p[0] == '0')
        base = 8, i = 1;
    uint64_t v = 0;
    for (; i < p.size(); ++i) {
        char c = p[i];
        unsigned d;
        if (dec_digit(c))
            d = static_cast<unsigned>(c - '0');
        else if (base == 16 && hex_digit(c))
            d = static_cast<unsigned>(std::tolower(c) - 'a' + 10);
        else
            return std::nullopt;
        if (d >= base) return std::nullopt;
        v = v * base + d;
        if (v > 0xffffffffULL) return std::nullopt;
    }
    return v;
}

// WHATWG "ends in a number": the last label is all digits or 0x + hex digits. Such a host must
// be a valid IPv4 address, never a name.
bool ends_in_number(std::string host) {
    if (!host.empty() && host.back() == '.') host.pop_back();
    std::string last = host.substr(host.rfind('.') == std::string::npos ? 0 : host.rfind('.') + 1);
    if (last.empty()) return false;
    if (std::all_of(last.begin(), last.end(), dec_digit)) return true;
    return last.size() >= 2 && last[0] == '0' && (last[1] == 'x' || last[1] == 'X') &&
           std::all_of(last.begin() + 2, last.end(), hex_digit);
}

std::string v4_text(uint32_t a) {
    return std::to_string(a >> 24) + "." + std::to_string((a >> 16) & 255) + "." +
           std::to_string((a >> 8) & 255) + "." + std::to_string(a & 255);
}

bool in4(uint32_t a, uint32_t net, int bits) {
    uint32_t mask = bits == 0 ? 0 : ~uint32_t(0) << (32 - bits);
    return (a & mask) == (net & mask);
}
constexpr uint32_t ip4(unsigned a, unsigned b, unsigned c, unsigned d) {
    return (a << 24) | (b << 16) | (c << 8) | d;
}

// What makes an IPv4 address special, or nullopt for a public one.
std::optional<std::string> v4_rule(uint32_t a) {
    struct Rule {
        uint32_t net;
        int bits;
        const char* what;
    };
    static const Rule rules[] = {
        {ip4(0, 0, 0, 0), 8, "a 'this network' address (0.0.0.0/8)"},
        {ip4(10, 0, 0, 0), 8, "a private address (RFC 1918)"},
        {ip4(100, 64, 0, 0), 10, "a carrier-grade NAT address (100.64.0.0/10, RFC 6598)"},
        {ip4(127, 0, 0, 0), 8, "a loopback address (127.0.0.0/8)"},
        {ip4(169, 254, 169, 254), 32, "the cloud metadata address (link-local 169.254.169.254)"},
        {ip4(169, 254, 0, 0), 16, "a link-local address (169.254.0.0/16)"},
        {ip4(172, 16, 0, 0), 12, "a private address (RFC 1918)"},
        {ip4(192, 0, 0, 0), 24, "an IETF protocol assignment address (192.0.0.0/24)"},
        {ip4(192, 0, 2, 0), 24, "a documentation address (192.0.2.0/24, TEST-NET-1)"},
        {ip4(192, 88, 99, 0), 24, "a 6to4 relay anycast address (192.88.99.0/24)"},
        {ip4(192, 168, 0, 0), 16, "a private address (RFC 1918)"},
        {ip4(198, 18, 0, 0), 15, "a benchmarking address (198.18.0.0/15)"},
        {ip4(198, 51, 100, 0), 24, "a documentation address (198.51.100.0/24, TEST-NET-2)"},
        {ip4(203, 0, 113, 0), 24, "a documentation address (203.0.113.0/24, TEST-NET-3)"},
        {ip4(224, 0, 0, 0), 4, "a multicast address (224.0.0.0/4)"},
        {ip4(255, 255, 255, 255), 32, "the broadcast address (255.255.255.255)"},
        {ip4(240, 0, 0, 0), 4, "a reserved address (240.0.0.0/4)"},
    };
    for (const auto& r : rules)
        if (in4(a, r.net, r.bits)) return std::string(r.what);
    return std::nullopt;
}

uint32_t v4_at(const uint8_t* b) {
    return (uint32_t(b[0]) << 24) | (uint32_t(b[1]) << 16) | (uint32_t(b[2]) << 8) | b[3];
}

bool prefix6(const uint8_t* b, std::initializer_list<uint8_t> bytes, int bits) {
    uint8_t net[16] = {0};
    std::copy(bytes.begin(), bytes.end(), net);
    for (int i = 0; i < bits / 8; ++i)
        if (b[i] != net[i]) return false;
    if (bits % 8) {
        uint8_t mask = static_cast<uint8_t>(0xff << (8 - bits % 8));
        if ((b[bits / 8] & mask) != (net[bits / 8] & mask)) return false;
    }
    return true;
}

std::optional<std::string> embedded(const char* kind, uint32_t v4) {
    if (auto r = v4_rule(v4)) return std::string(kind) + " embedding " + v4_text(v4) + ", " + *r;
    return std::nullopt;
}

// What makes an IPv6 address special, or nullopt for a public one.
std::optional<std::string> v6_rule(const uint8_t* b) {
    static const uint8_t zero[16] = {0};
    if (std::memcmp(b, zero, 16) == 0) return std::string("the unspecified address (::)");
    if (std::memcmp(b, zero, 15) == 0 && b[15] == 1) return std::string("a loopback address (::1)");
    if (prefix6(b, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff}, 96))
        return embedded("an IPv4-mapped address (::ffff:0:0/96)", v4_at(b + 12));
    if (prefix6(b, {}, 96)) return std::string("an IPv4-compatible address (::/96, deprecated)");
    if (prefix6(b, {0, 0x64, 0xff, 0x9b}, 96))
        return embedded("a NAT64 address (64:ff9b::/96)", v4_at(b + 12));
    if (prefix6(b, {0, 0x64, 0xff, 0x9b, 0, 1}, 48))
        return std::string("a local-use NAT64 address (64:ff9b:1::/48)");
    if (prefix6(b, {0x01, 0x00}, 64)) return std::string("a discard-only address (100::/64)");
    if (prefix6(b, {0x20, 0x01, 0x0d, 0xb8}, 32))
        return std::string("a documentation address (2001:db8::/32)");
    if (prefix6(b, {0x20, 0x01, 0, 0}, 32))
        return std::string("a Teredo tunnel address (2001::/32)");
    if (prefix6(b, {0x20, 0x02}, 16)) return embedded("a 6to4 address (2002::/16)", v4_at(b + 2));
    if (prefix6(b, {0xfc}, 7)) return std::string("a unique local address (fc00::/7)");
    if (prefix6(b, {0xfe, 0x80}, 10)) return std::string("a link-local address (fe80::/10)");
    if (prefix6(b, {0xfe, 0xc0}, 10))
        return std::string("a site-local address (fec0::/10, deprecated)");
    if (prefix6(b, {0xff}, 8)) return std::string("a multicast address (ff00::/8)");
    if (!prefix6(b, {0x20}, 3)) return std::string("a reserved address (outside 2000::/3)");
    return std::nullopt;
}

bool name_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
}

// Normalises a URL or allow-list host: IPv6 text without brackets, an IPv4 form, or a name.
std::optional<std::string> normalise_host(const std::string& raw, bool bracketed, bool* ip,
                                          bool* v6, std::string* error) {
    *ip = *v6 = false;
    if (bracketed) {
        in6_addr a{};
        if (raw.find('%') != std::string::npos) {
            *error = "url: IPv6 zone identifiers are not allowed";
            return std::nullopt;
        }
        if (inet_pton(AF_INET6, raw.c_str(), &a) != 1) {
            *error = "url: invalid IPv6 address [" + raw + "]";
            return std::nullopt;
        }
        char buf[INET6_ADDRSTRLEN];
        inet_ntop(AF_INET6, &a, buf, sizeof buf);
        *ip = *v6 = true;
        return std::string(buf);
    }
    std::string host = lower(raw);
    if (host.empty()) {
        *error = "url: missing host";
        return std::nullopt;
    }
    if (ends_in_number(host)) {
        auto v4 = parse_ipv4(host);
        if (!v4)
            *error = "url: invalid IPv4 address " + raw;
        else
            *ip = true;
        return v4;
    }
    if (host.back() == '.') host.pop_back();
    bool ok = !host.empty() && host.size() <= 253 && host.front() != '.';
    for (size_t i = 0; ok && i < host.size(); ++i)
        ok = name_char(host[i]) || (host[i] == '.' && host[i + 1] != '.' && i + 1 < host.size());
    if (!ok) {
        *error = "url: invalid host name '" + raw +
                 "' (ASCII letters, digits, '-', '_' and dots; "
                 "internationalised names in punycode)";
        return std::nullopt;
    }
    return host;
}

// Splits "host:port" / "[v6]:port" / "host"; port text empty when absent.
bool split_host_port(const std::string& a, std::string& host, std::string& port, bool& bracketed,
                     std::string* error) {
    bracketed = !a.empty() && a[0] == '[';
    size_t colon;
    if (bracketed) {
        size_t close = a.find(']');
        if (close == std::string::npos || (close + 1 < a.size() && a[close + 1] != ':')) {
            *error = "url: invalid IPv6 literal " + a;
            return false;
        }
        host = a.substr(1, close - 1);
        colon = close + 1 < a.size() ? close + 1 : std::string::npos;
    } else {
        colon = a.find(':');
        if (colon != std::string::npos && a.find(':', colon + 1) != std::string::npos) {
            *error = "url: IPv6 addresses must be in brackets ([::1])";
            return false;
        }
        host = a.substr(0, colon);
    }
    port = colon == std::string::npos ? "" : a.substr(colon + 1);
    return true;
}

std::optional<int> parse_port(const std::string& p) {
    if (p.empty() || p.size() > 5 || !std::all_of(p.begin(), p.end(), dec_digit))
        return std::nullopt;
    int v = std::stoi(p);
    if (v < 1 || v > 65535) return std::nullopt;
    return v;
}

}  // namespace

std::string ParsedUrl::origin() const {
    bool default_port = (scheme == "http" && port == 80) || (scheme == "https" && port == 443);
    return scheme + "://" + host_for_url() + (default_port ? "" : ":" + std::to_string(port));
}

std::optional<std::string> parse_ipv4(const std::string& raw) {
    std::string host = raw;
    if (!host.empty() && host.back() == '.') host.pop_back();
    std::vector<std::string> parts;
    for (size_t i = 0, j; i <= host.size(); i = j + 1) {
        j = host.find('.', i);
        if (j == std::string::npos) j = host.size();
        parts.push_back(host.substr(i, j - i));
    }
    if (parts.empty() || parts.size() > 4) return std::nullopt;
    uint32_t a = 0;
    for (size_t i = 0; i < parts.size(); ++i) {
        auto v = number_part(parts[i]);
        if (!v) return std::nullopt;
        if (i + 1 < parts.size()) {
            if (*v > 255) return std::nullopt;
            a |= static_cast<uint32_t>(*v) << (24 - 8 * i);
        } else {
            uint64_t room = 8 * (4 - (parts.size() - 1));  // bits left for the last part
            if (room < 32 && *v >= (uint64_t(1) << room)) return std::nullopt;
            a |= static_cast<uint32_t>(*v);
        }
    }
    return v4_text(a);
}

std::optional<ParsedUrl> parse_url(const std::string& url, std::string* error, bool* denied) {
    std::string ignored;
    if (!error) error = &ignored;
    if (denied) *denied = false;
    auto refuse = [&](std::string why) {
        *error = std::move(why);
        if (denied) *denied = true;
        return std::nullopt;
    };
    for (unsigned char c : url)
        if (c <= 0x20 || c == 0x7f || c == '\\') {
            *error =
                "url: contains spaces, control characters or backslashes (percent-encode them)";
            return std::nullopt;
        }
    size_t colon = url.find(':');
    std::string scheme = colon == std::string::npos ? "" : lower(url.substr(0, colon));
    bool scheme_ok = !scheme.empty() && std::isalpha(static_cast<unsigned char>(scheme[0]));
    for (char c : scheme)
        scheme_ok = scheme_ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '+' ||
                                  c == '-' || c == '.');
    if (!scheme_ok) {
        *error = "url: not an absolute http(s) URL: " + url;
        return std::nullopt;
    }
    if (scheme != "http" && scheme != "https")
        return refuse("refused: scheme not allowed: " + scheme + " (only http and https)");
    if (url.compare(colon + 1, 2, "//") != 0) {
        *error = "url: expected " + scheme + "://host/...";
        return std::nullopt;
    }
    size_t start = colon + 3;
    size_t end = url.find_first_of("/?#", start);
    std::string authority =
        url.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (authority.find('@') != std::string::npos)
        return refuse("refused: userinfo (user@host) is not allowed in URLs");
    std::string host, port_text;
    bool bracketed = false;
    if (!split_host_port(authority, host, port_text, bracketed, error)) return std::nullopt;
    ParsedUrl u;
    u.scheme = scheme;
    u.port = scheme == "https" ? 443 : 80;
    if (!port_text.empty()) {
        auto p = parse_port(port_text);
        if (!p) {
            *error = "url: invalid port '" + port_text + "' (1-65535)";
            return std::nullopt;
        }
        u.port = *p;
    }
    auto h = normalise_host(host, bracketed, &u.ip, &u.ipv6, error);
    if (!h) return std::nullopt;
    u.host = *h;
    std::string rest = end == std::string::npos ? "" : url.substr(end);
    rest = rest.substr(0, rest.find('#'));
    u.target = rest.empty() || rest[0] != '/' ? "/" + rest : rest;
    return u;
}

std::optional<std::string> refused_address(const std::string& ip) {
    in_addr a4{};
    in6_addr a6{};
    std::optional<std::string> rule;
    if (inet_pton(AF_INET, ip.c_str(), &a4) == 1)
        rule = v4_rule(ntohl(a4.s_addr));
    else if (inet_pton(AF_INET6, ip.c_str(), &a6) == 1)
        rule = v6_rule(a6.s6_addr);
    else
        return "refused: " + ip + " is not an IP address";
    if (!rule) return std::nullopt;
    return "refused: " + ip + " is " + *rule;
}

std::optional<std::string> refused_name(const std::string& host) {
    static const char* const names[] = {"metadata.google.internal", "metadata.goog", "metadata",
                                        "instance-data", "instance-data.ec2.internal"};
    std::string h = lower(host);
    if (!h.empty() && h.back() == '.') h.pop_back();
    for (const char* n : names)
        if (h == n) return "refused: " + h + " is a cloud metadata host name";
    return std::nullopt;
}

namespace {
struct AllowEntry {
    std::string host;  // "*" = any
    int port = 0;      // 0 = any
};

std::optional<AllowEntry> parse_allow(const std::string& entry, std::string* problem) {
    std::string host, port;
    bool bracketed = false;
    std::string error;
    const char* expected = "expected host:port, host:* or *:port (IPv6 as [::1]:port)";
    if (!split_host_port(entry, host, port, bracketed, &error) || port.empty() || host.empty()) {
        *problem = "'" + entry + "': " + expected;
        return std::nullopt;
    }
    AllowEntry e;
    if (host == "*" && !bracketed)
        e.host = "*";
    else {
        bool ip = false, v6 = false;
        auto h = normalise_host(host, bracketed, &ip, &v6, &error);
        if (!h) {
            *problem = "'" + entry + "': invalid host (" + expected + ")";
            return std::nullopt;
        }
        e.host = *h;
    }
    if (port != "*") {
        auto p = parse_port(port);
        if (!p) {
            *problem = "'" + entry + "': invalid port (1-65535 or *)";
            return std::nullopt;
        }
        e.port = *p;
    }
    if (e.host == "*" && e.port == 0) {
        *problem = "'" + entry + "': would allow every target; name hosts or ports";
        return std::nullopt;
    }
    return e;
}
}  // namespace

std::optional<std::string> allow_entry_problem(const std::string& entry) {
    std::string problem;
    if (parse_allow(entry, &problem)) return std::nullopt;
    return problem;
}

bool allow_listed(const std::vector<std::string>& allow, const std::string& host, int port) {
    std::string problem;
    for (const auto& entry : allow) {
        auto e = parse_allow(entry, &problem);
        if (e && (e->host == "*" || e->host == host) && (e->port == 0 || e->port == port))
            return true;
    }
    return false;
}

}  // namespace platform::host
