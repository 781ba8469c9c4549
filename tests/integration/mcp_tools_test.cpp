// /mcp, tools and resources through the real host: who sees which tools, their annotations and
// schemas against the catalogue, argument errors, restricted tokens, notes as resources and
// subscriptions heard on the session's GET stream.
#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "host_process.hpp"
#include "http_client.hpp"
#include "local_accounts.hpp"
#include "mcp_client.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

std::map<std::string, json> tools_of(McpClient& mcp) {
    return mcp.tools();
}

bool has_prefix(const std::map<std::string, json>& tools, const std::string& prefix) {
    for (const auto& [name, _] : tools)
        if (name.rfind(prefix, 0) == 0) return true;
    return false;
}

TEST(McpTools, AnonymousSeesPublicToolsAndABearerSeesNotes) {
    HostProcess host;
    host.start();
    McpClient anonymous(host.api_port());
    anonymous.initialize();
    const auto visible = tools_of(anonymous);
    EXPECT_FALSE(has_prefix(visible, "notes_"));
    EXPECT_TRUE(visible.count("test_simple_text"));  // the conformance fixture's tools are public
    // Calling a tool that needs an account: 401 with the resource metadata, as for a bad token.
    auto denied =
        anonymous.post({{"jsonrpc", "2.0"},
                        {"id", 9},
                        {"method", "tools/call"},
                        {"params", {{"name", "notes_list"}, {"arguments", json::object()}}}});
    EXPECT_EQ(denied.status, 401) << denied.body;
    EXPECT_NE(denied.header("www-authenticate").find("resource_metadata="), std::string::npos);

    McpClient alice(host.api_port(), "alice");
    alice.initialize();
    const auto mine = tools_of(alice);
    for (const char* name : {"notes_add", "notes_get", "notes_list", "notes_delete"})
        EXPECT_TRUE(mine.count(name)) << name;
    // MCP-role endpoints are not tools.
    EXPECT_FALSE(mine.count("notes_resources"));
    EXPECT_FALSE(mine.count("notes_read_resource"));
}

TEST(McpTools, AnnotationsAndSchemasAreTheCatalogues) {
    HostProcess host;
    host.start();
    McpClient mcp(host.api_port(), "alice");
    mcp.initialize();
    const auto tools = tools_of(mcp);
    ASSERT_TRUE(tools.count("notes_get") && tools.count("notes_delete") &&
                tools.count("notes_add"));
    EXPECT_EQ(tools.at("notes_get")["annotations"]["readOnlyHint"], true);
    EXPECT_EQ(tools.at("notes_delete")["annotations"]["destructiveHint"], true);
    EXPECT_EQ(tools.at("notes_add")["annotations"]["readOnlyHint"], false);
    EXPECT_EQ(tools.at("notes_add")["title"], "Add a note");

    // Every tool's inputSchema is its endpoint's schema in the registry and in the OpenAPI
    // document.
    HttpClient api("127.0.0.1", host.api_port());
    const json services = api.get("/registry/listServices").json()["services"];
    const json openapi = api.get("/api/v1/openapi.json").json();
    size_t checked = 0;
    for (const auto& s : services)
        for (const auto& e : s["endpoints"]) {
            const std::string path = e["metadata"]["path"];
            if (path.rfind("/api/v1/", 0) != 0) continue;
            const std::string rest = path.substr(8);
            const std::string name =
                rest.substr(0, rest.find('/')) + "_" + rest.substr(rest.find('/') + 1);
            if (!tools.count(name)) continue;  // an MCP-role endpoint
            ++checked;
            EXPECT_EQ(tools.at(name)["inputSchema"], e["schema"]) << name;
            const json& body = openapi["paths"][path]["post"]["requestBody"]["content"]
                                      ["application/json"]["schema"];
            // The same schema, our byte limit written as OpenAPI's extension there.
            EXPECT_EQ(tools.at(name)["inputSchema"],
                      json::parse(std::regex_replace(body.dump(), std::regex("\"x-maxBytes\""),
                                                     "\"maxBytes\"")))
                << name;
        }
    EXPECT_EQ(checked, tools.size());
}

