// Outbound::fetch against a real loopback HTTP server: the allow-listed operator upstream works;
// everything else about loopback is refused; redirects are re-checked hop by hop; size cap,
// timeout, provider base URLs and keys, credentials across origins, older request structs.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstring>
#include <platform/host/outbound/outbound.hpp>
#include <thread>

#include "fetch_helper.hpp"
#include "loopback_server.hpp"

using namespace platform::host;
using namespace platform::test;

namespace {

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// Routes of the fake upstream.
std::string route(const LoopbackServer::Request& r, int other_port) {
    const std::string& t = r.target;
    const std::string other = "http://127.0.0.1:" + std::to_string(other_port);
    if (t == "/hello")
        return LoopbackServer::reply(
            200, "hello world", {{"X-Test", "Yes"}, {"Set-Cookie", "a=1"}, {"Set-Cookie", "b=2"}});
    if (t == "/missing") return LoopbackServer::reply(404, "no such thing");
    if (t == "/echo") {
        nlohmann::json j{
            {"method", r.method}, {"target", r.target}, {"body", r.body}, {"headers", r.headers}};
        return LoopbackServer::reply(200, j.dump(), {{"Content-Type", "application/json"}});
    }
    if (t == "/to-metadata") return LoopbackServer::redirect(302, "http://169.254.169.254/latest");
    if (t == "/to-encoded-loopback")
        return LoopbackServer::redirect(302,
                                        "http://0x7f.1:" + std::to_string(other_port) + "/echo");
    if (t == "/to-localhost")
        return LoopbackServer::redirect(301,
                                        "http://localhost:" + std::to_string(other_port) + "/echo");
    if (t == "/to-private") return LoopbackServer::redirect(307, "http://10.0.0.1/");
    if (t == "/to-file") return LoopbackServer::redirect(302, "file:///etc/passwd");
    if (t == "/to-hello") return LoopbackServer::redirect(302, "/hello");
    if (t == "/to-other") return LoopbackServer::redirect(302, other + "/echo");
    if (t == "/see-other") return LoopbackServer::redirect(303, "echo");
    if (t == "/keep-method") return LoopbackServer::redirect(307, "/echo");
    if (t == "/loop") return LoopbackServer::redirect(302, "/loop");
    if (t == "/big") return LoopbackServer::reply(200, std::string(100000, 'x'));
    if (t == "/hang") return "";
    return LoopbackServer::reply(200, "path " + t);
}

class Fetch : public ::testing::Test {
protected:
    LoopbackServer other{[](const LoopbackServer::Request& r) { return route(r, 0); }};
    LoopbackServer server{
        [this](const LoopbackServer::Request& r) { return route(r, other.port()); }};

