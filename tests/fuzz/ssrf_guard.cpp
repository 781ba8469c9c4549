// Fuzz target ssrf_guard: the outbound SSRF guard's parsing (outbound.hpp, guard.cpp) — URLs,
// hosts in every IPv4 form inet_aton knows (2130706433, 0x7f.1, 017700000001, 127.1), IPv6
// literals ([::1], [::ffff:127.0.0.1]), the special-address table and allow-list entries.
//
// The whole input is one string, tried as a URL, as the authority of http://<input>/, as an
// IPv4 host, as an address, as a host name and as an allow-list entry.
//
// Findings (besides crashes and sanitizer reports):
//   - a URL accepted with a host that is not in canonical form: an IPv4 host must be the dotted
//     quad parse_ipv4 gives back unchanged; an IPv6 host inet_ntop's text; a name must not be
//     something inet_aton reads as an address (it would reach another host than the one checked);
//   - parse_ipv4 disagreeing with inet_aton on an input made of digits, hex letters, 'x' and dots;
//   - an address in a loopback, private, link-local or "this network" range (IPv4, or IPv4-mapped
//     IPv6) that refused_address lets through.
#include <arpa/inet.h>
#include <netinet/in.h>

#include <algorithm>
#include <cstring>
#include <platform/host/outbound/outbound.hpp>

#include "fuzz_support.hpp"

namespace {

using platform::host::ParsedUrl;

// Ranges that must never be reachable, as (network, prefix bits): checked on their own here,
// independently of guard.cpp's table.
bool must_refuse_v4(uint32_t a) {
    const std::pair<uint32_t, int> ranges[] = {{0x00000000, 8},  {0x0a000000, 8},
                                               {0x7f000000, 8},  {0xa9fe0000, 16},
                                               {0xac100000, 12}, {0xc0a80000, 16}};
    for (auto [net, bits] : ranges)
        if ((a >> (32 - bits)) == (net >> (32 - bits))) return true;
    return false;
}

void check_address(const std::string& ip, const std::string& what) {
    in_addr a4{};
    in6_addr a6{};
    const auto refusal = platform::host::refused_address(ip);
    if (inet_pton(AF_INET, ip.c_str(), &a4) == 1) {
        if (must_refuse_v4(ntohl(a4.s_addr)))
            FUZZ_CHECK(refusal.has_value(), what + ": " + ip + " is not refused");
    } else if (inet_pton(AF_INET6, ip.c_str(), &a6) == 1) {
        static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
        static const uint8_t loopback[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
        uint32_t v4;
        std::memcpy(&v4, a6.s6_addr + 12, 4);
        if ((std::memcmp(a6.s6_addr, mapped, 12) == 0 && must_refuse_v4(ntohl(v4))) ||
            std::memcmp(a6.s6_addr, loopback, 16) == 0)
            FUZZ_CHECK(refusal.has_value(), what + ": " + ip + " is not refused");
    } else {
        FUZZ_CHECK(refusal.has_value(), what + ": '" + ip + "' is no address but is not refused");
    }
}

void check_url(const std::string& url) {
    std::string error;
    bool denied = false;
    auto u = platform::host::parse_url(url, &error, &denied);
    if (!u) {
        FUZZ_CHECK(!error.empty(), "parse_url refused '" + url + "' without a reason");
        return;
    }
    const std::string what = "parse_url('" + url + "')";
    FUZZ_CHECK(u->scheme == "http" || u->scheme == "https", what + ": scheme " + u->scheme);
    FUZZ_CHECK(u->port >= 1 && u->port <= 65535, what + ": port " + std::to_string(u->port));
    FUZZ_CHECK(!u->target.empty() && u->target[0] == '/', what + ": target " + u->target);
    if (u->ipv6) {
        in6_addr a{};
        char text[INET6_ADDRSTRLEN];
        FUZZ_CHECK(inet_pton(AF_INET6, u->host.c_str(), &a) == 1, what + ": host " + u->host);
        inet_ntop(AF_INET6, &a, text, sizeof text);
        FUZZ_CHECK(u->host == text, what + ": IPv6 host " + u->host + " is not canonical");
        check_address(u->host, what);
    } else if (u->ip) {
        const auto again = platform::host::parse_ipv4(u->host);
        FUZZ_CHECK(again && *again == u->host,
                   what + ": IPv4 host " + u->host + " is not canonical");
        check_address(u->host, what);
    } else {
        in_addr a{};
        FUZZ_CHECK(inet_aton(u->host.c_str(), &a) == 0,
                   what + ": host name " + u->host + " is an address to inet_aton");
        FUZZ_CHECK(u->host.find_first_of(":[]@/\\%") == std::string::npos,
                   what + ": host name " + u->host);
        (void)platform::host::refused_name(u->host);
    }
    (void)u->str();
}

void check_ipv4(const std::string& s) {
    const auto v4 = platform::host::parse_ipv4(s);
    if (v4) {
        in_addr a{};
        FUZZ_CHECK(inet_pton(AF_INET, v4->c_str(), &a) == 1, "parse_ipv4('" + s + "') = " + *v4);
        FUZZ_CHECK(platform::host::parse_ipv4(*v4) == v4, "parse_ipv4 is not idempotent on " + *v4);
        check_address(*v4, "parse_ipv4('" + s + "')");
    }
    const bool plain = !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return std::isxdigit(static_cast<unsigned char>(c)) || c == 'x' || c == 'X' || c == '.';
    });
    in_addr a{};
    if (plain && inet_aton(s.c_str(), &a) == 1)
        FUZZ_CHECK(v4 && *v4 == inet_ntoa(a), "inet_aton('" + s + "') = " + inet_ntoa(a) +
                                                  ", parse_ipv4 = " + v4.value_or("none"));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string s(fuzz::text(data, size));
    if (s.find('\0') != std::string::npos) return 0;  // C strings below; URLs never hold NUL
    check_url(s);
    check_url("http://" + s + "/");
    check_ipv4(s);
    (void)platform::host::refused_address(s);
    (void)platform::host::refused_name(s);
    if (!platform::host::allow_entry_problem(s))
        FUZZ_CHECK(s.find(':') != std::string::npos, "allow entry without a port: " + s);
    (void)platform::host::allow_listed({s}, "127.0.0.1", 80);
    return 0;
}
