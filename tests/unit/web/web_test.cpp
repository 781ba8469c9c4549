// The web service's handlers in the SDK's fake host, on_fetch standing in for the host's outbound
// client: fetch sends the caller's URL as a user URL (never an operator URL), reads HTML, plain
// text and charsets, refuses other types and non-2xx answers, and maps the client's refusals to
// 403/400/502/504 naming `url`; search and images ask the `brave` provider and read its answers.
#include "web.hpp"

#include <gtest/gtest.h>

#include "../support/plugin_under_test.hpp"
#include "fixtures.hpp"

namespace {

using namespace plugin_test;
using platform::test::fixture_text;

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

class WebHandlers : public ::testing::Test {
protected:
    WebHandlers() : plugin(host.load(platform_plugin_entry)) {
        host.on_fetch = [this](const platform_http_request_t& req) {
            seen.push_back(req);
            urls.push_back(platform::copy(req.url));
            providers.push_back(platform::copy(req.provider));
            return answer;
        };
        answer.code = PLATFORM_OK;
        answer.status = 200;
        answer.headers = {{"content-type", "text/html; charset=utf-8"}};
        answer.body = fixture_text("web", "article.html");
    }
    FakeHost::FakeHttp answer;
    std::vector<platform_http_request_t> seen;
    std::vector<std::string> urls, providers;
    FakeHost host;
    FakePlugin plugin;
};

TEST_F(WebHandlers, FetchReadsThePageAsAUserUrl) {
    const json a =
        ok_json(plugin.call("fetch", {{"url", "https://gazette.example.com/a/b"}}, "ann"));
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].flags & PLATFORM_HTTP_OPERATOR_URL, 0u) << "the SSRF guard must apply";
    EXPECT_EQ(providers[0], "");
    EXPECT_EQ(seen[0].max_response_bytes, web::kMaxPageBytes);
    EXPECT_EQ(a["url"], "https://gazette.example.com/a/b");
    EXPECT_EQ(a["final_url"], "https://gazette.example.com/a/b");
    EXPECT_EQ(a["status"], 200);
    EXPECT_EQ(a["content_type"], "text/html");
    EXPECT_EQ(a["title"], "Keeping bees in a small garden | The Allotment Gazette");
    EXPECT_TRUE(has(a["text"], "A single hive fits")) << a;
    EXPECT_FALSE(has(a["text"], "FOOTER-TEXT")) << a;
    EXPECT_EQ(a["links"][0]["url"], "https://gazette.example.com/guides/first-hive.html");
    EXPECT_EQ(a["truncated"], false);
    EXPECT_GT(a["characters"].get<int>(), 500);
}

TEST_F(WebHandlers, PlainTextPassesAsText) {
    answer.headers = {{"content-type", "text/plain"}};
    answer.body = "\r\n  line one\r\nline two\r\n\r\n";
    const json a = ok_json(plugin.call("fetch", {{"url", "https://e.com/notes.txt"}}, "ann"));
    EXPECT_EQ(a["text"], "line one\nline two");
    EXPECT_TRUE(a["title"].is_null());
    EXPECT_TRUE(a["links"].empty());
}

TEST_F(WebHandlers, TheHeadersCharsetWinsThenThePagesOwn) {
    answer.headers = {{"content-type", "text/html"}};
    answer.body = fixture_text("web", "latin1.html");
    json a = ok_json(plugin.call("fetch", {{"url", "https://e.fr/"}}, "ann"));
    EXPECT_EQ(a["title"], "Café crème");
    answer.headers = {{"content-type", "text/plain; charset=ISO-8859-1"}};
    answer.body = "caf\xe9";
    a = ok_json(plugin.call("fetch", {{"url", "https://e.fr/t"}}, "ann"));
    EXPECT_EQ(a["text"], "café");
}

