// Registry-wide bad-input sweeps (issue 11): every endpoint the host serves, read at run time from
// /api/v1/openapi.json (HTTP) and tools/list (MCP), gets the cases support/bad_inputs.hpp
// generates from its input schema, so a new plugin is covered without editing this file; the
// answers are judged by support/sweep_verdicts.hpp.
//
//   HTTP  POST <path> with a JSON body, as the account `sweeper` (`admin` for admin endpoints),
//         every kind of case; GET endpoints also get invalid UTF-8 through the query string.
//         kTimeoutMs per request: a hang is a failure, not a stuck test.
//   MCP   tools/call with the same arguments (no raw bodies: a body that is not JSON is -32700 at
//         the transport, checked once) — isError results naming the argument, never a JSON-RPC
//         error (docs/mcp.md: JSON-RPC errors are for unknown tools).
// Valid calls (at the limits, ~1 MiB strings, undeclared arguments where allowed) are not made to
// streaming endpoints or the business clock (valid_calls_skipped, printed with the reason).
// Before the sweep `keeper` stores a note, a task and a doc; after it they read back unchanged
// and /health answers. Every failure is collected and listed at once. The MCP twin of
// access_test's ownership sweep runs on the same host. SWEEP_VERBOSE=1 prints every case with its
// answer on stderr.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <set>

#include "bad_inputs.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "mcp_client.hpp"
#include "owned_fixtures.hpp"
#include "replicas.hpp"
#include "shared_host_test.hpp"
#include "sweep_verdicts.hpp"

using nlohmann::json;
using namespace platform::test;
namespace t = platform::test;
using t::judge_http;
using t::judge_mcp;
using t::mcp_response;
using t::shorten;

