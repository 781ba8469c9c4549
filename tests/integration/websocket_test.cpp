// WebSocket at the HTTP front, against the real host: live streams through the sse test plugin's
// `room` (live_input `say`, resume_arg `after`) with npm `ws` clients (tests/e2e/
// websocket_clients.mjs, installed by scripts/e2e-deps.sh), and the protocol end to end with a raw
// socket (fragments, ping, close codes, the drain's 1001); Server-Sent Event ids for resume_arg;
// the `web` handler's pass-through to a ws node.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <thread>

#include "build_tree.hpp"
#include "command.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "profiles.hpp"
#include "shared_host_test.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

const std::string kE2e = platform::test::source_dir() + "/tests/e2e";

// Runs tests/e2e/websocket_clients.mjs with Node 22; its one output line as JSON.
json clients(const std::vector<std::string>& args) {
    std::vector<std::string> argv = {kE2e + "/node_modules/.bin/node",
                                     kE2e + "/websocket_clients.mjs"};
    argv.insert(argv.end(), args.begin(), args.end());
    const char* path = std::getenv("PATH");
    CommandResult r = run_command(
        argv, {{"PATH", kE2e + "/node_modules/.bin:" + (path ? path : "/usr/bin:/bin")}}, 60);
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    json out = json::parse(r.out, nullptr, false);
    EXPECT_TRUE(out.is_object()) << r.out << r.err;
    return out;
}

// A WebSocket client on a raw socket: the handshake, masked frames, frames read back.
class RawWebSocket {
public:
    struct Frame {
        int opcode = -1;  // -1: nothing came (timeout or end)
        bool fin = false;
        std::string payload;
        int close_code() const {
            return payload.size() >= 2
                       ? (static_cast<uint8_t>(payload[0]) << 8) | static_cast<uint8_t>(payload[1])
                       : 0;
        }
    };
    ~RawWebSocket() {
        if (fd_ >= 0) ::close(fd_);
    }
    // The answer's head; the connection is a WebSocket when it starts with "HTTP/1.1 101".
    std::string open(int port, const std::string& target, const std::string& extra_headers) {
        fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(static_cast<uint16_t>(port));
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) return "";
        send_all("GET " + target +
                 " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
                 "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n" +
                 extra_headers + "\r\n");
        while (buffer_.find("\r\n\r\n") == std::string::npos)
            if (!fill()) return buffer_;
        const size_t end = buffer_.find("\r\n\r\n") + 4;
        std::string head = buffer_.substr(0, end);
        buffer_.erase(0, end);
        return head;
    }
    void send_frame(int opcode, const std::string& payload, bool fin = true, bool masked = true) {
        std::string f(1, static_cast<char>((fin ? 0x80 : 0) | opcode));
        const char key[4] = {1, 2, 3, 4};
        const int mask_bit = masked ? 0x80 : 0;
        if (payload.size() < 126) {
            f.push_back(static_cast<char>(mask_bit | static_cast<int>(payload.size())));
        } else {
            f.push_back(static_cast<char>(mask_bit | 126));
            f.push_back(static_cast<char>(payload.size() >> 8));
            f.push_back(static_cast<char>(payload.size() & 0xFF));
        }
        if (masked) f.append(key, 4);
        for (size_t i = 0; i < payload.size(); ++i)
            f.push_back(masked ? static_cast<char>(payload[i] ^ key[i % 4]) : payload[i]);
        send_all(f);
    }
    Frame read_frame() {
        Frame out;
        while (buffer_.size() < 2)
            if (!fill()) return out;
        size_t len = static_cast<uint8_t>(buffer_[1]) & 0x7F, pos = 2;
        if (len == 126) {
            while (buffer_.size() < 4)
                if (!fill()) return out;
            len = (static_cast<uint8_t>(buffer_[2]) << 8) | static_cast<uint8_t>(buffer_[3]);
            pos = 4;
        }
        while (buffer_.size() < pos + len)
            if (!fill()) return out;
        out.opcode = static_cast<uint8_t>(buffer_[0]) & 0x0F;
        out.fin = static_cast<uint8_t>(buffer_[0]) & 0x80;
        out.payload = buffer_.substr(pos, len);
        buffer_.erase(0, pos + len);
        return out;
    }
    // The next frame that is not a ping (pings are answered).
    Frame read_data() {
        for (;;) {
            Frame f = read_frame();
            if (f.opcode != 0x9) return f;
            send_frame(0xA, f.payload);
        }
    }
    // True when the server closed the TCP connection (read gives its end), false when it stayed
    // open for 15 s.
    bool ended() {
        while (fill()) buffer_.clear();
        return eof_;
    }

