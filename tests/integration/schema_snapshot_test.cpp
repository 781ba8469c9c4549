// The argument schemas every surface publishes, compared with a snapshot checked into
// tests/integration/snapshots/: the OpenAPI document (GET /api/v1/openapi.json) and MCP tools/list as
// the admin sees it, both from the test profile (every plugin loaded).
//
// The snapshots were taken before the plugins' schemas moved from hand-typed JSON to the SDK's
// builder (platform/sdk/schema.hpp); the comparison leaves out the byte limits that move added
// ("maxBytes" in tools/list, "x-maxBytes" in OpenAPI) and empty "required" lists, nothing else. A deliberate change to an
// endpoint is accepted by writing the snapshots anew and reviewing their diff:
//   PLATFORM_UPDATE_SNAPSHOTS=1 build/integration-mcp-test --gtest_filter='SchemaSnapshot.*'
#include <gtest/gtest.h>

#include "host_process.hpp"
#include "http_client.hpp"
#include "mcp_client.hpp"
#include "snapshots.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

// `doc` without the byte-limit keywords, and without empty "required" lists (the builder leaves
// them out; a schema means the same with and without one).
json without_byte_limits(json doc) {
    if (doc.is_object()) {
        doc.erase("maxBytes");
        doc.erase("x-maxBytes");
        if (auto it = doc.find("required"); it != doc.end() && it->is_array() && it->empty())
            doc.erase(it);
        for (auto& [_, v] : doc.items()) v = without_byte_limits(v);
    } else if (doc.is_array()) {
        for (auto& v : doc) v = without_byte_limits(v);
    }
    return doc;
}

void expect_matches_snapshot(const json& now, const std::string& name) {
    const auto checked_in = snapshot(name, now);
    if (!checked_in) return;
    const json then = without_byte_limits(*checked_in);
    const json got = without_byte_limits(now);
    if (got == then) return;
    // Name the first differences, not two whole documents.
    const json patch = json::diff(then, got);
    ADD_FAILURE() << name << " differs from its snapshot in " << patch.size()
                  << " places; the first: "
                  << json(patch.begin(), patch.begin() + std::min<size_t>(patch.size(), 8)).dump(1);
}

TEST(SchemaSnapshot, OpenApiDocumentIsTheSnapshots) {
    HostProcess host;
    host.start();
    HttpClient c("127.0.0.1", host.api_port());
    auto r = c.get("/api/v1/openapi.json");
    ASSERT_EQ(r.status, 200) << r.body;
    json doc = r.json();
    doc.erase("servers");  // names the run's port
    expect_matches_snapshot(doc, "openapi.json");
}

TEST(SchemaSnapshot, McpToolsAreTheSnapshots) {
    HostProcess host;
    host.start();
    McpClient mcp(host.api_port(), "admin");
    mcp.initialize();
    json tools = json::object();
    for (const auto& [name, tool] : mcp.tools()) tools[name] = tool;
    expect_matches_snapshot(tools, "mcp_tools.json");
}

}  // namespace