namespace {

constexpr int kTimeoutMs = 10000;

struct Op {
    std::string path, tool, access;  // tool: "<service>_<method>" for catalogue endpoints
    std::set<std::string> flags;
    json schema;
    size_t max_body = 1 << 20;
    bool get = false;
    std::string token() const { return access == "admin" ? "admin" : "sweeper"; }
};

std::vector<Op> operations(HttpClient& c) {
    std::vector<Op> out;
    const json doc = c.get("/api/v1/openapi.json").json();
    for (const auto& [path, item] : doc["paths"].items()) {
        const json& op = item["post"];
        Op o{path,
             "",
             op.value("x-platform-access", ""),
             {},
             op["requestBody"]["content"]["application/json"]["schema"],
             op.value("x-platform-max-body", size_t(1) << 20),
             item.contains("get")};
        if (path.rfind("/api/v1/", 0) == 0) {
            o.tool = path.substr(8);
            o.tool[o.tool.find('/')] = '_';
        }
        const std::string flags = op.value("x-platform-flags", "");
        for (size_t i = 0, end; i < flags.size(); i = end + 1) {
            end = std::min(flags.find(',', i), flags.size());
            o.flags.insert(flags.substr(i, end - i));
        }
        out.push_back(std::move(o));
    }
    return out;
}

// Why valid calls to an endpoint are not made (they would not answer, or would change what the
// sweep relies on); its invalid ones are still swept. By flag, then by path.
std::string valid_calls_skipped(const Op& op) {
    if (op.flags.count("streaming")) return "streaming: a valid call opens an event stream";
    static const std::map<std::string, std::string> by_path = {
        {"/clock/set", "moves the business clock every later call sees"},
        {"/clock/advance", "moves the business clock every later call sees"},
    };
    auto it = by_path.find(op.path);
    return it == by_path.end() ? "" : it->second;
}

struct Tally {
    int calls = 0;
    std::set<std::string> endpoints;
    std::set<BadKind> kinds;
    std::vector<std::string> failures, skipped;
    std::map<std::string, int> answers;  // "bad 400", "valid 200", "bad isError", ... → count
    void answered(const BadInput& c, const std::string& what) {
        ++answers[(c.valid_by_schema ? "valid " : "bad ") + what];
        if (std::getenv("SWEEP_VERBOSE"))
            std::fprintf(stderr, "%s: %s -> %s\n", t::kind_name(c.kind), c.label.c_str(),
                         what.c_str());
    }
    std::string answers_line() const {
        std::string out;
        for (const auto& [what, n] : answers)
            out += (out.empty() ? "" : ", ") + what + " x" + std::to_string(n);
        return out;
    }
    void fail(const std::string& where, const BadInput& c, const std::string& what) {
        failures.push_back(where + " [" + t::kind_name(c.kind) + ": " + c.label + "] " + what);
    }
};

std::string joined(const std::vector<std::string>& lines) {
    std::string out;
    for (const auto& l : lines) out += "  " + l + "\n";
    return out;
}

class Sweep : public SharedHostTest {
protected:
    static void TearDownTestSuite() { stop_host(false); }
};

// The bearer header and a JSON Content-Type.
Headers json_bearer(const std::string& token) {
    return {{"Authorization", "Bearer " + token}, {"Content-Type", "application/json"}};
}

// HTTP: every case of every endpoint, on one connection, reconnecting after a timeout.
Tally sweep_http(int port, const std::vector<Op>& ops) {
    Tally tally;
    auto client = std::make_unique<HttpClient>("127.0.0.1", port);
    client->set_timeout_ms(kTimeoutMs);
    auto send = [&](const Op& op, const BadInput& c, const std::string& method,
                    const std::string& target, const std::string& body) {
        ++tally.calls;
        tally.kinds.insert(c.kind);
        try {
            const HttpResult r = client->request(method, target, body, json_bearer(op.token()));
            tally.answered(
                c, std::to_string(r.status) +
                       (std::getenv("SWEEP_VERBOSE") ? " " + op.path + " " + shorten(r.body) : ""));
            if (auto problem = judge_http(c, r, op.flags.count("open_world") > 0))
                tally.fail(method + " " + op.path, c, *problem);
        } catch (const std::exception& e) {
            tally.fail(method + " " + op.path, c, std::string("no answer: ") + e.what());
            client = std::make_unique<HttpClient>("127.0.0.1", port);
            client->set_timeout_ms(kTimeoutMs);
        }
    };
    for (const Op& op : ops) {
        tally.endpoints.insert(op.path);
        const std::string skip = valid_calls_skipped(op);
        if (!skip.empty()) tally.skipped.push_back(op.path + ": valid calls skipped: " + skip);
        for (const auto& arg : t::baseline(op.schema).unsatisfiable)
            tally.skipped.push_back(op.path + ": no valid value for " + arg +
                                    ", cases on its other arguments left out");
        for (const BadInput& c : t::bad_inputs(op.schema, {op.max_body, true})) {
            if (c.valid_by_schema && !skip.empty()) continue;
            send(op, c, "POST", op.path, c.body());
            if (op.get && c.kind == BadKind::invalid_utf8)  // the same through the query string
                send(op, c, "GET", op.path + "?" + c.argument + "=sweep%C3%28", "");
        }
    }
    return tally;
}

// An initialized MCP client for `token`, its reads bounded by kTimeoutMs.
std::unique_ptr<McpClient> mcp_client(int port, const std::string& token) {
    auto m = std::make_unique<McpClient>(port, token);
    m->http().set_timeout_ms(kTimeoutMs);
    m->initialize();
    return m;
}

// Every tool `m`'s account sees in tools/list (all pages): name → inputSchema.
std::map<std::string, json> tools_of(McpClient& m) {
    std::map<std::string, json> out;
    json params = json::object();
    for (;;) {
        const json page = m.request("tools/list", params)["result"];
        for (const auto& tool : page["tools"]) out[tool["name"]] = tool["inputSchema"];
        if (!page.contains("nextCursor")) return out;
        params["cursor"] = page["nextCursor"];
    }
}

HttpResult call_tool(McpClient& m, int id, const std::string& tool, const json& args) {
    Headers h = m.headers();
    h["Content-Type"] = "application/json";
    json msg = {{"jsonrpc", "2.0"},
                {"id", id},
                {"method", "tools/call"},
                {"params", {{"name", tool}, {"arguments", args}}}};
    return m.post_raw(msg.dump(-1, ' ', false, json::error_handler_t::replace), h);
}

// MCP: every case but raw bodies for every tool, as the tool's caller.
Tally sweep_mcp(int port, const std::vector<Op>& ops) {
    Tally tally;
    std::map<std::string, std::unique_ptr<McpClient>> clients;
    for (const char* token : {"sweeper", "admin"}) clients[token] = mcp_client(port, token);
    std::map<std::string, json> tools = tools_of(*clients["admin"]);
    tools.merge(tools_of(*clients["sweeper"]));
    int id = 1000;
    for (const Op& op : ops) {
        auto tool = tools.find(op.tool);
        if (tool == tools.end())
            continue;  // a built-in, or an endpoint whose MCP role is not a tool
        tally.endpoints.insert(op.tool);
        const std::string skip = valid_calls_skipped(op);
        for (const BadInput& c : t::bad_inputs(tool->second, {op.max_body, false})) {
            if (c.valid_by_schema && !skip.empty()) continue;
            ++tally.calls;
            tally.kinds.insert(c.kind);
            auto& client = clients[op.token()];
            try {
                const HttpResult r = call_tool(*client, ++id, op.tool, c.args);
                const json m = mcp_response(r);
                std::string text;
                for (const auto& part : m.is_object() && m.contains("result")
                                            ? m["result"].value("content", json::array())
                                            : json::array())
                    text += part.value("text", "");
                tally.answered(
                    c,
                    (!m.is_object()        ? "HTTP " + std::to_string(r.status)
                     : m.contains("error") ? "error " + m["error"].value("code", json(0)).dump()
                     : m["result"].value("isError", false) ? std::string("isError")
                                                           : std::string("result")) +
                        (std::getenv("SWEEP_VERBOSE") ? " " + op.tool + " " + shorten(text) : ""));
                if (auto problem = judge_mcp(c, r, op.flags.count("open_world") > 0))
                    tally.fail(op.tool, c, *problem);
            } catch (const std::exception& e) {
                tally.fail(op.tool, c, std::string("no answer: ") + e.what());
                client = mcp_client(port, op.token());
            }
        }
    }
    return tally;
}

// The HTTP sweep, and with `over_mcp` the MCP one, against the host on `port` (auth-noop: the
// bearer text is the account id), keeper's records checked before and after.
void sweep_every_endpoint(int port, bool over_mcp = true) {
    const auto started = std::chrono::steady_clock::now();
    HttpClient c("127.0.0.1", port);
    // What must survive the sweep: keeper's note, task and doc, as first read back.
    ASSERT_EQ(c.post_json("/api/v1/notes/add", {{"title", "kept"}, {"text", "kept note"}},
                          json_bearer("keeper"))
                  .status,
              200);
    const std::string task =
        c.post_json("/api/v1/tasks/create", {{"title", "kept task"}}, json_bearer("keeper"))
            .json()["data"]["id"];
    const std::string doc =
        c.post_json("/api/v1/docs/write", {{"title", "kept doc"}, {"content", "kept"}},
                    json_bearer("keeper"))
            .json()["data"]["id"];
    const std::vector<std::pair<std::string, json>> reads = {
        {"/api/v1/notes/get", {{"title", "kept"}}},
        {"/api/v1/tasks/read", {{"id", task}}},
        {"/api/v1/docs/read", {{"id", doc}}}};
    std::vector<std::string> before;
    for (const auto& [path, args] : reads)
        before.push_back(c.post_json(path, args, json_bearer("keeper")).body);

    const std::vector<Op> ops = operations(c);
    ASSERT_GT(ops.size(), 50u);
    Tally http = sweep_http(port, ops);
    const auto http_done = std::chrono::steady_clock::now();
    Tally mcp = over_mcp ? sweep_mcp(port, ops) : Tally{};
    const auto mcp_done = std::chrono::steady_clock::now();

    for (size_t i = 0; i < reads.size(); ++i)
        EXPECT_EQ(c.post_json(reads[i].first, reads[i].second, json_bearer("keeper")).body,
                  before[i])
            << reads[i].first;
    EXPECT_EQ(c.get("/health").status, 200);

    const auto secs = [](auto from, auto to) {
        return std::chrono::duration<double>(to - from).count();
    };
    for (const auto& s : http.skipped) std::printf("sweep: %s\n", s.c_str());
    std::printf("sweep: HTTP answers: %s\nsweep: MCP answers: %s\n", http.answers_line().c_str(),
                mcp.answers_line().c_str());
    std::printf("sweep: HTTP %zu endpoints x %zu case kinds = %d calls in %.1f s, %zu failures\n",
                http.endpoints.size(), http.kinds.size(), http.calls, secs(started, http_done),
                http.failures.size());
    std::printf("sweep: MCP %zu tools x %zu case kinds = %d calls in %.1f s, %zu failures\n",
                mcp.endpoints.size(), mcp.kinds.size(), mcp.calls, secs(http_done, mcp_done),
                mcp.failures.size());
    std::printf(
        "sweep: %zu endpoints x %zu case kinds = %d HTTP calls, %d MCP calls, %zu failures\n",
        http.endpoints.size(), http.kinds.size(), http.calls, mcp.calls,
        http.failures.size() + mcp.failures.size());
    EXPECT_GE(http.kinds.size(), static_cast<size_t>(t::kBadKinds));
    if (over_mcp) EXPECT_GT(mcp.endpoints.size(), 50u);
    EXPECT_TRUE(http.failures.empty()) << http.failures.size() << " HTTP failures:\n"
                                       << joined(http.failures);
    EXPECT_TRUE(mcp.failures.empty()) << mcp.failures.size() << " MCP failures:\n"
                                      << joined(mcp.failures);
}

}  // namespace

