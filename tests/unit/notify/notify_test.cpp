// The notify plugin through the fake host: subscribe's checks (400 naming the argument and the
// rule), devices without keys, subscriptions sealed at rest, send's requests to the push services
// (on_fetch) and what it makes of their answers: 201 delivered, 404/410 device removed, others
// reported.
#include <gtest/gtest.h>

#include <platform/sdk/text.hpp>
#include <string>
#include <vector>

#include "../../../plugins/notify/ec_keys.hpp"
#include "../support/plugin_under_test.hpp"

namespace {

using namespace plugin_test;

// A browser's PushSubscription with a fresh key and auth secret.
json subscription(const std::string& endpoint) {
    notify::Pkey k = notify::generate_p256();
    return {{"endpoint", endpoint},
            {"expirationTime", nullptr},
            {"keys",
             {{"p256dh", platform::base64url_encode(notify::public_raw(k.get()))},
              {"auth", platform::base64url_encode("0123456789abcdef")}}}};
}

struct Sent {
    std::string url, method, body;
    json headers;
    uint32_t flags = 0;
};

class NotifyTest : public ::testing::Test {
protected:
    FakeHost host;
    FakePlugin plugin = host.load(platform_plugin_entry);
    std::vector<Sent> sent;
    // The status each push service path answers (201 when not listed).
    std::map<std::string, int> answers;

    void SetUp() override {
        host.on_fetch = [this](const platform_http_request_t& req) {
            Sent s{platform::copy(req.url), platform::copy(req.method), platform::copy(req.body),
                   json::parse(platform::copy(req.headers_json)), req.flags};
            sent.push_back(s);
            FakeHost::FakeHttp r;
            r.code = PLATFORM_OK;
            auto it = answers.find(s.url);
            r.status = it == answers.end() ? 201 : it->second;
            r.body = r.status >= 300 ? "no such subscription\nmore" : "";
            return r;
        };
    }

