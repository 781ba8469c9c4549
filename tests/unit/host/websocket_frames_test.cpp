// The WebSocket framer (websocket_frames.hpp): the accept key, reading client frames into events
// by the RFC's rules, and the server's frames.
#include <gtest/gtest.h>

#include <platform/host/http/websocket_frames.hpp>
#include <string>
#include <vector>

namespace ws = platform::host::websocket;
using Kind = ws::Event::Kind;

namespace {

// A client frame: masked with a fixed key unless `masked` is false.
std::string client_frame(uint8_t first_byte, std::string_view payload, bool masked = true) {
    std::string f(1, static_cast<char>(first_byte));
    const uint64_t n = payload.size();
    const char mask_bit = masked ? static_cast<char>(0x80) : 0;
    if (n < 126) {
        f.push_back(static_cast<char>(mask_bit | static_cast<char>(n)));
    } else if (n <= 0xFFFF) {
        f.push_back(static_cast<char>(mask_bit | 126));
        f.push_back(static_cast<char>(n >> 8));
        f.push_back(static_cast<char>(n & 0xFF));
    } else {
        f.push_back(static_cast<char>(mask_bit | 127));
        for (int s = 56; s >= 0; s -= 8) f.push_back(static_cast<char>(n >> s));
    }
    const char key[4] = {0x12, 0x34, 0x56, 0x78};
    if (masked) f.append(key, 4);
    for (size_t i = 0; i < payload.size(); ++i)
        f.push_back(masked ? static_cast<char>(payload[i] ^ key[i % 4]) : payload[i]);
    return f;
}

constexpr uint8_t FIN = 0x80;
constexpr uint8_t TEXT = 0x1, BINARY = 0x2, CONT = 0x0, CLOSE = 0x8, PING = 0x9, PONG = 0xA;

std::string close_payload(uint16_t code, std::string_view reason = {}) {
    std::string p{static_cast<char>(code >> 8), static_cast<char>(code & 0xFF)};
    return p.append(reason);
}

struct Case {
    const char* name;
    std::string bytes;
    size_t limit;
    std::vector<Kind> kinds;  // the events, in order
    uint16_t last_code;       // the last event's code (close/error), 0 = not checked
    std::string first_payload;
};

}  // namespace