TEST_F(Sweep, EveryEndpointRefusesBadInputOverHttpAndMcp) {
    sweep_every_endpoint(host->api_port());
}

// The HTTP sweep once more on profiles/kubernetes.yaml (support/replicas.hpp): a replica on
// store-postgres, broker-nats and events-nats, the real clock, every plugin — with auth-noop in
// place of auth-local and no rate limits, so the sweep's accounts are the bearer texts as above
// (the auth service is auth-local's own and is swept on no profile). HTTP only: the MCP layer in front of the providers is the one swept
// above, and the pass costs half the time. Its own ctest entry, sweep-kubernetes-test, on the
// shared PostgreSQL and nats-server fixtures.
TEST(SweepOnKubernetes, EveryEndpointRefusesBadInputOverHttp) {
    if (auto why = replicas_skip_reason(); !why.empty()) GTEST_SKIP() << why;
    ReplicaSet::Options o;
    o.auth = "auth-noop";
    o.lift_rate_limits = true;  // thousands of calls a second from two accounts
    ReplicaSet replicas(o);
    replicas.start(0);
    sweep_every_endpoint(replicas[0].api_port(), /*over_mcp=*/false);
    EXPECT_EQ(replicas.stop(0), 0) << replicas.logs();
}

// A POST /mcp body that is not JSON is a JSON-RPC parse error (-32700) at the transport, HTTP 400;
// for ill-formed UTF-8 the message names the argument.
TEST_F(Sweep, McpBodiesThatAreNotJsonAreParseErrors) {
    auto m = mcp_client(host->api_port(), "sweeper");
    Headers h = m->headers();
    h["Content-Type"] = "application/json";
    const std::string call =
        R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"notes_add","arguments":{"title":"sweep")";
    const std::vector<std::pair<std::string, std::string>> bodies = {
        {call, "the body"},
        {call + R"(,"text":"x"}}} }x)", "the body"},
        {"not json", "the body"},
        {call + ",\"text\":\"sweep\xC3\x28\"}}}", "params.arguments.text"}};
    for (const auto& [body, named] : bodies) {
        const HttpResult r = m->post_raw(body, h);
        EXPECT_EQ(r.status, 400) << body;
        const json j = json::parse(r.body, nullptr, false);
        ASSERT_TRUE(j.is_object()) << r.body;
        EXPECT_EQ(j["error"]["code"], -32700) << r.body;
        EXPECT_TRUE(t::names(j["error"].value("message", ""), named)) << r.body;
    }
}