    OutboundSettings allow_server() const {
        OutboundSettings s;
        s.allow = {"127.0.0.1:" + std::to_string(server.port())};
        return s;
    }
};

TEST_F(Fetch, AllowListedOperatorUpstreamWorks) {
    OutboundSettings s;
    s.allow = {"127.0.0.1:*"};
    Outbound out(s);
    auto f = fetch(out, server.url("/hello"), PLATFORM_HTTP_OPERATOR_URL);
    EXPECT_EQ(f.code, PLATFORM_OK) << f.error;
    EXPECT_EQ(f.calls, 1);
    EXPECT_EQ(f.status, 200);
    EXPECT_EQ(f.body, "hello world");
    EXPECT_EQ(f.error, "");
    EXPECT_EQ(f.final_url, server.url("/hello"));
    EXPECT_EQ(f.headers["x-test"], "Yes");
    EXPECT_EQ(f.headers["content-length"], "11");
    EXPECT_EQ(f.headers["set-cookie"], "a=1, b=2");
    ASSERT_EQ(server.requests().size(), 1u);
    EXPECT_EQ(server.requests()[0].header("user-agent"), "platform/0.1");

    auto missing = fetch(out, server.url("/missing"), PLATFORM_HTTP_OPERATOR_URL);
    EXPECT_EQ(missing.code, PLATFORM_OK);  // any HTTP status is a response
    EXPECT_EQ(missing.status, 404);
    EXPECT_EQ(missing.body, "no such thing");
}

TEST_F(Fetch, UserUrlToTheAllowListedServerIsStillRefused) {
    Outbound out(allow_server());
    auto f = fetch(out, server.url("/hello"));
    EXPECT_EQ(f.code, PLATFORM_PERMISSION_DENIED);
    EXPECT_TRUE(has(f.error, "refused: 127.0.0.1 is a loopback address")) << f.error;
    EXPECT_FALSE(has(f.error, "outbound.allow")) << f.error;  // a user URL cannot be allow-listed
    EXPECT_EQ(f.status, 0);
    EXPECT_TRUE(server.requests().empty());
}

TEST_F(Fetch, OperatorUrlNotOnTheAllowListIsRefused) {
    OutboundSettings s;
    s.allow = {"127.0.0.1:" + std::to_string(other.port())};
    Outbound out(s);
    auto f = fetch(out, server.url("/hello"), PLATFORM_HTTP_OPERATOR_URL);
    EXPECT_EQ(f.code, PLATFORM_PERMISSION_DENIED);
    EXPECT_TRUE(has(f.error, "outbound.allow (127.0.0.1:" + std::to_string(server.port()) + ")"))
        << f.error;
    EXPECT_TRUE(server.requests().empty());
}

TEST_F(Fetch, RedirectsLeavingTheAllowListAreReChecked) {
    Outbound out(allow_server());
    struct Case {
        const char* path;
        platform_status_t code;
        const char* part;
    };
    for (const Case& c :
         {Case{"/to-metadata", PLATFORM_PERMISSION_DENIED,
               "redirect to http://169.254.169.254/latest: refused: 169.254.169.254 is the cloud "
               "metadata address"},
          Case{"/to-encoded-loopback", PLATFORM_PERMISSION_DENIED,
               "refused: 127.0.0.1 is a loopback address"},
          Case{"/to-localhost", PLATFORM_PERMISSION_DENIED, "refused: localhost resolves to"},
          Case{"/to-private", PLATFORM_PERMISSION_DENIED,
               "refused: 10.0.0.1 is a private address (RFC 1918)"},
          Case{"/to-file", PLATFORM_PERMISSION_DENIED,
               "redirect to file:///etc/passwd: refused: scheme not allowed"}}) {
        auto f = fetch(out, server.url(c.path), PLATFORM_HTTP_OPERATOR_URL);
        EXPECT_EQ(f.code, c.code) << c.path << ": " << f.error;
        EXPECT_TRUE(has(f.error, c.part)) << c.path << ": " << f.error;
        EXPECT_EQ(f.status, 0);
    }
    EXPECT_TRUE(
        other.requests().empty());  // the encoded-loopback and localhost hops never connected
}

TEST_F(Fetch, RedirectsWithinTheAllowListAreFollowed) {
    Outbound out(allow_server());
    auto f = fetch(out, server.url("/to-hello"), PLATFORM_HTTP_OPERATOR_URL);
    EXPECT_EQ(f.code, PLATFORM_OK) << f.error;
    EXPECT_EQ(f.status, 200);
    EXPECT_EQ(f.body, "hello world");
    EXPECT_EQ(f.final_url, server.url("/hello"));

    auto raw = fetch(out, server.url("/to-hello"),
                     PLATFORM_HTTP_OPERATOR_URL | PLATFORM_HTTP_NO_REDIRECTS);
    EXPECT_EQ(raw.code, PLATFORM_OK);
    EXPECT_EQ(raw.status, 302);
    EXPECT_EQ(raw.headers["location"], "/hello");
    EXPECT_EQ(raw.final_url, server.url("/to-hello"));

    auto metadata = fetch(out, server.url("/to-metadata"),
                          PLATFORM_HTTP_OPERATOR_URL | PLATFORM_HTTP_NO_REDIRECTS);
    EXPECT_EQ(metadata.code, PLATFORM_OK);  // not followed, so nothing to refuse
    EXPECT_EQ(metadata.status, 302);
}

TEST_F(Fetch, RedirectLimitAndMethodRules) {
    OutboundSettings s = allow_server();
    s.max_redirects = 3;
    Outbound out(s);
    auto loop = fetch(out, server.url("/loop"), PLATFORM_HTTP_OPERATOR_URL);
    EXPECT_EQ(loop.code, PLATFORM_BAD_GATEWAY);
    EXPECT_TRUE(has(loop.error, "too many redirects (more than outbound.max_redirects = 3)"))
        << loop.error;
    EXPECT_EQ(server.requests().size(), 4u);

    FetchArgs post;
    post.url = server.url("/see-other");
    post.method = "POST";
    post.body = R"({"a":1})";
    post.headers_json = R"({"Content-Type":"application/json"})";
    post.flags = PLATFORM_HTTP_OPERATOR_URL;
    auto f = fetch(out, post);
    ASSERT_EQ(f.code, PLATFORM_OK) << f.error;
    auto echo = nlohmann::json::parse(f.body);
    EXPECT_EQ(echo["method"], "GET");  // 303: GET without the body
    EXPECT_EQ(echo["body"], "");
    EXPECT_EQ(f.final_url, server.url("/echo"));

    post.url = server.url("/keep-method");
    auto kept = fetch(out, post);
    ASSERT_EQ(kept.code, PLATFORM_OK) << kept.error;
    echo = nlohmann::json::parse(kept.body);
    EXPECT_EQ(echo["method"], "POST");  // 307 keeps the method and the body
    EXPECT_EQ(echo["body"], R"({"a":1})");
    EXPECT_EQ(echo["headers"]["content-type"], "application/json");
}

TEST_F(Fetch, MethodBodyAndHeadersReachTheUpstream) {
    Outbound out(allow_server());
    FetchArgs a;
    a.url = server.url("/echo");
    a.method = "put";
    a.body = "payload";
    a.headers_json = R"({"X-Custom":"v1","Content-Type":"text/plain","User-Agent":"mine/1"})";
    a.flags = PLATFORM_HTTP_OPERATOR_URL;
    auto f = fetch(out, a);
    ASSERT_EQ(f.code, PLATFORM_OK) << f.error;
    auto echo = nlohmann::json::parse(f.body);
    EXPECT_EQ(echo["method"], "PUT");
    EXPECT_EQ(echo["body"], "payload");
    EXPECT_EQ(echo["headers"]["x-custom"], "v1");
    EXPECT_EQ(echo["headers"]["content-type"], "text/plain");
    EXPECT_EQ(echo["headers"]["user-agent"], "mine/1");
    EXPECT_EQ(f.headers["content-type"], "application/json");

    for (const char* bad : {R"([1])", R"({"X":1})", R"({"X":"a\r\nEvil: 1"})", R"({"Host":"evil"})",
                            R"({"bad name":"v"})", "not json"}) {
        a.headers_json = bad;
        auto r = fetch(out, a);
        EXPECT_EQ(r.code, PLATFORM_INVALID_ARGUMENT) << bad;
        EXPECT_TRUE(has(r.error, "headers: ")) << r.error;
    }
    a.headers_json = "";
    a.method = "GE T";
    EXPECT_EQ(fetch(out, a).code, PLATFORM_INVALID_ARGUMENT);
}

TEST_F(Fetch, ResponseSizeCap) {
    OutboundSettings s = allow_server();
    s.max_response_bytes = 1000;
    Outbound out(s);
    auto f = fetch(out, server.url("/big"), PLATFORM_HTTP_OPERATOR_URL);
    EXPECT_EQ(f.code, PLATFORM_PAYLOAD_TOO_LARGE);
    EXPECT_TRUE(has(f.error, "larger than 1000 bytes (max_response_bytes)")) << f.error;
    EXPECT_EQ(f.status, 0);

    FetchArgs a;
    a.url = server.url("/big");
    a.flags = PLATFORM_HTTP_OPERATOR_URL;
    a.max_response_bytes = 100000;  // the request's own cap replaces the default
    auto exact = fetch(out, a);
    EXPECT_EQ(exact.code, PLATFORM_OK) << exact.error;
    EXPECT_EQ(exact.body.size(), 100000u);
    a.max_response_bytes = 99999;
    EXPECT_EQ(fetch(out, a).code, PLATFORM_PAYLOAD_TOO_LARGE);
}

TEST_F(Fetch, Timeout) {
    Outbound out(allow_server());
    FetchArgs a;
    a.url = server.url("/hang");
    a.flags = PLATFORM_HTTP_OPERATOR_URL;
    a.timeout_ms = 200;
    auto start = std::chrono::steady_clock::now();
    auto f = fetch(out, a);
    auto took = std::chrono::steady_clock::now() - start;
    EXPECT_EQ(f.code, PLATFORM_TIMEOUT);
    EXPECT_TRUE(has(f.error, "within 200 ms (timeout_ms)")) << f.error;
    EXPECT_LT(took, std::chrono::seconds(10));  // a bound, not a timing assertion

    OutboundSettings s = allow_server();
    s.timeout_ms = 200;  // the default when the request gives 0
    Outbound by_setting(s);
    EXPECT_EQ(fetch(by_setting, server.url("/hang"), PLATFORM_HTTP_OPERATOR_URL).code,
              PLATFORM_TIMEOUT);

    // A provider's own timeout_ms replaces whatever the request asks for.
    OutboundSettings p = allow_server();
    p.providers["slow"] = ProviderSettings{server.url(), "", "", false, 200};
    Outbound by_provider(p);
    FetchArgs pa;
    pa.url = "/hang";
    pa.provider = "slow";
    pa.timeout_ms = 600000;
    auto pf = fetch(by_provider, pa);
    EXPECT_EQ(pf.code, PLATFORM_TIMEOUT);
    EXPECT_TRUE(has(pf.error, "within 200 ms (timeout_ms)")) << pf.error;
}

TEST_F(Fetch, ConnectionFailureIsBadGateway) {
    int closed_port;
    {
        LoopbackServer gone([](const LoopbackServer::Request&) { return std::string(); });
        closed_port = gone.port();
    }
    OutboundSettings s;
    s.allow = {"127.0.0.1:*"};
    Outbound out(s);
    auto f = fetch(out, "http://127.0.0.1:" + std::to_string(closed_port) + "/",
                   PLATFORM_HTTP_OPERATOR_URL);
    EXPECT_EQ(f.code, PLATFORM_BAD_GATEWAY) << f.error;
    EXPECT_TRUE(has(f.error, "GET http://127.0.0.1:" + std::to_string(closed_port) + "/: "))
        << f.error;
}

TEST_F(Fetch, ProviderBaseUrlAndKey) {
    OutboundSettings s = allow_server();
    s.providers["weather"] =
        ProviderSettings{server.url("/v1/"), "k3y", "Authorization: Bearer", true};
    s.providers["maps"] = ProviderSettings{server.url("/maps"), "m&p", "?appid", true};
    s.providers["news"] = ProviderSettings{server.url(), "n3ws", "X-Api-Key", false};
    s.providers["open"] = ProviderSettings{server.url("/open"), "", "", false};
    Outbound out(s);
    FetchArgs a;
    a.provider = "weather";
    a.url = "forecast?city=Oslo";
    auto f = fetch(out, a);
    ASSERT_EQ(f.code, PLATFORM_OK) << f.error;
    EXPECT_EQ(f.final_url, server.url("/v1/forecast?city=Oslo"));
    auto last = [&] { return server.requests().back(); };
    EXPECT_EQ(last().target, "/v1/forecast?city=Oslo");
    EXPECT_EQ(last().header("authorization"), "Bearer k3y");

    a.url = "/forecast";
    ASSERT_EQ(fetch(out, a).code, PLATFORM_OK);
    EXPECT_EQ(last().target, "/v1/forecast");

    a.provider = "maps";
    a.url = "geo?q=a b";  // a space is not a URL character
    EXPECT_EQ(fetch(out, a).code, PLATFORM_INVALID_ARGUMENT);
    a.url = "geo?q=x";
    ASSERT_EQ(fetch(out, a).code, PLATFORM_OK);
    EXPECT_EQ(last().target, "/maps/geo?q=x&appid=m%26p");
    EXPECT_EQ(last().header("authorization"), "");

    a.provider = "news";
    a.url = "";
    ASSERT_EQ(fetch(out, a).code, PLATFORM_OK);
    EXPECT_EQ(last().target, "/");
    EXPECT_EQ(last().header("x-api-key"), "n3ws");

    a.provider = "open";
    a.url = "?x=1";
    ASSERT_EQ(fetch(out, a).code, PLATFORM_OK);
    EXPECT_EQ(last().target, "/open?x=1");

    a.url = "http://8.8.8.8/";
    auto absolute = fetch(out, a);
    EXPECT_EQ(absolute.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_TRUE(has(absolute.error, "must be a path under providers.open.base_url"))
        << absolute.error;
}

TEST_F(Fetch, UnconfiguredProviderIsUnavailableNamingTheSetting) {
    OutboundSettings s = allow_server();
    s.providers["weather"] = ProviderSettings{server.url("/v1"), "", "X-Api-Key", true};
    s.providers["blank"] = ProviderSettings{"", "key", "X-Api-Key", true};
    Outbound out(s);
    FetchArgs a;
    a.url = "forecast";
    a.provider = "weather";
    auto f = fetch(out, a);
    EXPECT_EQ(f.code, PLATFORM_UNAVAILABLE);
    EXPECT_EQ(f.error, "providers.weather.api_key is not set");
    EXPECT_EQ(f.calls, 1);
    a.provider = "blank";
    EXPECT_EQ(fetch(out, a).error, "providers.blank.base_url is not set");
    a.provider = "nosuch";
    auto unknown = fetch(out, a);
    EXPECT_EQ(unknown.code, PLATFORM_UNAVAILABLE);
    EXPECT_EQ(unknown.error, "providers.nosuch.base_url is not set");
    EXPECT_TRUE(server.requests().empty());
}

TEST_F(Fetch, ProviderOnLoopbackNeedsTheAllowList) {
    OutboundSettings s;
    s.providers["weather"] = ProviderSettings{server.url("/v1"), "k", "X-Api-Key", true};
    Outbound out(s);
    FetchArgs a;
    a.provider = "weather";
    a.url = "x";
    auto f = fetch(out, a);
    EXPECT_EQ(f.code, PLATFORM_PERMISSION_DENIED);
    EXPECT_TRUE(has(f.error, "outbound.allow")) << f.error;
    EXPECT_TRUE(server.requests().empty());
}

TEST_F(Fetch, CredentialsStayWithTheirOrigin) {
    OutboundSettings s;
    s.allow = {"127.0.0.1:*"};
    s.providers["p"] = ProviderSettings{server.url(), "secret", "X-Api-Key", true};
    Outbound out(s);
    FetchArgs a;
    a.provider = "p";
    a.url = "to-other";
    a.headers_json = R"({"Authorization":"Bearer user","Cookie":"c=1","X-Other":"kept"})";
    auto f = fetch(out, a);
    ASSERT_EQ(f.code, PLATFORM_OK) << f.error;
    EXPECT_EQ(f.final_url, other.url("/echo"));
    ASSERT_EQ(server.requests().size(), 1u);
    EXPECT_EQ(server.requests()[0].header("x-api-key"), "secret");
    EXPECT_EQ(server.requests()[0].header("authorization"), "Bearer user");
    ASSERT_EQ(other.requests().size(), 1u);
    auto r = other.requests()[0];
    EXPECT_EQ(r.header("x-api-key"), "");
    EXPECT_EQ(r.header("authorization"), "");
    EXPECT_EQ(r.header("cookie"), "");
    EXPECT_EQ(r.header("x-other"), "kept");
}

TEST_F(Fetch, OlderRequestStructReadsOnlyItsFields) {
    OutboundSettings s;
    s.allow = {"127.0.0.1:*"};
    Outbound out(s);
    const std::string url = server.url("/hello");
    platform_http_request_t req;
    std::memset(&req, 0xAB, sizeof req);  // garbage past struct_size must not be read
    req.struct_size = offsetof(platform_http_request_t, headers_json);  // method and url only
    req.method = {nullptr, 0};
    req.url = {url.data(), url.size()};
    int calls = 0;
    auto code = out.fetch(
        req, [](void* u, const platform_http_response_t*) { ++*static_cast<int*>(u); }, &calls);
    EXPECT_EQ(code,
              PLATFORM_PERMISSION_DENIED);  // no flags field: a user URL, so loopback is refused
    EXPECT_EQ(calls, 1);
}

TEST(FetchNull, NullRequestIsInvalidAndStillAnswered) {
    Outbound out(OutboundSettings{});
    std::string error;
    auto code = out.fetch(
        static_cast<const platform_http_request_t*>(nullptr),
        [](void* u, const platform_http_response_t* r) {
            static_cast<std::string*>(u)->assign(r->error.ptr, r->error.len);
        },
        &error);
    EXPECT_EQ(code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(error, "request: is required");
}

// One thread's fetches to one origin share a keep-alive connection (decision 79): an agent's
// model completions, one after the other on one worker, no longer open a connection (and a TLS
// session) each. Nothing else carries over from one fetch to the next: method, body, headers.
TEST(FetchReuse, OneThreadsFetchesShareAConnectionAndNothingElse) {
    LoopbackServer upstream(
        [](const LoopbackServer::Request& r) {
            nlohmann::json j{{"method", r.method}, {"body", r.body}, {"headers", r.headers}};
            return LoopbackServer::reply(200, j.dump(), {}, true);
        },
        LoopbackServer::kKeepAlive);
    OutboundSettings s;
    s.allow = {"127.0.0.1:" + std::to_string(upstream.port())};
    Outbound out(s);
    FetchArgs a;
    a.url = upstream.url("/v1/chat/completions");
    a.method = "POST";
    a.body = std::string(4000, 'x');  // above 1 KiB: curl would add Expect: 100-continue
    a.headers_json = R"({"Authorization":"Bearer k","Content-Type":"application/json"})";
    a.flags = PLATFORM_HTTP_OPERATOR_URL;
    for (int i = 0; i < 2; ++i) {
        auto f = fetch(out, a);
        ASSERT_EQ(f.code, PLATFORM_OK) << f.error;
        auto echo = nlohmann::json::parse(f.body);
        EXPECT_EQ(echo["method"], "POST");
        EXPECT_EQ(echo["body"].get<std::string>().size(), 4000u);
        EXPECT_EQ(echo["headers"]["authorization"], "Bearer k");
        EXPECT_FALSE(echo["headers"].contains("expect")) << echo["headers"].dump();
    }
    FetchArgs plain;
    plain.url = upstream.url("/models");
    plain.flags = PLATFORM_HTTP_OPERATOR_URL;
    auto g = fetch(out, plain);
    ASSERT_EQ(g.code, PLATFORM_OK) << g.error;
    auto echo = nlohmann::json::parse(g.body);
    EXPECT_EQ(echo["method"], "GET");
    EXPECT_EQ(echo["body"], "");
    EXPECT_FALSE(echo["headers"].contains("authorization")) << echo["headers"].dump();
    EXPECT_FALSE(echo["headers"].contains("content-length")) << echo["headers"].dump();
    EXPECT_EQ(upstream.requests().size(), 3u);
    EXPECT_EQ(upstream.connections(), 1u);

    // another thread has its own handle, so its own connection
    std::thread([&] { EXPECT_EQ(fetch(out, plain).code, PLATFORM_OK); }).join();
    EXPECT_EQ(upstream.connections(), 2u);
}

TEST_F(Fetch, ConcurrentFetches) {
    Outbound out(allow_server());
    std::atomic<int> ok{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < 8; ++i)
        threads.emplace_back([&, i] {
            for (int j = 0; j < 5; ++j) {
                auto f =
                    fetch(out, server.url("/n" + std::to_string(i)), PLATFORM_HTTP_OPERATOR_URL);
                if (f.code == PLATFORM_OK && f.body == "path /n" + std::to_string(i)) ++ok;
            }
        });
    for (auto& t : threads) t.join();
    EXPECT_EQ(ok, 40);
}

}  // namespace
