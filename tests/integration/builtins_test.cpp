// The built-in config, store and broker services in the real host, over HTTP (micro-style routes
// /config/set, /store/read, /broker/subscribe...). The profile is a copy of `local` (SQLite store
// under PLATFORM_HOME, in-memory broker) whose auth-noop gives every account the admin scope, written
// into PLATFORM_HOME/profiles by the test, so `Authorization: Bearer admin` may call admin methods.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "host_process.hpp"
#include "http_client.hpp"
#include "stream_reader.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

const std::map<std::string, std::string> kAdmin = {{"Authorization", "Bearer admin"},
                                                   {"Content-Type", "application/json"}};

void write_profile(const std::string& home) {
    std::filesystem::create_directories(home + "/profiles");
    std::ofstream(home + "/profiles/builtins-local.yaml")
        << "name: builtins-local\n"
           "description: local with admin scopes for every account (builtins test)\n"
           "clock: real\n"
           "plugins: [registry, config, store, broker]\n"
           "privileged: [registry, config, store, broker]\n"
           "providers:\n"
           "  store:\n"
           "    plugin: store-sqlite\n"
           "    config:\n"
           "      path: \""
        << home
        << "/data/store.db\"\n"
           "  broker:\n"
           "    plugin: broker-memory\n"
           "  auth:\n"
           "    plugin: auth-noop\n"
           "    config:\n"
           "      scopes: [admin]\n"
           "settings:\n"
           "  call_timeout_ms: 30000\n";
}

// Every byte of every file under `dir` (the SQLite database, its WAL and journal).
std::string all_bytes(const std::string& dir) {
    std::string out;
    for (auto& e : std::filesystem::recursive_directory_iterator(dir)) {
        if (!e.is_regular_file()) continue;
        std::ifstream f(e.path(), std::ios::binary);
        std::stringstream ss;
        ss << f.rdbuf();
        out += ss.str();
    }
    return out;
}

class BuiltinsTest : public ::testing::Test {
protected:
    void SetUp() override {
        write_profile(home.path());
        HostProcess::Options o;
        o.profile = "builtins-local";
        o.home = home.path();
        host = std::make_unique<HostProcess>(o);
        host->start();
        api = std::make_unique<HttpClient>("127.0.0.1", host->api_port());
    }
    HttpResult post(const std::string& target, const json& body) {
        return api->post(target, body.dump(), kAdmin);
    }
    HttpResult get(const std::string& target) { return api->get(target, kAdmin); }

    TempDir home;
    std::unique_ptr<HostProcess> host;
    std::unique_ptr<HttpClient> api;
};

TEST_F(BuiltinsTest, ConfigSetGetMergeDeleteOverHttp) {
    auto r = post("/config/set",
                  {{"path", "app.db"}, {"value", {{"host", "localhost"}, {"port", 5432}}}});
    ASSERT_EQ(r.status, 200) << r.body;
    r = post("/config/set", {{"path", "app.db"},
                             {"value", R"({"user":"svc"})"}});  // a string holding a map: merged
    ASSERT_EQ(r.status, 200) << r.body;
    r = get("/config/get?path=app.db");
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.json(), json::parse(R"({"value":{"host":"localhost","port":5432,"user":"svc"}})"));
    r = get("/config/get?path=app.db.port");
    EXPECT_EQ(r.json()["value"], 5432);

    r = post("/config/set", {{"path", "app.db"}, {"value", "replaced"}});
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(get("/config/get?path=app").json(), json::parse(R"({"value":{"db":"replaced"}})"));

    r = post("/config/delete", {{"path", "app.db"}});
    ASSERT_EQ(r.status, 200) << r.body;
    r = get("/config/get?path=app.db");
    EXPECT_EQ(r.status, 404) << r.body;
    EXPECT_NE(r.body.find("app.db"), std::string::npos) << r.body;
    EXPECT_EQ(post("/config/delete", {{"path", "app.db"}}).status, 404);

    // The host validates against the schema: a bad path and unknown arguments are 400.
    EXPECT_EQ(post("/config/set", {{"path", "a..b"}, {"value", 1}}).status, 400);
    EXPECT_EQ(post("/config/set", {{"path", "a"}, {"value", 1}, {"extra", 1}}).status, 400);
    EXPECT_EQ(get("/config/set?path=a&value=1").status, 405);
    // Admin methods need an account.
    EXPECT_EQ(api->get("/config/get?path=app").status, 401);
}