TEST_F(WebHandlers, OtherTypesAreRefusedNamingTheType) {
    answer.headers = {{"content-type", "image/png"}};
    answer.body = "\x89PNG";
    const Reply r = plugin.call("fetch", {{"url", "https://e.com/x.png"}}, "ann");
    EXPECT_EQ(r.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_TRUE(has(r.body, "url: https://e.com/x.png is image/png")) << r.body;
}

TEST_F(WebHandlers, AnErrorStatusIsABadGatewayNamingIt) {
    answer.status = 404;
    const Reply r = plugin.call("fetch", {{"url", "https://e.com/gone"}}, "ann");
    EXPECT_EQ(r.code, PLATFORM_BAD_GATEWAY);
    EXPECT_TRUE(has(r.body, "answered HTTP 404")) << r.body;
}

TEST_F(WebHandlers, TheClientsRefusalsNameUrlAndTheReason) {
    answer.code = PLATFORM_PERMISSION_DENIED;
    answer.error = "refused: 10.0.0.1 is a private address (RFC 1918)";
    Reply r = plugin.call("fetch", {{"url", "http://10.0.0.1/"}}, "ann");
    EXPECT_EQ(r.code, PLATFORM_PERMISSION_DENIED);
    EXPECT_EQ(r.body, "url: refused: 10.0.0.1 is a private address (RFC 1918)");
    answer.code = PLATFORM_INVALID_ARGUMENT;
    answer.error = "malformed URL";
    r = plugin.call("fetch", {{"url", "http://"}}, "ann");
    EXPECT_EQ(r.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_TRUE(has(r.body, "url: malformed URL")) << r.body;
    answer.code = PLATFORM_PAYLOAD_TOO_LARGE;
    r = plugin.call("fetch", {{"url", "https://e.com/big"}}, "ann");
    EXPECT_EQ(r.code, PLATFORM_BAD_GATEWAY);
    EXPECT_TRUE(has(r.body, "larger than 2 MiB")) << r.body;
    answer.code = PLATFORM_TIMEOUT;
    r = plugin.call("fetch", {{"url", "https://e.com/slow"}}, "ann");
    EXPECT_EQ(r.code, PLATFORM_DEADLINE_EXCEEDED);
    answer.code = PLATFORM_BAD_GATEWAY;
    answer.error = "could not resolve nowhere.invalid";
    r = plugin.call("fetch", {{"url", "https://nowhere.invalid/"}}, "ann");
    EXPECT_EQ(r.code, PLATFORM_BAD_GATEWAY);
    EXPECT_TRUE(has(r.body, "could not resolve nowhere.invalid")) << r.body;
}

TEST_F(WebHandlers, SearchAsksBraveAndReadsItsAnswer) {
    answer.headers = {{"content-type", "application/json"}};
    answer.body = fixture_text("brave", "web_search.json");
    const json a =
        ok_json(plugin.call("search", {{"query", "  rust borrow checker "}, {"limit", 2}}));
    ASSERT_EQ(providers.size(), 1u);
    EXPECT_EQ(providers[0], "brave");
    EXPECT_EQ(urls[0], "/res/v1/web/search?q=rust%20borrow%20checker&count=2");
    EXPECT_EQ(a["results"].size(), 2u);
    EXPECT_EQ(a["query"], "rust borrow checker");
}

TEST_F(WebHandlers, ImagesDefaultTo24) {
    answer.headers = {{"content-type", "application/json"}};
    answer.body = fixture_text("brave", "images_search.json");
    const json a = ok_json(plugin.call("images", {{"query", "lighthouse"}}));
    EXPECT_EQ(urls[0], "/res/v1/images/search?q=lighthouse&count=24");
    EXPECT_EQ(a["results"].size(), 2u);
}

TEST_F(WebHandlers, ABlankQueryIsRefusedBeforeAnyFetch) {
    const Reply r = plugin.call("search", {{"query", "   "}});
    EXPECT_EQ(r.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_TRUE(has(r.body, "query")) << r.body;
    EXPECT_TRUE(seen.empty());
}

TEST_F(WebHandlers, BraveWithoutAKeyIsUnavailable) {
    answer.code = PLATFORM_UNAVAILABLE;
    answer.error = "providers.brave.api_key is not set";
    const Reply r = plugin.call("search", {{"query", "x"}});
    EXPECT_EQ(r.code, PLATFORM_UNAVAILABLE);
    EXPECT_TRUE(has(r.body, "providers.brave.api_key")) << r.body;
}

}  // namespace
