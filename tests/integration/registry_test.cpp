// The registry's write side over HTTP: register an external service with nodes, heartbeat,
// expiry after the TTL (moved by the manual clock), deregister, watch as a stream; and the
// network service listing this node.
#include <gtest/gtest.h>

#include <future>

#include "api_answers.hpp"
#include "host_process.hpp"
#include "http_client.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

const std::map<std::string, std::string> kAdmin{{"Authorization", "Bearer admin"}};

json external(const std::string& node = "n1", const std::string& name = "go.core.api.greeter") {
    return {{"name", name},
            {"version", "1.2.0"},
            {"endpoints",
             {{{"name", "Greeter.Hello"},
               {"metadata", {{"path", "/greeter/{name}"}, {"method", "GET"}}}}}},
            {"nodes",
             {{{"id", node}, {"address", "127.0.0.1:9"}, {"metadata", {{"transport", "http"}}}}}}};
}

bool listed(HttpClient& c, const std::string& name) {
    const json listing = c.get("/registry/listServices").json();
    for (const auto& s : listing["services"])
        if (s["name"] == name) return true;
    return false;
}

TEST(Registry, RegisterHeartbeatExpireDeregister) {
    HostProcess host;
    host.start();
    HttpClient c("127.0.0.1", host.api_port());

    auto anon = c.post_json("/registry/register", {{"service", external()}});
    EXPECT_EQ(anon.status, 401);
    auto r = c.post_json("/registry/register",
                         {{"service", external()}, {"options", {{"ttl", 90}}}}, kAdmin);
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_TRUE(listed(c, "go.core.api.greeter"));
    auto one = c.get("/registry/getService?service=go.core.api.greeter");
    ASSERT_EQ(one.status, 200) << one.body;
    EXPECT_EQ(one.json()["services"][0]["nodes"][0]["address"], "127.0.0.1:9");
    EXPECT_EQ(one.json()["services"][0]["version"], "1.2.0");

    // 60 s later a heartbeat refreshes it; 60 s after that it is still there (TTL 90 from the beat).
    ASSERT_EQ(c.post_json("/clock/advance", {{"ms", 60000}}).status, 200);
    ASSERT_EQ(c.post_json("/registry/register", {{"service", external()}}, kAdmin).status, 200);
    ASSERT_EQ(c.post_json("/clock/advance", {{"ms", 60000}}).status, 200);
    EXPECT_TRUE(listed(c, "go.core.api.greeter"));
    // No heartbeat within the TTL: expired.
    ASSERT_EQ(c.post_json("/clock/advance", {{"ms", 31000}}).status, 200);
    EXPECT_FALSE(listed(c, "go.core.api.greeter"));
    EXPECT_EQ(c.get("/registry/getService?service=go.core.api.greeter").status, 404);

    ASSERT_EQ(c.post_json("/registry/register", {{"service", external("n2")}}, kAdmin).status, 200);
    auto dereg = c.post_json("/registry/deregister",
                             {{"service", {{"name", "go.core.api.greeter"}}}}, kAdmin);
    EXPECT_EQ(dereg.status, 200) << dereg.body;
    EXPECT_FALSE(listed(c, "go.core.api.greeter"));
    EXPECT_EQ(c.post_json("/registry/deregister", {{"service", {{"name", "go.core.api.greeter"}}}},
                          kAdmin)
                  .status,
              404);
    EXPECT_EQ(host.stop(), 0);
}

TEST(Registry, BadRecordsAre400NamingTheField) {
    HostProcess host;
    host.start();
    HttpClient c("127.0.0.1", host.api_port());
    auto no_nodes = c.post_json("/registry/register", {{"service", {{"name", "x"}}}}, kAdmin);
    EXPECT_EQ(no_nodes.status, 400);
    EXPECT_NE(no_nodes.body.find("service.nodes"), std::string::npos) << no_nodes.body;
    auto bad_name =
        c.post_json("/registry/register",
                    {{"service", {{"name", "bad name!"}, {"nodes", {{{"id", "1"}}}}}}}, kAdmin);
    EXPECT_EQ(bad_name.status, 400);
    EXPECT_NE(bad_name.body.find("service.name"), std::string::npos);
    auto plugin_name = c.post_json(
        "/registry/register",
        {{"service", {{"name", "go.core.api.v1.notes"}, {"nodes", {{{"id", "1"}}}}}}}, kAdmin);
    EXPECT_EQ(plugin_name.status, 409);
    EXPECT_EQ(host.stop(), 0);
}

TEST(Registry, WatchStreamsChanges) {
    HostProcess host;
    host.start();
    auto watcher = std::async(std::launch::async, [&] {
        HttpClient w("127.0.0.1", host.api_port());
        return w.get("/registry/watch?limit=2&wait_ms=20000", kAdmin);
    });
    HttpClient c("127.0.0.1", host.api_port());
    // The watch subscribes when its call starts; register until it has seen two changes.
    for (int i = 0;
         i < 1000 && watcher.wait_for(std::chrono::milliseconds(0)) != std::future_status::ready;
         ++i) {
        // a new service each time, so every change the watcher sees is a "create"
        c.post_json("/registry/register",
                    {{"service", external("n", "go.core.api.greeter" + std::to_string(i))}},
                    kAdmin);
        host.wait_for_log("never-printed-marker", 20);
    }
    auto r = watcher.get();
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.header("content-type"), "text/event-stream");
    EXPECT_NE(r.body.find("\"action\":\"create\""), std::string::npos) << r.body;
    EXPECT_NE(r.body.find("go.core.api.greeter"), std::string::npos);
    EXPECT_EQ(host.stop(), 0);
}

TEST(Network, ListsThisNodeAndItsServices) {
    HostProcess host;
    host.start();
    HttpClient c("127.0.0.1", host.api_port());
    auto r = c.get("/network/nodes");
    ASSERT_EQ(r.status, 200) << r.body;
    auto node = r.json()["nodes"][0];
    EXPECT_EQ(node["address"], "127.0.0.1:" + std::to_string(host.api_port()));
    EXPECT_NE(node["services"].dump().find("go.core.api.v1.notes"), std::string::npos);
    EXPECT_EQ(c.get("/network/services?node=nosuch").status, 404);
    EXPECT_EQ(host.stop(), 0);
}

}  // namespace
