// The answers of a fixed set of requests over every surface — the gateway's routes on the api port
// (catalogue, rpc path, /rpc, declared routes, sessions), the RPC proxy port, the api handler, MCP
// and the CLI — compared byte for byte with a snapshot checked into tests/integration/snapshots/.
// Status, every header but the per-request ones, and the body are recorded; request ids, session
// ids, timestamps and other generated values are masked (mask()). The set covers each surface's
// success, its refusals (unknown service and method, wrong verb, bad arguments, wrong media type,
// malformed envelopes) and its envelopes, so a change to the request path that changes any answer
// fails here. A deliberate change is accepted by writing the snapshot anew and reviewing its diff:
//   PLATFORM_UPDATE_SNAPSHOTS=1 build/integration-mcp-test --gtest_filter='SurfaceSnapshot.*'
#include <gtest/gtest.h>

#include <regex>

#include "command.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "mcp_client.hpp"
#include "snapshots.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

// Generated values: RFC 3339 times, UUIDs, long hex tokens, epoch milliseconds, the run's ports and
// the number of plugins (/health).
std::string mask(std::string text) {
    static const std::regex time(R"(\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?)");
    static const std::regex uuid(
        R"([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})");
    static const std::regex hex(R"(\b[0-9a-f]{16,}\b)");
    static const std::regex epoch(R"(\b1[6-9]\d{8,11}\b)");
    text = std::regex_replace(text, time, "<time>");
    text = std::regex_replace(text, uuid, "<uuid>");
    text = std::regex_replace(text, hex, "<hex>");
    static const std::regex port(R"(127\.0\.0\.1:\d+)");
    static const std::regex plugin_counts(R"("loaded":\d+,"serving":\d+)");  // grow with the tree
    text = std::regex_replace(text, port, "127.0.0.1:<port>");
    text = std::regex_replace(text, plugin_counts, R"("loaded":<n>,"serving":<n>)");
    return std::regex_replace(text, epoch, "<epoch>");
}

// Headers that differ per request or per run by nature.
bool per_request(const std::string& name) {
    return name == "x-request-id" || name == "date" || name == "mcp-session-id" ||
           name == "content-length" || name == "traceparent";
}

json answer(const HttpResult& r) {
    json headers = json::array();
    for (const auto& [name, value] : r.header_lines)
        if (!per_request(name)) headers.push_back(name + ": " + mask(value));
    return {{"status", r.status}, {"headers", headers}, {"body", mask(r.body)}};
}

json answer(const CommandResult& r) {
    return {{"code", r.code}, {"out", mask(r.out)}, {"err", mask(r.err)}};
}

class Recorder {
public:
    void add(const std::string& name, json got) {
        if (got_.contains(name)) ADD_FAILURE() << "two cases named " << name;
        got_[name] = std::move(got);
    }
    void compare() {
        const auto checked_in = snapshot("surface_answers.json", got_);
        if (!checked_in) return;
        const json& then = *checked_in;
        for (const auto& [name, want] : then.items()) {
            if (!got_.contains(name)) {
                ADD_FAILURE() << name << ": not asked any more";
                continue;
            }
            EXPECT_EQ(got_[name].dump(1), want.dump(1)) << name << " answers differently";
        }
        for (const auto& [name, _] : got_.items())
            EXPECT_TRUE(then.contains(name)) << name << ": not in the snapshot";
    }

private:
    json got_ = json::object();
};

const Headers kAdmin = {{"Authorization", "Bearer admin"}};
Headers admin_json() {
    Headers h = kAdmin;
    h["Content-Type"] = "application/json";
    return h;
}

