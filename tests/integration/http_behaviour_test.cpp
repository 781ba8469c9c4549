// HTTP behaviour of both ports on Pistache 0.0.5: pipelined requests answered in
// order, header limits (431), early 413, CORS preflight before auth, request ids and W3C
// traceparent, the JSON access log, Prometheus /metrics, /health readiness, the per-address rate
// limit (429 + Retry-After) and the graceful drain on SIGTERM.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>
#include <thread>

#include "build_tree.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "profiles.hpp"
#include "shared_host_test.hpp"
#include "text_search.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

std::string abi_plugins() {
    return platform::test::test_plugin_dir() + "/abi";
}

std::string post_request(const std::string& target, const std::string& body,
                         const std::string& extra = "") {
    return "POST " + target + " HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n" + extra +
           "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

std::string slow_rpc(int ms) {
    return json{{"service", "abi.slow"}, {"method", "Slow.Sleep"}, {"request", {{"ms", ms}}}}
        .dump();
}

// Sends `raw` on a fresh connection to `port` that never reconnects and checks that the answer is
// the error `status` (its JSON body's Code too) and that the server then closed the connection;
// answers the response for the caller's own checks.
HttpResult refused_and_closed(int port, const std::string& raw, int status) {
    HttpClient c("127.0.0.1", port);
    c.set_reconnect(false);
    c.send_raw(raw);
    auto r = c.read_response();
    EXPECT_EQ(r.status, status);
    EXPECT_EQ(r.json()["Code"], status) << r.body;
    EXPECT_TRUE(c.connection_closed());
    return r;
}

// The CORS preflight a browser on `origin` sends before a GET of `path`.
HttpResult preflight(HttpClient& c, const std::string& path, const std::string& origin) {
    return c.request("OPTIONS", path, "",
                     {{"Origin", origin}, {"Access-Control-Request-Method", "GET"}});
}

class HttpBehaviour : public SharedHostTest {
protected:
    static void SetUpTestSuite() {
        HostProcess::Options o;
        o.env["PLATFORM_PLUGIN_PATH"] = abi_plugins();
        start_host(o);
    }
};

TEST_F(HttpBehaviour, ThreePipelinedRequestsInOnePacketAreAnsweredInOrder) {
    HttpClient c("127.0.0.1", host->api_port());
    c.set_reconnect(false);
    const std::string note = R"({"title":"pipelined","text":"third"})";
    c.send_raw(
        "GET / HTTP/1.1\r\nHost: t\r\nX-Request-Id: pipe-1\r\n\r\n"
        "GET /api/v1/notes/list HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer "
        "piper\r\nX-Request-Id: pipe-2\r\n\r\n" +
        post_request("/api/v1/notes/add", note,
                     "Authorization: Bearer piper\r\nX-Request-Id: pipe-3\r\n"));
    auto first = c.read_response();
    auto second = c.read_response();
    auto third = c.read_response();
    EXPECT_EQ(first.status, 200);
    EXPECT_EQ(first.header("x-request-id"), "pipe-1");
    EXPECT_EQ(first.json(), json({{"version", first.json()["version"]}}));
    EXPECT_EQ(second.status, 200) << second.body;
    EXPECT_EQ(second.header("x-request-id"), "pipe-2");
    EXPECT_EQ(second.json()["data"]["notes"], json::array());  // listed before the add
    EXPECT_EQ(third.status, 200) << third.body;
    EXPECT_EQ(third.header("x-request-id"), "pipe-3");
    EXPECT_TRUE(third.json().contains("data")) << third.body;
    // The connection stays usable, and the note exists.
    c.send_raw(
        "GET /api/v1/notes/get?title=pipelined HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer "
        "piper\r\n\r\n");
    auto got = c.read_response();
    EXPECT_EQ(got.status, 200) << got.body;
    EXPECT_EQ(got.json()["data"]["text"], "third");
    EXPECT_EQ(c.connects(), 1);
}

TEST_F(HttpBehaviour, ASlowFirstRequestStillAnswersFirst) {
    HttpClient c("127.0.0.1", host->api_port());
    c.set_reconnect(false);
    c.send_raw(post_request("/rpc", slow_rpc(300), "X-Request-Id: slow-1\r\n") +
               "GET / HTTP/1.1\r\nHost: t\r\nX-Request-Id: fast-2\r\n\r\n" +
               "POST /rpc HTTP/1.1\r\nHost: t\r\nContent-Type: "
               "application/json\r\nTransfer-Encoding: chunked\r\n"
               "X-Request-Id: chunked-3\r\n\r\n" +
               [] {
                   std::string body = slow_rpc(10), out;
                   out += "10\r\n" + body.substr(0, 16) + "\r\n";
                   char size[16];
                   std::snprintf(size, sizeof size, "%zx", body.size() - 16);
                   out += std::string(size) + "\r\n" + body.substr(16) + "\r\n0\r\n\r\n";
                   return out;
               }());
    auto a = c.read_response(), b = c.read_response(), d = c.read_response();
    EXPECT_EQ(a.header("x-request-id"), "slow-1");
    EXPECT_EQ(a.status, 200) << a.body;
    EXPECT_EQ(a.json(), json({{"slept", 300}}));
    EXPECT_EQ(b.header("x-request-id"), "fast-2");
    EXPECT_TRUE(b.json().contains("version"));
    EXPECT_EQ(d.header("x-request-id"), "chunked-3");
    EXPECT_EQ(d.status, 200) << d.body;
    EXPECT_EQ(d.json(), json({{"slept", 10}}));
}

TEST_F(HttpBehaviour, RequestsSplitAcrossPacketsAreReassembled) {
    HttpClient c("127.0.0.1", host->proxy_port());
    c.set_reconnect(false);
    const std::string req =
        post_request("/rpc", R"({"service":"registry","method":"Registry.ListServices"})");
    for (size_t at = 0; at < req.size(); at += 7) {
        c.send_raw(req.substr(at, 7));
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    auto r = c.read_response();
    EXPECT_EQ(r.status, 200) << r.body;
    EXPECT_TRUE(r.json().contains("services")) << r.body;
}

TEST_F(HttpBehaviour, RequestsAfterConnectionCloseAreNotAnswered) {
    HttpClient c("127.0.0.1", host->api_port());
    c.set_reconnect(false);
    c.send_raw(
        "GET / HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\nGET / HTTP/1.1\r\nHost: t\r\n\r\n");
    auto r = c.read_response();
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.header("connection"), "Close");
    EXPECT_TRUE(c.connection_closed());
}

TEST_F(HttpBehaviour, TooManyHeadersIs431AndCloses) {
    std::string req = "GET / HTTP/1.1\r\nHost: t\r\n";
    for (int i = 0; i < 100; ++i)
        req += "X-Header-" + std::to_string(i) + ": v\r\n";  // 101 with Host
    auto r = refused_and_closed(host->api_port(), req + "\r\n", 431);
    EXPECT_EQ(r.json()["Status"], "Request Header Fields Too Large");
    EXPECT_NE(r.json()["Detail"].get<std::string>().find("more than 100 request header fields"),
              std::string::npos);
    EXPECT_EQ(r.header("connection"), "Close");
    // 100 fields are fine.
    HttpClient ok("127.0.0.1", host->api_port());
    std::map<std::string, std::string> headers;
    for (int i = 0; i < 99; ++i) headers["X-Header-" + std::to_string(i)] = "v";
    EXPECT_EQ(ok.get("/", headers).status, 200);
}

TEST_F(HttpBehaviour, AnOversizedHeaderIs431) {
    auto r = refused_and_closed(
        host->api_port(),
        "GET / HTTP/1.1\r\nHost: t\r\nX-Big: " + std::string(20 * 1024, 'b') + "\r\n\r\n", 431);
    EXPECT_NE(r.json()["Detail"].get<std::string>().find("longer than 16384 bytes"),
              std::string::npos)
        << r.body;
}

TEST_F(HttpBehaviour, AnOversizedBodyIs413BeforeItIsSent) {
    refused_and_closed(
        host->proxy_port(),
        "POST /rpc HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: "
        "500000000\r\n\r\n{",
        413);
}

TEST_F(HttpBehaviour, MalformedRequestIs400) {
    refused_and_closed(host->api_port(),
                       "POST /rpc HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\nTransfer-Encoding: "
                       "chunked\r\n\r\n0\r\n\r\n",
                       400);
}

TEST_F(HttpBehaviour, NoOtherOriginMayReadAnswersByDefault) {
    // The `test` profile lists no CORS origin: a page elsewhere gets the answer (browsers send the
    // request) but no Access-Control-Allow-Origin, so its browser keeps the answer from it.
    HttpClient c("127.0.0.1", host->api_port());
    auto read = c.get("/api/v1/notes/list",
                      {{"Origin", "https://app.example"}, {"Authorization", "Bearer alice"}});
    EXPECT_EQ(read.status, 200);
    EXPECT_EQ(read.header("access-control-allow-origin"), "");
    EXPECT_EQ(read.header("access-control-allow-credentials"), "");
    auto pre = preflight(c, "/api/v1/notes/list", "https://app.example");
    EXPECT_EQ(pre.status, 200);
    EXPECT_EQ(pre.header("access-control-allow-origin"), "");
    EXPECT_EQ(c.get("/", {{"Origin", "null"}}).header("access-control-allow-origin"), "");
}

TEST_F(HttpBehaviour, RequestIdAndTraceparent) {
    HttpClient c("127.0.0.1", host->api_port());
    const std::string tp = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    auto r = c.get("/", {{"traceparent", tp}, {"X-Request-Id", "given-id-7"}});
    EXPECT_EQ(r.header("traceparent"), tp);
    EXPECT_EQ(r.header("x-request-id"), "given-id-7");
    // Missing or invalid: a new valid one, different each time.
    auto a = c.get("/"), b = c.get("/", {{"traceparent", "00-nonsense"}});
    for (const auto& x : {a, b}) {
        std::string got = x.header("traceparent");
        ASSERT_EQ(got.size(), 55u) << got;
        EXPECT_EQ(got.substr(0, 3), "00-");
        EXPECT_NE(got.substr(3, 32), std::string(32, '0'));
        EXPECT_EQ(x.header("x-request-id").size(), 16u);
    }
    EXPECT_NE(a.header("traceparent"), b.header("traceparent"));
    // Through a plugin call too (the traceparent is call metadata there).
    auto call = c.post_json("/rpc", {{"service", "registry"}, {"method", "Registry.ListServices"}},
                            {{"traceparent", tp}});
    EXPECT_EQ(call.status, 200);
    EXPECT_EQ(call.header("traceparent"), tp);
}

TEST_F(HttpBehaviour, OneJsonAccessLogLinePerRequest) {
    HttpClient c("127.0.0.1", host->api_port());
    const std::string tp = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    ASSERT_EQ(c.get("/nowhere?secret=not-logged", {{"X-Request-Id", "log-line-0"}}).status, 404);
    auto r = c.get("/api/v1/notes/list", {{"X-Request-Id", "log-line-1"},
                                          {"User-Agent", "behaviour-test/1"},
                                          {"Authorization", "Bearer logger"},
                                          {"traceparent", tp}});
    ASSERT_EQ(r.status, 200) << r.body;
    ASSERT_TRUE(host->wait_for_log("\"request_id\":\"log-line-1\"")) << host->log();
    json line = access_line(host->log(), "log-line-1");
    ASSERT_TRUE(line.is_object()) << host->log();
    EXPECT_EQ(line["method"], "GET");
    EXPECT_EQ(line["path"], "/api/v1/notes/list");
    EXPECT_EQ(line["status"], 200);
    EXPECT_EQ(line["bytes"], r.body.size());
    EXPECT_GE(line["duration_ms"].get<double>(), 0);
    EXPECT_EQ(line["remote"], "127.0.0.1");
    EXPECT_EQ(line["user_agent"], "behaviour-test/1");
    EXPECT_EQ(line["trace_id"], "0af7651916cd43dd8448eb211c80319c");
    EXPECT_TRUE(line.contains("time"));
    const std::string log = host->log();
    json miss = access_line(log, "log-line-0");
    ASSERT_TRUE(miss.is_object()) << log;
    EXPECT_EQ(miss["path"], "/nowhere");
    EXPECT_EQ(miss["status"], 404);
    EXPECT_EQ(log.find("not-logged"), std::string::npos);
    EXPECT_EQ(log.find("Bearer logger"), std::string::npos);
    EXPECT_EQ(count_of(log, "\"request_id\":\"log-line-1\""), 1u);
}

TEST_F(HttpBehaviour, MetricsCountRequestsAndCalls) {
    HttpClient c("127.0.0.1", host->api_port());
    ASSERT_EQ(c.post_json("/api/v1/notes/add", {{"title", "m"}, {"text", "x"}},
                          {{"Authorization", "Bearer metric"}})
                  .status,
              200);
    ASSERT_EQ(c.get("/no/such/route/at/all").status, 404);
    auto m = c.get("/metrics");
    ASSERT_EQ(m.status, 200);
    EXPECT_EQ(m.header("content-type"), "text/plain; version=0.0.4; charset=utf-8");
    const std::string& t = m.body;
    EXPECT_NE(t.find("# TYPE platform_http_requests_total counter"), std::string::npos) << t;
    EXPECT_NE(t.find("platform_http_requests_total{method=\"POST\",status=\"200\"} "),
              std::string::npos)
        << t;
    EXPECT_NE(t.find("platform_http_requests_total{method=\"GET\",status=\"404\"} "),
              std::string::npos)
        << t;
    EXPECT_NE(t.find("platform_http_request_duration_seconds_bucket{le=\"+Inf\"} "),
              std::string::npos);
    EXPECT_NE(t.find("platform_http_request_duration_seconds_count "), std::string::npos);
    const size_t gauge = t.find("\nplatform_http_in_flight ");
    ASSERT_NE(gauge, std::string::npos) << t;
    EXPECT_GE(std::stoi(t.substr(gauge + 25)), 1) << t;  // this request, at least
    EXPECT_NE(t.find("platform_calls_total{service=\"go.core.api.v1.notes\",endpoint=\"Notes.Add\","
                     "code=\"ok\"} "),
              std::string::npos)
        << t;
    EXPECT_NE(t.find("platform_call_duration_seconds_bucket{service=\"go.core.api.v1.notes\",le="
                     "\"0.005\"} "),
              std::string::npos)
        << t;
    // Not on the proxy port.
    HttpClient proxy("127.0.0.1", host->proxy_port());
    EXPECT_EQ(proxy.get("/metrics").status, 404);
}

TEST_F(HttpBehaviour, HealthIsReadiness) {
    HttpClient c("127.0.0.1", host->api_port());
    auto r = c.get("/health");
    ASSERT_EQ(r.status, 200) << r.body;
    auto j = r.json();
    EXPECT_EQ(j["status"], "ok");
    EXPECT_EQ(j["providers"]["store"], json({{"plugin", "store-memory"}, {"up", true}}));
    EXPECT_EQ(j["providers"]["auth"]["up"], true);
    EXPECT_GT(j["plugins"]["serving"].get<int>(), 0);
}

// A host on the test profile plus the `http:` section `http` (the profile written to `dir`).
HostProcess::Options with_http(const TempDir& dir, const std::string& http) {
    HostProcess::Options o;
    o.profile = test_profile_with(dir.path() + "/http-test.yaml", "http: " + http);
    return o;
}

TEST(HttpRateLimit, TheThirdRequestInABurstIs429WithRetryAfter) {
    TempDir dir;
    HostProcess host(with_http(dir, "{rate_limit: {requests_per_second: 1, burst: 2}}"));
    host.start();
    HttpClient c("127.0.0.1", host.api_port());
    EXPECT_EQ(c.get("/").status, 200);
    EXPECT_EQ(c.get("/").status, 200);
    auto third = c.get("/");
    EXPECT_EQ(third.status, 429);
    EXPECT_EQ(third.json()["Code"], 429) << third.body;
    EXPECT_EQ(third.json()["Status"], "Too Many Requests");
    ASSERT_FALSE(third.header("retry-after").empty());
    EXPECT_GE(std::stoi(third.header("retry-after")), 1);
    // The proxy port shares the address's bucket; /health and /metrics are exempt.
    HttpClient proxy("127.0.0.1", host.proxy_port());
    EXPECT_EQ(
        proxy.post_json("/rpc", {{"service", "registry"}, {"method", "Registry.ListServices"}})
            .status,
        429);
    EXPECT_EQ(c.get("/health").status, 200);
    auto m = c.get("/metrics");
    EXPECT_NE(m.body.find("platform_http_rate_limited_total 2"), std::string::npos) << m.body;
    // After a second a token is back.
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));
    EXPECT_EQ(c.get("/").status, 200);
    EXPECT_EQ(host.stop(), 0);
}

