// /mcp, the transport (host/include/platform/host/mcp/mcp.hpp): Streamable HTTP spoken byte by byte
// — sessions and their headers, content negotiation, JSON-RPC framing errors, DNS-rebinding
// protection, bearer credentials, idle expiry on the business clock and sessions kept in the store
// across a restart. Tools and resources are in mcp_tools_test.cpp.
#include <gtest/gtest.h>

#include <memory>
#include <thread>
#include <vector>

#include "host_process.hpp"
#include "http_client.hpp"
#include "local_accounts.hpp"
#include "mcp_client.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

const std::string kAdminSecret = "admin-secret-for-mcp-tests";

json rpc(int id, const std::string& method, const json& params = json::object()) {
    return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}};
}

// A host on the test profile and alice's MCP session with it, initialized.
struct AliceSession {
    AliceSession() {
        host.start();
        mcp = std::make_unique<McpClient>(host.api_port(), "alice");
        mcp->initialize();
    }
    HostProcess host;
    std::unique_ptr<McpClient> mcp;
};

TEST(McpTransport, InitializeOpensASessionAndInitializedIs202) {
    HostProcess host;
    host.start();
    McpClient mcp(host.api_port(), "alice");
    HttpResult r = mcp.post(rpc(1, "initialize",
                                {{"protocolVersion", "2025-11-25"},
                                 {"capabilities", json::object()},
                                 {"clientInfo", {{"name", "t"}, {"version", "1"}}}}));
    ASSERT_EQ(r.status, 200) << r.body;
    const std::string sid = r.header("mcp-session-id");
    EXPECT_GE(sid.size(), 16u);
    EXPECT_EQ(r.header("content-type").rfind("application/json", 0), 0u)
        << r.header("content-type");
    const json result = r.json()["result"];
    EXPECT_EQ(result["protocolVersion"], "2025-11-25");
    EXPECT_EQ(result["serverInfo"]["name"], "platform");
    EXPECT_TRUE(result["capabilities"].contains("tools"));
    EXPECT_EQ(result["capabilities"]["resources"]["subscribe"], true);

    mcp.set_session(sid);
    HttpResult done = mcp.post({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}},
                               {{"MCP-Protocol-Version", "2025-11-25"}});
    EXPECT_EQ(done.status, 202);
    EXPECT_EQ(done.body, "");
    EXPECT_EQ(mcp.request("ping"), json::parse(R"({"jsonrpc":"2.0","id":1,"result":{}})"));
}

TEST(McpTransport, SessionIsRequiredKnownAndEndsWithDelete) {
    AliceSession session;
    McpClient& mcp = *session.mcp;
    const std::string sid = mcp.session();

    mcp.set_session("");
    HttpResult missing = mcp.post(rpc(7, "ping"));
    EXPECT_EQ(missing.status, 400) << missing.body;
    EXPECT_NE(missing.body.find("Mcp-Session-Id"), std::string::npos) << missing.body;
    mcp.set_session("00000000000000000000000000000000");
    EXPECT_EQ(mcp.post(rpc(8, "ping")).status, 404);

    mcp.set_session(sid);
    EXPECT_EQ(mcp.post(rpc(9, "ping")).status, 200);
    HttpResult del = mcp.http().request("DELETE", "/mcp", "", mcp.headers());
    EXPECT_EQ(del.status, 204) << del.body;
    HttpResult after = mcp.post(rpc(10, "ping"));
    EXPECT_EQ(after.status, 404) << after.body;
    EXPECT_EQ(after.json()["error"]["code"], -32600);
}

TEST(McpTransport, ProtocolVersionHeaderMustBeSupported) {
    AliceSession session;
    McpClient& mcp = *session.mcp;
    HttpResult bad = mcp.post(rpc(5, "ping"), {{"MCP-Protocol-Version", "1999-01-01"}});
    EXPECT_EQ(bad.status, 400) << bad.body;
    EXPECT_NE(bad.body.find("1999-01-01"), std::string::npos) << bad.body;
    // Any supported version is accepted on any request, not just the negotiated one.
    HttpResult old = mcp.post(rpc(6, "ping"), {{"MCP-Protocol-Version", "2025-03-26"}});
    EXPECT_EQ(old.status, 200) << old.body;
    EXPECT_EQ(old.json()["result"], json::object());
}

