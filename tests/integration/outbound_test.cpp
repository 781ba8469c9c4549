// The host's outbound HTTP client (outbound.hpp) through the real host: the test-only
// `fetch` plugin calls the host table's http_fetch. A profile copied from profiles/test.yaml adds
// an `outbound:` section that allow-lists a loopback upstream served by this test. A user URL to
// loopback is 403 with the guard's reason; the same URL as an operator upstream is fetched; a
// redirect out of the allow-list is re-checked; providers join their base URL and key, and an
// unset key is 503 naming the setting.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "../unit/outbound/loopback_server.hpp"
#include "build_tree.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "text_search.hpp"

using namespace platform::test;

namespace {

namespace fs = std::filesystem;

std::string detail(const HttpResult& r) {
    auto j = nlohmann::json::parse(r.body, nullptr, false);
    return j.is_object() && j.contains("Detail") ? j["Detail"].get<std::string>() : r.body;
}

class OutboundHost : public ::testing::Test {
protected:
    LoopbackServer upstream{[](const LoopbackServer::Request& r) {
        if (r.target == "/hello")
            return LoopbackServer::reply(200, "hello from upstream", {{"X-Upstream", "yes"}});
        if (r.target == "/to-metadata")
            return LoopbackServer::redirect(302, "http://169.254.169.254/latest/meta-data/");
        if (r.target.rfind("/v1/", 0) == 0)
            return LoopbackServer::reply(
                200, nlohmann::json{{"target", r.target}, {"key", r.header("x-api-key")}}.dump());
        return LoopbackServer::reply(404, "not here");
    }};
    // A page users may name: listed in outbound.allow_user (how tests serve user URLs from loopback).
    LoopbackServer page{[](const LoopbackServer::Request& r) {
        if (r.target == "/to-loopback") return LoopbackServer::redirect(302, "http://127.0.0.1:1/");
        return LoopbackServer::reply(200, "a user page");
    }};
    TempDir dir;
    std::unique_ptr<HostProcess> host;
    std::unique_ptr<HttpClient> api;

    void SetUp() override {
        // profiles/test.yaml, relative to this file, plus the outbound section.
        fs::path test_yaml = fs::path(platform::test::source_dir()) / "profiles" / "test.yaml";
        std::ifstream in(test_yaml);
        ASSERT_TRUE(in) << test_yaml;
        std::stringstream text;
        text << in.rdbuf();
        std::string profile = dir.path() + "/outbound-test.yaml";
        std::ofstream(profile) << text.str() << "\n"
                               << "outbound:\n"
                               << "  allow: [\"127.0.0.1:" << upstream.port() << "\"]\n"
                               << "  allow_user: [\"127.0.0.1:" << page.port() << "\"]\n"
                               << "  timeout_ms: 5000\n"
                               << "  providers:\n"
                               << "    fake:\n"
                               << "      base_url: \"http://127.0.0.1:" << upstream.port()
                               << "/v1\"\n"
                               << "      api_key: \"${OUTBOUND_TEST_FAKE_KEY}\"\n"
                               << "      api_key_header: X-Api-Key\n"
                               << "      key_required: true\n"
                               << "    nokey:\n"
                               << "      base_url: \"http://127.0.0.1:" << upstream.port()
                               << "/v1\"\n"
                               << "      api_key: \"${OUTBOUND_TEST_UNSET_KEY}\"\n"
                               << "      key_required: true\n";
        HostProcess::Options o;
        o.profile = profile;
        o.env["OUTBOUND_TEST_FAKE_KEY"] = "fake-key-1";
        host = std::make_unique<HostProcess>(o);
        host->start();
        api = std::make_unique<HttpClient>("127.0.0.1", host->api_port());
    }