// The MCP twin of Access.EveryOwnerEndpointAnswers404ToAnotherAccount: account B calls each owner
// tool on account A's resource through tools/call and gets an isError not_found result that shows
// nothing of it; A's resource is untouched.
TEST_F(Sweep, EveryOwnerToolAnswersNotFoundToAnotherAccountOverMcp) {
    HttpClient c("127.0.0.1", host->api_port());
    int swept = 0, not_tools = 0;
    std::set<std::string> tools;
    for (const auto& [name, _] : tools_of(*mcp_client(host->api_port(), "mcp-owner-probe")))
        tools.insert(name);
    for (const Op& op : operations(c)) {
        if (op.access != "owner") continue;
        auto it = t::owned_fixtures().find(op.path);
        ASSERT_NE(it, t::owned_fixtures().end())
            << op.path << " declares owner access but has no fixture in owned_fixtures.cpp";
        if (!tools.count(op.tool)) {
            ++not_tools;
            continue;
        }
        const t::OwnedFixture& f = it->second;
        const std::string a = "mcp-owner-a-" + std::to_string(swept),
                          b = "mcp-owner-b-" + std::to_string(swept);
        const auto created = t::create_owned(c, f, json_bearer(a), op.path);
        ASSERT_TRUE(created.has_value());
        const std::string& id = *created;
        auto mb = mcp_client(host->api_port(), b);
        const json answer = mcp_response(call_tool(*mb, 1, op.tool, t::with_id(f.args, id)));
        ASSERT_TRUE(answer.contains("result")) << op.tool << " " << answer.dump();
        const json& r = answer["result"];
        const std::string code = t::error_code_of(r);
        switch (f.expect) {
            case t::Expect::Own:
            case t::Expect::List:
                EXPECT_FALSE(r.value("isError", false)) << op.tool << " " << r.dump();
                break;
            case t::Expect::NotFound:
                EXPECT_TRUE(r.value("isError", false)) << op.tool << " " << r.dump();
                if (!code.empty()) {
                    EXPECT_EQ(code, "not_found") << op.tool << " " << r.dump();
                }
                break;
            case t::Expect::Unavailable:
                EXPECT_TRUE(r.value("isError", false)) << op.tool << " " << r.dump();
                break;
        }
        if (f.expect != t::Expect::Own) {
            EXPECT_EQ(r.dump().find(t::kMarker), std::string::npos)
                << op.tool << " leaks A's resource: " << r.dump();
        }
        auto mine = c.post_json(f.read, t::with_id(f.read_args, id), json_bearer(a));
        EXPECT_EQ(mine.status, 200) << op.path << " " << mine.body;
        EXPECT_NE(mine.body.find(t::kMarker), std::string::npos) << op.path << " " << mine.body;
        ++swept;
    }
    std::printf("sweep: MCP owner sweep: %d owner tools, %d owner endpoints that are not tools\n",
                swept, not_tools);
    EXPECT_GE(swept, 40);
}