TEST(McpTransport, AcceptAndContentTypeAreChecked) {
    AliceSession session;
    McpClient& mcp = *session.mcp;
    HttpResult html = mcp.post(rpc(2, "ping"), {{"Accept", "text/html"}});
    EXPECT_EQ(html.status, 406) << html.body;
    HttpResult text = mcp.post(rpc(3, "ping"), {{"Content-Type", "text/plain"}});
    EXPECT_EQ(text.status, 415) << text.body;
    // Either type alone is enough.
    EXPECT_EQ(mcp.post(rpc(4, "ping"), {{"Accept", "application/json"}}).status, 200);
    HttpResult sse = mcp.post(rpc(5, "ping"), {{"Accept", "text/event-stream"}});
    EXPECT_EQ(sse.status, 200);
    EXPECT_EQ(sse.header("content-type").rfind("text/event-stream", 0), 0u)
        << sse.header("content-type");
    EXPECT_EQ(platform::test::sse_messages(sse.body).at(0)["result"], json::object());
    // GET without Accept: text/event-stream.
    Headers h = mcp.headers();
    h["Accept"] = "application/json";
    EXPECT_EQ(mcp.http().get("/mcp", h).status, 406);
}

TEST(McpTransport, JsonRpcFramingErrors) {
    AliceSession session;
    McpClient& mcp = *session.mcp;
    Headers h = mcp.headers();
    h["Content-Type"] = "application/json";

    HttpResult parse = mcp.post_raw("{\"jsonrpc\": \"2.0\", ", h);
    EXPECT_EQ(parse.json()["error"]["code"], -32700) << parse.body;
    HttpResult batch = mcp.post_raw(json::array({rpc(1, "ping"), rpc(2, "ping")}).dump(), h);
    EXPECT_EQ(batch.json()["error"]["code"], -32600) << batch.body;
    HttpResult no_version = mcp.post_raw(R"({"id": 7, "method": "ping"})", h);
    EXPECT_EQ(no_version.status, 400) << no_version.body;
    EXPECT_EQ(no_version.json()["error"]["code"], -32600) << no_version.body;
    EXPECT_EQ(no_version.json()["id"], 7) << "a readable id is echoed: " << no_version.body;
    EXPECT_EQ(mcp.request("ping")["result"], json::object());
    const json unknown = mcp.request("no/such/method");
    EXPECT_EQ(unknown["error"]["code"], -32601) << unknown;
    EXPECT_EQ(unknown["id"], 3);
}

TEST(McpTransport, DnsRebindingProtection) {
    HostProcess host;
    host.start();
    const json init = rpc(1, "initialize",
                          {{"protocolVersion", "2025-11-25"},
                           {"capabilities", json::object()},
                           {"clientInfo", {{"name", "t"}, {"version", "1"}}}});
    auto raw = [&](const std::string& host_header, const std::string& origin) {
        HttpClient c("127.0.0.1", host.api_port());
        const std::string body = init.dump();
        std::string req =
            "POST /mcp HTTP/1.1\r\nHost: " + host_header +
            "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n";
        if (!origin.empty()) req += "Origin: " + origin + "\r\n";
        req += "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
        c.send_raw(req);
        return c.read_response();
    };
    const std::string self = "127.0.0.1:" + std::to_string(host.api_port());
    EXPECT_EQ(raw("evil.example.com", "http://evil.example.com").status, 403);
    EXPECT_EQ(raw("evil.example.com", "").status, 403);
    EXPECT_EQ(raw(self, "http://evil.example.com").status, 403);
    EXPECT_EQ(raw(self, "http://" + self).status, 200);
    EXPECT_EQ(raw("localhost:" + std::to_string(host.api_port()), "").status, 200);
}

TEST(McpTransport, BadBearerIs401WithResourceMetadata) {
    HostProcess host(local_options(kAdminSecret));
    host.start();
    McpClient mcp(host.api_port(), "not-a-valid-token");
    HttpResult r = mcp.post(rpc(1, "initialize", {{"protocolVersion", "2025-11-25"}}));
    EXPECT_EQ(r.status, 401) << r.body;
    EXPECT_EQ(r.header("www-authenticate"),
              "Bearer resource_metadata=\"http://127.0.0.1:" + std::to_string(host.api_port()) +
                  "/.well-known/oauth-protected-resource\"");
    EXPECT_EQ(r.header("mcp-session-id"), "");
}

