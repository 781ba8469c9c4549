// The images service's providers (plugins/images/generate.cpp, daily.cpp) through the real host on
// the `test` profile, against a fake upstream on loopback (support/fake_upstream.hpp) serving
// fixtures in the upstreams' formats: an OpenAI-compatible images API (tests/fixtures/
// openai-images/: a real 8x6 PNG in b64_json) and the Wikimedia feed API's featured content
// (tests/fixtures/wikimedia-feed/). A generated image is stored as the caller's upload: listed
// under `mine`, found by its prompt, its bytes at its URL, private to its owner. The picture of
// the day is fetched once per date and kept: listed and searched under `daily`, answered by get.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "api_answers.hpp"
#include "fake_upstream.hpp"
#include "file_bytes.hpp"
#include "http_client.hpp"
#include "upstream_host_test.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

constexpr int64_t kNow = 1796637600000LL;  // 2026-12-07T10:00:00Z
const char* kGenerations = "/openai-images/v1/images/generations";
const char* kKey = "sk-test-images-5b1e";
const std::string kFeed = "/wikimedia-feed/feed/v1/wikipedia/en/featured/";

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

class ImagesExternal : public UpstreamHostTest {
protected:
    static void SetUpTestSuite() {
        start_with("images",
                   {{"openai-images", kKey, "Authorization: Bearer", true}, {"wikimedia-feed"}});
        HttpClient c("127.0.0.1", host->api_port());
        ASSERT_EQ(c.post_json("/clock/set", {{"unix_ms", kNow}}).status, 200);
    }
    void SetUp() override {
        up->serve(kGenerations, FakeUpstream::fixture("openai-images", "generation.json"));
        up->forget();
    }
    HttpResult post(const std::string& method, const json& body, const std::string& who) {
        return api.post_json("/api/v1/images/" + method, body, as(who));
    }
    HttpResult call(const std::string& target, const std::string& who) {
        return api.get("/api/v1/images/" + target, as(who));
    }
    static std::string fixture_png() {
        const json body =
            json::parse(FakeUpstream::fixture_text("openai-images", "generation.json"));
        return *platform::base64_decode(body["data"][0]["b64_json"].get<std::string>());
    }
    static std::vector<std::string> ids(const HttpResult& r) { return listed(r, "images", "id"); }
};

TEST_F(ImagesExternal, GenerateStoresTheImageAsTheCallersUpload) {
    const json image =
        data_of(post("generate", {{"prompt", "blue and violet squares"}}, "gen-ann"));
    ASSERT_TRUE(image.is_object());
    const std::string id = image.value("id", "");
    EXPECT_EQ(image["url"], "/ui/images/" + id);
    EXPECT_EQ(image["owner"], "gen-ann");
    EXPECT_EQ(image["type"], "image/png");
    EXPECT_EQ(image["width"], 8);
    EXPECT_EQ(image["height"], 6);
    EXPECT_EQ(image["bytes"], fixture_png().size());
    EXPECT_EQ(image["prompt"], "blue and violet squares");
    EXPECT_EQ(image["public"], false);

    // What reached the images API: the operator's key, the documented request.
    const auto seen = up->requests(kGenerations);
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].method, "POST");
    EXPECT_EQ(seen[0].header("authorization"), std::string("Bearer ") + kKey);
    const json sent = json::parse(seen[0].body);
    EXPECT_EQ(sent, (json{{"model", "dall-e-3"},
                          {"prompt", "blue and violet squares"},
                          {"n", 1},
                          {"size", "1024x1024"},
                          {"response_format", "b64_json"}}));

    // Stored like an upload: listed under mine, found by its prompt, get, its bytes.
    const auto mine = ids(call("list?scope=mine", "gen-ann"));
    EXPECT_NE(std::find(mine.begin(), mine.end(), id), mine.end());
    EXPECT_EQ(ids(post("search", {{"query", "violet"}, {"scope", "mine"}}, "gen-ann")),
              (std::vector<std::string>{id}));
    EXPECT_EQ(data_of(call("get?id=" + id, "gen-ann")), image);
    const auto bytes = api.get("/ui/images/" + id, as("gen-ann"));
    EXPECT_EQ(bytes.status, 200);
    EXPECT_EQ(bytes.header("content-type"), "image/png");
    EXPECT_EQ(bytes.body, fixture_png());
    // Private to its owner; another call draws another image.
    EXPECT_EQ(call("get?id=" + id, "gen-bob").status, 404);
    EXPECT_TRUE(ids(call("list?scope=mine", "gen-bob")).empty());
    EXPECT_EQ(call("list?scope=public", "gen-ann").body.find(id), std::string::npos);
    const json again =
        data_of(post("generate", {{"prompt", "blue and violet squares"}}, "gen-ann"));
    EXPECT_NE(again["id"], id);
    EXPECT_EQ(up->requests(kGenerations).size(), 2u) << "generated images are never cached";
}

