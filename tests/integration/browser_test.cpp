// The browser service (plugins/browser/) through the real host on the `test` profile, with
// Debian's headless Chromium (/usr/bin/chromium, installed by scripts/e2e-deps.sh) and the host's
// filtering proxy. The pages are served by this test from loopback (`pages`, admitted through
// outbound.allow_user); a second loopback server (`secret`) is not admitted, and answers every
// request with CORS open, so only the proxy keeps its text out of a page.
//   - read: text a script wrote is in the answer; a script's fetch of the admitted server works
//     and its fetch of `secret` is refused by the proxy (the secret never reaches the page, and
//     `secret` sees no request); `wait` for an element a script adds after a delay; a selector
//     that never matches is 408 naming `wait`; a broken selector and a bad URL are 400; a page on
//     a refused address is 403 with the guard's reason; a third browser at once is 503.
//   - shot: a PNG whose signature, IHDR (1280×800 viewport; the whole height with `full`) and
//     chunk CRCs are right, served at its URL; an unknown id is 404.
//   - payment (x402 against a loopback fake facilitator, credits from billing): anonymous → 402
//     with the challenge; paid → 200; the same payment again → refused; an account without
//     credit → 402; with credit → charged once, and not for a failed call.
//   - a host whose Chromium setting points nowhere answers 503 naming the setting.
// Without Chromium the tests fail, naming scripts/e2e-deps.sh.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <condition_variable>
#include <fstream>
#include <future>
#include <memory>
#include <mutex>
#include <string>

#include "../unit/outbound/loopback_server.hpp"
#include "http_client.hpp"
#include "profiles.hpp"
#include "shared_host_test.hpp"
#include "x402_payer.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

const std::string kChromium = "/usr/bin/chromium";
constexpr const char* kPayTo = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C";
constexpr const char* kUsdc = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
constexpr const char* kPayer = "0xAbC0000000000000000000000000000000000001";
const char* kSecret = "TOP-SECRET-7d1f";

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

std::string encode(const std::string& s) {
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : s) {
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

// ---- PNG ------------------------------------------------------------------------------------

uint32_t be32(const std::string& s, size_t at) {
    return (uint32_t(uint8_t(s[at])) << 24) | (uint32_t(uint8_t(s[at + 1])) << 16) |
           (uint32_t(uint8_t(s[at + 2])) << 8) | uint32_t(uint8_t(s[at + 3]));
}

uint32_t crc32(const std::string& s, size_t from, size_t n) {
    uint32_t c = 0xffffffffu;
    for (size_t i = from; i < from + n; ++i) {
        c ^= uint8_t(s[i]);
        for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1)));
    }
    return c ^ 0xffffffffu;
}

struct Png {
    bool ok = false;
    std::string why;
    uint32_t width = 0, height = 0;
    size_t idat = 0;
};

// Walks the PNG's chunks: signature, IHDR first, every CRC right, IDAT present, IEND last.
Png read_png(const std::string& b) {
    Png p;
    if (b.size() < 8 || b.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0) {
        p.why = "no PNG signature";
        return p;
    }
    size_t at = 8;
    bool first = true;
    while (at + 12 <= b.size()) {
        uint32_t len = be32(b, at);
        std::string type = b.substr(at + 4, 4);
        if (at + 12 + len > b.size()) {
            p.why = "chunk " + type + " runs past the end";
            return p;
        }
        if (crc32(b, at + 4, 4 + len) != be32(b, at + 8 + len)) {
            p.why = "bad CRC in " + type;
            return p;
        }
        if (first && type != "IHDR") {
            p.why = "first chunk is " + type;
            return p;
        }
        if (type == "IHDR") {
            p.width = be32(b, at + 8);
            p.height = be32(b, at + 12);
        }
        if (type == "IDAT") p.idat += len;
        if (type == "IEND") {
            p.ok = p.idat > 0 && at + 12 == b.size();
            if (!p.ok) p.why = "no image data, or bytes after IEND";
            return p;
        }
        first = false;
        at += 12 + len;
    }
    p.why = "no IEND";
    return p;
}

// ---- the fixtures ---------------------------------------------------------------------------

LoopbackServer* pages = nullptr;
LoopbackServer* secret = nullptr;
LoopbackServer* facilitator = nullptr;