TEST(McpTransport, SessionBelongsToTheAccountThatOpenedIt) {
    HostProcess host;
    host.start();
    McpClient alice(host.api_port(), "alice");
    alice.initialize();
    McpClient bob(host.api_port(), "bob");
    bob.initialize();
    bob.set_session(alice.session());
    EXPECT_EQ(bob.post(rpc(50, "tools/list")).status, 404);
    EXPECT_EQ(bob.http().request("DELETE", "/mcp", "", bob.headers()).status, 404);
    McpClient anonymous(host.api_port());
    anonymous.set_session(alice.session());
    EXPECT_EQ(anonymous.post(rpc(51, "ping")).status, 404);
    EXPECT_EQ(alice.post(rpc(52, "ping")).status, 200);  // still alice's
}

TEST(McpTransport, IdleSessionExpiresOnTheBusinessClock) {
    HostProcess::Options o;
    o.env["PLATFORM_MCP_SESSION_IDLE_SECONDS"] = "60";
    HostProcess host(o);
    host.start();
    HttpClient api("127.0.0.1", host.api_port());
    McpClient mcp(host.api_port(), "alice");
    mcp.initialize();
    ASSERT_EQ(api.post_json("/clock/advance", {{"ms", 45000}}).status, 200);
    EXPECT_EQ(mcp.post(rpc(10, "ping")).status, 200);  // used: idle time starts again
    ASSERT_EQ(api.post_json("/clock/advance", {{"ms", 45000}}).status, 200);
    EXPECT_EQ(mcp.post(rpc(11, "ping")).status, 200);  // 90 s after initialize, 45 s idle
    ASSERT_EQ(api.post_json("/clock/advance", {{"ms", 61000}}).status, 200);
    HttpResult gone = mcp.post(rpc(12, "ping"));
    EXPECT_EQ(gone.status, 404) << gone.body;
}

TEST(McpTransport, StandaloneEventStreamOncePerSession) {
    AliceSession session;
    McpClient& mcp = *session.mcp;
    EventStream first(session.host.api_port(), mcp.headers());
    EXPECT_EQ(first.status(), 200) << first.received();
    EXPECT_TRUE(first.wait_for("text/event-stream", 5000)) << first.received();
    EventStream second(session.host.api_port(), mcp.headers());
    EXPECT_EQ(second.status(), 409) << second.received();
}

TEST(McpTransport, ConcurrentEventStreamsOpenExactlyOne) {
    AliceSession session;
    McpClient& mcp = *session.mcp;
    std::vector<std::unique_ptr<EventStream>> streams(6);
    std::vector<std::thread> openers;
    for (auto& s : streams)
        openers.emplace_back([&s, &session, &mcp] {
            s = std::make_unique<EventStream>(session.host.api_port(), mcp.headers());
        });
    for (auto& t : openers) t.join();
    int opened = 0, refused = 0;
    for (auto& s : streams) {
        const int status = s->status();
        opened += status == 200;
        refused += status == 409;
    }
    EXPECT_EQ(opened, 1);
    EXPECT_EQ(refused, 5);
    // The slot is freed with the session: a new session opens its own stream.
    ASSERT_EQ(mcp.http().request("DELETE", "/mcp", "", mcp.headers()).status, 204);
    McpClient again(session.host.api_port(), "alice");
    again.initialize();
    EventStream fresh(session.host.api_port(), again.headers());
    EXPECT_EQ(fresh.status(), 200) << fresh.received();
}

TEST(McpTransport, SessionsSurviveARestartOnTheLocalProfile) {
    TempDir home;
    std::string sid, token;
    {
        HostProcess host(local_options(kAdminSecret, "local", home.path()));
        host.start();
        HttpClient api("127.0.0.1", host.api_port());
        token = access_token(api, "admin", kAdminSecret);
        McpClient mcp(host.api_port(), token);
        mcp.initialize();
        sid = mcp.session();
        ASSERT_FALSE(mcp.call_tool("notes_add", {{"title", "kept"}, {"text", "across restarts"}})
                         .value("isError", false));
        EXPECT_EQ(host.stop(), 0);
    }
    // Another process on the same store: the session is still there, as on another replica.
    HostProcess again(local_options(kAdminSecret, "local", home.path()));
    again.start();
    McpClient mcp(again.api_port(), token);
    mcp.set_session(sid);
    HttpResult ping = mcp.post(rpc(20, "ping"), {{"MCP-Protocol-Version", "2025-11-25"}});
    EXPECT_EQ(ping.status, 200) << ping.body;
    const json note = mcp.call_tool("notes_get", {{"title", "kept"}});
    EXPECT_EQ(note["structuredContent"]["text"], "across restarts") << note;
    // Another account still cannot use it.
    McpClient stranger(again.api_port(), "forged");
    stranger.set_session(sid);
    EXPECT_EQ(stranger.post(rpc(21, "ping")).status, 401);
}

}  // namespace
