// The web service (plugins/web/) through the real host on the `test` profile. One fake upstream
// on loopback (support/fake_upstream.hpp) is at once Brave Search (provider `brave`, fixtures in
// Brave's format, tests/fixtures/brave/), the x402 payment facilitator (/x402/verify and
// /x402/settle in the facilitator's format) and a web site serving the pages of
// tests/fixtures/web/. The profile lists that site in outbound.allow_user, so web/fetch may read
// it although it is on loopback; nothing else on this machine or network may be read:
//   - fetch: needs an account; the article's main text, its noise dropped, links absolute; the SSRF
//     table (loopback, private, link-local, metadata, mapped IPv6, a name resolving to loopback,
//     redirects to private addresses, file:// and gopher://) each 403 or 400 with the reason;
//   - search and images: Brave's answers read; metered: an anonymous caller gets the x402
//     challenge, a paid call succeeds once and its replay is refused, an account is charged once
//     per successful call and never for a failed one (Brave down: 503);
//   - a host without the provider answers 503 naming the setting, and without allow_user refuses
//     the loopback page too.
#include <gtest/gtest.h>

#include <string>

#include "fake_upstream.hpp"
#include "http_client.hpp"
#include "profiles.hpp"
#include "shared_host_test.hpp"
#include "text_search.hpp"
#include "x402_payer.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

constexpr const char* kPayTo = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C";
constexpr const char* kPayer = "0xAbC0000000000000000000000000000000000001";
const char* kSearch = "/brave/res/v1/web/search";
const char* kImages = "/brave/res/v1/images/search";

// The host's outbound section for `up` with `up`'s own pages listed in outbound.allow_user.
std::string with_allow_user(const FakeUpstream& up, std::string outbound) {
    const std::string allow = "\n  timeout_ms:";
    outbound.insert(outbound.find(allow), "\n  allow_user: [\"" + up.allow_entry() + "\"]");
    return outbound;
}

class Web : public SharedHostTest {
protected:
    static void SetUpTestSuite() {
        up = std::make_unique<FakeUpstream>();
        const std::string outbound = with_allow_user(
            *up,
            up->outbound_yaml({{"brave", "brave-test-key", "X-Subscription-Token", true}}, 5000));
        HostProcess::Options o;
        o.profile = test_profile_with(suite_dir() + "/web.yaml",
                                      outbound + "payment:\n  pay_to: \"" + kPayTo +
                                          "\"\n  facilitator_url: \"" + up->url("/x402") +
                                          "\"\n  timeout_ms: 5000\n");
        start_host(o);
    }
    static void TearDownTestSuite() {
        stop_host();
        up.reset();
    }
    void SetUp() override {
        up->serve(kSearch, FakeUpstream::fixture("brave", "web_search.json"));
        up->serve(kImages, FakeUpstream::fixture("brave", "images_search.json"));
        up->serve("/pages/article.html",
                  FakeUpstream::fixture("web", "article.html", "text/html; charset=utf-8"));
        up->serve("/pages/notes.txt",
                  FakeUpstream::status(200, "first line\r\nsecond line\r\n", "text/plain"));
        up->serve("/pages/photo.png", FakeUpstream::status(200, "\x89PNG\r\n", "image/png"));
        up->serve("/x402/verify",
                  FakeUpstream::status(200, json{{"isValid", true}, {"payer", kPayer}}.dump()));
        up->serve("/x402/settle", FakeUpstream::status(200, json{{"success", true},
                                                                 {"payer", kPayer},
                                                                 {"transaction", "0xtx1"},
                                                                 {"network", "eip155:8453"}}
                                                                .dump()));
        up->forget();
    }