    Reply subscribe(const json& sub, const std::string& who = "alice",
                    const std::string& name = "laptop") {
        return plugin.call("subscribe", {{"subscription", sub}, {"name", name}}, who);
    }
    std::string subscribed(const std::string& endpoint, const std::string& who = "alice") {
        return ok_json(subscribe(subscription(endpoint), who), endpoint).value("id", "");
    }
};

void expect_400(const Reply& r, const std::string& has) {
    EXPECT_EQ(r.code, PLATFORM_INVALID_ARGUMENT) << r.body;
    EXPECT_NE(r.body.find(has), std::string::npos) << r.body;
}

TEST_F(NotifyTest, SubscribeRefusesWhatIsNotAPushSubscription) {
    expect_400(subscribe(subscription("http://push.example.net/x")),
               "subscription.endpoint: must be an https URL");
    expect_400(subscribe(subscription("ftp://push.example.net/x")), "subscription.endpoint");
    expect_400(subscribe(subscription("https://u:p@push.example.net/x")),
               "subscription.endpoint: must not hold a user name");
    expect_400(subscribe(subscription("push.example.net/x")),
               "subscription.endpoint: must be an absolute");
    json short_key = subscription("https://push.example.net/x");
    short_key["keys"]["p256dh"] = platform::base64url_encode(std::string(33, '\x02'));
    expect_400(subscribe(short_key), "subscription.keys.p256dh: must be 65 bytes");
    json off_curve = subscription("https://push.example.net/x");
    std::string raw = *platform::base64url_decode(off_curve["keys"]["p256dh"].get<std::string>());
    raw[64] ^= 1;
    off_curve["keys"]["p256dh"] = platform::base64url_encode(raw);
    expect_400(subscribe(off_curve), "subscription.keys.p256dh: must be an uncompressed P-256");
    json bad_auth = subscription("https://push.example.net/x");
    bad_auth["keys"]["auth"] = platform::base64url_encode("12345678");
    expect_400(subscribe(bad_auth), "subscription.keys.auth: must be 16 bytes");
    json no_keys = subscription("https://push.example.net/x");
    no_keys.erase("keys");
    EXPECT_EQ(subscribe(no_keys).code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_TRUE(ok_json(plugin.call("devices", {}, "alice"))["devices"].empty());
}

TEST_F(NotifyTest, DevicesShowWhereButNeverTheKeysWhichAreSealedAtRest) {
    json sub = subscription("https://push.example.net/send/abc");
    json padded = sub;
    padded["keys"]["auth"] = padded["keys"]["auth"].get<std::string>() + "==";
    ok_json(subscribe(padded));
    json d = ok_json(plugin.call("devices", {}, "alice"));
    EXPECT_TRUE(d["notifiable"]);
    ASSERT_EQ(d["devices"].size(), 1u);
    EXPECT_EQ(d["devices"][0]["name"], "laptop");
    EXPECT_EQ(d["devices"][0]["service"], "push.example.net");
    EXPECT_EQ(platform::base64url_decode(d["vapid_public_key"].get<std::string>())->size(), 65u);
    const std::string shown = d.dump();
    EXPECT_EQ(shown.find("abc"), std::string::npos) << shown;
    EXPECT_EQ(shown.find(sub["keys"]["p256dh"].get<std::string>()), std::string::npos);
    for (const auto& [key, entry] : host.store) {
        EXPECT_EQ(entry.value.find(sub["keys"]["p256dh"].get<std::string>()), std::string::npos)
            << key;
        EXPECT_EQ(entry.value.find("/send/abc"), std::string::npos) << key;
    }
    // The same endpoint again is the same device; another account sees none of it.
    ok_json(subscribe(sub, "alice", "renamed"));
    d = ok_json(plugin.call("devices", {}, "alice"));
    ASSERT_EQ(d["devices"].size(), 1u);
    EXPECT_EQ(d["devices"][0]["name"], "renamed");
    EXPECT_FALSE(ok_json(plugin.call("devices", {}, "bob"))["notifiable"]);
    EXPECT_EQ(plugin.call("unsubscribe", {{"id", d["devices"][0]["id"]}}, "bob").code,
              PLATFORM_NOT_FOUND);
    ok_json(plugin.call("unsubscribe", {{"id", d["devices"][0]["id"]}}, "alice"));
    EXPECT_FALSE(ok_json(plugin.call("devices", {}, "alice"))["notifiable"]);
}

TEST_F(NotifyTest, AtMostTwentyDevices) {
    for (int i = 0; i < 20; ++i) subscribed("https://push.example.net/" + std::to_string(i));
    auto r = subscribe(subscription("https://push.example.net/20"));
    EXPECT_EQ(r.code, PLATFORM_CONFLICT) << r.body;
    EXPECT_NE(r.body.find("at most 20"), std::string::npos) << r.body;
}

TEST_F(NotifyTest, SendPostsEncryptedWithVapidAndHandlesEachAnswer) {
    const std::string ok = subscribed("https://push.example.net/ok");
    const std::string gone = subscribed("https://push.example.net/gone");
    const std::string missing = subscribed("https://push.example.net/missing");
    const std::string broken = subscribed("https://other.example.org:8443/broken");
    answers["https://push.example.net/gone"] = 410;
    answers["https://push.example.net/missing"] = 404;
    answers["https://other.example.org:8443/broken"] = 500;
    json r = ok_json(plugin.call(
        "send", {{"title", "Hi"}, {"body", "Tea is ready"}, {"url", "https://example.net/t"}},
        "alice"));
    EXPECT_EQ(r["sent"], 1);
    EXPECT_EQ(r["failed"], 3);
    std::map<std::string, std::string> status;
    for (const auto& d : r["devices"]) status[d["id"]] = d["status"];
    EXPECT_EQ(status[ok], "delivered");
    EXPECT_EQ(status[gone], "gone");
    EXPECT_EQ(status[missing], "gone");
    EXPECT_EQ(status[broken], "failed");
    ASSERT_EQ(sent.size(), 4u);
    for (const Sent& s : sent) {
        EXPECT_EQ(s.method, "POST");
        EXPECT_EQ(s.headers["Content-Encoding"], "aes128gcm");
        EXPECT_EQ(s.headers["Content-Type"], "application/octet-stream");
        EXPECT_EQ(s.headers["TTL"], "86400");
        EXPECT_EQ(s.headers["Authorization"].get<std::string>().rfind("vapid t=", 0), 0u);
        EXPECT_EQ(s.flags & PLATFORM_HTTP_OPERATOR_URL, 0u);  // user URLs: the SSRF guard
        EXPECT_NE(s.flags & PLATFORM_HTTP_NO_REDIRECTS, 0u);
        EXPECT_EQ(s.body.substr(16, 5), std::string("\x00\x00\x10\x00\x41", 5));
    }
    // The audience is each push service's origin.
    // (Devices go in id order, which is random: find the one sent to other.example.org.)
    std::string auth;
    for (const Sent& s : sent)
        if (s.url == "https://other.example.org:8443/broken") auth = s.headers["Authorization"];
    ASSERT_FALSE(auth.empty());
    const std::string jwt = auth.substr(8, auth.find(", k=") - 8);
    const size_t a = jwt.find('.'), b = jwt.rfind('.');
    json claims = json::parse(*platform::base64url_decode(jwt.substr(a + 1, b - a - 1)));
    EXPECT_EQ(claims["aud"], "https://other.example.org:8443");
    EXPECT_EQ(claims["sub"], "mailto:postmaster@localhost");

    json d = ok_json(plugin.call("devices", {}, "alice"));
    std::map<std::string, json> left;
    for (const auto& dev : d["devices"]) left[dev["id"]] = dev;
    EXPECT_EQ(left.size(), 2u);
    EXPECT_FALSE(left.count(gone));
    EXPECT_FALSE(left.count(missing));
    EXPECT_TRUE(left[ok]["last_success"].is_string());
    EXPECT_TRUE(left[broken]["last_failure"].is_string());
    EXPECT_EQ(left[broken]["last_error"], "push service answered 500: no such subscription");

    // Live web sessions follow the account's own topic.
    auto events = host.events["notify:alice"];
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(json::parse(events[0].payload)["title"], "Hi");
}

TEST_F(NotifyTest, SendChecksItsArguments) {
    subscribed("https://push.example.net/ok");
    expect_400(plugin.call("send", {{"body", "x"}}, "alice"), "title");
    expect_400(plugin.call("send", {{"title", ""}}, "alice"), "title");
    expect_400(plugin.call("send", {{"title", std::string(101, 'a')}}, "alice"), "title");
    expect_400(plugin.call("send", {{"title", "t"}, {"body", std::string(301, 'b')}}, "alice"),
               "body");
    expect_400(plugin.call("send", {{"title", "t"}, {"url", "javascript:alert(1)"}}, "alice"),
               "url");
    // 100 and 300 characters (not bytes) pass.
    std::string title, body;
    for (int i = 0; i < 100; ++i) title += "\xc3\xa9";
    for (int i = 0; i < 300; ++i) body += "\xe2\x82\xac";
    EXPECT_EQ(ok_json(plugin.call("send", {{"title", title}, {"body", body}}, "alice"))["sent"], 1);
    EXPECT_EQ(sent.size(), 1u);
}

TEST_F(NotifyTest, SendWithoutDevicesSaysSo) {
    json r = ok_json(plugin.call("send", {{"title", "Hi"}}, "alice"));
    EXPECT_EQ(r["sent"], 0);
    EXPECT_EQ(r["failed"], 0);
    EXPECT_NE(r["note"].get<std::string>().find("subscribe"), std::string::npos);
    EXPECT_TRUE(sent.empty());
}

TEST_F(NotifyTest, TrustedEndpointsMayUseHttpAndGoAsOperatorUrls) {
    FakeHost trusted_host;
    trusted_host.on_fetch = host.on_fetch;
    FakePlugin p =
        trusted_host.load(platform_plugin_entry, {{"trusted_endpoints", {"127.0.0.1:9999"}}});
    ok_json(p.call("subscribe", {{"subscription", subscription("http://127.0.0.1:9999/push/1")}},
                   "alice"));
    expect_400(
        p.call("subscribe", {{"subscription", subscription("http://127.0.0.1:9998/p")}}, "alice"),
        "subscription.endpoint: must be an https URL");
    EXPECT_EQ(ok_json(p.call("send", {{"title", "Hi"}}, "alice"))["sent"], 1);
    ASSERT_EQ(sent.size(), 1u);
    EXPECT_NE(sent[0].flags & PLATFORM_HTTP_OPERATOR_URL, 0u);
}

}  // namespace