    HttpResult get(const nlohmann::json& args) { return api->post_json("/fetch/get", args); }
};

TEST_F(OutboundHost, UserUrlToLoopbackIsRefusedWithTheReason) {
    auto r = get({{"url", upstream.url("/hello")}});
    EXPECT_EQ(r.status, 403) << r.body;
    EXPECT_TRUE(has(detail(r), "refused: 127.0.0.1 is a loopback address (127.0.0.0/8)")) << r.body;
    auto encoded =
        get({{"url", "http://2130706433:" + std::to_string(upstream.port()) + "/hello"}});
    EXPECT_EQ(encoded.status, 403) << encoded.body;
    auto named = get({{"url", "http://localhost:" + std::to_string(upstream.port()) + "/hello"}});
    EXPECT_EQ(named.status, 403) << named.body;
    EXPECT_TRUE(has(detail(named), "localhost resolves to")) << named.body;
    auto file = get({{"url", "file:///etc/passwd"}});
    EXPECT_EQ(file.status, 403) << file.body;
    EXPECT_TRUE(has(detail(file), "scheme not allowed")) << file.body;
    auto metadata = get({{"url", "http://169.254.169.254/latest/meta-data/"}});
    EXPECT_EQ(metadata.status, 403) << metadata.body;
    EXPECT_TRUE(upstream.requests().empty());
}

TEST_F(OutboundHost, AllowUserAdmitsListedUserUrlsOnly) {
    auto r = get({{"url", page.url("/article")}});
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.json()["body"], "a user page");
    // The redirect's target is not listed: the guard decides it.
    auto hop = get({{"url", page.url("/to-loopback")}});
    EXPECT_EQ(hop.status, 403) << hop.body;
    EXPECT_TRUE(has(detail(hop), "refused: 127.0.0.1 is a loopback address")) << hop.body;
    // outbound.allow (operators') does not admit user URLs.
    EXPECT_EQ(get({{"url", upstream.url("/hello")}}).status, 403);
}

TEST_F(OutboundHost, AllowListedOperatorUpstreamIsFetched) {
    auto r = get({{"url", upstream.url("/hello")}, {"operator", true}});
    ASSERT_EQ(r.status, 200) << r.body;
    auto j = r.json();
    EXPECT_EQ(j["status"], 200);
    EXPECT_EQ(j["body"], "hello from upstream");
    EXPECT_EQ(j["headers"]["x-upstream"], "yes");
    EXPECT_EQ(j["final_url"], upstream.url("/hello"));
    EXPECT_EQ(j["error"], "");
    ASSERT_EQ(upstream.requests().size(), 1u);
}

TEST_F(OutboundHost, RedirectOutOfTheAllowListIsRefused) {
    auto r = get({{"url", upstream.url("/to-metadata")}, {"operator", true}});
    EXPECT_EQ(r.status, 403) << r.body;
    EXPECT_TRUE(has(detail(r), "redirect to http://169.254.169.254/latest/meta-data/")) << r.body;
    EXPECT_TRUE(has(detail(r), "cloud metadata")) << r.body;
}

TEST_F(OutboundHost, ProvidersJoinTheirBaseUrlAndKey) {
    auto r = get({{"url", "forecast?city=Oslo"}, {"provider", "fake"}});
    ASSERT_EQ(r.status, 200) << r.body;
    auto upstream_saw = nlohmann::json::parse(r.json()["body"].get<std::string>());
    EXPECT_EQ(upstream_saw["target"], "/v1/forecast?city=Oslo");
    EXPECT_EQ(upstream_saw["key"], "fake-key-1");

    auto unset = get({{"url", "forecast"}, {"provider", "nokey"}});
    EXPECT_EQ(unset.status, 503) << unset.body;
    EXPECT_EQ(detail(unset), "providers.nokey.api_key is not set");
    auto unknown = get({{"url", "forecast"}, {"provider", "weather"}});
    EXPECT_EQ(unknown.status, 503) << unknown.body;
    EXPECT_EQ(detail(unknown), "providers.weather.base_url is not set");
}

}  // namespace
