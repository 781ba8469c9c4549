// The gateway handlers against the real host (docs/decisions.md 13-16): rpc (default), api
// (apiecho test plugin: api.Request in, api.Response out), proxy and web (reverse proxy to a
// registered node: a loopback HTTP server run by this test), event (publish on the broker, read
// back through /broker/subscribe), the start-up check of --handler, POST /rpc with form fields,
// `address` and Platform-Namespace, and the routes endpoints declare (http_path of in-process
// plugins, `path` metadata of registered services).
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <future>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "host_process.hpp"
#include "http_client.hpp"
#include "shared_host_test.hpp"
#include "stream_reader.hpp"
#include "text_search.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

const std::map<std::string, std::string> kAdmin{{"Authorization", "Bearer admin"}};

std::map<std::string, std::string> with(std::map<std::string, std::string> a,
                                        const std::map<std::string, std::string>& b) {
    a.insert(b.begin(), b.end());
    return a;
}

int listen_loopback(int* port) {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = 0;
    ::inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
    if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(fd, 16) != 0) {
        ::close(fd);
        throw std::runtime_error("cannot listen on loopback");
    }
    socklen_t len = sizeof addr;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
    *port = ntohs(addr.sin_port);
    return fd;
}

// A loopback HTTP/1.1 server: one request per connection, answered with `status` and the body
// "upstream saw <METHOD> <target>", header X-Upstream: yes. Records what it received.
class Upstream {
public:
    struct Seen {
        std::string method, target, body;
        std::map<std::string, std::string> headers;  // lower-case names
    };

    explicit Upstream(int status = 207) : status_(status) {
        fd_ = listen_loopback(&port_);
        thread_ = std::thread([this] { serve(); });
    }
    ~Upstream() {
        stop_ = true;
        thread_.join();
        ::close(fd_);
    }
    int port() const { return port_; }
    std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
    std::vector<Seen> seen() const {
        std::lock_guard<std::mutex> g(m_);
        return seen_;
    }

private:
    void serve() {
        while (!stop_) {
            pollfd p{fd_, POLLIN, 0};
            if (::poll(&p, 1, 50) <= 0) continue;
            int c = ::accept(fd_, nullptr, nullptr);
            if (c < 0) continue;
            handle(c);
            ::close(c);
        }
    }
    void handle(int c) {
        std::string raw;
        char buf[4096];
        size_t head_end = std::string::npos, need = 0;
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (std::chrono::steady_clock::now() < until) {
            pollfd p{c, POLLIN, 0};
            if (::poll(&p, 1, 100) <= 0) continue;
            ssize_t n = ::recv(c, buf, sizeof buf, 0);
            if (n <= 0) return;
            raw.append(buf, static_cast<size_t>(n));
            if (head_end == std::string::npos &&
                (head_end = raw.find("\r\n\r\n")) != std::string::npos) {
                std::string lower = raw.substr(0, head_end);
                for (auto& ch : lower)
                    ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
                auto cl = lower.find("\r\ncontent-length:");
                need = head_end + 4 +
                       (cl == std::string::npos ? 0 : std::stoul(lower.substr(cl + 17)));
            }
            if (head_end != std::string::npos && raw.size() >= need) break;
        }
        if (head_end == std::string::npos) return;
        Seen s;
        std::istringstream head(raw.substr(0, head_end));
        std::string line;
        std::getline(head, line);
        std::istringstream request_line(line);
        request_line >> s.method >> s.target;
        while (std::getline(head, line)) {
            if (!line.empty() && line.back() == '\r') line.pop_back();
            auto colon = line.find(':');
            if (colon == std::string::npos) continue;
            std::string name = line.substr(0, colon), value = line.substr(colon + 1);
            for (auto& ch : name)
                ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
            value.erase(0, value.find_first_not_of(' '));
            s.headers[name] = value;
        }
        s.body = raw.substr(head_end + 4);
        const std::string body = "upstream saw " + s.method + " " + s.target;
        {
            std::lock_guard<std::mutex> g(m_);
            seen_.push_back(std::move(s));
        }
        std::string answer =
            "HTTP/1.1 " + std::to_string(status_) +
            " Whatever\r\nContent-Type: text/plain; charset=utf-8\r\nX-Upstream: yes\r\n"
            "Connection: close\r\nContent-Length: " +
            std::to_string(body.size()) + "\r\n\r\n" + body;
        ::send(c, answer.data(), answer.size(), MSG_NOSIGNAL);
    }