private:
    void send_all(const std::string& bytes) {
        size_t done = 0;
        while (done < bytes.size()) {
            ssize_t n = ::send(fd_, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
            if (n <= 0) return;
            done += static_cast<size_t>(n);
        }
    }
    bool fill() {
        pollfd p{fd_, POLLIN, 0};
        if (::poll(&p, 1, 15000) <= 0) return false;
        char buf[65536];
        ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
        eof_ = n <= 0;
        if (n <= 0) return false;
        buffer_.append(buf, static_cast<size_t>(n));
        return true;
    }
    int fd_ = -1;
    bool eof_ = false;
    std::string buffer_;
};

const std::string kAlice = "Authorization: Bearer alice\r\n";

// Says `text` in `room` over plain HTTP, so a stream of that room opens at once.
void say(int port, const std::string& room, const std::string& text) {
    HttpClient c("127.0.0.1", port);
    auto r = c.post_json("/api/v1/sse/say", {{"room", room}, {"text", text}}, bearer("bob"));
    ASSERT_EQ(r.status, 200) << r.body;
}

class WebSocketLive : public SharedHostTest {};

TEST_F(WebSocketLive, AMessageFromOneClientArrivesLiveAtAnotherAcrossResumedCalls) {
    json r = clients({"live", std::to_string(host->api_port())});
    ASSERT_FALSE(r.contains("timeout")) << r.dump();
    const json& alice = r["alice"];
    ASSERT_GE(alice.size(), 3u) << r.dump();
    bool resumed = false;
    for (size_t i = 0; i < alice.size(); ++i) {  // in order, none lost, none twice
        EXPECT_EQ(alice[i]["cursor"], i + 1) << r.dump();
        EXPECT_EQ(alice[i]["text"], "message " + std::to_string(i + 1));
        resumed = resumed || alice[i]["from"].get<int>() > 0;
    }
    EXPECT_TRUE(resumed) << "no chunk came from a call resumed after a cursor: " << r.dump();
    ASSERT_FALSE(r["bob_replies"].empty()) << r.dump();
    EXPECT_EQ(r["bob_replies"][0], json({{"reply", {{"cursor", 1}}}}));
}

TEST_F(WebSocketLive, AMessageOverTheLimitClosesWith1009) {
    json r = clients({"too_big", std::to_string(host->api_port()), "70000"});
    EXPECT_EQ(r["close"], 1009) << r.dump();
}

TEST_F(WebSocketLive, ANonStreamingEndpointIsRefusedWith400) {
    json r = clients({"refused", std::to_string(host->api_port()), "/api/v1/sse/stopped"});
    EXPECT_EQ(r["status"], 400) << r.dump();
    EXPECT_NE(r["body"].get<std::string>().find("not a streaming endpoint"), std::string::npos);
}

TEST_F(WebSocketLive, ACallRefusedBeforeTheStreamOpensIsItsHttpAnswer) {
    // No `room`: the arguments are refused before any chunk, so there is no 101.
    json r = clients({"refused", std::to_string(host->api_port()), "/api/v1/sse/room"});
    EXPECT_EQ(r["status"], 400) << r.dump();
    EXPECT_NE(r["body"].get<std::string>().find("room"), std::string::npos) << r.dump();
}

TEST_F(WebSocketLive, ACookieSessionFromAForeignOriginIsRefusedATokenClientIsNot) {
    json r = clients({"origin", std::to_string(host->api_port()), "http://evil.example"});
    EXPECT_EQ(r["cookie"]["status"], 403) << r.dump();
    EXPECT_NE(r["cookie"]["body"].get<std::string>().find("http://evil.example"),
              std::string::npos);
    EXPECT_EQ(r["token"], json({{"open", true}})) << r.dump();
    const std::string own = "http://127.0.0.1:" + std::to_string(host->api_port());
    json same = clients({"origin", std::to_string(host->api_port()), own});
    EXPECT_EQ(same["cookie"], json({{"open", true}})) << same.dump();
}

