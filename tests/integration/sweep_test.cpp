// Registry-wide bad-input sweeps (issue 11, support/registry_sweep.hpp): every endpoint the host
// serves, read at run time from /api/v1/openapi.json and tools/list, over HTTP as the account
// `sweeper` (`admin` for admin endpoints) and over MCP tools/call. Before the sweep `keeper`
// stores a note, a task and a doc; after it they read back unchanged and /health answers. Every
// failure is collected and listed at once. The MCP twin of access_test's ownership sweep
// (support/owner_sweep.hpp) runs on the same host. SWEEP_VERBOSE=1 prints every case with its
// answer on stderr.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "host_process.hpp"
#include "http_client.hpp"
#include "mcp_client.hpp"
#include "owner_sweep.hpp"
#include "registry_sweep.hpp"
#include "replicas.hpp"
#include "shared_host_test.hpp"
#include "sweep_verdicts.hpp"

using nlohmann::json;
using namespace platform::test;
namespace t = platform::test;

namespace {

class Sweep : public SharedHostTest {
protected:
    static void TearDownTestSuite() { stop_host(false); }
};

// The bearer header and a JSON Content-Type.
Headers json_bearer(const std::string& token) {
    return {{"Authorization", "Bearer " + token}, {"Content-Type", "application/json"}};
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

    const std::vector<SweptOperation> ops = registry_operations(c);
    ASSERT_GT(ops.size(), 50u);
    const SweepTally http = sweep_http(port, ops);
    const auto http_done = std::chrono::steady_clock::now();
    const SweepTally mcp = over_mcp ? sweep_mcp(port, ops) : SweepTally{};
    const auto mcp_done = std::chrono::steady_clock::now();

    for (size_t i = 0; i < reads.size(); ++i)
        EXPECT_EQ(c.post_json(reads[i].first, reads[i].second, json_bearer("keeper")).body,
                  before[i])
            << reads[i].first;
    EXPECT_EQ(c.get("/health").status, 200);

    const auto secs = [](auto from, auto to) {
        return std::chrono::duration<double>(to - from).count();
    };
    report_sweep(http, secs(started, http_done), mcp, secs(http_done, mcp_done));
    if (over_mcp) EXPECT_GT(mcp.endpoints.size(), 50u);
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
    auto m = sweep_mcp_client(host->api_port(), "sweeper");
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
    const McpOwnerSweep swept = owner_sweep_mcp(
        host->api_port(), c, registry_operations(c), [](const SweptOperation&, int i) {
            return OwnerPair{"mcp-owner-a-" + std::to_string(i),
                             "mcp-owner-b-" + std::to_string(i)};
        });
    std::printf("sweep: MCP owner sweep: %d owner tools, %d owner endpoints that are not tools\n",
                swept.swept, swept.not_tools);
    EXPECT_GE(swept.swept, 40);
}
