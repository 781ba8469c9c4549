// The notify service (plugins/notify/) through the real host, on the `test` profile with a push
// service served by this test on loopback (allow-listed in outbound.allow and trusted by notify's
// trusted_endpoints). The browser's side is written with implementations nobody here wrote
// (tests/e2e/web_push_check.mjs: Node's crypto makes the subscription's keys and checks the VAPID
// signature, the http_ece package decrypts the message). Also: a gone subscription (410) is
// removed, an https endpoint on loopback meets the SSRF guard, and bad subscriptions are 400s.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "../unit/outbound/loopback_server.hpp"
#include "build_tree.hpp"
#include "command.hpp"
#include "http_client.hpp"
#include "profiles.hpp"
#include "shared_host_test.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

const std::string kE2e = platform::test::source_dir() + "/tests/e2e";

std::string hex(const std::string& bytes) {
    static const char* digits = "0123456789abcdef";
    std::string out;
    for (unsigned char c : bytes) out += {digits[c >> 4], digits[c & 15]};
    return out;
}

// Runs tests/e2e/web_push_check.mjs with `args`; its one line of JSON output.
json browser(const std::vector<std::string>& args) {
    std::vector<std::string> argv = {kE2e + "/node_modules/.bin/node",
                                     kE2e + "/web_push_check.mjs"};
    argv.insert(argv.end(), args.begin(), args.end());
    const char* path = std::getenv("PATH");
    auto r = run_command(argv,
                         {{"PATH", kE2e + "/node_modules/.bin:" + (path ? path : "/usr/bin")}}, 60);
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    return json::parse(r.out, nullptr, false);
}

class Notify : public SharedHostTest {
protected:
    static std::unique_ptr<LoopbackServer> push;

    static void SetUpTestSuite() {
        push = std::make_unique<LoopbackServer>([](const LoopbackServer::Request& r) {
            if (r.target.rfind("/push/gone", 0) == 0) return LoopbackServer::reply(410, "");
            return LoopbackServer::reply(201, "", {{"Location", "/messages/1"}});
        });
        const std::string entry = "\"127.0.0.1:" + std::to_string(push->port()) + "\"";
        HostProcess::Options o;
        o.profile = suite_dir() + "/notify.yaml";
        std::ofstream(o.profile) << with_plugin_config(test_profile_text(), "notify",
                                                       "trusted_endpoints: [" + entry + "]")
                                 << "\noutbound:\n  allow: [" << entry << "]\n";
        start_host(o);
    }
    static void TearDownTestSuite() {
        stop_host();
        push.reset();
    }

    json ok(const HttpResult& r) {
        EXPECT_EQ(r.status, 200) << r.body;
        return r.status == 200 ? r.json()["data"] : json();
    }
    HttpResult call(const std::string& who, const std::string& method, const json& args) {
        return api.post_json("/api/v1/notify/" + method, args, as(who));
    }
    // Subscribes `endpoint` for `who` with the browser's keys; the device's id.
    std::string subscribe(const std::string& who, const std::string& endpoint, const json& keys) {
        json sub = {{"endpoint", endpoint},
                    {"expirationTime", nullptr},
                    {"keys", {{"p256dh", keys["p256dh"]}, {"auth", keys["auth"]}}}};
        return ok(call(who, "subscribe", {{"subscription", sub}, {"name", "phone"}}))
            .value("id", "");
    }
    // The requests the push service received for `path`.
    static std::vector<LoopbackServer::Request> received(const std::string& path) {
        std::vector<LoopbackServer::Request> out;
        for (auto& r : push->requests())
            if (r.target == path) out.push_back(r);
        return out;
    }
};

std::unique_ptr<LoopbackServer> Notify::push;

