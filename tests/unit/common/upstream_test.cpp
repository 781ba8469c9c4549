// common/upstream (plugins/common/upstream/upstream.hpp) over the SDK's fake host, whose on_fetch
// plays the host's client: what reaches the host (provider, path, method, body), the cache and
// its lifetimes (provider TTL, Cache-Control max-age, no-store, kForever, failures not kept), each
// failure's status and message, statuses passed through, parsers' complaints, and Query.
#include "common/upstream/upstream.hpp"

#include <gtest/gtest.h>

#include <platform/testing/fake_host.hpp>

using nlohmann::json;
using platform::Code;
using platform::testing::FakeHost;
using namespace common::upstream;

namespace {

const Provider kThing{"thing", "Thing API", "https://api.thing.example", 60 * 1000};

class UpstreamTest : public ::testing::Test {
protected:
    FakeHost fake;
    platform::Host host{fake.api(), fake.ctx()};
    std::vector<platform_http_request_t> seen;
    std::vector<std::string> urls, providers, bodies;
    std::vector<uint64_t> caps;
    FakeHost::FakeHttp next{PLATFORM_OK, 200, json::object(), "{\"a\":1}", ""};

    void SetUp() override {
        fake.on_fetch = [this](const platform_http_request_t& r) {
            urls.push_back(platform::copy(r.url));
            providers.push_back(platform::copy(r.provider));
            bodies.push_back(platform::copy(r.body));
            caps.push_back(r.max_response_bytes);
            return next;
        };
    }
    // The code and message a call to `f` throws.
    template <class F>
    std::pair<Code, std::string> failure(F&& f) {
        try {
            f();
        } catch (const platform::Error& e) {
            return {e.code(), e.what()};
        }
        ADD_FAILURE() << "no error";
        return {Code::ok, ""};
    }
};

TEST_F(UpstreamTest, FetchesThroughTheProviderAndKeepsTheAnswerForItsTtl) {
    Upstream up(host, kThing);
    EXPECT_EQ(up.get_json("/v1/x?q=1")["a"], 1);
    ASSERT_EQ(urls.size(), 1u);
    EXPECT_EQ(urls[0], "/v1/x?q=1");
    EXPECT_EQ(providers[0], "thing");
    EXPECT_FALSE(up.held("/v1/y"));
    EXPECT_TRUE(up.held("/v1/x?q=1"));
    const Answer again = up.fetch("/v1/x?q=1");
    EXPECT_TRUE(again.cached);
    EXPECT_EQ(again.body, "{\"a\":1}");
    EXPECT_EQ(urls.size(), 1u);
    fake.now_ms += 60 * 1000;
    EXPECT_FALSE(up.fetch("/v1/x?q=1").cached) << "fetched again once the TTL has passed";
    EXPECT_EQ(urls.size(), 2u);
}

TEST_F(UpstreamTest, ThePostBodyIsPartOfTheCacheKey) {
    Upstream up(host, kThing);
    Options a;
    a.method = "POST";
    a.body = "data=1";
    a.content_type = "application/x-www-form-urlencoded";
    Options b = a;
    b.body = "data=2";
    up.fetch("/i", a);
    up.fetch("/i", b);
    up.fetch("/i", a);
    EXPECT_EQ(bodies, (std::vector<std::string>{"data=1", "data=2"}));
}

TEST_F(UpstreamTest, CacheControlOverridesTheProvidersTtl) {
    Upstream up(host, kThing);
    next.headers = {{"cache-control", "no-store"}};
    up.fetch("/a");
    up.fetch("/a");
    EXPECT_EQ(urls.size(), 2u);
    next.headers = {{"cache-control", "public, max-age=5"}};
    up.fetch("/b");
    up.fetch("/b");
    EXPECT_EQ(urls.size(), 3u);
    fake.now_ms += 5000;
    up.fetch("/b");
    EXPECT_EQ(urls.size(), 4u);

    Provider forever = kThing;
    forever.ttl_ms = kForever;
    Upstream tiles(host, forever);
    next.headers = {{"cache-control", "max-age=1"}};
    tiles.fetch("/t");
    fake.now_ms += 365LL * 24 * 3600 * 1000;
    EXPECT_TRUE(tiles.fetch("/t").cached) << "kForever ignores max-age";

    Provider none = kThing;
    none.ttl_ms = kNoCache;
    Upstream live(host, none);
    const size_t before = urls.size();
    live.fetch("/l");
    live.fetch("/l");
    EXPECT_EQ(urls.size(), before + 2);
    EXPECT_FALSE(live.held("/l"));
}

TEST_F(UpstreamTest, ASizeCapGoesWithTheRequestAndABodyOverItIs502) {
    Upstream up(host, kThing);
    Options big;
    big.max_bytes = 1ull << 30;
    up.fetch("/big", big);
    up.fetch("/small");
    EXPECT_EQ(caps, (std::vector<uint64_t>{1ull << 30, 0}));  // 0: the host's default
    next = {PLATFORM_PAYLOAD_TOO_LARGE, 0, json::object(), "",
            "the response is larger than 10485760 bytes (max_response_bytes)"};
    auto [code, msg] = failure([&] { up.fetch("/huge"); });
    EXPECT_EQ(code, Code::bad_gateway);
    EXPECT_EQ(msg,
              "Thing API answered too much: the response is larger than 10485760 bytes "
              "(max_response_bytes)");
}

TEST_F(UpstreamTest, EachFailureHasOneStatusAndSaysWhatToDo) {
    Upstream up(host, kThing);
    next = {PLATFORM_UNAVAILABLE, 0, json::object(), "", "providers.thing.base_url is not set"};
    auto [code, msg] = failure([&] { up.fetch("/a"); });
    EXPECT_EQ(code, Code::unavailable);
    EXPECT_EQ(msg,
              "providers.thing.base_url is not set; Thing API's public API is "
              "https://api.thing.example");

    next = {PLATFORM_TIMEOUT, 0, json::object(), "", "no answer within 1500 ms"};
    EXPECT_EQ(failure([&] { up.fetch("/b"); }).first, Code::deadline_exceeded);
    next = {PLATFORM_BAD_GATEWAY, 0, json::object(), "", "connection refused"};
    EXPECT_EQ(failure([&] { up.fetch("/c"); }).second,
              "Thing API could not be reached: connection refused");
    next = {PLATFORM_PERMISSION_DENIED, 0, json::object(), "", "10.0.0.1 is private"};
    EXPECT_TRUE(failure([&] { up.fetch("/d"); }).second.find("outbound.allow") !=
                std::string::npos);

    auto status = [&](int s, std::string body = "") {
        next = {PLATFORM_OK, s, json::object(), std::move(body), ""};
        return failure([&] { up.fetch("/s" + std::to_string(s)); });
    };
    EXPECT_EQ(status(500, "oops"),
              std::make_pair(Code::bad_gateway, std::string("Thing API answered 500: oops")));
    EXPECT_EQ(status(404).first, Code::bad_gateway);
    EXPECT_EQ(status(401).first, Code::unavailable);
    EXPECT_TRUE(status(403).second.find("providers.thing.api_key") != std::string::npos);
    EXPECT_EQ(status(429).first, Code::unavailable);
    EXPECT_EQ(status(503).first, Code::unavailable);
    next = {PLATFORM_OK, 200, json::object(), "<html>", ""};
    EXPECT_EQ(failure([&] { up.get_json("/html"); }).second,
              "Thing API answered a malformed body: the body is not JSON");
    next = {PLATFORM_OK, 200, json::object(), "{\"a\":1}", ""};
    EXPECT_FALSE(up.fetch("/s500").cached) << "failures are not kept";

    Provider keyed = kThing;
    keyed.keyed = true;
    Upstream k(host, keyed);
    next = {PLATFORM_UNAVAILABLE, 0, json::object(), "", "providers.thing.base_url is not set"};
    EXPECT_TRUE(failure([&] { k.fetch("/k"); }).second.find("providers.thing.api_key") !=
                std::string::npos);
}

TEST_F(UpstreamTest, PassedStatusesComeBackAndParsersComplaintsAre502) {
    Upstream up(host, kThing);
    next = {PLATFORM_OK, 404, json::object(), "{\"status\":0}", ""};
    Options o;
    o.pass = {404};
    EXPECT_EQ(up.fetch("/p", o).status, 404);
    const json body = json::parse("{\"items\": 3}");
    auto [code, msg] = failure(
        [&] { up.parse(body, [](const json& j) { return j.at("items").get<std::string>(); }); });
    EXPECT_EQ(code, Code::bad_gateway);
    EXPECT_EQ(msg.rfind("Thing API answered a malformed body: ", 0), 0u) << msg;
    EXPECT_EQ(failure([&] {
                  up.parse(body, [](const json&) -> int { throw Malformed("items: not a list"); });
              }).second,
              "Thing API answered a malformed body: items: not a list");
    EXPECT_EQ(failure([&] {
                  up.parse(body,
                           [](const json&) -> int { throw platform::not_found("no such thing"); });
              }).first,
              Code::not_found);
}

TEST(UpstreamQuery, EncodesEachValueAndWritesNumbersExactly) {
    EXPECT_EQ(Query().text(), "");
    EXPECT_EQ(Query().num("latitude", 51.5).num("longitude", -0.12).text(),
              "?latitude=51.5&longitude=-0.12");
    EXPECT_EQ(Query().str("q", "fish & chips/é").integer("n", 20).text(),
              "?q=fish%20%26%20chips%2F%C3%A9&n=20");
    EXPECT_EQ(encode("a-b_c.d~e"), "a-b_c.d~e");
}

}  // namespace

namespace {

TEST(UpstreamFields, EachReadsItsTypeOrNull) {
    const json o = {{"s", "Leeds \n"}, {"e", " "}, {"n", 3.5}, {"z", nullptr}, {"t", "3"}};
    EXPECT_EQ(text_or_null(o, "s"), "Leeds");
    EXPECT_TRUE(text_or_null(o, "e").is_null()) << "nothing left after trimming";
    EXPECT_TRUE(text_or_null(o, "n").is_null());
    EXPECT_TRUE(text_or_null(o, "missing").is_null());
    EXPECT_TRUE(text_or_null(json::array(), "s").is_null());
    EXPECT_EQ(string_or_null(o, "s"), "Leeds \n") << "as sent";
    EXPECT_TRUE(string_or_null(o, "z").is_null());
    EXPECT_EQ(number_or_null(o, "n"), 3.5);
    EXPECT_TRUE(number_or_null(o, "t").is_null()) << "a number as text is not a number";
}

}  // namespace