    HttpResult fetch(const std::string& url, const std::string& account = "ann") {
        return api.get("/api/v1/web/fetch?url=" + encode(url), as(account));
    }
    HttpResult search(const std::string& query, const Headers& headers,
                      const std::string& method = "search") {
        return api.get("/api/v1/web/" + method + "?query=" + encode(query), headers);
    }
    static std::string encode(const std::string& s) {
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
    json balance(const std::string& account) {
        json env = {
            {"service", "billing"}, {"method", "Billing.Balance"}, {"request", json::object()}};
        auto r = proxy.post("/rpc", env.dump(), as(account));
        EXPECT_EQ(r.status, 200) << r.body;
        return r.status == 200 ? r.json() : json();
    }
    void admin(const std::string& method, const json& request) {
        json env = {{"service", "billing"}, {"method", method}, {"request", request}};
        auto r = proxy.post("/rpc", env.dump(), as("admin"));
        ASSERT_EQ(r.status, 200) << method << " " << r.body;
    }
    // A payment for the challenge's first requirement, with a fresh nonce.
    json payment(const json& accepted) {
        static int nonce = 0;
        return x402_payment(accepted, kPayer, "0x" + std::to_string(5000 + ++nonce));
    }
    static Headers paid(const json& payload) { return x402_header(payload); }
    size_t facilitator_calls(const std::string& what) {
        return up->requests("/x402/" + what).size();
    }

    static std::unique_ptr<FakeUpstream> up;
};

std::unique_ptr<FakeUpstream> Web::up;

// ---- fetch ----------------------------------------------------------------------------------------

TEST_F(Web, FetchGivesTheArticlesMainTextWithoutItsNoise) {
    const std::string url = up->url("/pages/article.html");
    auto r = fetch(url);
    ASSERT_EQ(r.status, 200) << r.body;
    const json a = r.json()["data"];
    EXPECT_EQ(a["url"], url);
    EXPECT_EQ(a["final_url"], url);
    EXPECT_EQ(a["content_type"], "text/html");
    EXPECT_EQ(a["title"], "Keeping bees in a small garden | The Allotment Gazette");
    const std::string text = a["text"];
    EXPECT_TRUE(has(text, "A single hive fits in a surprisingly small garden")) << text;
    EXPECT_TRUE(has(text, "kitchen window.\n\nStart in spring")) << text;
    for (const char* noise :
         {"NAV-NEWS", "COOKIE-BANNER", "COMMENTS-SECTION", "SIDEBAR-POPULAR", "SHARE-BUTTONS",
          "NEWSLETTER-FORM", "FOOTER-TEXT", "TRACKING-SCRIPT-TEXT"})
        EXPECT_FALSE(has(text, noise)) << noise;
    ASSERT_EQ(a["links"].size(), 2u) << a["links"];
    EXPECT_EQ(a["links"][0]["url"], up->url("/guides/first-hive.html"));
    EXPECT_EQ(a["links"][1]["url"], "https://www.bbka.org.uk/");
    const auto seen = up->requests("/pages/article.html");
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_TRUE(has(seen[0].header("accept"), "text/html"));
}

TEST_F(Web, FetchNeedsAnAccount) {
    auto r = api.get("/api/v1/web/fetch?url=" + encode(up->url("/pages/article.html")));
    EXPECT_EQ(r.status, 401) << r.body;
    EXPECT_TRUE(up->requests("/pages/article.html").empty());
}

TEST_F(Web, PlainTextPassesAndOtherTypesAreRefused) {
    auto r = fetch(up->url("/pages/notes.txt"));
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.json()["data"]["text"], "first line\nsecond line");
    r = fetch(up->url("/pages/photo.png"));
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_TRUE(has(error_message(r), "is image/png")) << r.body;
    std::string deep = "<html><body>";
    for (int i = 0; i < 20000; ++i) deep += "<div>";
    up->serve("/pages/deep.html", FakeUpstream::status(200, deep, "text/html"));
    r = fetch(up->url("/pages/deep.html"));
    EXPECT_EQ(r.status, 502) << r.body;
    EXPECT_TRUE(has(error_message(r), "more than 512 deep")) << r.body;
    r = fetch(up->url("/pages/missing.html"));
    EXPECT_EQ(r.status, 502) << r.body;
    EXPECT_TRUE(has(error_message(r), "answered HTTP 404")) << r.body;
}