TEST_F(ImagesExternal, GenerateRefusalsSayWhy) {
    expect_400(post("generate", {{"prompt", " \n "}}, "gen-lim"), "prompt");
    expect_400(post("generate", {{"prompt", std::string(4001, 'p')}}, "gen-lim"), "prompt");
    EXPECT_EQ(api.post_json("/api/v1/images/generate", {{"prompt", "x"}}).status, 401);
    EXPECT_TRUE(up->requests().empty()) << "bad input is refused before any request";

    // The model's safety refusal is the caller's 400; other failures are 502 and store nothing.
    up->serve(kGenerations,
              FakeUpstream::fixture("openai-images", "refused.json", "application/json", 400));
    auto r = post("generate", {{"prompt", "something refused"}}, "gen-lim");
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_TRUE(has(r.body, "prompt") && has(r.body, "safety system")) << r.body;
    up->serve(kGenerations, FakeUpstream::status(400, R"({"error": {"message": "Invalid size",
        "code": null, "param": "size", "type": "invalid_request_error"}})"));
    r = post("generate", {{"prompt", "a boat"}}, "gen-lim");
    EXPECT_EQ(r.status, 502) << r.body;
    EXPECT_TRUE(has(r.body, "image_size")) << r.body;
    up->serve(kGenerations, FakeUpstream::fixture("openai-images", "url-only.json"));
    r = post("generate", {{"prompt", "a boat"}}, "gen-lim");
    EXPECT_EQ(r.status, 502) << r.body;
    EXPECT_TRUE(has(r.body, "b64_json")) << r.body;
    up->serve(kGenerations,
              FakeUpstream::status(
                  200, json{{"data", {{{"b64_json", base64("GIF89a but not really")}}}}}.dump()));
    r = post("generate", {{"prompt", "a boat"}}, "gen-lim");
    EXPECT_EQ(r.status, 502) << r.body;
    EXPECT_TRUE(has(r.body, "malformed")) << r.body;
    up->serve(kGenerations,
              FakeUpstream::status(
                  200, json{{"data", {{{"b64_json", base64(png(4000, 2001))}}}}}.dump()));
    r = post("generate", {{"prompt", "a boat"}}, "gen-lim");
    EXPECT_EQ(r.status, 502) << r.body;
    EXPECT_TRUE(has(r.body, "8 megapixels")) << r.body;
    up->serve(kGenerations, FakeUpstream::status(401, R"({"error": {"message": "bad key"}})"));
    r = post("generate", {{"prompt", "a boat"}}, "gen-lim");
    EXPECT_EQ(r.status, 503) << r.body;
    EXPECT_TRUE(has(r.body, "providers.openai-images.api_key")) << r.body;
    up->serve(kGenerations, FakeUpstream::status(500, "upstream broke"));
    EXPECT_EQ(post("generate", {{"prompt", "a boat"}}, "gen-lim").status, 502);
    EXPECT_TRUE(ids(call("list?scope=mine", "gen-lim")).empty());
}

