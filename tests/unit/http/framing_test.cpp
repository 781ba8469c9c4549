// frame_request: where one request ends in a connection's bytes, and the limits (431/414/413/400).
#include <gtest/gtest.h>

#include <platform/host/http/http_framing.hpp>

using platform::host::Frame;
using platform::host::frame_request;
using platform::host::FrameLimits;

namespace {

FrameLimits limits(uint64_t max_request = 1 << 20, uint32_t headers = 100,
                   uint32_t header_bytes = 16384) {
    return FrameLimits{max_request, headers, header_bytes};
}

TEST(Framing, GetWithoutBodyEndsAtTheEmptyLine) {
    std::string req = "GET / HTTP/1.1\r\nHost: a\r\n\r\n";
    Frame f = frame_request(req, limits());
    ASSERT_TRUE(f.complete()) << f.message;
    EXPECT_EQ(f.length, req.size());
    EXPECT_EQ(f.skip, 0u);
    EXPECT_EQ(f.method, "GET");
    EXPECT_EQ(f.target, "/");
}

TEST(Framing, ContentLengthBody) {
    std::string req = "POST /rpc HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello";
    Frame f = frame_request(req + "GET / HTTP/1.1\r\n\r\n", limits());
    ASSERT_TRUE(f.complete());
    EXPECT_EQ(f.length, req.size());
    EXPECT_EQ(f.content_length, 5u);
}

TEST(Framing, PartialInputIsIncompleteAtEveryCut) {
    std::string req = "POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\nhello world";
    for (size_t cut = 0; cut < req.size(); ++cut) {
        Frame f = frame_request(req.substr(0, cut), limits());
        EXPECT_TRUE(f.incomplete()) << "cut at " << cut << ": " << f.message;
    }
    EXPECT_TRUE(frame_request(req, limits()).complete());
}

TEST(Framing, ChunkedBodyWithTrailers) {
    std::string req =
        "POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
        "5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\nX-Trailer: 1\r\n\r\n";
    Frame f = frame_request(req + "GET / HTTP/1.1\r\n\r\n", limits());
    ASSERT_TRUE(f.complete()) << f.message;
    EXPECT_TRUE(f.chunked);
    EXPECT_EQ(f.length, req.size());
    for (size_t cut = 0; cut < req.size(); ++cut)
        EXPECT_TRUE(frame_request(req.substr(0, cut), limits()).incomplete()) << "cut at " << cut;
}

TEST(Framing, ChunkedBodyWithoutTrailers) {
    std::string req = "POST /x HTTP/1.1\r\nTransfer-Encoding: Chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n";
    Frame f = frame_request(req, limits());
    ASSERT_TRUE(f.complete()) << f.message;
    EXPECT_EQ(f.length, req.size());
}

TEST(Framing, SeveralRequestsInOneBufferAreFramedOneByOne) {
    const std::string a = "GET /a HTTP/1.1\r\nHost: h\r\n\r\n";
    const std::string b = "GET /b HTTP/1.1\r\nHost: h\r\n\r\n";
    const std::string c = "POST /c HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\n{}";
    std::string buffer = a + b + c;
    std::vector<std::string> targets;
    while (!buffer.empty()) {
        Frame f = frame_request(buffer, limits());
        ASSERT_TRUE(f.complete()) << f.message;
        targets.push_back(f.target);
        buffer.erase(0, f.skip + f.length);
    }
    EXPECT_EQ(targets, (std::vector<std::string>{"/a", "/b", "/c"}));
}

TEST(Framing, EmptyLinesBeforeTheRequestLineAreSkipped) {
    Frame f = frame_request("\r\n\r\nGET / HTTP/1.1\r\n\r\n", limits());
    ASSERT_TRUE(f.complete());
    EXPECT_EQ(f.skip, 4u);
    EXPECT_EQ(f.length, 18u);
}

TEST(Framing, TooManyHeaderFieldsIs431) {
    std::string req = "GET / HTTP/1.1\r\n";
    for (int i = 0; i < 101; ++i) req += "X-H" + std::to_string(i) + ": v\r\n";
    Frame f = frame_request(req + "\r\n", limits());
    ASSERT_TRUE(f.error());
    EXPECT_EQ(f.status, 431);
    EXPECT_NE(f.message.find("more than 100"), std::string::npos) << f.message;
    // Before the head is even complete.
    Frame early = frame_request(req, limits());
    ASSERT_TRUE(early.error());
    EXPECT_EQ(early.status, 431);
    // Exactly 100 is fine.
    std::string ok = "GET / HTTP/1.1\r\n";
    for (int i = 0; i < 100; ++i) ok += "X-H" + std::to_string(i) + ": v\r\n";
    EXPECT_TRUE(frame_request(ok + "\r\n", limits()).complete());
}

TEST(Framing, OversizedHeaderIs431EvenBeforeItEnds) {
    std::string req = "GET / HTTP/1.1\r\nX-Big: " + std::string(20000, 'a');
    Frame f = frame_request(req, limits());
    ASSERT_TRUE(f.error());
    EXPECT_EQ(f.status, 431);
    Frame whole = frame_request(req + "\r\n\r\n", limits());
    ASSERT_TRUE(whole.error());
    EXPECT_EQ(whole.status, 431);
}

TEST(Framing, HeadJustUnderTheLimitIsAccepted) {
    std::string head = "GET / HTTP/1.1\r\nX: ";
    head += std::string(1024 - head.size() - 2, 'a') + "\r\n";
    ASSERT_EQ(head.size(), 1024u);
    EXPECT_TRUE(frame_request(head + "\r\n", limits(1 << 20, 100, 1024)).complete());
    EXPECT_EQ(frame_request("GET / HTTP/1.1\r\nX: a" + head.substr(19) + "\r\n",
                            limits(1 << 20, 100, 1024))
                  .status,
              431);
}

TEST(Framing, LongRequestLineIs414) {
    Frame f = frame_request("GET /" + std::string(20000, 'a'), limits());
    ASSERT_TRUE(f.error());
    EXPECT_EQ(f.status, 414);
}

TEST(Framing, BodyOverTheLimitIs413BeforeItArrives) {
    Frame f = frame_request("POST / HTTP/1.1\r\nContent-Length: 2000000\r\n\r\n", limits());
    ASSERT_TRUE(f.error());
    EXPECT_EQ(f.status, 413);
    Frame huge = frame_request("POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n",
                               limits());
    EXPECT_EQ(huge.status, 413);
    Frame chunk =
        frame_request("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFF\r\n", limits());
    EXPECT_EQ(chunk.status, 413);
}

TEST(Framing, MalformedRequestsAre400) {
    const char* cases[] = {
        "GET / HTTP/1.1\nHost: a\n\n",                   // bare LF
        "GET / HTTP/1.1\r\nHost : a\r\n\r\n",            // space before the colon
        "GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n",  // obsolete line folding
        "GET / HTTP/1.1\r\nNoColon\r\n\r\n",             // no colon
        "GET /  HTTP/1.1\r\n\r\n",                       // extra space
        "GET HTTP/1.1\r\n\r\n",                          // no target
        "POST / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!",  // conflicting
        "POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n",                            // not a number
        "POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",  // smuggling shape
        "POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n",           // final coding not chunked
        "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",  // bad chunk size
        "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX\r\n0\r\n\r\n",  // no CRLF after data
        "GET / FOO/1.1\r\n\r\n",                                                        // not HTTP
        "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03",  // a TLS handshake
    };
    for (const char* c : cases) {
        Frame f = frame_request(c, limits());
        EXPECT_TRUE(f.error()) << c;
        EXPECT_EQ(f.status, 400) << c << ": " << f.message;
    }
}

TEST(Framing, OtherVersionsAndCodings) {
    EXPECT_EQ(frame_request("GET / HTTP/2.0\r\n\r\n", limits()).status, 505);
    EXPECT_EQ(frame_request("POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", limits())
                  .status,
              501);
    EXPECT_TRUE(frame_request("GET / HTTP/1.0\r\n\r\n", limits()).complete());
}

// Control characters are refused wherever they are in a long value (it is checked eight bytes at
// a time); tabs and bytes above 0x7f are not control characters.
TEST(Framing, ControlCharactersAnywhereInAValue) {
    const std::string token(300, 'a');
    for (size_t at : {size_t{0}, size_t{1}, size_t{7}, size_t{8}, size_t{9}, size_t{150},
                      size_t{291}, size_t{292}, size_t{299}})
        for (int c = 0; c < 0x80; ++c) {
            if (c >= 0x20 && c != 0x7f) continue;
            std::string value = token;
            value[at] = static_cast<char>(c);
            if (c == '\r' || c == '\n') continue;  // these end the line instead
            Frame f = frame_request("GET / HTTP/1.1\r\nAuthorization: Bearer " + value + "\r\n\r\n",
                                    limits());
            if (c == '\t') {
                EXPECT_TRUE(f.complete()) << at << " " << c << " " << f.message;
            } else {
                EXPECT_EQ(f.status, 400) << at << " " << c;
                EXPECT_EQ(f.message, "control character in header field Authorization");
            }
        }
    EXPECT_TRUE(
        frame_request("GET / HTTP/1.1\r\nX: " + std::string(40, '\xff') + "\x80\r\n\r\n", limits())
            .complete());
    for (char c : {'\x01', '\x7f', '\t'}) {
        Frame f =
            frame_request("GET /" + std::string(20, 'p') + c + "q HTTP/1.1\r\n\r\n", limits());
        EXPECT_EQ(f.message, "malformed request line: control character in the request target");
    }
}

// A complete frame says where the head ends and where each field is, in the request's bytes
// after the empty lines it skipped.
TEST(Framing, FieldPlaces) {
    const std::string req = "\r\nGET / HTTP/1.1\r\nHost: a\r\nX-B:\t v w \r\nX-E:\r\n\r\nbody";
    Frame f = frame_request(req, limits());
    ASSERT_TRUE(f.complete());
    const std::string_view b = std::string_view(req).substr(f.skip);
    EXPECT_EQ(f.head, b.find("body"));
    ASSERT_EQ(f.fields.size(), 3u);
    const auto name = [&](size_t i) {
        return b.substr(f.fields[i].begin, f.fields[i].colon - f.fields[i].begin);
    };
    const auto value = [&](size_t i) {
        return b.substr(f.fields[i].value, f.fields[i].value_end - f.fields[i].value);
    };
    EXPECT_EQ(name(0), "Host");
    EXPECT_EQ(value(0), "a");
    EXPECT_EQ(name(1), "X-B");
    EXPECT_EQ(value(1), "v w");
    EXPECT_EQ(b.substr(f.fields[1].end, 2), "\r\n");
    EXPECT_EQ(name(2), "X-E");
    EXPECT_EQ(value(2), "");
}

// The server frames into one Frame per thread: what an earlier request left in it never shows.
TEST(Framing, AReusedFrameIsTheSameAsANewOne) {
    const std::string cases[] = {
        "POST /a?q HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nX-Long: " + std::string(100, 'v') +
            "\r\n\r\nabc",
        "GET / HTTP/1.1\r\n\r\n",
        "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
        "GET / HTTP/1.1\r\nBad Name: x\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: y\r\n",
        "\r\nGET /b HTTP/1.0\r\nA: 1\r\n\r\n",
    };
    Frame reused;
    for (int round = 0; round < 2; ++round)
        for (const std::string& c : cases) {
            frame_request(c, limits(), reused);
            const Frame fresh = frame_request(c, limits());
            EXPECT_EQ(reused.state, fresh.state) << c;
            EXPECT_EQ(reused.skip, fresh.skip) << c;
            EXPECT_EQ(reused.length, fresh.length) << c;
            EXPECT_EQ(reused.status, fresh.status) << c;
            EXPECT_EQ(reused.message, fresh.message) << c;
            EXPECT_EQ(reused.method, fresh.method) << c;
            EXPECT_EQ(reused.target, fresh.target) << c;
            EXPECT_EQ(reused.chunked, fresh.chunked) << c;
            EXPECT_EQ(reused.content_length, fresh.content_length) << c;
            EXPECT_EQ(reused.head, fresh.head) << c;
            EXPECT_EQ(reused.fields.size(), fresh.fields.size()) << c;
        }
}

// Content-Length and Transfer-Encoding are recognised whatever the case of their names.
TEST(Framing, BodyFieldNamesAnyCase) {
    Frame f = frame_request("POST / HTTP/1.1\r\ncontent-LENGTH: 2\r\n\r\nhi", limits());
    ASSERT_TRUE(f.complete());
    EXPECT_EQ(f.content_length, 2u);
    Frame c = frame_request(
        "POST / HTTP/1.1\r\nTRANSFER-encoding: CHUNKED\r\n\r\n2\r\nhi\r\n0\r\n\r\n", limits());
    ASSERT_TRUE(c.complete());
    EXPECT_TRUE(c.chunked);
    Frame both = frame_request(
        "POST / HTTP/1.1\r\nCONTENT-length: 2\r\ntransfer-ENCODING: chunked\r\n\r\n", limits());
    EXPECT_EQ(both.status, 400);
    EXPECT_EQ(both.message, "both Content-Length and Transfer-Encoding (not accepted)");
    EXPECT_EQ(frame_request("POST / HTTP/1.1\r\nContent-Length: 2\r\ncontent-length: 3\r\n\r\nhi",
                            limits())
                  .message,
              "conflicting Content-Length fields");
    EXPECT_TRUE(frame_request("POST / HTTP/1.1\r\nContent-Length: 2\r\ncontent-length: 2\r\n\r\nhi",
                              limits())
                    .complete());
}

// A 4 KiB header limit (as a profile may set it): a head of exactly 4096 bytes is taken, one byte
// more is 431; the empty line's CRLF is not counted.
TEST(Framing, FourKibHeadLimit) {
    std::string head = "GET / HTTP/1.1\r\nAuthorization: Bearer ";
    head += std::string(4096 - head.size() - 2, 't') + "\r\n";
    ASSERT_EQ(head.size(), 4096u);
    Frame f = frame_request(head + "\r\n", limits(1 << 20, 100, 4096));
    ASSERT_TRUE(f.complete()) << f.message;
    EXPECT_EQ(f.fields.size(), 1u);
    Frame over =
        frame_request("GET / HTTP/1.1\r\nAuthorization: Bearer t" + head.substr(38) + "\r\n",
                      limits(1 << 20, 100, 4096));
    EXPECT_EQ(over.status, 431);
}

}  // namespace