TEST_F(WebSocketLive, FragmentsPingAndCloseOnARawSocket) {
    const std::string room = "raw";
    say(host->api_port(), room, "first");
    RawWebSocket ws;
    std::string head = ws.open(host->api_port(), "/api/v1/sse/room?room=raw&hold_ms=2000", kAlice);
    ASSERT_EQ(head.rfind("HTTP/1.1 101", 0), 0u) << head;
    EXPECT_NE(head.find("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo="), std::string::npos);
    auto first = ws.read_data();
    EXPECT_EQ(first.opcode, 1);
    EXPECT_EQ(json::parse(first.payload)["text"], "first");
    // A message in three fragments, a ping between them.
    ws.send_frame(0x1, R"({"text":)", false);
    ws.send_frame(0x0, R"("in )", false);
    ws.send_frame(0x9, "are you there");
    auto pong = ws.read_frame();
    EXPECT_EQ(pong.opcode, 0xA);
    EXPECT_EQ(pong.payload, "are you there");
    ws.send_frame(0x0, R"(pieces"})");
    // The message's chunk and `say`'s reply, in either order.
    std::vector<json> got = {json::parse(ws.read_data().payload),
                             json::parse(ws.read_data().payload)};
    const json chunk = got[0].contains("reply") ? got[1] : got[0];
    const json reply = got[0].contains("reply") ? got[0] : got[1];
    EXPECT_EQ(chunk["text"], "in pieces");
    EXPECT_EQ(reply, json({{"reply", {{"cursor", 2}}}}));
    // A message that is not JSON gets the catalogue's error shape.
    ws.send_frame(0x1, "not json");
    EXPECT_EQ(json::parse(ws.read_data().payload)["error"]["code"], "invalid_argument");
    ws.send_frame(0x8, std::string("\x03\xe8", 2) + "bye");
    auto close = ws.read_data();
    EXPECT_EQ(close.opcode, 0x8);
    EXPECT_EQ(close.close_code(), 1000);
    EXPECT_TRUE(ws.ended());
}

TEST_F(WebSocketLive, InvalidUtf8ClosesWith1007AndAnUnmaskedFrameWith1002) {
    say(host->api_port(), "utf8", "first");
    RawWebSocket ws;
    ASSERT_EQ(ws.open(host->api_port(), "/api/v1/sse/room?room=utf8&hold_ms=2000", kAlice)
                  .rfind("HTTP/1.1 101", 0),
              0u);
    ws.read_data();
    ws.send_frame(0x1, "\xc3\x28");
    auto close = ws.read_data();
    EXPECT_EQ(close.opcode, 0x8);
    EXPECT_EQ(close.close_code(), 1007);
    EXPECT_TRUE(ws.ended());

    RawWebSocket unmasked;
    ASSERT_EQ(unmasked.open(host->api_port(), "/api/v1/sse/room?room=utf8&hold_ms=2000", kAlice)
                  .rfind("HTTP/1.1 101", 0),
              0u);
    unmasked.read_data();
    unmasked.send_frame(0x1, R"({"text":"bare"})", true, false);
    close = unmasked.read_data();
    EXPECT_EQ(close.opcode, 0x8);
    EXPECT_EQ(close.close_code(), 1002);
}

TEST_F(WebSocketLive, ABadHandshakeNamesTheHeader) {
    HttpClient c("127.0.0.1", host->api_port());
    auto r = c.get("/api/v1/sse/room?room=x", {{"Connection", "Upgrade"},
                                               {"Upgrade", "websocket"},
                                               {"Sec-WebSocket-Version", "8"},
                                               {"Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="}});
    EXPECT_EQ(r.status, 400);
    EXPECT_NE(r.body.find("Sec-WebSocket-Version: 13"), std::string::npos) << r.body;
    EXPECT_EQ(r.header("sec-websocket-version"), "13");
    r = c.get(
        "/api/v1/sse/room?room=x",
        {{"Connection", "Upgrade"}, {"Upgrade", "websocket"}, {"Sec-WebSocket-Version", "13"}});
    EXPECT_EQ(r.status, 400);
    EXPECT_NE(r.body.find("Sec-WebSocket-Key"), std::string::npos) << r.body;
}

TEST_F(WebSocketLive, ServerSentEventsCarryTheCursorAndResumeFromLastEventId) {
    say(host->api_port(), "sse-ids", "one");
    say(host->api_port(), "sse-ids", "two");
    HttpClient c("127.0.0.1", host->api_port());
    auto r = c.get("/api/v1/sse/room?room=sse-ids&hold_ms=0", {{"Accept", "text/event-stream"}});
    EXPECT_NE(r.body.find("id: 1\ndata: {\"cursor\":1"), std::string::npos) << r.body;
    EXPECT_NE(r.body.find("id: 2\ndata: {\"cursor\":2"), std::string::npos) << r.body;
    r = c.get("/api/v1/sse/room?room=sse-ids&hold_ms=0",
              {{"Accept", "text/event-stream"}, {"Last-Event-ID", "1"}});
    EXPECT_EQ(r.body.find("\"cursor\":1"), std::string::npos) << r.body;
    EXPECT_NE(r.body.find("id: 2\ndata: {\"cursor\":2"), std::string::npos) << r.body;
}