TEST(WebSocketFrames, AcceptKeyIsTheRfcExample) {
    EXPECT_EQ(ws::accept_key("dGhlIHNhbXBsZSBub25jZQ=="), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
    EXPECT_TRUE(ws::valid_client_key("dGhlIHNhbXBsZSBub25jZQ=="));
    EXPECT_FALSE(ws::valid_client_key("short"));
    EXPECT_FALSE(ws::valid_client_key("dGhlIHNhbXBsZSBub25jZQ"));
}

TEST(WebSocketFrames, Utf8) {
    EXPECT_TRUE(ws::valid_utf8("plain ascii"));
    EXPECT_TRUE(ws::valid_utf8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"));
    EXPECT_FALSE(ws::valid_utf8("\xc3"));              // cut off
    EXPECT_FALSE(ws::valid_utf8("\xc0\xaf"));          // overlong
    EXPECT_FALSE(ws::valid_utf8("\xed\xa0\x80"));      // a surrogate
    EXPECT_FALSE(ws::valid_utf8("\xf4\x90\x80\x80"));  // over U+10FFFF
    EXPECT_FALSE(ws::valid_utf8("\xff"));
}

TEST(WebSocketFrames, ReadsClientFramesByTheRules) {
    const std::string big(70000, 'x');
    const std::string medium(300, 'm');
    const std::vector<Case> cases = {
        {"one text frame", client_frame(FIN | TEXT, "hello"), 100, {Kind::message}, 0, "hello"},
        {"16-bit length", client_frame(FIN | TEXT, medium), 1000, {Kind::message}, 0, medium},
        {"64-bit length", client_frame(FIN | BINARY, big), 100000, {Kind::message}, 0, big},
        {"fragments join",
         client_frame(TEXT, "hel") + client_frame(CONT, "l") + client_frame(FIN | CONT, "o"),
         100,
         {Kind::message},
         0,
         "hello"},
        {"ping between fragments",
         client_frame(TEXT, "he") + client_frame(FIN | PING, "p") + client_frame(FIN | CONT, "y"),
         100,
         {Kind::ping, Kind::message},
         0,
         "p"},
        {"pong", client_frame(FIN | PONG, ""), 100, {Kind::pong}, 0, ""},
        {"close with code",
         client_frame(FIN | CLOSE, close_payload(1000, "bye")),
         100,
         {Kind::close},
         1000,
         "bye"},
        {"close without code", client_frame(FIN | CLOSE, ""), 100, {Kind::close}, 1005, ""},
        {"unmasked", client_frame(FIN | TEXT, "x", false), 100, {Kind::error}, 1002, ""},
        {"reserved bit", client_frame(FIN | 0x40 | TEXT, "x"), 100, {Kind::error}, 1002, ""},
        {"unknown opcode", client_frame(FIN | 0x3, "x"), 100, {Kind::error}, 1002, ""},
        {"fragmented ping", client_frame(PING, "x"), 100, {Kind::error}, 1002, ""},
        {"long ping",
         client_frame(FIN | PING, std::string(126, 'p')),
         1000,
         {Kind::error},
         1002,
         ""},
        {"continuation first", client_frame(FIN | CONT, "x"), 100, {Kind::error}, 1002, ""},
        {"text inside a message",
         client_frame(TEXT, "a") + client_frame(FIN | TEXT, "b"),
         100,
         {Kind::error},
         1002,
         ""},
        {"close of one byte", client_frame(FIN | CLOSE, "x"), 100, {Kind::error}, 1002, ""},
        {"close code 1005 sent",
         client_frame(FIN | CLOSE, close_payload(1005)),
         100,
         {Kind::error},
         1002,
         ""},
        {"invalid UTF-8 text", client_frame(FIN | TEXT, "\xc3\x28"), 100, {Kind::error}, 1007, ""},
        {"invalid UTF-8 across fragments is checked whole",
         client_frame(TEXT, "\xc3") + client_frame(FIN | CONT, "\xa9"),
         100,
         {Kind::message},
         0,
         "\xc3\xa9"},
        {"binary need not be UTF-8",
         client_frame(FIN | BINARY, "\xff"),
         100,
         {Kind::message},
         0,
         "\xff"},
        {"one frame over the limit",
         client_frame(FIN | TEXT, std::string(101, 'a')),
         100,
         {Kind::error},
         1009,
         ""},
        {"fragments over the limit",
         client_frame(TEXT, std::string(60, 'a')) + client_frame(FIN | CONT, std::string(60, 'b')),
         100,
         {Kind::error},
         1009,
         ""},
        {"nothing after close",
         client_frame(FIN | CLOSE, close_payload(1001)) + client_frame(FIN | TEXT, "late"),
         100,
         {Kind::close},
         1001,
         ""},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.name);
        ws::FrameReader reader(c.limit);
        auto events = reader.feed(c.bytes);
        ASSERT_EQ(events.size(), c.kinds.size());
        for (size_t i = 0; i < events.size(); ++i) EXPECT_EQ(events[i].kind, c.kinds[i]) << i;
        if (c.last_code) {
            EXPECT_EQ(events.back().code, c.last_code);
        }
        if (!c.first_payload.empty() && events.front().kind != Kind::error) {
            EXPECT_EQ(events.front().payload, c.first_payload);
        }
    }
}

TEST(WebSocketFrames, ReadsFramesSplitAnywhere) {
    const std::string bytes = client_frame(FIN | TEXT, std::string(300, 'a')) +
                              client_frame(FIN | PING, "x") + client_frame(FIN | TEXT, "end");
    ws::FrameReader reader(1000);
    std::vector<ws::Event> events;
    for (char c : bytes)
        for (auto& e : reader.feed(std::string_view(&c, 1))) events.push_back(std::move(e));
    ASSERT_EQ(events.size(), 3u);
    EXPECT_EQ(events[0].payload, std::string(300, 'a'));
    EXPECT_EQ(events[1].kind, Kind::ping);
    EXPECT_EQ(events[2].payload, "end");
}

TEST(WebSocketFrames, RefusesAnOversizedFrameOnItsHeader) {
    // Only the header of a 1 MiB frame arrives: the refusal does not wait for the payload.
    std::string header = client_frame(FIN | TEXT, std::string(1 << 20, 'a')).substr(0, 14);
    ws::FrameReader reader(65536);
    auto events = reader.feed(header);
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0].kind, Kind::error);
    EXPECT_EQ(events[0].code, 1009);
    EXPECT_TRUE(reader.ended());
}

TEST(WebSocketFrames, WritesUnmaskedServerFrames) {
    EXPECT_EQ(ws::server_frame(ws::Opcode::text, "hi"), std::string("\x81\x02hi", 4));
    const std::string medium = ws::server_frame(ws::Opcode::text, std::string(200, 'x'));
    EXPECT_EQ(medium.substr(0, 4), std::string("\x81\x7e\x00\xc8", 4));
    EXPECT_EQ(medium.size(), 204u);
    const std::string large = ws::server_frame(ws::Opcode::binary, std::string(70000, 'x'));
    EXPECT_EQ(large.substr(0, 2), std::string("\x82\x7f", 2));
    EXPECT_EQ(large.size(), 70000u + 10);
    EXPECT_EQ(ws::close_frame(1009, "too big"), std::string("\x88\x09\x03\xf1too big", 11));
    // A long reason is cut to the control-frame limit, never inside a character.
    const std::string reason = std::string(122, 'r') + "\xc3\xa9\xc3\xa9";
    const std::string f = ws::close_frame(1011, reason);
    EXPECT_LE(f.size(), 127u);
    EXPECT_TRUE(ws::valid_utf8(f.substr(4)));
}
