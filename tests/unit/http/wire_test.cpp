// wire_bytes (host/src/http/http_wire.hpp): an answer as it goes on the wire. Headers are written
// once per name whatever the case, the first one winning, except Set-Cookie; a header holding CR
// or LF is dropped; Connection and Content-Length are the server's own.
#include <gtest/gtest.h>

#include <string>

#include "http_wire.hpp"

using Pistache::Http::Version;
using platform::host::HttpResponse;
using platform::host::wire::wire_bytes;

namespace {

// The header lines of an answer (between the status line and the empty line), CRLF-terminated.
std::string head_lines(const std::string& wire) {
    const size_t first = wire.find("\r\n") + 2;
    return wire.substr(first, wire.find("\r\n\r\n") + 2 - first);
}

}  // namespace

TEST(WireBytes, StatusLineHeadersAndBody) {
    HttpResponse r;
    r.status = 201;
    r.body = "{\"a\":1}";
    r.headers = {{"X-Request-Id", "rid"}};
    EXPECT_EQ(wire_bytes(Version::Http11, r, false),
              "HTTP/1.1 201 Created\r\nConnection: Keep-Alive\r\nX-Request-Id: rid\r\n"
              "Content-Type: application/json\r\nContent-Length: 7\r\n\r\n{\"a\":1}");
    r.content_type.clear();
    r.headers.clear();
    r.body.clear();
    EXPECT_EQ(wire_bytes(Version::Http10, r, true),
              "HTTP/1.0 201 Created\r\nConnection: Close\r\nContent-Length: 0\r\n\r\n");
}

TEST(WireBytes, ReasonPhrasesPistacheDoesNotName) {
    HttpResponse r;
    r.status = 505;
    r.content_type.clear();
    const std::string w = wire_bytes(Version::Http11, r, true);
    EXPECT_EQ(w.substr(0, w.find("\r\n")), "HTTP/1.1 505 HTTP Version Not Supported");
}

TEST(WireBytes, RepeatedNamesFirstWinsWhateverTheCase) {
    HttpResponse r;
    r.content_type.clear();
    r.headers = {{"X-A", "1"}, {"x-a", "2"}, {"X-B", "3"}, {"X-a", "4"}, {"x-B", "5"}};
    EXPECT_EQ(head_lines(wire_bytes(Version::Http11, r, false)),
              "Connection: Keep-Alive\r\nX-A: 1\r\nX-B: 3\r\nContent-Length: 0\r\n");
}

TEST(WireBytes, SetCookieRepeatsAndTheServerOwnsConnectionAndLength) {
    HttpResponse r;
    r.body = "ab";
    r.content_type = "text/plain";
    r.headers = {{"Set-Cookie", "a=1"},    {"connection", "upgrade"}, {"SET-COOKIE", "b=2"},
                 {"Content-Length", "99"}, {"content-type", "x/y"},   {"set-cookie", "c=3"}};
    EXPECT_EQ(head_lines(wire_bytes(Version::Http11, r, false)),
              "Connection: Keep-Alive\r\nSet-Cookie: a=1\r\nSET-COOKIE: b=2\r\n"
              "content-type: x/y\r\nset-cookie: c=3\r\nContent-Length: 2\r\n");
}

TEST(WireBytes, AHeaderWithCrOrLfIsDropped) {
    HttpResponse r;
    r.content_type.clear();
    r.headers = {{"X-A", "1\r\nX-Evil: 1"}, {"X-B\n", "2"}, {"X-A", "ok"}, {"X-C", "a\rb"}};
    EXPECT_EQ(head_lines(wire_bytes(Version::Http11, r, false)),
              "Connection: Keep-Alive\r\nX-A: ok\r\nContent-Length: 0\r\n");
}

// More names than the table on the stack holds: each written once, in order.
TEST(WireBytes, ManyHeaders) {
    HttpResponse r;
    r.content_type.clear();
    std::string expected = "Connection: Keep-Alive\r\n";
    for (int i = 0; i < 200; ++i) {
        r.headers.emplace_back("X-H" + std::to_string(i), std::to_string(i));
        expected += "X-H" + std::to_string(i) + ": " + std::to_string(i) + "\r\n";
    }
    for (int i = 0; i < 200; ++i) r.headers.emplace_back("x-h" + std::to_string(i), "again");
    expected += "Content-Length: 0\r\n";
    EXPECT_EQ(head_lines(wire_bytes(Version::Http11, r, false)), expected);
}