void gateway_requests(HttpClient& api, Recorder& rec) {
    auto get = [&](const std::string& name, const std::string& target, const Headers& h = kAdmin) {
        rec.add(name, answer(api.get(target, h)));
    };
    auto send = [&](const std::string& name, const std::string& method, const std::string& target,
                    const std::string& body, Headers h = admin_json()) {
        rec.add(name, answer(api.request(method, target, body, h)));
    };
    get("root", "/");
    send("root POST", "POST", "/", "{}");
    get("health", "/health");
    get("catalogue list", "/api/v1/notes/list");
    get("catalogue list anonymous", "/api/v1/notes/list", {});
    get("catalogue list result envelope", "/api/v1/notes/list?envelope=result");
    send("catalogue add", "POST", "/api/v1/notes/add", R"({"title":"a","text":"b"})");
    get("catalogue get by query", "/api/v1/notes/get?title=a");
    get("catalogue get missing", "/api/v1/notes/get?title=zz");
    send("catalogue add GET", "GET", "/api/v1/notes/add?title=a", "");
    send("catalogue list PUT", "PUT", "/api/v1/notes/list", "");
    send("catalogue add bad argument", "POST", "/api/v1/notes/add", R"({"title":7,"text":"b"})");
    send("catalogue add unknown argument", "POST", "/api/v1/notes/add",
         R"({"title":"a","colour":"red"})");
    send("catalogue add not JSON", "POST", "/api/v1/notes/add", "{title",
         {{"Authorization", "Bearer admin"}, {"Content-Type", "application/json"}});
    send("catalogue add text body", "POST", "/api/v1/notes/add", "title=a",
         {{"Authorization", "Bearer admin"}, {"Content-Type", "text/plain"}});
    get("catalogue unknown service", "/api/v1/nosuch/list");
    get("catalogue unknown method", "/api/v1/notes/nosuch");
    get("catalogue three segments", "/api/v1/notes/list/more");
    get("rpc path list", "/v1/notes/list");
    get("rpc path get", "/v1/notes/get?title=a");
    get("rpc path add GET", "/v1/notes/add?title=a");
    send("rpc path add", "POST", "/v1/notes/add", R"({"title":"c","text":"d"})");
    send("rpc path add bad argument", "POST", "/v1/notes/add", R"({"title":[],"text":"d"})");
    get("rpc path unknown service", "/nosuch/list");
    get("rpc path unknown method", "/v1/notes/nosuch");
    get("rpc path no route", "/v1");
    send("rpc list", "POST", "/rpc", R"({"service":"notes","method":"list"})");
    send("rpc endpoint field", "POST", "/rpc",
         R"({"service":"notes","endpoint":"get","request":{"title":"a"}})");
    send("rpc request as text", "POST", "/rpc",
         R"({"service":"notes","method":"get","request":"{\"title\":\"a\"}"})");
    send("rpc request bad text", "POST", "/rpc",
         R"({"service":"notes","method":"get","request":"{title"})");
    send("rpc request not object", "POST", "/rpc",
         R"({"service":"notes","method":"get","request":"[1]"})");
    send("rpc GET", "GET", "/rpc", "");
    send("rpc no service", "POST", "/rpc", R"({"method":"list"})");
    send("rpc no method", "POST", "/rpc", R"({"service":"notes"})");
    send("rpc unknown service", "POST", "/rpc", R"({"service":"nosuch","method":"list"})");
    send("rpc unknown method", "POST", "/rpc", R"({"service":"notes","method":"nosuch"})");
    send("rpc bad arguments", "POST", "/rpc",
         R"({"service":"notes","method":"get","request":{"title":1}})");
    send("rpc no node", "POST", "/rpc",
         R"({"service":"notes","method":"list","address":"10.9.9.9:1"})");
    send("rpc not JSON", "POST", "/rpc", "{");
    get("declared route page", "/ui/images");
    get("declared route page anonymous", "/ui/images", {});
    send("session login GET", "GET", "/auth/login", "");
    send("session login bad", "POST", "/auth/login", R"({"name":"nobody","secret":"x"})");
    get("protected resource metadata", "/.well-known/oauth-protected-resource",
        {{"Host", "example.test"}});
    get("acme challenge missing", "/.well-known/acme-challenge/none");
}

TEST(SurfaceSnapshot, EverySurfaceAnswersAsRecorded) {
    Recorder rec;
    {
        HostProcess host;
        host.start();
        HttpClient api("127.0.0.1", host.api_port());
        gateway_requests(api, rec);

        HttpClient proxy("127.0.0.1", host.proxy_port());
        rec.add("proxy root", answer(proxy.get("/")));
        rec.add("proxy rpc",
                answer(proxy.request("POST", "/rpc", R"({"service":"notes","method":"list"})",
                                     admin_json())));
        rec.add("proxy other path", answer(proxy.get("/notes/list", kAdmin)));

        McpClient mcp(host.api_port(), "admin");
        rec.add("mcp initialize", json::parse(mask(mcp.initialize().dump())));
        for (const auto& [name, params] : std::vector<std::pair<std::string, json>>{
                 {"mcp call list", {{"name", "notes_list"}, {"arguments", json::object()}}},
                 {"mcp call get", {{"name", "notes_get"}, {"arguments", {{"title", "a"}}}}},
                 {"mcp call bad arguments", {{"name", "notes_get"}, {"arguments", {{"title", 1}}}}},
                 {"mcp call missing", {{"name", "notes_get"}, {"arguments", {{"title", "zz"}}}}},
                 {"mcp call unknown tool",
                  {{"name", "nosuch_tool"}, {"arguments", json::object()}}}})
            rec.add(name, json::parse(mask(mcp.request("tools/call", params).dump())));
        rec.add("mcp unknown method", json::parse(mask(mcp.request("nosuch/method").dump())));

        TempDir cli_home;
        auto cli = [&](const std::string& name, std::vector<std::string> args) {
            rec.add(name, answer(run_cli(host, cli_home.path(), "admin", std::move(args))));
        };
        cli("cli list", {"notes", "list"});
        cli("cli list json", {"-o", "json", "notes", "list"});
        cli("cli get", {"notes", "get", "--title", "a"});
        cli("cli get missing", {"notes", "get", "--title", "zz"});
        cli("cli get no title", {"notes", "get"});
        cli("cli unknown flag", {"notes", "add", "--title", "a", "--colour", "red"});
        cli("cli unknown service", {"nosuch", "list"});
        cli("cli call", {"call", "notes", "get", R"({"title":"a"})"});
        cli("cli help method", {"help", "notes", "get"});
    }
    {
        HostProcess::Options options;
        options.args = {"--handler", "api"};
        HostProcess host(options);
        host.start();
        HttpClient api("127.0.0.1", host.api_port());
        rec.add("api handler list", answer(api.get("/v1/notes/list", kAdmin)));
        rec.add("api handler unknown method", answer(api.get("/v1/notes/nosuch", kAdmin)));
        rec.add("api handler unknown", answer(api.get("/nosuch/list", kAdmin)));
        rec.add("api handler catalogue", answer(api.get("/api/v1/notes/list", kAdmin)));
    }
    for (const std::string handler : {"proxy", "event", "web"}) {
        HostProcess::Options options;
        options.args = {"--handler", handler};
        HostProcess host(options);
        host.start();
        HttpClient api("127.0.0.1", host.api_port());
        rec.add(handler + " handler list", answer(api.get("/v1/notes/list", kAdmin)));
        rec.add(handler + " handler unknown", answer(api.get("/nosuch/list", kAdmin)));
        Headers upgrade = kAdmin;
        upgrade["Upgrade"] = "websocket";
        upgrade["Connection"] = "Upgrade";
        rec.add(handler + " handler upgrade", answer(api.get("/v1/notes/list", upgrade)));
    }
    rec.compare();
}

}  // namespace