    int status_, fd_ = -1, port_ = 0;
    std::atomic<bool> stop_{false};
    mutable std::mutex m_;
    std::vector<Seen> seen_;
    std::thread thread_;
};

// A port nothing listens on (bound, then closed).
int closed_port() {
    int port = 0;
    ::close(listen_loopback(&port));
    return port;
}

json service_record(const std::string& name, const std::string& address,
                    json endpoints = json::array()) {
    return {{"name", name},
            {"endpoints", endpoints},
            {"nodes", {{{"id", name + "-1"}, {"address", address}}}}};
}

void register_service(HttpClient& c, const json& record) {
    auto r = c.post_json("/registry/register", {{"service", record}}, kAdmin);
    ASSERT_EQ(r.status, 200) << r.body;
}

HostProcess::Options handler(const std::string& name) {
    HostProcess::Options o;
    o.args = {"--handler", name};
    return o;
}

// ---- rpc (default) -------------------------------------------------------------------------

class RpcHandler : public SharedHostTest {};

TEST_F(RpcHandler, IsTheDefaultAndUnchanged) {
    auto add = api.post_json("/v1/notes/add", {{"title", "h"}, {"text", "one"}},
                             {{"Authorization", "Bearer rpc-h"}});
    ASSERT_EQ(add.status, 200) << add.body;
    EXPECT_EQ(add.json()["title"], "h");
    auto item = api.get("/apiecho/item?id=7");
    ASSERT_EQ(item.status, 200) << item.body;
    EXPECT_EQ(item.json(), json({{"id", "7"}}));
    EXPECT_EQ(api.get("/nosuch/thing").status, 404);
}

TEST_F(RpcHandler, HttpPathRoutesBindSegmentsTypedByTheSchema) {
    auto item = api.get("/items/42");
    ASSERT_EQ(item.status, 200) << item.body;
    EXPECT_EQ(item.json(), json({{"id", "42"}}));  // a string: the schema says so
    EXPECT_EQ(api.get("/items/my%20item/").json(), json({{"id", "my item"}}));
    auto count = api.get("/counts/7");
    ASSERT_EQ(count.status, 200) << count.body;
    EXPECT_EQ(count.json(), json({{"n", 7}}));
    auto bad = api.get("/counts/seven");
    EXPECT_EQ(bad.status, 400) << bad.body;
    EXPECT_TRUE(has(bad.json()["Detail"], "n: must be an integer")) << bad.body;
    // The endpoint's verb only: POST is not this route (and /items/42 names no service).
    EXPECT_EQ(api.post_json("/items/42", json::object()).status, 404);
    // A different namespace does not see this host's routes.
    EXPECT_EQ(api.get("/items/42", {{"Platform-Namespace", "other.ns"}}).status, 404);
}

TEST_F(RpcHandler, RpcTakesFormFieldsAddressAndNamespace) {
    const std::map<std::string, std::string> form{
        {"Content-Type", "application/x-www-form-urlencoded"},
        {"Authorization", "Bearer rpc-form"}};
    auto add = proxy.post(
        "/rpc",
        "service=notes&method=Notes.Add&request=%7B%22title%22%3A%22f%22%2C%22text%22%3A%22x%22%7D",
        form);
    ASSERT_EQ(add.status, 200) << add.body;
    EXPECT_EQ(add.json()["title"], "f");
    auto get = proxy.post(
        "/rpc",
        "service=go.core.api.v1.notes&endpoint=Notes.Get&request=%7B%22title%22%3A%22f%22%7D",
        form);
    ASSERT_EQ(get.status, 200) << get.body;
    EXPECT_EQ(get.json()["text"], "x");
    auto bad_request = proxy.post("/rpc", "service=notes&method=Notes.Get&request=not-json", form);
    EXPECT_EQ(bad_request.status, 400) << bad_request.body;
    EXPECT_EQ(proxy.post("/rpc", "method=Notes.Get", form).status, 400);

    const std::string here = "127.0.0.1:" + std::to_string(host->api_port());
    auto who = std::map<std::string, std::string>{{"Authorization", "Bearer rpc-form"}};
    auto pinned = proxy.post_json("/rpc",
                                  {{"service", "notes"},
                                   {"method", "Notes.Get"},
                                   {"request", "{\"title\":\"f\"}"},
                                   {"address", here}},
                                  who);
    EXPECT_EQ(pinned.status, 200) << pinned.body;
    auto elsewhere = proxy.post_json("/rpc",
                                     {{"service", "notes"},
                                      {"method", "Notes.Get"},
                                      {"request", {{"title", "f"}}},
                                      {"address", "10.1.2.3:8080"}},
                                     who);
    EXPECT_EQ(elsewhere.status, 404);
    EXPECT_TRUE(has(elsewhere.json()["Detail"], "no node at 10.1.2.3:8080")) << elsewhere.body;

    auto other = proxy.post_json(
        "/rpc", {{"service", "v1.notes"}, {"method", "Notes.Get"}, {"request", {{"title", "f"}}}},
        with(who, {{"Platform-Namespace", "other.ns"}}));
    EXPECT_EQ(other.status, 404);
    EXPECT_TRUE(has(other.json()["Detail"], "other.ns.v1.notes")) << other.body;
    auto same = proxy.post_json(
        "/rpc", {{"service", "v1.notes"}, {"method", "Notes.Get"}, {"request", {{"title", "f"}}}},
        with(who, {{"Platform-Namespace", "go.core.api"}}));
    EXPECT_EQ(same.status, 200) << same.body;
}