std::string html(const std::string& body) {
    return LoopbackServer::reply(
        200,
        "<!doctype html><html><head><title>Fixture</title></head><body>" + body + "</body></html>",
        {{"Content-Type", "text/html; charset=utf-8"}});
}

// How many times /hold was served: a browser that asked for it holds one of the plugin's places.
std::mutex held_m;
std::condition_variable held_cv;
int held = 0;

std::string page(const LoopbackServer::Request& r) {
    const std::string secret_url = "http://127.0.0.1:" + std::to_string(secret->port()) + "/data";
    const std::string own_url = "http://127.0.0.1:" + std::to_string(pages->port()) + "/data";
    if (r.target == "/scripted")
        return html(
            "<p id=out>static</p><script>"
            "document.getElementById('out').textContent = ['written', 'by', 'script'].join(' ');"
            "document.title = 'Scripted ' + 'title';</script>");
    if (r.target == "/data")
        return LoopbackServer::reply(200, "fixture data 42",
                                     {{"Access-Control-Allow-Origin", "*"}});
    if (r.target == "/fetches")
        // Both fetches end (with text or an error) before #done appears.
        return html(
            "<p id=own></p><p id=other></p><script>"
            "const show = (id, p) => p.then(r => r.text()).then(t => 'got ' + t,"
            " e => 'failed ' + e.name).then(t => { document.getElementById(id).textContent = t; });"
            "Promise.all([show('own', fetch('" +
            own_url + "')), show('other', fetch('" + secret_url +
            "'))]).then(() => {"
            " const d = document.createElement('p'); d.id = 'done'; d.textContent = 'done';"
            " document.body.appendChild(d); });</script>");
    if (r.target == "/late")
        return html(
            "<p>early</p><script>setTimeout(() => { const d = document.createElement('div');"
            " d.id = 'late'; d.textContent = 'arrived ' + 'late'; document.body.appendChild(d);"
            " }, 1500);</script>");
    if (r.target == "/hold") {
        {
            std::lock_guard<std::mutex> g(held_m);
            ++held;
        }
        held_cv.notify_all();
        return html("<p>held</p>");
    }
    if (r.target == "/tall")
        return html("<div style='height:3000px;background:linear-gradient(red,blue)'>tall</div>");
    return LoopbackServer::reply(404, "no such fixture");
}

class BrowserService : public SharedHostTest {
protected:
    static void SetUpTestSuite() {
        pages = new LoopbackServer(page);
        secret = new LoopbackServer([](const LoopbackServer::Request&) {
            return LoopbackServer::reply(200, kSecret, {{"Access-Control-Allow-Origin", "*"}});
        });
        facilitator = new LoopbackServer(fake_facilitator);
        std::string profile = test_profile_text() + "\noutbound:\n  allow: [\"127.0.0.1:" +
                              std::to_string(facilitator->port()) +
                              "\"]\n  allow_user: [\"127.0.0.1:" + std::to_string(pages->port()) +
                              "\"]\npayment:\n  pay_to: \"" + kPayTo + "\"\n  timeout_ms: 5000\n";
        profile = with_plugin_config(profile, "browser", "timeout_ms: 10000");
        const std::string path = suite_dir() + "/browser.yaml";
        {
            std::ofstream out(path);
            out << profile;
        }
        HostProcess::Options o;
        o.profile = path;
        o.env["PLATFORM_X402_FACILITATOR_URL"] =
            "http://127.0.0.1:" + std::to_string(facilitator->port());
        start_host(o);
    }
    static void TearDownTestSuite() {
        stop_host();
        delete pages;
        delete secret;
        delete facilitator;
        pages = secret = facilitator = nullptr;
    }

    void SetUp() override {
        ASSERT_EQ(access(kChromium.c_str(), X_OK), 0)
            << "missing " << kChromium << " — run scripts/e2e-deps.sh (Debian's chromium)";
    }

    static std::string fixture(const std::string& path) { return pages->url(path); }