// `shared: true` (decision 72): both limits count in the store provider (here store-memory), the
// same answers as in the process; two replicas on one store then share each bucket
// (tests/unit/providers/shared_state_test.cpp).
TEST(HttpRateLimit, SharedCountersInTheStoreGiveTheSameAnswers) {
    TempDir dir;
    HostProcess host(with_http(dir,
                               "{rate_limit: {requests_per_second: 0.01, burst: 3, shared: true}, "
                               "account_rate_limit: {requests_per_second: 0.01, burst: 2, "
                               "shared: true}}"));
    host.start();
    HttpClient c("127.0.0.1", host.api_port());
    const std::map<std::string, std::string> alice{{"Authorization", "Bearer alice"}};
    EXPECT_EQ(c.post_json("/api/v1/notes/list", json::object(), alice).status, 200);
    EXPECT_EQ(c.post_json("/api/v1/notes/list", json::object(), alice).status, 200);
    auto account = c.post_json("/api/v1/notes/list", json::object(), alice);
    EXPECT_EQ(account.status, 429) << account.body;  // alice's 2
    EXPECT_NE(account.body.find("alice"), std::string::npos) << account.body;
    auto address = c.get("/");
    EXPECT_EQ(address.status, 429) << address.body;  // the address's 3 went to the three above
    EXPECT_GE(
        std::stoi(address.header("retry-after").empty() ? "0" : address.header("retry-after")), 1);
    EXPECT_EQ(c.get("/health").status, 200);
    EXPECT_EQ(host.stop(), 0);
    EXPECT_EQ(host.log().find("counting in this process"), std::string::npos) << host.log();
}