TEST_F(RpcHandler, RegisteredPathMetadataIsProxiedToANode) {
    Upstream up(200);
    register_service(
        api,
        service_record(
            "go.core.api.things", up.address(),
            {{{"name", "Things.Get"}, {"metadata", {{"path", "/things/{id}"}, {"method", "GET"}}}},
             {{"name", "Things.Pcre"}, {"metadata", {{"path", "^/pcre/[0-9]+$"}}}}}));
    auto r = api.get("/things/9?full=1", {{"X-Custom", "yes"}});
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.body, "upstream saw GET /things/9?full=1");
    EXPECT_EQ(r.header("x-upstream"), "yes");
    auto pcre = api.post("/pcre/12", "payload", {{"Content-Type", "text/plain"}});
    ASSERT_EQ(pcre.status, 200) << pcre.body;
    EXPECT_EQ(pcre.body, "upstream saw POST /pcre/12");
    auto seen = up.seen();
    ASSERT_EQ(seen.size(), 2u);
    EXPECT_EQ(seen[0].headers["x-custom"], "yes");
    EXPECT_EQ(seen[1].body, "payload");
    // Not the declared method, not the expression: no route.
    EXPECT_EQ(api.post_json("/things/9", json::object()).status, 404);
    EXPECT_EQ(api.get("/pcre/ab").status, 404);
    EXPECT_EQ(up.seen().size(), 2u);
    ASSERT_EQ(api.post_json("/registry/deregister", {{"service", {{"name", "go.core.api.things"}}}},
                            kAdmin)
                  .status,
              200);
    EXPECT_EQ(api.get("/things/9").status, 404);
}

// ---- api -----------------------------------------------------------------------------------

TEST(ApiHandler, CallsWithApiRequestAndWritesApiResponse) {
    HostProcess host(handler("api"));
    host.start();
    HttpClient api("127.0.0.1", host.api_port());
    auto r = api.get("/apiecho/call?x=1", {{"X-Thing", "t"}});
    ASSERT_EQ(r.status, 201) << r.body;
    EXPECT_EQ(r.body, "GET /apiecho/call");
    EXPECT_EQ(r.header("x-echo"), "1");
    EXPECT_EQ(r.header("content-type"), "application/json");
    EXPECT_EQ(json::parse(r.header("x-echo-get")),
              json::parse(R"({"x":{"key":"x","values":["1"]}})"));

    auto form = api.post("/apiecho/call", "a=1&b=two+words",
                         {{"Content-Type", "application/x-www-form-urlencoded"}});
    ASSERT_EQ(form.status, 201) << form.body;
    EXPECT_EQ(form.body, "POST /apiecho/call");
    EXPECT_EQ(
        json::parse(form.header("x-echo-post")),
        json::parse(R"({"a":{"key":"a","values":["1"]},"b":{"key":"b","values":["two words"]}})"));

    // A plugin whose schema does not take api.Request answers 400 (its strict schema).
    auto strict = api.get("/v1/notes/list", {{"Authorization", "Bearer api-user"}});
    EXPECT_EQ(strict.status, 400) << strict.body;
    EXPECT_EQ(api.get("/nosuch/call").status, 404);
    // Declared routes come before the handler.
    EXPECT_EQ(api.get("/items/5").json(), json({{"id", "5"}}));
    EXPECT_EQ(host.stop(), 0) << host.log();
}

