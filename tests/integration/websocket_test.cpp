// WebSocket at the HTTP front, against the real host: live streams through the sse test plugin's
// `room` (live_input `say`, resume_arg `after`) with npm `ws` clients (tests/e2e/
// websocket_clients.mjs, installed by scripts/e2e-deps.sh), and the protocol end to end with a raw
// socket (fragments, ping, close codes, the drain's 1001); Server-Sent Event ids for resume_arg;
// the `web` handler's pass-through to a ws node.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <thread>

#include "build_tree.hpp"
#include "command.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "profiles.hpp"
#include "raw_websocket.hpp"
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
    EXPECT_EQ(r["bob_replies"][0], json({{"reply", {{"said", "message 1"}}}}));
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

TEST_F(WebSocketLive, ChatAndOwnNotificationsArriveLiveAndAGroupRoomIsForMembers) {
    HttpClient c("127.0.0.1", host->api_port());
    auto g = c.post_json("/api/v1/groups/create", {{"name", "ws team"}}, bearer("ann"));
    ASSERT_EQ(g.status, 200) << g.body;
    const std::string group = g.json()["data"]["id"];
    json r = clients({"chat", std::to_string(host->api_port()), group});
    ASSERT_FALSE(r.contains("timeout")) << r.dump();
    // The `ready` chunk rides with the 101 and may reach the client before its handler is set.
    std::vector<json> messages, notifications;
    for (const json& chunk : r["bob"])
        (chunk["type"] == "notification" ? notifications : messages).push_back(chunk);
    ASSERT_FALSE(messages.empty()) << r.dump();
    EXPECT_EQ(messages.back()["type"], "message") << r.dump();
    EXPECT_EQ(messages.back()["message"]["from"], "ann") << r.dump();
    EXPECT_EQ(messages.back()["message"]["text"], "hello over a socket") << r.dump();
    // ann's notification was sent first, to herself: only bob's own reaches bob's session.
    EXPECT_EQ(r["notified"], json({200, 200})) << r.dump();
    ASSERT_EQ(notifications.size(), 1u) << r.dump();
    EXPECT_EQ(notifications[0]["notification"]["title"], "for bob") << r.dump();
    EXPECT_EQ(notifications[0]["notification"]["body"], "from bob") << r.dump();
    ASSERT_EQ(r["ann_replies"].size(), 1u) << r.dump();
    EXPECT_EQ(r["ann_replies"][0]["reply"]["text"], "hello over a socket") << r.dump();
    EXPECT_EQ(r["carol"]["status"], 404) << "a non-member cannot join a group room: " << r.dump();
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
    EXPECT_EQ(reply, json({{"reply", {{"said", "in pieces"}}}}));
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