    // GET /api/v1/browser/<method>?<query> as `who` ("" = anonymous).
    HttpResult call(const std::string& method, const std::string& query,
                    const std::string& who = "carol",
                    std::map<std::string, std::string> headers = {}) {
        if (!who.empty()) headers["Authorization"] = "Bearer " + who;
        return api.get("/api/v1/browser/" + method + "?" + query, headers);
    }
    json ok(const std::string& method, const std::string& query) {
        auto r = call(method, query);
        EXPECT_EQ(r.status, 200) << method << "?" << query << " " << r.body;
        return r.status == 200 ? r.json()["data"] : json::object();
    }

    int nonce = 0;
    json payment() {
        json a = {{"scheme", "exact"},
                  {"network", "eip155:8453"},
                  {"amount", "20000"},
                  {"asset", kUsdc},
                  {"payTo", kPayTo},
                  {"maxTimeoutSeconds", 60},
                  {"extra", {{"name", "USD Coin"}, {"version", "2"}}}};
        return x402_payment(a, kPayer, "0xb" + std::to_string(1000 + ++nonce));
    }
    // Billing over /rpc on the proxy port (the test profile: the bearer text is the account).
    HttpResult billing(const std::string& method, const json& request, const std::string& who) {
        json env = {{"service", "billing"}, {"method", method}, {"request", request}};
        auto h = as(who);
        h["Content-Type"] = "application/json";
        return proxy.post("/rpc", env.dump(), h);
    }
    void admin(const std::string& method, const json& request) {
        auto r = billing(method, request, "admin");
        ASSERT_EQ(r.status, 200) << method << " " << r.body;
    }
    json balance(const std::string& account) {
        auto r = billing("Billing.Balance", json::object(), account);
        EXPECT_EQ(r.status, 200) << r.body;
        return r.status == 200 ? r.json() : json::object();
    }
};

TEST_F(BrowserService, ReadReturnsWhatTheScriptsWrote) {
    json d = ok("read", "url=" + encode(fixture("/scripted")));
    EXPECT_TRUE(has(d.value("text", ""), "written by script")) << d.dump();
    EXPECT_FALSE(has(d.value("text", ""), "static")) << d.dump();
    EXPECT_EQ(d["title"], "Scripted title");
    EXPECT_EQ(d["status"], 200);
    EXPECT_TRUE(has(d.value("html", ""), "<p id=\"out\">written by script</p>")) << d.dump();
    EXPECT_EQ(d["url"], fixture("/scripted"));
    EXPECT_EQ(d["text_truncated"], false);
    EXPECT_EQ(d["html_truncated"], false);
}

TEST_F(BrowserService, AScriptsFetchOfAnAddressTheGuardRefusesIsBlocked) {
    json d = ok("read", "url=" + encode(fixture("/fetches")) + "&wait=" + encode("#done"));
    const std::string text = d.value("text", "");
    EXPECT_TRUE(has(text, "got fixture data 42"))
        << text;                                         // the admitted server, through the proxy
    EXPECT_TRUE(has(text, "failed TypeError")) << text;  // the refused one
    EXPECT_FALSE(has(text, kSecret)) << text;
    EXPECT_FALSE(has(d.value("html", ""), kSecret));
    EXPECT_TRUE(secret->requests().empty()) << secret->requests().size() << " reached it";
}

TEST_F(BrowserService, APageOnARefusedAddressIs403WithTheReason) {
    auto r = call("read", "url=" + encode(secret->url("/page")));
    EXPECT_EQ(r.status, 403) << r.body;
    EXPECT_TRUE(has(error_message(r), "url: refused: 127.0.0.1 is a loopback address")) << r.body;
    EXPECT_FALSE(has(r.body, kSecret));
    r = call("shot", "url=" + encode("http://169.254.169.254/latest/meta-data/"));
    EXPECT_EQ(r.status, 403) << r.body;
    EXPECT_TRUE(has(error_message(r), "metadata")) << r.body;
    // https: the proxy refuses the CONNECT, and Chromium tells only that the tunnel failed.
    r = call("read", "url=" + encode("https://127.0.0.1:" + std::to_string(secret->port()) + "/"));
    EXPECT_EQ(r.status, 502) << r.body;
    EXPECT_TRUE(has(error_message(r), "the outbound guard refused its address")) << r.body;
    EXPECT_TRUE(has(error_message(r), "ERR_TUNNEL_CONNECTION_FAILED")) << r.body;
    EXPECT_TRUE(secret->requests().empty());
}

