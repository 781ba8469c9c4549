// GET /api/v1/openapi.json: generated from the descriptors, lists every served endpoint with its
// verb, arguments, access and errors, and is valid against the official OpenAPI 3.1 schema
// (checked by a validator nobody here wrote: tests/e2e, installed by scripts/e2e-deps.sh).
#include <gtest/gtest.h>

#include <fstream>

#include "build_tree.hpp"
#include "command.hpp"
#include "host_process.hpp"
#include "http_client.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

TEST(OpenApi, DescribesEveryEndpointAndIsValid31) {
    HostProcess host;
    host.start();
    HttpClient c("127.0.0.1", host.api_port());
    auto r = c.get("/api/v1/openapi.json");
    ASSERT_EQ(r.status, 200);
    const json doc = r.json();
    EXPECT_EQ(doc["openapi"], "3.1.0");

    // Every endpoint the registry lists is a path of the document.
    const json services = c.get("/registry/listServices").json()["services"];
    size_t endpoints = 0;
    for (const auto& s : services)
        for (const auto& e : s["endpoints"]) {
            ++endpoints;
            const std::string path = e["metadata"]["path"];
            ASSERT_TRUE(doc["paths"].contains(path)) << path;
            const json& item = doc["paths"][path];
            EXPECT_EQ(item.contains("get"), e["metadata"]["verb"] == "GET") << path;
            EXPECT_TRUE(item.contains("post")) << path;
        }
    EXPECT_EQ(doc["paths"].size(), endpoints);

    const json& add = doc["paths"]["/api/v1/notes/add"]["post"];
    EXPECT_EQ(add["requestBody"]["content"]["application/json"]["schema"]["required"],
              json::array({"title", "text"}));
    EXPECT_EQ(add["security"], json::parse(R"([{"bearerAuth":[]}])"));
    EXPECT_TRUE(add["responses"].contains("401"));
    EXPECT_EQ(add["x-platform-access"], "owner");
    const json& get = doc["paths"]["/api/v1/notes/get"]["get"];
    EXPECT_EQ(get["parameters"][0]["name"], "title");
    EXPECT_EQ(get["parameters"][0]["in"], "query");
    EXPECT_EQ(get["parameters"][0]["schema"]["type"], "string");
    EXPECT_EQ(doc["paths"]["/registry/listServices"]["get"]["security"][0],
              json::object());  // public

    TempDir dir;
    const std::string file = dir.path() + "/openapi.json";
    std::ofstream(file) << r.body;
    auto v = run_command({"/usr/bin/env", "node",
                          platform::test::source_dir() + "/tests/e2e/openapi_validate.mjs", file});
    EXPECT_EQ(v.code, 0) << v.out << v.err;
    EXPECT_NE(v.out.find("valid OpenAPI 3.1"), std::string::npos) << v.out << v.err;
    EXPECT_EQ(host.stop(), 0);
}

}  // namespace