// ---- proxy and web -------------------------------------------------------------------------

TEST(ProxyHandler, ForwardsToARegisteredNodeAndFallsBackToRpc) {
    HostProcess host(handler("proxy"));
    host.start();
    HttpClient api("127.0.0.1", host.api_port());
    Upstream up;
    register_service(api, service_record("go.core.api.upstream", up.address()));

    auto r = api.get("/upstream/anything?x=1",
                     {{"X-Custom", "c"}, {"Connection", "keep-alive, X-Drop"}, {"X-Drop", "d"}});
    ASSERT_EQ(r.status, 207) << r.body;
    EXPECT_EQ(r.body, "upstream saw GET /upstream/anything?x=1");
    EXPECT_EQ(r.header("x-upstream"), "yes");
    EXPECT_EQ(r.header("content-type"), "text/plain; charset=utf-8");
    auto post = api.post("/upstream", "{\"a\":1}", {{"Content-Type", "application/json"}});
    ASSERT_EQ(post.status, 207) << post.body;
    EXPECT_EQ(post.body, "upstream saw POST /upstream");
    auto seen = up.seen();
    ASSERT_EQ(seen.size(), 2u);
    EXPECT_EQ(seen[0].target, "/upstream/anything?x=1");
    EXPECT_EQ(seen[0].headers["x-custom"], "c");
    EXPECT_EQ(seen[0].headers.count("x-drop"), 0u);  // named by Connection: hop-by-hop
    EXPECT_EQ(seen[0].headers["x-forwarded-host"], "127.0.0.1:" + std::to_string(host.api_port()));
    EXPECT_FALSE(seen[0].headers["x-request-id"].empty());
    EXPECT_EQ(seen[1].body, "{\"a\":1}");
    EXPECT_EQ(seen[1].headers["content-type"], "application/json");

    // /v1/foo/bar names v1.foo (a leading version segment joins the service name); registered, it
    // is proxied with the path as given.
    register_service(api, service_record("go.core.api.v1.versioned", up.address()));
    auto v1 = api.get("/v1/versioned/:name");
    ASSERT_EQ(v1.status, 207) << v1.body;
    EXPECT_EQ(v1.body, "upstream saw GET /v1/versioned/:name");

    // Not a registered service: the rpc handler resolves the path.
    auto notes = api.get("/v1/notes/list", {{"Authorization", "Bearer proxy-user"}});
    EXPECT_EQ(notes.status, 200) << notes.body;
    EXPECT_EQ(api.get("/nosuch/x").status, 404);

    // A node that does not answer: 502.
    register_service(
        api, service_record("go.core.api.down", "127.0.0.1:" + std::to_string(closed_port())));
    auto down = api.get("/down/x");
    EXPECT_EQ(down.status, 502) << down.body;
    EXPECT_EQ(down.json()["Id"], "go.core.api.down");
    EXPECT_EQ(host.stop(), 0) << host.log();
}

TEST(WebHandler, ProxiesByFirstSegmentAndPassesBackARefusedUpgrade) {
    HostProcess host(handler("web"));
    host.start();
    HttpClient api("127.0.0.1", host.api_port());
    Upstream up(200);
    register_service(api, service_record("go.core.api.site", up.address()));
    auto page = api.get("/site/index.html?q=1");
    ASSERT_EQ(page.status, 200) << page.body;
    EXPECT_EQ(page.body, "upstream saw GET /site/index.html?q=1");

    auto ws = api.get("/site/socket", {{"Connection", "Upgrade"},
                                       {"Upgrade", "websocket"},
                                       {"Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="},
                                       {"Sec-WebSocket-Version", "13"}});
    // The node answers the upgrade with a plain 200: that answer comes back, no 101.
    EXPECT_EQ(ws.status, 200) << ws.body;
    EXPECT_EQ(ws.body, "upstream saw GET /site/socket");
    EXPECT_EQ(up.seen().size(), 2u);
    EXPECT_EQ(host.stop(), 0) << host.log();
}

// ---- event ---------------------------------------------------------------------------------