HostProcess::Options web_handler() {
    HostProcess::Options o;
    o.args = {"--handler", "web"};
    return o;
}

TEST(WebSocketPassThrough, TheWebHandlerRelaysToAWsNode) {
    HostProcess host(web_handler());
    host.start();
    json r = clients({"proxied", std::to_string(host.api_port())});
    EXPECT_EQ(r["echo"], "echo: ping me") << r.dump();
    EXPECT_EQ(r["upstream_path"], "/echo/socket?x=1") << r.dump();
    EXPECT_EQ(r["close"], 1000) << r.dump();
    EXPECT_EQ(host.stop(), 0) << host.log();
}

TEST(WebSocketPassThrough, AnUnreachableNodeIs502BeforeAny101) {
    HostProcess host(web_handler());
    host.start();
    int closed = ::socket(AF_INET, SOCK_STREAM, 0);  // a port nothing listens on
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    ASSERT_EQ(::bind(closed, reinterpret_cast<sockaddr*>(&a), len), 0);
    ::getsockname(closed, reinterpret_cast<sockaddr*>(&a), &len);
    ::close(closed);
    HttpClient api("127.0.0.1", host.api_port());
    json record{
        {"name", "go.core.api.gone"},
        {"endpoints", json::array()},
        {"nodes",
         {{{"id", "gone-1"}, {"address", "127.0.0.1:" + std::to_string(ntohs(a.sin_port))}}}}};
    ASSERT_EQ(api.post_json("/registry/register", {{"service", record}}, bearer("admin")).status,
              200);
    RawWebSocket ws;
    std::string head = ws.open(host.api_port(), "/gone/socket", "");
    EXPECT_EQ(head.rfind("HTTP/1.1 502", 0), 0u) << head;
    EXPECT_EQ(host.stop(), 0) << host.log();
}

// With a 1 s idle setting the server pings a quiet client; one that answers stays connected —
// also once Pistache's own idle check (http.idle_timeout_ms, 500 ms here) has let the connection
// go and the session reads the socket itself — and one that does not is closed.
TEST(WebSocketIdle, AQuietClientIsPingedAndClosedWhenItDoesNotAnswer) {
    TempDir dir;
    HostProcess::Options o;
    o.profile = test_profile_with(dir.path() + "/idle.yaml", "http: {idle_timeout_ms: 500}");
    o.env = {{"PLATFORM_WEBSOCKET_IDLE_SECONDS", "1"}};
    HostProcess host(o);
    host.start();
    say(host.api_port(), "idle", "first");
    RawWebSocket ws;
    ASSERT_EQ(ws.open(host.api_port(), "/api/v1/sse/room?room=idle&hold_ms=2000", kAlice)
                  .rfind("HTTP/1.1 101", 0),
              0u);
    ASSERT_EQ(ws.read_frame().opcode, 0x1);
    auto ping = ws.read_frame();
    ASSERT_EQ(ping.opcode, 0x9);
    ws.send_frame(0xA, ping.payload);
    ws.send_frame(0x1, R"({"text":"still here"})");
    std::vector<json> got = {json::parse(ws.read_data().payload),
                             json::parse(ws.read_data().payload)};
    EXPECT_TRUE(got[0].contains("reply") || got[1].contains("reply"));
    // Now silent: a ping, no pong, then the close.
    ASSERT_EQ(ws.read_frame().opcode, 0x9);
    auto close = ws.read_frame();
    EXPECT_EQ(close.opcode, 0x8);
    EXPECT_EQ(close.close_code(), 1001);
    EXPECT_NE(close.payload.find("no pong"), std::string::npos) << close.payload;
    EXPECT_TRUE(ws.ended());
}

TEST(WebSocketDrain, OpenSessionsGetClose1001WhenTheServerStops) {
    HostProcess host;
    host.start();
    say(host.api_port(), "drain", "first");
    RawWebSocket ws;
    ASSERT_EQ(ws.open(host.api_port(), "/api/v1/sse/room?room=drain&hold_ms=2000", kAlice)
                  .rfind("HTTP/1.1 101", 0),
              0u);
    ws.read_data();
    std::thread stopping([&] { host.stop(); });
    auto close = ws.read_data();
    EXPECT_EQ(close.opcode, 0x8);
    EXPECT_EQ(close.close_code(), 1001);
    ws.send_frame(0x8, std::string("\x03\xe9", 2));
    stopping.join();
}

}  // namespace