TEST(HttpLimits, ProfileLimitsApply) {
    TempDir dir;
    HostProcess host(with_http(
        dir, "{max_header_count: 5, max_request_bytes: 2048, cors: false, access_log: false}"));
    host.start();
    HttpClient c("127.0.0.1", host.api_port());
    auto five = c.get("/", {{"A", "1"}, {"B", "2"}, {"C", "3"}, {"D", "4"}});  // + Host = 5
    EXPECT_EQ(five.status, 200);
    EXPECT_EQ(five.header("access-control-allow-origin"), "");  // cors: false
    HttpClient d("127.0.0.1", host.api_port());
    EXPECT_EQ(d.get("/", {{"A", "1"}, {"B", "2"}, {"C", "3"}, {"D", "4"}, {"E", "5"}}).status, 431);
    HttpClient e("127.0.0.1", host.proxy_port());
    EXPECT_EQ(e.post("/rpc", std::string(3000, ' ')).status, 413);
    EXPECT_EQ(host.stop(), 0);
    EXPECT_EQ(host.log().find("\"request_id\""), std::string::npos);  // access_log: false
}

TEST(HttpLimits, ConnectionsBeyondTheCapGet503AndTimeoutsClose) {
    TempDir dir;
    HostProcess host(with_http(dir, "{max_connections: 2, header_timeout_ms: 500}"));
    host.start();
    HttpClient a("127.0.0.1", host.api_port()), b("127.0.0.1", host.api_port());
    EXPECT_EQ(a.get("/").status, 200);
    EXPECT_EQ(b.get("/").status, 200);
    {
        HttpClient over("127.0.0.1", host.proxy_port());  // the cap counts both ports
        over.set_reconnect(false);
        over.send_raw("GET / HTTP/1.1\r\nHost: t\r\n\r\n");
        auto r = over.read_response();
        EXPECT_EQ(r.status, 503);
        EXPECT_NE(r.json()["Detail"].get<std::string>().find("max_connections"), std::string::npos)
            << r.body;
        EXPECT_EQ(r.header("connection"), "Close");
        EXPECT_TRUE(over.connection_closed());
    }
    // A request whose head does not arrive within header_timeout_ms gets 408 and the connection
    // closes; `a`, idle, stays (idle_timeout_ms is longer)... once `b` gave its slot back.
    b.send_raw("GET / HTTP/1.1\r\nHost: t\r\n");
    auto timed_out = b.read_response();
    EXPECT_EQ(timed_out.status, 408);
    int status = 0;
    for (int i = 0; i < 100 && status != 200; ++i) {
        HttpClient again("127.0.0.1", host.api_port());
        status = again.get("/").status;
        if (status != 200) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    EXPECT_EQ(status, 200);
    EXPECT_EQ(a.get("/").status, 200);
    EXPECT_EQ(a.connects(), 1);
    EXPECT_EQ(host.stop(), 0);
}

TEST(HttpDrain, SigtermLetsInFlightRequestsFinishAndExitsZero) {
    HostProcess::Options o;
    o.env["PLATFORM_PLUGIN_PATH"] = abi_plugins();
    HostProcess host(o);
    host.start();
    const int port = host.api_port();
    std::vector<std::future<HttpResult>> slow;
    for (int i = 0; i < 3; ++i)
        slow.push_back(std::async(std::launch::async, [port] {
            HttpClient c("127.0.0.1", port);
            return c.post("/rpc", slow_rpc(1500));
        }));
    // All three are sleeping in the plugin.
    for (int i = 0; i < 200 && count_of(host.log(), "[abi-slow] sleeping") < 3; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    ASSERT_EQ(count_of(host.log(), "[abi-slow] sleeping"), 3u) << host.log();

    auto exit_code = std::async(std::launch::async, [&] { return host.stop(SIGTERM); });
    ASSERT_TRUE(host.wait_for_log("draining")) << host.log();
    // A new connection now is refused or answered 503 with Connection: close.
    try {
        HttpClient late("127.0.0.1", port);
        auto r = late.get("/");
        EXPECT_EQ(r.status, 503) << r.body;
        EXPECT_EQ(r.header("connection"), "Close");
    } catch (const std::exception&) {
        // refused: fine
    }
    for (auto& f : slow) {
        auto r = f.get();
        EXPECT_EQ(r.status, 200) << r.body;
        EXPECT_EQ(r.json(), json({{"slept", 1500}}));
        EXPECT_EQ(r.header("connection"), "Close");
    }
    EXPECT_EQ(exit_code.get(), 0) << host.log();
    EXPECT_NE(host.log().find("drained"), std::string::npos) << host.log();
}

// http.cors.origins: a listed origin reads with the user's credentials, before auth on a
// preflight; an unlisted one and `null` read nothing; "*" lets any other origin read without
// credentials. Both ports.
TEST(HttpCors, OnlyListedOriginsMayReadAnswers) {
    TempDir dir;
    HostProcess host(with_http(dir, "{cors: {origins: [\"https://app.example\"]}}"));
    host.start();
    HttpClient c("127.0.0.1", host.api_port());
    // The endpoint needs an owner: without a token it is 401, which the listed page may read...
    auto anon = c.get("/api/v1/notes/list", {{"Origin", "https://app.example"}});
    EXPECT_EQ(anon.status, 401);
    EXPECT_EQ(anon.header("access-control-allow-origin"), "https://app.example");
    EXPECT_EQ(anon.header("access-control-allow-credentials"), "true");
    EXPECT_EQ(anon.header("vary"), "Origin");
    // ...and the preflight is 200, empty, before auth, with the methods and headers it may use.
    auto pre = preflight(c, "/api/v1/notes/list", "https://app.example");
    EXPECT_EQ(pre.status, 200);
    EXPECT_EQ(pre.body, "");
    EXPECT_EQ(pre.header("access-control-allow-origin"), "https://app.example");
    EXPECT_EQ(pre.header("access-control-allow-credentials"), "true");
    EXPECT_EQ(pre.header("access-control-allow-methods"), "POST, PATCH, GET, OPTIONS, PUT, DELETE");
    EXPECT_EQ(pre.header("access-control-allow-headers"),
              "Accept, Content-Type, Content-Length, Accept-Encoding, X-CSRF-Token, Authorization, "
              "Platform-Namespace, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID");
    // Another origin, a sandboxed frame (`null`) and no Origin at all: no CORS header.
    for (const char* origin :
         {"https://evil.example", "null", "https://app.example.evil.example"}) {
        auto r =
            c.get("/api/v1/notes/list", {{"Origin", origin}, {"Authorization", "Bearer alice"}});
        EXPECT_EQ(r.status, 200) << origin;
        EXPECT_EQ(r.header("access-control-allow-origin"), "") << origin;
        EXPECT_EQ(r.header("access-control-allow-credentials"), "") << origin;
    }
    EXPECT_EQ(c.get("/").header("access-control-allow-origin"), "");
    // The proxy port follows the same list.
    HttpClient proxy("127.0.0.1", host.proxy_port());
    EXPECT_EQ(proxy.request("OPTIONS", "/rpc", "", {{"Origin", "https://app.example"}})
                  .header("access-control-allow-origin"),
              "https://app.example");
    EXPECT_EQ(proxy.request("OPTIONS", "/rpc", "", {{"Origin", "https://evil.example"}})
                  .header("access-control-allow-origin"),
              "");
    EXPECT_EQ(host.stop(), 0);
}

TEST(HttpCors, StarLetsAnyOriginReadWithoutCredentials) {
    TempDir dir;
    HostProcess host(with_http(dir, "{cors: {origins: [\"*\"]}}"));
    host.start();
    HttpClient c("127.0.0.1", host.api_port());
    auto r = c.get("/api/v1/notes/list",
                   {{"Origin", "https://tool.example"}, {"Authorization", "Bearer alice"}});
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.header("access-control-allow-origin"), "*");
    EXPECT_EQ(r.header("access-control-allow-credentials"), "");
    EXPECT_EQ(c.get("/", {{"Origin", "null"}}).header("access-control-allow-origin"), "");
    EXPECT_EQ(host.stop(), 0);
}

}  // namespace