TEST_F(BuiltinsTest, SecretsNeverReachTheDatabaseInClear) {
    const std::string clear = "correct-horse-battery-staple-7731";
    auto r = post("/config/set", {{"path", "mail.password"}, {"value", clear}, {"secret", true}});
    ASSERT_EQ(r.status, 200) << r.body;
    ASSERT_EQ(post("/config/set", {{"path", "mail.user"}, {"value", "postmaster"}}).status, 200);

    EXPECT_EQ(get("/config/get?path=mail").json(),
              json::parse(R"({"value":{"password":"[secret]","user":"postmaster"}})"));
    EXPECT_EQ(get("/config/get?path=mail.password&decrypt=true").json()["value"], clear);

    // Through the store service, the config table holds the sealed form only.
    r = get("/store/read?table=config&key=mail");
    ASSERT_EQ(r.status, 200) << r.body;
    const std::string stored = r.json()["records"][0]["value"].get<std::string>();
    EXPECT_NE(stored.find("$secret"), std::string::npos) << stored;
    EXPECT_EQ(stored.find(clear), std::string::npos) << stored;

    // And no file under data/ holds the clear text, before or after a clean stop.
    const std::string data = home.path() + "/data";
    ASSERT_TRUE(std::filesystem::exists(data + "/store.db"));
    EXPECT_NE(all_bytes(data).find("postmaster"),
              std::string::npos);  // the grep does see plain values
    EXPECT_EQ(all_bytes(data).find(clear), std::string::npos);
    EXPECT_EQ(host->stop(), 0) << host->log();
    EXPECT_EQ(all_bytes(data).find(clear), std::string::npos);
}

TEST_F(BuiltinsTest, StoreWriteReadListOverHttp) {
    for (const char* k : {"k2", "k1", "other"}) {
        auto r = post("/store/write",
                      {{"table", "scratch"}, {"key", k}, {"value", std::string("v-") + k}});
        ASSERT_EQ(r.status, 200) << r.body;
    }
    auto r = get("/store/read?table=scratch&key=k1");
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.json()["records"][0]["value"], "v-k1");
    r = get("/store/read?table=scratch&prefix=k");
    ASSERT_EQ(r.status, 200) << r.body;
    ASSERT_EQ(r.json()["records"].size(), 2u);
    EXPECT_EQ(r.json()["records"][0]["key"], "k1");
    EXPECT_EQ(get("/store/list?table=scratch&order=desc&limit=2").json(),
              json::parse(R"({"keys":["other","k2"]})"));
    EXPECT_EQ(get("/store/read?table=scratch&key=nope").status, 404);
    EXPECT_EQ(get("/store/list?table=scratch&limit=0").status, 400);
    r = post("/store/delete", {{"table", "scratch"}, {"key", "k1"}});
    EXPECT_EQ(r.json(), json({{"deleted", true}}));
    r = get("/store/tables");
    ASSERT_EQ(r.status, 200) << r.body;
    auto tables = r.json()["tables"];
    EXPECT_NE(std::find(tables.begin(), tables.end(), "scratch"), tables.end()) << r.body;
}

TEST_F(BuiltinsTest, BrokerPublishReachesASubscriberStream) {
    auto sub = std::async(std::launch::async, [port = host->api_port()] {
        return stream_messages(port, "/broker/subscribe?topic=builtins.test&limit=1&wait_ms=20000",
                               "admin", 25000);
    });
    // The subscription exists some time after the request: publish until the subscriber answers.
    bool received = false;
    for (int i = 0; i < 150 && !received; ++i) {
        auto r = api->post(
            "/broker/publish",
            json{{"topic", "builtins.test"}, {"body", "hello-" + std::to_string(i)}}.dump(),
            {{"Authorization", "Bearer admin"},
             {"Content-Type", "application/json"},
             {"X-Request-Id", "req-builtins-1"}});
        ASSERT_EQ(r.status, 200) << r.body;
        EXPECT_EQ(r.json(), json({{"published", true}}));
        received = sub.wait_for(std::chrono::milliseconds(100)) == std::future_status::ready;
    }
    ASSERT_TRUE(received) << "no message reached the subscriber\n" << host->log();
    std::vector<json> chunks = sub.get();
    ASSERT_EQ(chunks.size(), 1u);
    EXPECT_EQ(chunks[0]["topic"], "builtins.test");
    EXPECT_EQ(chunks[0]["body"].get<std::string>().rfind("hello-", 0), 0u) << chunks[0];
    EXPECT_EQ(chunks[0]["headers"]["Content-Type"], "application/json") << chunks[0];
    EXPECT_EQ(chunks[0]["headers"]["X-Request-Id"], "req-builtins-1") << chunks[0];
    EXPECT_EQ(chunks[0]["headers"]["Platform-Account"], "admin") << chunks[0];

    EXPECT_EQ(api->post("/broker/publish", json{{"topic", "t"}, {"body", "b"}}.dump()).status, 401);
    EXPECT_EQ(post("/broker/publish", {{"topic", "t"}}).status, 400);
}

}  // namespace