// The SSRF table: every one refused before any connection, with the guard's reason.
TEST_F(Web, FetchRefusesEveryAddressOnThisMachineOrNetwork) {
    // Loopback on another port than the fixture site's (which alone is in allow_user).
    const int port = std::stoi(up->allow_entry().substr(up->allow_entry().find(':') + 1));
    const int other_port = port < 65535 ? port + 1 : port - 1;
    up->serve("/pages/to-private", {302, "", "text/html", {{"Location", "http://10.0.0.1/"}}});
    up->serve("/pages/to-loopback",
              {302,
               "",
               "text/html",
               {{"Location", "http://127.0.0.1:" + std::to_string(other_port) + "/admin"}}});
    up->serve("/pages/to-metadata",
              {301, "", "text/html", {{"Location", "http://169.254.169.254/latest/meta-data/"}}});
    struct Case {
        std::string url, reason;
    };
    const std::vector<Case> table = {
        {"http://127.0.0.1/", "loopback"},
        {"http://127.0.0.1:" + std::to_string(other_port) + "/", "loopback"},
        {"http://[::1]/", "loopback"},
        {"http://10.0.0.1/", "private address"},
        {"http://169.254.169.254/latest/meta-data/", "metadata"},
        {"http://[::ffff:127.0.0.1]/", "127.0.0.1"},
        {"http://2130706433/", "loopback"},  // 127.0.0.1 as one number
        {"http://localhost/", "localhost resolves to"},
        {up->url("/pages/to-private"), "redirect to http://10.0.0.1/"},
        {up->url("/pages/to-loopback"), "redirect to http://127.0.0.1:"},
        {up->url("/pages/to-metadata"), "metadata"},
        {"file:///etc/passwd", "scheme not allowed: file"},
        {"gopher://example.com:70/1", "scheme not allowed: gopher"},
    };
    for (const auto& c : table) {
        auto r = fetch(c.url);
        EXPECT_TRUE(r.status == 403 || r.status == 400)
            << c.url << ": " << r.status << " " << r.body;
        EXPECT_TRUE(has(error_message(r), "url: ")) << c.url << ": " << r.body;
        EXPECT_TRUE(has(error_message(r), c.reason))
            << c.url << ": expected '" << c.reason << "' in " << r.body;
    }
    // The redirects were asked of the fixture site; nothing else was reached.
    EXPECT_EQ(up->requests("/pages/to-private").size(), 1u);
    EXPECT_EQ(up->requests("/pages/to-loopback").size(), 1u);
}

TEST_F(Web, ABadUrlArgumentIsA400NamingIt) {
    auto r = api.get("/api/v1/web/fetch", as("ann"));
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_TRUE(has(error_message(r), "url")) << r.body;
    r = fetch("not a url");
    EXPECT_TRUE(r.status == 400 || r.status == 403) << r.body;
    EXPECT_TRUE(has(error_message(r), "url")) << r.body;
}

// ---- search and images --------------------------------------------------------------------------

TEST_F(Web, SearchReadsBravesAnswerWithTheKey) {
    auto r = search("rust borrow checker", as("ann"));
    ASSERT_EQ(r.status, 200) << r.body;
    const json a = r.json()["data"];
    ASSERT_EQ(a["results"].size(), 3u);
    EXPECT_EQ(a["results"][0]["url"],
              "https://doc.rust-lang.org/book/ch04-02-references-and-borrowing.html");
    EXPECT_EQ(a["results"][1]["title"], "Understanding the Borrow Checker & Lifetimes");
    const auto seen = up->requests(kSearch);
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].param("q"), "rust borrow checker");
    EXPECT_EQ(seen[0].param("count"), "10");
    EXPECT_EQ(seen[0].header("x-subscription-token"), "brave-test-key");
}

TEST_F(Web, ImagesReadBravesAnswerWith24ByDefault) {
    auto r = search("lighthouse", as("ann"), "images");
    ASSERT_EQ(r.status, 200) << r.body;
    const json a = r.json()["data"];
    ASSERT_EQ(a["results"].size(), 2u);
    EXPECT_EQ(a["results"][0]["image"], "https://photos.example.com/images/lighthouse-dusk.jpg");
    ASSERT_EQ(up->requests(kImages).size(), 1u);
    EXPECT_EQ(up->requests(kImages)[0].param("count"), "24");
    r = api.get("/api/v1/web/images?query=x&limit=101", as("ann"));
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_TRUE(has(error_message(r), "limit")) << r.body;
}

TEST_F(Web, AnonymousSearchGetsTheX402Challenge) {
    auto r = search("anonymous search", {});
    ASSERT_EQ(r.status, 402) << r.body;
    const json c = r.json();
    EXPECT_EQ(c["x402Version"], 2);
    EXPECT_TRUE(has(c["resource"].value("url", ""), "/api/v1/web/search")) << r.body;
    ASSERT_EQ(c["accepts"].size(), 1u);
    EXPECT_EQ(c["accepts"][0]["amount"], "10000") << "1 credit = $0.01 in USDC's 6 decimals";
    EXPECT_EQ(c["accepts"][0]["payTo"], kPayTo);
    EXPECT_FALSE(r.header("payment-required").empty());
    EXPECT_TRUE(up->requests(kSearch).empty()) << "nothing is fetched before payment";
}