TEST(McpTools, ArgumentErrorsUnknownToolsAndBadCursors) {
    HostProcess host;
    host.start();
    McpClient mcp(host.api_port(), "alice");
    mcp.initialize();
    const json missing = mcp.call_tool("notes_add", {{"title", "no text"}});
    EXPECT_EQ(missing["isError"], true) << missing;
    const std::string text = missing["content"][0]["text"];
    EXPECT_EQ(text.rfind("text:", 0), 0u) << text;  // names the argument
    EXPECT_EQ(missing["structuredContent"]["error"]["code"], "invalid_argument") << missing;

    const json unknown =
        mcp.request("tools/call", {{"name", "no_such_tool"}, {"arguments", json::object()}});
    EXPECT_EQ(unknown["error"]["code"], -32602) << unknown;
    const json cursor = mcp.request("tools/list", {{"cursor", "not-a-cursor"}});
    EXPECT_EQ(cursor["error"]["code"], -32602) << cursor;
}

TEST(McpTools, ProgressAndLogsPrecedeTheResultOnAnEventStream) {
    HostProcess host;
    host.start();
    McpClient mcp(host.api_port(), "alice");
    mcp.initialize();
    const json done = mcp.request("tools/call", {{"name", "test_tool_with_progress"},
                                                 {"arguments", json::object()},
                                                 {"_meta", {{"progressToken", "p-1"}}}});
    ASSERT_TRUE(done.contains("result")) << done;
    std::vector<double> progress;
    for (const auto& n : mcp.notifications()) {
        EXPECT_EQ(n["method"], "notifications/progress") << n;
        EXPECT_EQ(n["params"]["progressToken"], "p-1") << n;
        progress.push_back(n["params"]["progress"].get<double>());
    }
    ASSERT_GE(progress.size(), 3u);
    for (size_t i = 1; i < progress.size(); ++i) EXPECT_GE(progress[i], progress[i - 1]);

    // Logging follows the session's level, kept with the session.
    EXPECT_EQ(mcp.request("logging/setLevel", {{"level", "error"}})["result"], json::object());
    ASSERT_TRUE(mcp.request("tools/call",
                            {{"name", "test_tool_with_logging"}, {"arguments", json::object()}})
                    .contains("result"));
    EXPECT_TRUE(mcp.notifications().empty()) << mcp.notifications().size();
    EXPECT_EQ(mcp.request("logging/setLevel", {{"level", "debug"}})["result"], json::object());
    ASSERT_TRUE(mcp.request("tools/call",
                            {{"name", "test_tool_with_logging"}, {"arguments", json::object()}})
                    .contains("result"));
    ASSERT_GE(mcp.notifications().size(), 3u);
    EXPECT_EQ(mcp.notifications()[0]["method"], "notifications/message");
    EXPECT_EQ(mcp.request("logging/setLevel", {{"level", "loud"}})["error"]["code"], -32602);
}

TEST(McpTools, ATokenForAnotherServiceSeesNoNotesTools) {
    HostProcess host(local_options("admin-secret-for-mcp-tests"));
    host.start();
    HttpClient api("127.0.0.1", host.api_port());
    const std::string admin = access_token(api, "admin", "admin-secret-for-mcp-tests");
    ASSERT_EQ(api.post_json("/auth/createAccount", {{"id", "dave"}, {"secret", "dave-secret-1"}},
                            {{"Authorization", "Bearer " + admin}})
                  .status,
              200);
    const std::string dave = access_token(api, "dave", "dave-secret-1");
    auto token = [&](const json& services) {
        auto r = api.post_json("/auth/createToken", {{"services", services}},
                               {{"Authorization", "Bearer " + dave}});
        EXPECT_EQ(r.status, 200) << r.body;
        return r.json().value("token", "");
    };

    McpClient billing_only(host.api_port(), token({"billing"}));
    billing_only.initialize();
    EXPECT_FALSE(has_prefix(tools_of(billing_only), "notes_"));
    const json refused = billing_only.call_tool("notes_list", json::object());
    EXPECT_EQ(refused["isError"], true) << refused;

    McpClient notes_only(host.api_port(), token({"notes"}));
    notes_only.initialize();
    EXPECT_TRUE(tools_of(notes_only).count("notes_list"));
    EXPECT_EQ(notes_only.call_tool("notes_list", json::object()).value("isError", false), false);
}

std::set<std::string> resource_uris(McpClient& mcp) {
    std::set<std::string> out;
    const json r = mcp.request("resources/list");
    EXPECT_TRUE(r.contains("result")) << r;
    for (const auto& res : r["result"]["resources"]) out.insert(res["uri"].get<std::string>());
    return out;
}