TEST_F(ImagesExternal, DailyIsFetchedOnceAndKept) {
    up->serve(kFeed + "2026/12/01",
              FakeUpstream::fixture("wikimedia-feed", "featured-2026-12-01.json"));
    const json day = data_of(call("daily?date=2026-12-01", "day-ann"));
    ASSERT_TRUE(day.is_object());
    EXPECT_EQ(day["date"], "2026-12-01");
    ASSERT_EQ(day["images"].size(), 1u);
    const json p = day["images"][0];
    EXPECT_EQ(p["id"], "daily-2026-12-01");
    EXPECT_EQ(p["title"], "Grey heron (Ardea cinerea) in flight, Ripon");
    EXPECT_EQ(p["description"],
              "A grey heron (Ardea cinerea) in flight over the River Ure near Ripon, North "
              "Yorkshire.");
    EXPECT_EQ(p["type"], "image/jpeg");
    EXPECT_EQ(p["width"], 5472);
    EXPECT_EQ(p["height"], 3648);
    EXPECT_TRUE(has(p.value("url", ""), "/640px-Grey_heron")) << p;
    EXPECT_TRUE(has(p.value("original", ""), "/4/4a/Grey_heron")) << p;
    EXPECT_EQ(p["page"],
              "https://commons.wikimedia.org/wiki/File:Grey_heron_(Ardea_cinerea)_in_flight,_"
              "Ripon.jpg");
    EXPECT_EQ(p["artist"], "Example photographer");
    EXPECT_EQ(p["credit"], "Own work");
    EXPECT_EQ(p["license"], "CC BY-SA 4.0");
    EXPECT_EQ(p["license_url"], "https://creativecommons.org/licenses/by-sa/4.0");
    EXPECT_EQ(p["public"], true);

    // Kept: asked again (by anyone) it makes no request, even with the upstream gone.
    up->serve(kFeed + "2026/12/01", FakeUpstream::status(500, "down"));
    EXPECT_EQ(data_of(call("daily?date=2026-12-01", "day-bob")), day);
    EXPECT_EQ(up->requests(kFeed + "2026/12/01").size(), 1u);

    // Listed and searched under `daily`, answered by get; not among anyone's own or public ones.
    EXPECT_EQ(ids(call("list?scope=daily", "day-bob")),
              (std::vector<std::string>{"daily-2026-12-01"}));
    EXPECT_EQ(ids(post("search", {{"query", "heron ure"}, {"scope", "daily"}}, "day-bob")),
              (std::vector<std::string>{"daily-2026-12-01"}));
    EXPECT_TRUE(
        ids(post("search", {{"query", "lighthouse"}, {"scope", "daily"}}, "day-bob")).empty());
    EXPECT_EQ(data_of(call("get?id=daily-2026-12-01", "day-bob")), p);
    EXPECT_TRUE(ids(call("list?scope=all", "day-bob")).empty());
    EXPECT_EQ(post("delete", {{"id", "daily-2026-12-01"}}, "day-bob").status, 404);
}

TEST_F(ImagesExternal, DailyDefaultsToTodayAndRefusesTheFuture) {
    // Today (2026-12-07 on the business clock): a feed without a picture answers none and keeps
    // nothing, so the next call asks again.
    up->serve(kFeed + "2026/12/07",
              FakeUpstream::fixture("wikimedia-feed", "featured-no-image.json"));
    EXPECT_EQ(data_of(call("daily", "day-today")),
              (json{{"date", "2026-12-07"}, {"images", json::array()}}));
    EXPECT_EQ(data_of(call("daily?date=2026-12-07", "day-today"))["images"], json::array());
    EXPECT_EQ(up->requests(kFeed + "2026/12/07").size(), 2u);

    expect_400(call("daily?date=2026-12-08", "day-today"), "future");
    expect_400(call("daily?date=2026-02-29", "day-today"), "not a date");
    expect_400(call("daily?date=7.12.2026", "day-today"), "date");
    EXPECT_TRUE(up->requests(kFeed + "2026/12/08").empty());

    // A body that is not the feed's: 502, nothing kept.
    up->serve(kFeed + "2026/11/30", FakeUpstream::status(200, R"({"image": {"thumbnail": {}}})"));
    auto r = call("daily?date=2026-11-30", "day-today");
    EXPECT_EQ(r.status, 502) << r.body;
    EXPECT_TRUE(has(r.body, "Wikimedia")) << r.body;
    up->serve(kFeed + "2026/11/30", FakeUpstream::status(404, R"({"type": "not_found"})"));
    EXPECT_EQ(data_of(call("daily?date=2026-11-30", "day-today"))["images"], json::array());
    const auto daily = ids(call("list?scope=daily", "day-today"));
    EXPECT_EQ(std::count(daily.begin(), daily.end(), "daily-2026-11-30"), 0);
}

}  // namespace
