// The SSRF guard as a table (outbound.hpp): every special range, in every encoding a URL can carry
// it, is refused with a reason naming the rule — by the address checker, after URL normalisation,
// and through Outbound::fetch (which refuses before connecting, so nothing here touches the
// network). Public addresses pass the checker.
#include <gtest/gtest.h>

#include <platform/host/outbound/outbound.hpp>

#include "fetch_helper.hpp"

using namespace platform::host;
using namespace platform::test;

namespace {

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

struct Case {
    const char* ip;
    const char* rule;  // a part of the reason
};

// Every range of the guard, at its edges where it has some.
const Case kRefused[] = {
    {"0.0.0.0", "'this network' address (0.0.0.0/8)"},
    {"0.255.255.255", "'this network'"},
    {"10.0.0.5", "a private address (RFC 1918)"},
    {"10.255.255.255", "RFC 1918"},
    {"172.16.0.1", "RFC 1918"},
    {"172.31.255.255", "RFC 1918"},
    {"192.168.1.1", "RFC 1918"},
    {"100.64.0.1", "carrier-grade NAT address (100.64.0.0/10"},
    {"100.127.255.255", "carrier-grade NAT"},
    {"127.0.0.1", "a loopback address (127.0.0.0/8)"},
    {"127.255.255.254", "loopback"},
    {"169.254.169.254", "cloud metadata address"},
    {"169.254.0.1", "a link-local address (169.254.0.0/16)"},
    {"192.0.0.8", "IETF protocol assignment"},
    {"192.0.2.1", "documentation address (192.0.2.0/24"},
    {"198.51.100.7", "documentation address (198.51.100.0/24"},
    {"203.0.113.9", "documentation address (203.0.113.0/24"},
    {"198.18.0.1", "benchmarking address (198.18.0.0/15)"},
    {"198.19.255.255", "benchmarking"},
    {"192.88.99.1", "6to4 relay"},
    {"224.0.0.1", "a multicast address (224.0.0.0/4)"},
    {"239.255.255.250", "multicast"},
    {"240.0.0.1", "a reserved address (240.0.0.0/4)"},
    {"255.255.255.255", "the broadcast address"},
    {"::", "the unspecified address (::)"},
    {"::1", "a loopback address (::1)"},
    {"fc00::1", "a unique local address (fc00::/7)"},
    {"fd00:ec2::254", "unique local"},  // the AWS IPv6 metadata address
    {"fe80::1", "a link-local address (fe80::/10)"},
    {"febf:ffff::1", "link-local"},
    {"fec0::1", "site-local"},
    {"ff02::1", "a multicast address (ff00::/8)"},
    {"2001:db8::1", "a documentation address (2001:db8::/32)"},
    {"2001::1", "Teredo"},
    {"100::1", "discard-only"},
    {"::127.0.0.1", "IPv4-compatible"},
    {"::ffff:127.0.0.1",
     "IPv4-mapped address (::ffff:0:0/96) embedding 127.0.0.1, a loopback address"},
    {"::ffff:10.0.0.1",
     "IPv4-mapped address (::ffff:0:0/96) embedding 10.0.0.1, a private address (RFC 1918)"},
    {"::ffff:169.254.169.254", "embedding 169.254.169.254, the cloud metadata address"},
    {"::ffff:100.64.0.1", "embedding 100.64.0.1, a carrier-grade NAT"},
    {"::ffff:0.0.0.0", "embedding 0.0.0.0"},
    {"64:ff9b::a00:1",
     "a NAT64 address (64:ff9b::/96) embedding 10.0.0.1, a private address (RFC 1918)"},
    {"64:ff9b::7f00:1", "NAT64 address (64:ff9b::/96) embedding 127.0.0.1, a loopback"},
    {"64:ff9b::a9fe:a9fe", "embedding 169.254.169.254"},
    {"64:ff9b:1::1", "local-use NAT64"},
    {"2002:a00:1::1", "a 6to4 address (2002::/16) embedding 10.0.0.1"},
    {"2002:7f00:1::", "6to4 address (2002::/16) embedding 127.0.0.1"},
    {"4000::1", "a reserved address (outside 2000::/3)"},
};

TEST(Guard, EveryRangeIsRefusedWithItsRule) {
    for (const auto& c : kRefused) {
        auto why = refused_address(c.ip);
        ASSERT_TRUE(why.has_value()) << c.ip;
        EXPECT_TRUE(has(*why, std::string("refused: ") + c.ip + " is ")) << *why;
        EXPECT_TRUE(has(*why, c.rule)) << c.ip << ": " << *why;
    }
}

TEST(Guard, PublicAddressesPass) {
    for (const char* ip : {"8.8.8.8",
                           "1.1.1.1",
                           "9.255.255.255",
                           "11.0.0.0",
                           "100.63.255.255",
                           "100.128.0.0",
                           "126.255.255.255",
                           "128.0.0.0",
                           "169.253.255.255",
                           "169.255.0.0",
                           "172.15.255.255",
                           "172.32.0.0",
                           "192.167.255.255",
                           "192.169.0.0",
                           "192.0.1.255",
                           "192.0.3.0",
                           "198.17.255.255",
                           "198.20.0.0",
                           "223.255.255.255",
                           "2606:4700::1",
                           "2001:4860:4860::8888",
                           "2a00:1450:4001::200e",
                           "::ffff:8.8.8.8",
                           "64:ff9b::808:808",
                           "2002:808:808::1"})
        EXPECT_FALSE(refused_address(ip).has_value())
            << ip << ": " << refused_address(ip).value_or("");
}

TEST(Guard, NotAnAddressIsRefused) {
    EXPECT_TRUE(has(refused_address("example.com").value_or(""), "not an IP address"));
    EXPECT_TRUE(has(refused_address("").value_or(""), "not an IP address"));
}

struct Encoded {
    const char* url;
    const char* host;  // normalised
    const char* rule;
};

// The ranges again, written the ways URLs smuggle them: decimal, octal, hex, short, mixed, IPv6
// literal forms, IPv4-mapped and NAT64.
const Encoded kEncoded[] = {
    {"http://2130706433/", "127.0.0.1", "loopback"},
    {"http://0x7f000001/", "127.0.0.1", "loopback"},
    {"http://0X7F000001/", "127.0.0.1", "loopback"},
    {"http://017700000001/", "127.0.0.1", "loopback"},
    {"http://0x7f.1/", "127.0.0.1", "loopback"},
    {"http://127.1/", "127.0.0.1", "loopback"},
    {"http://127.0.1/", "127.0.0.1", "loopback"},
    {"http://0177.0.0.01/", "127.0.0.1", "loopback"},
    {"http://0x7f.0x0.0x0.0x1/", "127.0.0.1", "loopback"},
    {"http://127.0.0.1./", "127.0.0.1", "loopback"},
    {"http://127.000.000.001/", "127.0.0.1", "loopback"},
    {"http://167772165/", "10.0.0.5", "RFC 1918"},
    {"http://012.0.0.5/", "10.0.0.5", "RFC 1918"},
    {"http://0xa.0.0.5/", "10.0.0.5", "RFC 1918"},
    {"http://10.5/", "10.0.0.5", "RFC 1918"},
    {"http://0xac100001/", "172.16.0.1", "RFC 1918"},
    {"http://172.16.1/", "172.16.0.1", "RFC 1918"},
    {"http://3232235777/", "192.168.1.1", "RFC 1918"},
    {"http://0xc0.0xa8.1.1/", "192.168.1.1", "RFC 1918"},
    {"http://0300.0250.1.1/", "192.168.1.1", "RFC 1918"},
    {"http://0x64400001/", "100.64.0.1", "carrier-grade NAT"},
    {"http://100.64.1/", "100.64.0.1", "carrier-grade NAT"},
    {"http://2852039166/latest/meta-data/", "169.254.169.254", "cloud metadata"},
    {"http://0xa9fea9fe/", "169.254.169.254", "cloud metadata"},
    {"http://0251.0376.0251.0376/", "169.254.169.254", "cloud metadata"},
    {"http://169.254.43518/", "169.254.169.254", "cloud metadata"},
    {"http://0xa9.0xfe.0xa9.0xfe/", "169.254.169.254", "cloud metadata"},
    {"http://0/", "0.0.0.0", "'this network'"},
    {"http://0x0/", "0.0.0.0", "'this network'"},
    {"http://3221225480/", "192.0.0.8", "IETF protocol"},
    {"http://0xc0000201/", "192.0.2.1", "documentation"},
    {"http://198.18.1/", "198.18.0.1", "benchmarking"},
    {"http://0xe0000001/", "224.0.0.1", "multicast"},
    {"http://4026531841/", "240.0.0.1", "reserved"},
    {"http://4294967295/", "255.255.255.255", "broadcast"},
    {"http://[::1]/", "::1", "loopback"},
    {"http://[0:0:0:0:0:0:0:1]:8080/", "::1", "loopback"},
    {"http://[::]/", "::", "unspecified"},
    {"http://[::ffff:127.0.0.1]/", "::ffff:127.0.0.1", "IPv4-mapped"},
    {"http://[::ffff:7f00:1]/", "::ffff:127.0.0.1", "embedding 127.0.0.1"},
    {"http://[0:0:0:0:0:ffff:a9fe:a9fe]/", "::ffff:169.254.169.254", "cloud metadata"},
    {"http://[::ffff:10.0.0.1]/", "::ffff:10.0.0.1", "RFC 1918"},
    {"http://[64:ff9b::10.0.0.1]/", "64:ff9b::a00:1", "NAT64"},
    {"http://[64:ff9b::127.0.0.1]/", "64:ff9b::7f00:1", "embedding 127.0.0.1"},
    {"http://[FE80::1]/", "fe80::1", "link-local"},
    {"http://[fd00:ec2::254]/", "fd00:ec2::254", "unique local"},
    {"http://[ff02::1]/", "ff02::1", "multicast"},
    {"http://[2001:db8::1]/", "2001:db8::1", "documentation"},
    {"http://[::127.0.0.1]/", "::127.0.0.1", "IPv4-compatible"},
    {"http://[2002:a00:1::]/", "2002:a00:1::", "6to4"},
    {"HTTPS://0X7F.1:8443/x", "127.0.0.1", "loopback"},
};

TEST(Guard, EveryEncodingIsNormalisedAndRefused) {
    for (const auto& c : kEncoded) {
        std::string error;
        auto u = parse_url(c.url, &error);
        ASSERT_TRUE(u.has_value()) << c.url << ": " << error;
        EXPECT_EQ(u->host, c.host) << c.url;
        EXPECT_TRUE(u->ip) << c.url;
        auto why = refused_address(u->host);
        ASSERT_TRUE(why.has_value()) << c.url;
        EXPECT_TRUE(has(*why, c.rule)) << c.url << ": " << *why;
    }
}

TEST(Guard, FetchRefusesEveryEncodingBeforeConnecting) {
    Outbound out(OutboundSettings{});
    for (const auto& c : kEncoded) {
        auto f = fetch(out, c.url);
        EXPECT_EQ(f.code, PLATFORM_PERMISSION_DENIED) << c.url << ": " << f.error;
        EXPECT_EQ(f.calls, 1) << c.url;
        EXPECT_EQ(f.status, 0) << c.url;
        EXPECT_TRUE(has(f.error, "refused: ")) << c.url << ": " << f.error;
        EXPECT_TRUE(has(f.error, c.rule)) << c.url << ": " << f.error;
    }
}

TEST(Guard, HostnameResolvingToLoopbackIsRefused) {
    Outbound out(OutboundSettings{});
    for (const char* url :
         {"http://localhost/", "http://LOCALHOST:8080/admin", "http://localhost./"}) {
        auto f = fetch(out, url);
        EXPECT_EQ(f.code, PLATFORM_PERMISSION_DENIED) << url;
        EXPECT_TRUE(has(f.error, "refused: localhost resolves to ")) << f.error;
        EXPECT_TRUE(has(f.error, "loopback")) << f.error;
    }
}

TEST(Guard, MetadataNamesAreRefusedByName) {
    for (const char* n : {"metadata.google.internal", "METADATA.Google.Internal.", "metadata.goog",
                          "metadata", "instance-data"})
        EXPECT_TRUE(has(refused_name(n).value_or(""), "cloud metadata host name")) << n;
    EXPECT_FALSE(refused_name("example.com").has_value());
    Outbound out(OutboundSettings{});
    auto f = fetch(out, "http://metadata.google.internal/computeMetadata/v1/");
    EXPECT_EQ(f.code, PLATFORM_PERMISSION_DENIED);
    EXPECT_TRUE(has(f.error, "refused: metadata.google.internal is a cloud metadata host name"))
        << f.error;
}

TEST(Guard, OtherSchemesAndUserinfoAreRefused) {
    Outbound out(OutboundSettings{});
    for (const char* url :
         {"file:///etc/passwd", "FILE:/etc/passwd", "gopher://127.0.0.1:6379/_INFO",
          "ftp://example.com/", "dict://127.0.0.1:11211/stat", "ldap://example.com/",
          "data:text/plain,hi", "javascript:alert(1)", "jar:http://example.com/x.jar!/"}) {
        auto f = fetch(out, url);
        EXPECT_EQ(f.code, PLATFORM_PERMISSION_DENIED) << url << ": " << f.error;
        EXPECT_TRUE(has(f.error, "scheme not allowed")) << url << ": " << f.error;
        EXPECT_EQ(f.calls, 1);
    }
    auto file = fetch(out, "file:///etc/passwd");
    EXPECT_EQ(file.error, "refused: scheme not allowed: file (only http and https)");
    for (const char* url :
         {"http://user@example.com/", "http://127.0.0.1@example.com/",
          "http://example.com@127.0.0.1/", "http://user:pass@8.8.8.8/", "https://@example.com/"}) {
        auto f = fetch(out, url);
        EXPECT_EQ(f.code, PLATFORM_PERMISSION_DENIED) << url;
        EXPECT_TRUE(has(f.error, "userinfo")) << f.error;
    }
}

TEST(Guard, MalformedUrlsAreInvalidArguments) {
    Outbound out(OutboundSettings{});
    for (const char* url : {"",
                            "example.com/x",
                            "//example.com/",
                            "http:/example.com",
                            "http://",
                            "http://:80/",
                            "http://256.0.0.1/",
                            "http://4294967296/",
                            "http://08.0.0.1/",
                            "http://1.2.3.4.5/",
                            "http://0x100000000/",
                            "http://1.256.1/",
                            "http://[::1/",
                            "http://[::1%25eth0]/",
                            "http://[zz::1]/",
                            "http://::1/",
                            "http://example.com:0/",
                            "http://example.com:65536/",
                            "http://example.com:8o/",
                            "http://exa mple.com/",
                            "http://example.com\\@127.0.0.1/",
                            "http://ex%41mple.com/",
                            "http://%31%32%37.0.0.1/",
                            "http://exa..mple.com/",
                            "http://bücher.example/",
                            "http://a.0x/"}) {
        auto f = fetch(out, url);
        EXPECT_EQ(f.code, PLATFORM_INVALID_ARGUMENT) << url << ": " << f.error;
        EXPECT_TRUE(has(f.error, "url: ")) << url << ": " << f.error;
        EXPECT_EQ(f.calls, 1);
    }
}

TEST(Guard, UrlsAreNormalised) {
    auto u = parse_url("HTTP://Example.COM:80/a/b?c=d#frag", nullptr);
    ASSERT_TRUE(u);
    EXPECT_EQ(u->scheme, "http");
    EXPECT_EQ(u->host, "example.com");
    EXPECT_EQ(u->port, 80);
    EXPECT_EQ(u->target, "/a/b?c=d");
    EXPECT_EQ(u->str(), "http://example.com/a/b?c=d");
    EXPECT_FALSE(u->ip);
    EXPECT_EQ(parse_url("https://example.com", nullptr)->str(), "https://example.com/");
    EXPECT_EQ(parse_url("https://example.com?q=1", nullptr)->target, "/?q=1");
    EXPECT_EQ(parse_url("http://example.com:/", nullptr)->port, 80);
    EXPECT_EQ(parse_url("https://example.com:8443/", nullptr)->origin(),
              "https://example.com:8443");
    EXPECT_EQ(parse_url("http://[2606:4700:0:0::1]:81/", nullptr)->str(),
              "http://[2606:4700::1]:81/");
    EXPECT_EQ(parse_url("http://8.8.8.8/", nullptr)->host, "8.8.8.8");
    EXPECT_EQ(parse_url("http://134744072/", nullptr)->host, "8.8.8.8");
    EXPECT_EQ(parse_url("http://my_host-1.example./", nullptr)->host, "my_host-1.example");
    EXPECT_EQ(parse_url("http://1.2.3.4.example.com/", nullptr)->host, "1.2.3.4.example.com");
    EXPECT_EQ(parse_ipv4("1"), "0.0.0.1");
    EXPECT_EQ(parse_ipv4("1.2"), "1.0.0.2");
    EXPECT_EQ(parse_ipv4("1.2.3"), "1.2.0.3");
    EXPECT_EQ(parse_ipv4("1.2.65535"), "1.2.255.255");
    EXPECT_FALSE(parse_ipv4("1.2.65536"));
    EXPECT_FALSE(parse_ipv4("example.com"));
}

TEST(Guard, AllowList) {
    std::vector<std::string> allow{"127.0.0.1:*", "localhost:8080", "*:11434", "[::1]:9000",
                                   "0x7f.2:81"};
    EXPECT_TRUE(allow_listed(allow, "127.0.0.1", 1));
    EXPECT_TRUE(allow_listed(allow, "localhost", 8080));
    EXPECT_FALSE(allow_listed(allow, "localhost", 8081));
    EXPECT_TRUE(allow_listed(allow, "10.1.2.3", 11434));
    EXPECT_TRUE(allow_listed(allow, "::1", 9000));
    EXPECT_FALSE(allow_listed(allow, "::1", 9001));
    EXPECT_TRUE(allow_listed(allow, "127.0.0.2", 81));  // entries are normalised like URLs
    EXPECT_FALSE(allow_listed(allow, "127.0.0.2", 80));
    EXPECT_FALSE(allow_listed({}, "127.0.0.1", 80));
    for (const char* ok : {"127.0.0.1:*", "example.com:443", "*:8080", "[::1]:*"})
        EXPECT_FALSE(allow_entry_problem(ok).has_value()) << ok;
    for (const char* bad :
         {"", "127.0.0.1", "*:*", "host:abc", "host:0", "host:70000", ":80", "::1:80", "a b:80"})
        EXPECT_TRUE(allow_entry_problem(bad).has_value()) << bad;
}

TEST(Guard, OperatorUrlToLoopbackNeedsTheAllowList) {
    Outbound out(OutboundSettings{});
    auto f = fetch(out, "http://127.0.0.1:9/", PLATFORM_HTTP_OPERATOR_URL);
    EXPECT_EQ(f.code, PLATFORM_PERMISSION_DENIED);
    EXPECT_TRUE(has(f.error, "127.0.0.1 is a loopback address")) << f.error;
    EXPECT_TRUE(has(f.error, "outbound.allow")) << f.error;
    auto named = fetch(out, "http://localhost:9/", PLATFORM_HTTP_OPERATOR_URL);
    EXPECT_EQ(named.code, PLATFORM_PERMISSION_DENIED);
    EXPECT_TRUE(has(named.error, "outbound.allow (localhost:9)")) << named.error;
}

}  // namespace