TEST_F(BrowserService, WaitFindsAnElementAScriptAddsLater) {
    json early = ok("read", "url=" + encode(fixture("/late")));
    EXPECT_FALSE(has(early.value("text", ""), "arrived late")) << early.dump();
    json d = ok("read", "url=" + encode(fixture("/late")) + "&wait=" + encode("div#late"));
    EXPECT_TRUE(has(d.value("text", ""), "arrived late")) << d.dump();
}

// A wait that never matches is 408 naming the selector: the two reads that hold both browsers in
// BeyondTwoBrowsersAtOnceItAnswers503 below are such waits (one time limit for both tests).
TEST_F(BrowserService, ABrokenSelectorIs400) {
    auto r = call("read", "url=" + encode(fixture("/scripted")) + "&wait=" + encode("p[[["));
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_TRUE(has(error_message(r), "wait: not a valid CSS selector")) << r.body;
}

TEST_F(BrowserService, BadUrlsAre400NamingTheArgument) {
    for (const std::string url : {"file:///etc/passwd", "ftp://example.com/", "javascript:alert(1)",
                                  "example.com", "http://exa mple.com/"}) {
        auto r = call("read", "url=" + encode(url));
        EXPECT_EQ(r.status, 400) << url << " " << r.body;
        EXPECT_TRUE(has(error_message(r), "url:")) << url << " " << r.body;
    }
    auto missing = call("shot", "full=true");
    EXPECT_EQ(missing.status, 400) << missing.body;
    EXPECT_TRUE(has(missing.body, "url")) << missing.body;
}

TEST_F(BrowserService, ShotIsAPngServedAtItsUrl) {
    json d = ok("shot", "url=" + encode(fixture("/scripted")));
    const std::string url = d.value("url", "");
    ASSERT_TRUE(has(url, "/ui/browser/shots/")) << d.dump();
    EXPECT_EQ(url.size(), std::string("/ui/browser/shots/").size() + 32) << url;
    EXPECT_EQ(d["expires_in_seconds"], 86400);
    auto png = api.get(url);  // anyone holding the URL
    ASSERT_EQ(png.status, 200) << png.body.substr(0, 200);
    EXPECT_EQ(png.header("content-type"), "image/png");
    EXPECT_EQ(d["bytes"], png.body.size());
    Png p = read_png(png.body);
    EXPECT_TRUE(p.ok) << p.why;
    EXPECT_EQ(p.width, 1280u);
    EXPECT_EQ(p.height, 800u);

    json full = ok("shot", "url=" + encode(fixture("/tall")) + "&full=true");
    auto tall = api.get(full.value("url", ""));
    ASSERT_EQ(tall.status, 200);
    Png t = read_png(tall.body);
    EXPECT_TRUE(t.ok) << t.why;
    EXPECT_EQ(t.width, 1280u);
    EXPECT_GE(t.height, 3000u);

    EXPECT_EQ(api.get("/ui/browser/shots/" + std::string(32, 'a')).status, 404);
    EXPECT_EQ(api.get("/ui/browser/shots/..%2f..%2fetc").status, 404);
}

TEST_F(BrowserService, BeyondTwoBrowsersAtOnceItAnswers503) {
    // Two reads that wait for an element that never comes hold both places until the time limit.
    auto hold = [](int port) {
        HttpClient c("127.0.0.1", port);
        return c.get(
            "/api/v1/browser/read?url=" + encode(fixture("/hold")) + "&wait=" + encode("#never"),
            bearer("carol"));
    };
    auto first = std::async(std::launch::async, hold, host->api_port());
    auto second = std::async(std::launch::async, hold, host->api_port());
    {
        std::unique_lock<std::mutex> lock(held_m);
        ASSERT_TRUE(held_cv.wait_for(lock, std::chrono::seconds(60), [] { return held >= 2; }))
            << "the two browsers never asked for their page";
    }
    auto r = call("read", "url=" + encode(fixture("/scripted")));
    EXPECT_EQ(r.status, 503) << r.body;
    EXPECT_TRUE(has(error_message(r), "busy, 2 pages are being read")) << r.body;
    EXPECT_TRUE(has(error_message(r), "plugin_config.browser.max_browsers")) << r.body;
    for (auto* held_read : {&first, &second}) {  // each ends at the time limit: 408
        const HttpResult h = held_read->get();
        EXPECT_EQ(h.status, 408) << h.body;
        EXPECT_TRUE(has(error_message(h), "wait: no element matched '#never'")) << h.body;
    }
    EXPECT_EQ(ok("read", "url=" + encode(fixture("/scripted")))["title"], "Scripted title");
}