TEST_F(Notify, ABrowserDecryptsTheMessageAndVerifiesTheVapidSignature) {
    const json keys = browser({"keys"});
    ASSERT_TRUE(keys.is_object());
    const json before = ok(api.get("/api/v1/notify/devices", as("nora")));
    EXPECT_FALSE(before["notifiable"]);
    const std::string vapid_key = before["vapid_public_key"];
    const std::string id = subscribe("nora", push->url("/push/nora-phone"), keys);
    const json devices = ok(api.get("/api/v1/notify/devices", as("nora")));
    EXPECT_TRUE(devices["notifiable"]);
    ASSERT_EQ(devices["devices"].size(), 1u);
    EXPECT_EQ(devices["devices"][0]["id"], id);
    EXPECT_EQ(devices["devices"][0]["service"], "127.0.0.1");
    EXPECT_EQ(devices.dump().find(keys["auth"].get<std::string>()), std::string::npos);

    const json sent = ok(call("nora", "send",
                              {{"title", "Tea time \xe2\x98\x95"},
                               {"body", "The kettle has boiled."},
                               {"url", "https://example.net/kitchen"}}));
    EXPECT_EQ(sent["sent"], 1) << sent;
    EXPECT_EQ(sent["failed"], 0) << sent;
    ASSERT_EQ(sent["devices"].size(), 1u);
    EXPECT_EQ(sent["devices"][0]["status"], "delivered");

    auto got = received("/push/nora-phone");
    ASSERT_EQ(got.size(), 1u);
    const auto& req = got[0];
    EXPECT_EQ(req.method, "POST");
    EXPECT_EQ(req.header("content-encoding"), "aes128gcm");
    EXPECT_EQ(req.header("content-type"), "application/octet-stream");
    EXPECT_EQ(req.header("ttl"), "86400");
    const std::string file = suite_dir() + "/delivery.json";
    std::ofstream(file) << json{{"body", hex(req.body)},
                                {"private", keys["private"]},
                                {"auth", keys["auth"]},
                                {"authorization", req.header("authorization")}}
                               .dump();
    const json seen = browser({"check", file});
    ASSERT_TRUE(seen.is_object());
    const json payload = json::parse(seen.value("payload", ""), nullptr, false);
    EXPECT_EQ(payload["title"], "Tea time \xe2\x98\x95");
    EXPECT_EQ(payload["body"], "The kettle has boiled.");
    EXPECT_EQ(payload["url"], "https://example.net/kitchen");
    EXPECT_TRUE(seen["signature_valid"]) << seen;
    EXPECT_EQ(seen["k"], vapid_key);
    EXPECT_EQ(seen["jwt"]["header"]["alg"], "ES256");
    EXPECT_EQ(seen["jwt"]["claims"]["aud"], "http://127.0.0.1:" + std::to_string(push->port()));
    EXPECT_EQ(seen["jwt"]["claims"]["sub"], "mailto:postmaster@localhost");
    EXPECT_TRUE(seen["jwt"]["claims"]["exp"].is_number_integer());

    // Another account's send reaches none of nora's devices.
    EXPECT_EQ(ok(call("otto", "send", {{"title", "hi"}}))["sent"], 0);
    EXPECT_EQ(received("/push/nora-phone").size(), 1u);
}

TEST_F(Notify, AGoneSubscriptionIsRemoved) {
    const json keys = browser({"keys"});
    const std::string id = subscribe("gina", push->url("/push/gone-1"), keys);
    const json sent = ok(call("gina", "send", {{"title", "Hello"}}));
    EXPECT_EQ(sent["sent"], 0);
    EXPECT_EQ(sent["failed"], 1);
    EXPECT_EQ(sent["devices"][0]["status"], "gone");
    EXPECT_EQ(sent["devices"][0]["http_status"], 410);
    EXPECT_EQ(received("/push/gone-1").size(), 1u);
    EXPECT_TRUE(ok(api.get("/api/v1/notify/devices", as("gina")))["devices"].empty());
    EXPECT_EQ(call("gina", "unsubscribe", {{"id", id}}).status, 404);
}

TEST_F(Notify, UntrustedLoopbackEndpointsMeetTheSsrfGuard) {
    const json keys = browser({"keys"});
    // http is only for trusted push services; https on an untrusted loopback port is subscribed
    // (the address is the host's to judge) but never reached.
    json sub = {{"endpoint", "http://127.0.0.1:1/push"},
                {"keys", {{"p256dh", keys["p256dh"]}, {"auth", keys["auth"]}}}};
    auto refused = call("sam", "subscribe", {{"subscription", sub}});
    EXPECT_EQ(refused.status, 400) << refused.body;
    EXPECT_NE(refused.body.find("subscription.endpoint: must be an https URL"), std::string::npos);
    subscribe("sam", "https://127.0.0.1:1/push/sam", keys);
    const json sent = ok(call("sam", "send", {{"title", "Hello"}}));
    EXPECT_EQ(sent["failed"], 1);
    EXPECT_EQ(sent["devices"][0]["status"], "failed");
    EXPECT_NE(sent["devices"][0]["error"].get<std::string>().find("loopback"), std::string::npos)
        << sent;
}

TEST_F(Notify, BadArgumentsAre400sNamingTheRule) {
    json sub = {{"endpoint", "https://push.example.net/x"},
                {"keys", {{"p256dh", "AAAA"}, {"auth", "AAAAAAAAAAAAAAAAAAAAAA"}}}};
    auto r = call("sam", "subscribe", {{"subscription", sub}});
    EXPECT_EQ(r.status, 400);
    EXPECT_NE(r.body.find("subscription.keys.p256dh: must be 65 bytes"), std::string::npos)
        << r.body;
    r = call("sam", "send", {{"title", std::string(101, 't')}});
    EXPECT_EQ(r.status, 400);
    EXPECT_NE(r.body.find("title"), std::string::npos) << r.body;
    r = call("sam", "send", {{"title", "t"}, {"url", "file:///etc/passwd"}});
    EXPECT_EQ(r.status, 400);
    EXPECT_NE(r.body.find("url: must be an http or https URL"), std::string::npos) << r.body;
    EXPECT_EQ(api.get("/api/v1/notify/devices").status, 401);
}

}  // namespace