TEST(McpResources, ANoteIsAResourceOfItsOwnerOnly) {
    HostProcess host;
    host.start();
    McpClient alice(host.api_port(), "alice");
    alice.initialize();
    const json added =
        alice.call_tool("notes_add", {{"title", "shopping list"}, {"text", "eggs\nmilk"}});
    ASSERT_FALSE(added.value("isError", false)) << added;
    EXPECT_TRUE(resource_uris(alice).count("notes://shopping%20list"));

    const json read = alice.request("resources/read", {{"uri", "notes://shopping%20list"}});
    ASSERT_TRUE(read.contains("result")) << read;
    EXPECT_EQ(read["result"]["contents"][0]["text"], "eggs\nmilk");
    EXPECT_EQ(read["result"]["contents"][0]["uri"], "notes://shopping%20list");

    McpClient bob(host.api_port(), "bob");
    bob.initialize();
    EXPECT_FALSE(resource_uris(bob).count("notes://shopping%20list"));
    const json denied = bob.request("resources/read", {{"uri", "notes://shopping%20list"}});
    EXPECT_EQ(denied["error"]["code"], -32002) << denied;
}

TEST(McpResources, ASubscriberHearsOfChangesOnItsEventStream) {
    HostProcess host;
    host.start();
    McpClient alice(host.api_port(), "alice");
    alice.initialize();
    ASSERT_FALSE(alice.call_tool("notes_add", {{"title", "watched"}, {"text", "v1"}})
                     .value("isError", false));
    ASSERT_FALSE(
        alice.call_tool("notes_add", {{"title", "other"}, {"text", "v1"}}).value("isError", false));
    EXPECT_EQ(alice.request("resources/subscribe", {{"uri", "notes://watched"}})["result"],
              json::object());
    EXPECT_EQ(alice.request("resources/subscribe", {{"uri", "notes://other"}})["result"],
              json::object());
    EventStream events(host.api_port(), alice.headers());
    ASSERT_EQ(events.status(), 200) << events.received();

    // A change through tools/call, then one through /api/v1: both are heard.
    const std::string watched =
        R"("method":"notifications/resources/updated","params":{"uri":"notes://watched"})";
    const std::string other =
        R"("method":"notifications/resources/updated","params":{"uri":"notes://other"})";
    ASSERT_FALSE(alice.call_tool("notes_add", {{"title", "watched"}, {"text", "v2"}})
                     .value("isError", false));
    EXPECT_TRUE(events.wait_for(watched, 10000)) << events.received();
    HttpClient api("127.0.0.1", host.api_port());
    ASSERT_EQ(api.post_json("/api/v1/notes/delete", {{"title", "watched"}},
                            {{"Authorization", "Bearer alice"}})
                  .status,
              200);
    EXPECT_TRUE(events.wait_for(watched, 10000, 2)) << events.received();

    // Unsubscribed: the next change of `watched` is not sent, while `other` still is (after it,
    // on the same stream).
    EXPECT_EQ(alice.request("resources/unsubscribe", {{"uri", "notes://watched"}})["result"],
              json::object());
    ASSERT_FALSE(alice.call_tool("notes_add", {{"title", "watched"}, {"text", "v3"}})
                     .value("isError", false));
    ASSERT_FALSE(
        alice.call_tool("notes_add", {{"title", "other"}, {"text", "v2"}}).value("isError", false));
    EXPECT_TRUE(events.wait_for(other, 10000)) << events.received();
    EXPECT_EQ(events.count(watched), 2u) << events.received();

    // Another account's session watching the same URI hears nothing of alice's notes.
    McpClient bob(host.api_port(), "bob");
    bob.initialize();
    EXPECT_EQ(bob.request("resources/subscribe", {{"uri", "notes://other"}})["result"],
              json::object());
    EXPECT_EQ(bob.request("resources/subscribe", {{"uri", "notes://mine"}})["result"],
              json::object());
    EventStream bobs(host.api_port(), bob.headers());
    ASSERT_EQ(bobs.status(), 200) << bobs.received();
    ASSERT_FALSE(
        alice.call_tool("notes_add", {{"title", "other"}, {"text", "v3"}}).value("isError", false));
    ASSERT_FALSE(
        bob.call_tool("notes_add", {{"title", "mine"}, {"text", "bob's"}}).value("isError", false));
    EXPECT_TRUE(bobs.wait_for(R"("params":{"uri":"notes://mine"})", 10000)) << bobs.received();
    EXPECT_EQ(bobs.count(other), 0u) << bobs.received();
    EXPECT_TRUE(events.wait_for(other, 10000, 2)) << events.received();
}

}  // namespace