TEST_F(Web, APaidSearchSucceedsOnceAndItsReplayIsRefused) {
    const json challenge = search("paid search", {}).json();
    const Headers headers = paid(payment(challenge["accepts"][0]));
    auto r = search("paid search", headers);
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.json()["data"]["results"].size(), 3u);
    EXPECT_FALSE(r.header("payment-response").empty());
    EXPECT_EQ(facilitator_calls("verify"), 1u);
    EXPECT_EQ(facilitator_calls("settle"), 1u);
    auto again = search("paid search", headers);
    EXPECT_EQ(again.status, 402) << again.body;
    EXPECT_TRUE(has(error_message(again), "replay")) << again.body;
    EXPECT_EQ(facilitator_calls("settle"), 1u);
}

TEST_F(Web, APaidSearchThatFailsIsNeverSettled) {
    up->serve(kSearch, FakeUpstream::status(503, R"({"error":"down"})"));
    const json challenge = search("failing paid search", {}).json();
    auto r = search("failing paid search", paid(payment(challenge["accepts"][0])));
    EXPECT_EQ(r.status, 503) << r.body;
    EXPECT_EQ(facilitator_calls("settle"), 0u);
}

TEST_F(Web, AnAccountIsChargedOncePerSearchAndNeverForAFailedOne) {
    admin("Billing.SetAllowance", {{"account", "carol"}, {"allowance_per_day", 0}});
    admin("Billing.AddCredit", {{"account", "carol"}, {"amount", 3}});
    ASSERT_EQ(search("carol one", as("carol")).status, 200);
    EXPECT_EQ(balance("carol")["credit"], 2);
    ASSERT_EQ(search("carol two", as("carol"), "images").status, 200);
    EXPECT_EQ(balance("carol")["credit"], 1);

    up->serve(kSearch, FakeUpstream::status(503, R"({"error":"down"})"));
    auto failed = search("carol three", as("carol"));
    EXPECT_EQ(failed.status, 503) << failed.body;
    EXPECT_EQ(balance("carol")["credit"], 1) << "a failed call costs nothing";
    up->serve(kSearch, FakeUpstream::status(500, "oops", "text/plain"));
    EXPECT_EQ(search("carol four", as("carol")).status, 502);
    EXPECT_EQ(balance("carol")["credit"], 1);

    up->serve(kSearch, FakeUpstream::fixture("brave", "web_search.json"));
    ASSERT_EQ(search("carol five", as("carol")).status, 200);
    EXPECT_EQ(balance("carol")["credit"], 0);
    auto broke = search("carol six", as("carol"));
    EXPECT_EQ(broke.status, 402) << broke.body;
    EXPECT_TRUE(has(error_message(broke), "needs 1 credit")) << broke.body;
    EXPECT_EQ(facilitator_calls("verify"), 0u);
}

// ---- without the provider -----------------------------------------------------------------------

// The plain test profile: no outbound.providers.brave.
class WebUnconfigured : public SharedHostTest {};

TEST_F(WebUnconfigured, SearchAndImagesAre503NamingTheSetting) {
    for (const char* method : {"search", "images"}) {
        auto r = api.get(std::string("/api/v1/web/") + method + "?query=x", as("ann"));
        EXPECT_EQ(r.status, 503) << method << ": " << r.body;
        EXPECT_TRUE(has(error_message(r), "providers.brave")) << r.body;
        EXPECT_TRUE(has(error_message(r), "https://api.search.brave.com")) << r.body;
    }
}

// Without outbound.allow_user the same kind of loopback page is refused like any other.
TEST_F(WebUnconfigured, ALoopbackPageNotInAllowUserIsRefused) {
    FakeUpstream site;
    site.serve("/pages/article.html",
               FakeUpstream::fixture("web", "article.html", "text/html; charset=utf-8"));
    auto r = api.get("/api/v1/web/fetch?url=" + site.url("/pages/article.html"), as("ann"));
    EXPECT_EQ(r.status, 403) << r.body;
    EXPECT_TRUE(has(error_message(r), "url: refused: 127.0.0.1 is a loopback address")) << r.body;
    EXPECT_TRUE(site.requests().empty());
}

}  // namespace