// ---- payment --------------------------------------------------------------------------------

TEST_F(BrowserService, AnonymousReadGetsTheX402Challenge) {
    auto r = call("read", "url=" + encode(fixture("/scripted")), "");
    ASSERT_EQ(r.status, 402) << r.body;
    json body = r.json();
    EXPECT_EQ(body["x402Version"], 2);
    EXPECT_TRUE(has(body.value("error", ""), "costs 2 credits")) << r.body;
    EXPECT_TRUE(has(body["resource"].value("url", ""), "/api/v1/browser/read")) << r.body;
    ASSERT_EQ(body["accepts"].size(), 1u);
    EXPECT_EQ(body["accepts"][0]["amount"], "20000");
    EXPECT_EQ(body["accepts"][0]["payTo"], kPayTo);
    EXPECT_FALSE(r.header("payment-required").empty());
}

TEST_F(BrowserService, PaidReadSucceedsOnceAndItsReplayIsRefused) {
    const std::string query = "url=" + encode(fixture("/scripted"));
    const std::map<std::string, std::string> paid = x402_header(payment());
    auto r = call("read", query, "", paid);
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_TRUE(has(r.json()["data"].value("text", ""), "written by script")) << r.body;
    EXPECT_FALSE(r.header("payment-response").empty());
    auto again = call("read", query, "", paid);
    EXPECT_EQ(again.status, 402) << again.body;
    EXPECT_TRUE(has(error_message(again), "already used (replay refused)")) << again.body;
    size_t settled = 0;
    for (const auto& q : facilitator->requests()) settled += q.target == "/settle";
    EXPECT_EQ(settled, 1u);
}

TEST_F(BrowserService, AccountsPayWithCreditOnlyForSuccessfulCalls) {
    admin("Billing.SetAllowance", {{"account", "dora"}, {"allowance_per_day", 0}});
    auto broke = call("read", "url=" + encode(fixture("/scripted")), "dora");
    EXPECT_EQ(broke.status, 402) << broke.body;
    EXPECT_TRUE(has(error_message(broke), "needs 2 credits; you have 0")) << broke.body;

    admin("Billing.AddCredit", {{"account", "dora"}, {"amount", 5}});
    auto failed = call("read", "url=" + encode(secret->url("/x")), "dora");
    EXPECT_EQ(failed.status, 403) << failed.body;
    auto no_match =
        call("read", "url=" + encode(fixture("/scripted")) + "&wait=" + encode("p[[["), "dora");
    EXPECT_EQ(no_match.status, 400) << no_match.body;
    EXPECT_EQ(balance("dora")["credit"], 5);  // failed calls are never charged

    auto r = call("read", "url=" + encode(fixture("/scripted")), "dora");
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(balance("dora")["credit"], 3);  // charged once
}

// ---- a host without Chromium ----------------------------------------------------------------

TEST(BrowserWithoutChromium, Answers503NamingTheSetting) {
    TempDir dir;
    std::string profile =
        with_plugin_config(test_profile_text(), "browser", "chromium: /nonexistent/chromium");
    const std::string path = dir.path() + "/no-chromium.yaml";
    {
        std::ofstream out(path);
        out << profile;
    }
    HostProcess::Options o;
    o.profile = path;
    HostProcess host(o);
    host.start();
    HttpClient api("127.0.0.1", host.api_port());
    auto r = api.get("/api/v1/browser/read?url=" + encode("http://example.com/"), bearer("carol"));
    EXPECT_EQ(r.status, 503) << r.body;
    EXPECT_TRUE(has(error_message(r), "plugin_config.browser.chromium")) << r.body;
    EXPECT_TRUE(has(error_message(r), "/nonexistent/chromium")) << r.body;
}

}  // namespace