TEST(EventHandler, PublishesTheRequestAsAnEvent) {
    HostProcess host(handler("event"));
    host.start();
    HttpClient api("127.0.0.1", host.api_port());
    ASSERT_EQ(api.post_json("/clock/set", {{"unix_ms", 1767225600000}}).status,
              200);  // in-process: rpc

    auto sub = std::async(std::launch::async, [port = host.api_port()] {
        return stream_messages(
            port, "/broker/subscribe?topic=go.core.api.foo&limit=1&wait_ms=20000", "admin", 25000);
    });
    // The subscription exists some time after the request: publish until the subscriber has one.
    bool received = false;
    for (int i = 0; i < 150 && !received; ++i) {
        auto r =
            api.get("/foo/bar?x=1", with(kAdmin, {{"X-Custom", "c"}, {"X-Request-Id", "ev-1"}}));
        ASSERT_EQ(r.status, 200) << r.body;
        EXPECT_TRUE(r.body.empty()) << r.body;
        received = sub.wait_for(std::chrono::milliseconds(100)) == std::future_status::ready;
    }
    ASSERT_TRUE(received) << "no event reached the subscriber\n" << host.log();
    auto chunks = sub.get();
    ASSERT_EQ(chunks.size(), 1u);
    EXPECT_EQ(chunks[0]["topic"], "go.core.api.foo");
    EXPECT_EQ(chunks[0]["headers"]["Content-Type"], "application/json");
    EXPECT_EQ(chunks[0]["headers"]["X-Request-Id"], "ev-1");
    const json event = json::parse(chunks[0]["body"].get<std::string>());
    EXPECT_EQ(event["name"], "bar");
    EXPECT_EQ(json::parse(event["data"].get<std::string>()), json::parse(R"({"x":["1"]})"));
    EXPECT_EQ(event["id"].get<std::string>().rfind("go.core.api.foo-bar-", 0), 0u) << event;
    EXPECT_EQ(event["timestamp"], 1767225600);
    EXPECT_EQ(event["header"]["X-Custom"], json({{"key", "X-Custom"}, {"values", {"c"}}}));
    EXPECT_FALSE(event["header"].contains("Authorization")) << event;

    // A POST body is the data as it is; the namespace header names the topic's namespace.
    auto sub2 = std::async(std::launch::async, [port = host.api_port()] {
        return stream_messages(port,
                               "/broker/subscribe?topic=other.ns.v1.orders&limit=1&wait_ms=20000",
                               "admin", 25000);
    });
    received = false;
    for (int i = 0; i < 150 && !received; ++i) {
        auto r = api.post(
            "/v1/orders/created/now", "raw body",
            with(kAdmin, {{"Platform-Namespace", "other.ns"}, {"Content-Type", "text/plain"}}));
        ASSERT_EQ(r.status, 200) << r.body;
        received = sub2.wait_for(std::chrono::milliseconds(100)) == std::future_status::ready;
    }
    ASSERT_TRUE(received) << host.log();
    auto chunks2 = sub2.get();
    ASSERT_EQ(chunks2.size(), 1u);
    const json event2 = json::parse(chunks2[0]["body"].get<std::string>());
    EXPECT_EQ(event2["name"], "created.now");
    EXPECT_EQ(event2["data"], "raw body");

    EXPECT_EQ(api.get("/foo/bar").status, 401);  // publishing needs an account
    EXPECT_EQ(host.stop(), 0) << host.log();
}

// ---- start-up ------------------------------------------------------------------------------

TEST(HandlerSetting, UnknownHandlerIsAStartUpError) {
    HostProcess flag(handler("nosuch"));
    EXPECT_EQ(flag.run_to_exit(), 1);
    EXPECT_TRUE(has(flag.log(), "'nosuch'")) << flag.log();
    EXPECT_TRUE(has(flag.log(), "rpc, api, proxy, event, web")) << flag.log();

    HostProcess::Options o;
    o.env["PLATFORM_API_HANDLER"] = "meta";
    HostProcess env(o);
    EXPECT_EQ(env.run_to_exit(), 1);
    EXPECT_TRUE(has(env.log(), "'meta'")) << env.log();
}

TEST(HandlerSetting, EnvironmentChoosesTheHandler) {
    HostProcess::Options o;
    o.env["PLATFORM_API_HANDLER"] = "api";
    HostProcess host(o);
    host.start();
    HttpClient api("127.0.0.1", host.api_port());
    EXPECT_EQ(api.get("/apiecho/call").status, 201);
    EXPECT_EQ(host.stop(), 0) << host.log();
}

}  // namespace
