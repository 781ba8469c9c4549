// parse_framed_request (request_parser.hpp): the request line, header fields, bodies and refusals,
// from bytes frame_request() delimited, as the server reads them.
#include <gtest/gtest.h>

#include <platform/host/http/http_framing.hpp>
#include <platform/host/http/request_parser.hpp>
#include <string>

namespace {

using platform::host::Frame;
using platform::host::FrameLimits;
using platform::host::ParsedRequest;

ParsedRequest parse(const std::string& bytes, size_t max_request_bytes = 1024 * 1024) {
    const Frame f = platform::host::frame_request(bytes, FrameLimits{});
    EXPECT_TRUE(f.complete()) << f.message;
    return platform::host::parse_framed_request(std::string_view(bytes).substr(f.skip, f.length), f,
                                                max_request_bytes);
}

void expect_refused(const std::string& bytes, int status, const std::string& detail) {
    const ParsedRequest p = parse(bytes);
    EXPECT_EQ(p.error_status, status) << bytes;
    EXPECT_EQ(p.error_detail, detail) << bytes;
    EXPECT_TRUE(p.req.headers.empty());
    EXPECT_TRUE(p.req.body.empty());
}

TEST(RequestParser, RequestLineForms) {
    auto p = parse("GET /a/b%2Fc?x=1&y HTTP/1.1\r\n\r\n");
    ASSERT_EQ(p.error_status, 0) << p.error_detail;
    EXPECT_EQ(p.req.method, "GET");
    EXPECT_EQ(p.req.path, "/a/b%2Fc");  // as sent: no percent-decoding
    EXPECT_EQ(p.req.query, "x=1&y");
    EXPECT_FALSE(p.http10);
    EXPECT_FALSE(p.close);

    p = parse("GET /a?b?c#f HTTP/1.1\r\n\r\n");  // the first '?' splits; the rest is the query's
    EXPECT_EQ(p.req.path, "/a");
    EXPECT_EQ(p.req.query, "b?c#f");
    p = parse("GET /a? HTTP/1.1\r\n\r\n");
    EXPECT_EQ(p.req.path, "/a");
    EXPECT_EQ(p.req.query, "");
    p = parse("OPTIONS * HTTP/1.1\r\n\r\n");
    EXPECT_EQ(p.req.method, "OPTIONS");
    EXPECT_EQ(p.req.path, "*");
    p = parse("GET http://h:1/x?q HTTP/1.1\r\n\r\n");
    EXPECT_EQ(p.req.path, "http://h:1/x");
    EXPECT_EQ(p.req.query, "q");
    p = parse("\r\nDELETE /n HTTP/1.1\r\n\r\n");  // an empty line before the request line
    EXPECT_EQ(p.req.method, "DELETE");
    for (const char* m :
         {"GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "TRACE", "CONNECT"})
        EXPECT_EQ(parse(std::string(m) + " /x HTTP/1.1\r\n\r\n").error_status, 0) << m;
}

TEST(RequestParser, HeaderNamesLowerCasedValuesTrimmed) {
    auto p = parse(
        "GET / HTTP/1.1\r\nX-Mixed-CASE: \t a  b \t\r\nX-Empty:\r\nX-Blank: \t \r\nX-Tight:v\r\n"
        "X-Bytes: caf\xc3\xa9\r\n\r\n");
    ASSERT_EQ(p.error_status, 0) << p.error_detail;
    EXPECT_EQ(p.req.header("x-mixed-case"), "a  b");
    EXPECT_EQ(p.req.headers.count("x-empty"), 1u);
    EXPECT_EQ(p.req.header("x-empty"), "");
    EXPECT_EQ(p.req.header("x-blank"), "");
    EXPECT_EQ(p.req.header("x-tight"), "v");
    EXPECT_EQ(p.req.header("x-bytes"), "caf\xc3\xa9");
    EXPECT_EQ(p.req.headers.size(), 5u);
}

TEST(RequestParser, RepeatedFieldFirstWinsButNotForHostAuthorizationContentType) {
    auto p = parse("GET / HTTP/1.1\r\nX-A: 1\r\nx-a: 2\r\nCookie: a=1\r\nCookie: b=2\r\n\r\n");
    ASSERT_EQ(p.error_status, 0) << p.error_detail;
    EXPECT_EQ(p.req.header("x-a"), "1");
    EXPECT_EQ(p.req.header("cookie"), "a=1");
    expect_refused("GET / HTTP/1.1\r\nHost: a\r\nhost: b\r\n\r\n", 400,
                   "more than one host header field");
    expect_refused("GET / HTTP/1.1\r\nAuthorization: Bearer a\r\nAuthorization: Bearer a\r\n\r\n",
                   400, "more than one authorization header field");
    expect_refused(
        "POST / HTTP/1.1\r\nContent-Type: text/plain\r\nContent-type: application/json\r\n"
        "Content-Length: 2\r\n\r\n{}",
        400, "more than one content-type header field");
}

TEST(RequestParser, ContentLengthBody) {
    auto p = parse("POST /rpc HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello");
    ASSERT_EQ(p.error_status, 0) << p.error_detail;
    EXPECT_EQ(p.req.body, "hello");
    EXPECT_EQ(p.req.header("content-length"), "5");
    EXPECT_EQ(parse("POST /rpc HTTP/1.1\r\n\r\n").req.body, "");
}

TEST(RequestParser, ChunkedBodyWithExtensionsAndTrailers) {
    auto p = parse(
        "POST /rpc HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
        "3;name=value\r\nabc\r\n"
        "A ; q=\"x;y\"\r\n0123456789\r\n"
        "1\r\n\n\r\n"
        "0;last\r\nX-Trailer: t\r\nHost: other\r\n\r\n");
    ASSERT_EQ(p.error_status, 0) << p.error_detail;
    EXPECT_EQ(p.req.body, "abc0123456789\n");
    EXPECT_EQ(p.req.header("transfer-encoding"), "chunked");
    EXPECT_EQ(p.req.headers.count("x-trailer"), 0u);  // trailer fields are dropped
    EXPECT_EQ(p.req.headers.count("host"), 0u);
    p = parse("POST /rpc HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
    ASSERT_EQ(p.error_status, 0) << p.error_detail;
    EXPECT_EQ(p.req.body, "");
}

TEST(RequestParser, Http10AndConnection) {
    auto p = parse("GET / HTTP/1.0\r\n\r\n");
    EXPECT_TRUE(p.http10);
    EXPECT_TRUE(p.close);
    p = parse("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n");
    EXPECT_TRUE(p.http10);
    EXPECT_FALSE(p.close);
    p = parse("GET / HTTP/1.1\r\nConnection: close\r\n\r\n");
    EXPECT_FALSE(p.http10);
    EXPECT_TRUE(p.close);
    p = parse("GET / HTTP/1.1\r\nConnection: keep-alive, Upgrade\r\n\r\n");
    EXPECT_FALSE(p.close);
    EXPECT_EQ(p.req.header("connection"), "keep-alive, Upgrade");
}

TEST(RequestParser, HostForms) {
    for (const char* host : {"", "h", "h:0", "h:65535", ":80", "[::1]", "[::1]:8080", "127.0.0.1:1",
                             "xn--bcher-kva.example", "a%20b", "h:08080"})
        EXPECT_EQ(parse(std::string("GET / HTTP/1.1\r\nHost: ") + host + "\r\n\r\n").error_status,
                  0)
            << host;
    for (const char* host : {"h:", "h:65536", "h:-1", "h:80x", "a:b:c", "[::1]:x", "[::1", "[]",
                             "loc[]alhost", "a b", "h/x", "h?", "h:123456"})
        expect_refused(std::string("GET / HTTP/1.1\r\nHost: ") + host + "\r\n\r\n", 400,
                       "invalid Host header field: host, [IPv6] or either with :port");
}

TEST(RequestParser, CookiesNeedAnEqualsSign) {
    for (const char* cookie : {"", "a=b", "a=", "=b", "a=b; c=d", "a=b;", "a=b; ", "a=b;;c=d"})
        EXPECT_EQ(
            parse(std::string("GET / HTTP/1.1\r\nCookie: ") + cookie + "\r\n\r\n").error_status, 0)
            << cookie;
    for (const char* cookie : {"a", "a=b; c", ";", "\ta"})
        expect_refused(std::string("GET / HTTP/1.1\r\nCookie: ") + cookie + "\r\n\r\n", 400,
                       "invalid Cookie header field: a cookie without '='");
}

TEST(RequestParser, ContentTypeIsAMediaType) {
    for (const char* type : {"application/json", "application/json;charset=utf-8",
                             "multipart/form-data; boundary=\"a;b\"", "text/plain ; ; a=b",
                             "application/vnd.x+json", "a/b;"})
        EXPECT_EQ(
            parse(std::string("GET / HTTP/1.1\r\nContent-Type: ") + type + "\r\n\r\n").error_status,
            0)
            << type;
    for (const char* type :
         {"", "json", "application/", "/json", "a/b; c", "a/b; c=", "a/b; c=\"x", "a b/c", "a/b c"})
        expect_refused(std::string("GET / HTTP/1.1\r\nContent-Type: ") + type + "\r\n\r\n", 415,
                       "invalid Content-Type header field: type/subtype[; name=value]");
}

TEST(RequestParser, RefusalsKeepMethodAndPath) {
    auto p = parse("FOO /a/b?c HTTP/1.1\r\nX: y\r\n\r\n");
    EXPECT_EQ(p.error_status, 400);
    EXPECT_EQ(p.error_detail, "unknown HTTP request method FOO");
    EXPECT_EQ(p.req.method, "FOO");
    EXPECT_EQ(p.req.path, "/a/b");
    EXPECT_EQ(p.req.query, "");
    EXPECT_TRUE(p.req.headers.empty());
    EXPECT_EQ(parse("get / HTTP/1.1\r\n\r\n").error_status, 400);  // methods are case-sensitive
    p = parse("POST /x HTTP/1.1\r\nContent-Length: 4\r\n\r\nbody", 10);
    EXPECT_EQ(p.error_status, 413);
    EXPECT_EQ(p.error_detail, "request larger than 10 bytes");
    EXPECT_EQ(p.req.method, "POST");
    EXPECT_EQ(p.req.path, "/x");
}

// Duplicates are found whatever the case of the names: the first value stays, and a second Host,
// Authorization or Content-Type is refused; the checked fields are checked in any case.
TEST(RequestParser, NamesInAnyCase) {
    auto p = parse("GET / HTTP/1.1\r\nX-Dup: 1\r\nX-DUP: 2\r\nx-dup: 3\r\nCOOKIE: a=1\r\n\r\n");
    ASSERT_EQ(p.error_status, 0) << p.error_detail;
    EXPECT_EQ(p.req.header("x-dup"), "1");
    EXPECT_EQ(p.req.header("cookie"), "a=1");
    EXPECT_EQ(p.req.headers.size(), 2u);
    expect_refused("GET / HTTP/1.1\r\nHOST: a\r\nHost: a\r\n\r\n", 400,
                   "more than one host header field");
    expect_refused("GET / HTTP/1.1\r\nauthorization: a\r\nAUTHORIZATION: a\r\n\r\n", 400,
                   "more than one authorization header field");
    expect_refused("GET / HTTP/1.1\r\nCOOKIE: novalue\r\n\r\n", 400,
                   "invalid Cookie header field: a cookie without '='");
    expect_refused("GET / HTTP/1.1\r\nhOsT: a b\r\n\r\n", 400,
                   "invalid Host header field: host, [IPv6] or either with :port");
    expect_refused("POST / HTTP/1.1\r\nCONTENT-TYPE: json\r\n\r\n", 415,
                   "invalid Content-Type header field: type/subtype[; name=value]");
    // Names that only look like the checked ones are not checked.
    auto q = parse("GET / HTTP/1.1\r\nHosts: a b\r\nCookies: x\r\nX-Content-Type: y\r\n\r\n");
    EXPECT_EQ(q.error_status, 0) << q.error_detail;
}

// The first refused field decides, in the order they came; a refused method comes before them.
TEST(RequestParser, FirstRefusalWins) {
    expect_refused("GET / HTTP/1.1\r\nCookie: x\r\nHost: a b\r\n\r\n", 400,
                   "invalid Cookie header field: a cookie without '='");
    auto p = parse("FETCH / HTTP/1.1\r\nHost: a b\r\n\r\n");
    EXPECT_EQ(p.error_status, 400);
    EXPECT_EQ(p.error_detail, "unknown HTTP request method FETCH");
}

// The parser reads the fields where the frame says they are: a frame made from other bytes is
// refused, never read out of bounds.
TEST(RequestParser, AFrameOfOtherBytesIsRefused) {
    const std::string longer =
        "GET / HTTP/1.1\r\nX-Long-Name: " + std::string(200, 'v') + "\r\n\r\n";
    const Frame f = platform::host::frame_request(longer, FrameLimits{});
    ASSERT_TRUE(f.complete());
    const ParsedRequest p =
        platform::host::parse_framed_request("GET / HTTP/1.1\r\n\r\n", f, 1024 * 1024);
    EXPECT_EQ(p.error_status, 400);
}
}  // namespace
