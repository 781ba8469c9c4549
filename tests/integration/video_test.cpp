// The video service (plugins/video/) through the real host on the `test` profile, YouTube Data
// API v3 played by a FakeUpstream serving the fixtures of tests/fixtures/youtube/ (provider
// `youtube` with a key sent as ?key): list (the mostPopular chart, by category id or title),
// read, search and the instance's search quota (2 an hour, 3 a day here), YouTube's own refusals
// (a spent key quota, a bad key, a chart it lacks), the archive's kind `video`, and on a host
// without the provider the 503 naming the setting. Cached answers expire on the manual business
// clock (next_day).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "api_answers.hpp"
#include "fake_upstream.hpp"
#include "profiles.hpp"
#include "shared_host_test.hpp"
#include "upstream_host_test.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

const std::string kVideos = "/youtube/videos";
const std::string kSearch = "/youtube/search";
const std::string kCategories = "/youtube/videoCategories";

std::vector<std::string> ids(const json& videos) {
    std::vector<std::string> out;
    for (const auto& v : videos) out.push_back(v.value("id", ""));
    return out;
}

class Video : public UpstreamHostTest {
protected:
    static void SetUpTestSuite() {
        service_ = "video";
        up = std::make_unique<FakeUpstream>();
        HostProcess::Options o;
        o.profile = suite_dir() + "/video.yaml";
        std::ofstream(o.profile) << with_plugin_config(test_profile_text(), "video",
                                                       "searches_per_hour: 2\n"
                                                       "searches_per_day: 3\n")
                                 << up->outbound_yaml({{"youtube", "yt-test-key", "?key", true}});
        start_host(o);
    }
    void SetUp() override {
        next_day();
        up->forget();
        up->serve(kVideos, FakeUpstream::fixture("youtube", "popular.json"));
        up->serve(kSearch, FakeUpstream::fixture("youtube", "search.json"));
        up->serve(kCategories, FakeUpstream::fixture("youtube", "categories.json"));
    }
    // Past every cache lifetime and into a new day of the search quota.
    void next_day() {
        ASSERT_EQ(api.post_json("/clock/advance", {{"ms", 25 * 3600 * 1000}}).status, 200);
    }
};

TEST_F(Video, ListThePopularChart) {
    const json l = ok("list");
    EXPECT_EQ(ids(l["videos"]),
              (std::vector<std::string>{"Ks-_Mh1QhMc", "dQw4w9WgXcQ", "jfKfPfyJRdk"}));
    EXPECT_EQ(l["total"], 200);
    EXPECT_EQ(l["region"], "US");
    EXPECT_TRUE(l["category"].is_null());
    const json& v = l["videos"][0];
    EXPECT_EQ(v["title"], "Your body language may shape who you are");
    EXPECT_EQ(v["views"], 74939858);
    EXPECT_EQ(v["seconds"], 1263);
    EXPECT_EQ(v["url"], "https://www.youtube.com/watch?v=Ks-_Mh1QhMc");
    ASSERT_EQ(up->requests(kVideos).size(), 1u);
    const FakeUpstream::Request q = up->requests(kVideos)[0];
    EXPECT_EQ(q.param("chart"), "mostPopular");
    EXPECT_EQ(q.param("part"), "snippet,contentDetails,statistics");
    EXPECT_EQ(q.param("regionCode"), "US");
    EXPECT_EQ(q.param("maxResults"), "50");
    EXPECT_EQ(q.param("key"), "yt-test-key");
    EXPECT_EQ(q.param("videoCategoryId"), "");
    // offset and limit page the chart already fetched (from the cache).
    EXPECT_EQ(ids(ok("list?offset=1&limit=1")["videos"]),
              (std::vector<std::string>{"dQw4w9WgXcQ"}));
    EXPECT_TRUE(ok("list?offset=5")["videos"].empty());
    EXPECT_EQ(up->requests(kVideos).size(), 1u);
}

TEST_F(Video, ListLimits) {
    fails("list?limit=0", 400, "limit");
    fails("list?limit=101", 400, "limit");
    fails("list?offset=-1", 400, "offset");
    fails("list?offset=200", 400, "offset");
    EXPECT_TRUE(up->requests().empty());
    EXPECT_EQ(ok("list?limit=100")["videos"].size(), 3u);
}

TEST_F(Video, ACategoryByTitleOrId) {
    json l = ok("list?category=music");
    EXPECT_EQ(l["category"], (json{{"id", "10"}, {"title", "Music"}}));
    ASSERT_EQ(up->requests(kCategories).size(), 1u);
    EXPECT_EQ(up->requests(kCategories)[0].param("regionCode"), "US");
    EXPECT_EQ(up->requests(kVideos)[0].param("videoCategoryId"), "10");
    up->forget();
    l = ok("list?category=20");  // an id: no lookup
    EXPECT_EQ(l["category"]["id"], "20");
    EXPECT_TRUE(up->requests(kCategories).empty());
    EXPECT_EQ(up->requests(kVideos)[0].param("videoCategoryId"), "20");
    fails("list?category=Polka", 400, "Music");
    up->serve(kVideos,
              FakeUpstream::fixture("youtube", "chart_not_found.json", "application/json", 404));
    fails("list?category=30", 404, "category");
}

TEST_F(Video, ReadOneVideo) {
    up->serve(kVideos, FakeUpstream::fixture("youtube", "video.json"));
    const json v = ok("read?id=Ks-_Mh1QhMc");
    EXPECT_EQ(v["id"], "Ks-_Mh1QhMc");
    EXPECT_EQ(v["channel"], "TED");
    EXPECT_EQ(v["duration"], "PT21M3S");
    EXPECT_NE(v["description"].get<std::string>().find("how we see ourselves"), std::string::npos);
    EXPECT_FALSE(v.contains("transcript"));
    ASSERT_EQ(up->requests(kVideos).size(), 1u);
    EXPECT_EQ(up->requests(kVideos)[0].param("id"), "Ks-_Mh1QhMc");
    up->serve(kVideos, FakeUpstream::fixture("youtube", "none.json"));
    fails("read?id=AAAAAAAAAAA", 404, "AAAAAAAAAAA");
    fails("read?id=short", 400, "id");
    fails("read?id=https%3A%2F%2Fyoutu.be%2FKs-_Mh1QhMc", 400, "id");
    fails("read", 400, "id");
}

TEST_F(Video, SearchSpendsTheInstanceQuota) {
    // Ten minutes into the next UTC day: the counts are fresh and the hour after is the same day.
    const int64_t now = api.get("/clock/now").json()["unix_ms"].get<int64_t>();
    const int64_t day = 24LL * 3600 * 1000;
    ASSERT_EQ(
        api.post_json("/clock/advance", {{"ms", (now / day + 1) * day + 600000 - now}}).status,
        200);
    json s = ok("search?query=body%20language");
    EXPECT_EQ(ids(s["videos"]),
              (std::vector<std::string>{"Ks-_Mh1QhMc", "arj7oStGLkU", "iG9CE55wbtY"}));
    EXPECT_NE(s["videos"][1]["description"].get<std::string>().find("doesn't"), std::string::npos);
    EXPECT_EQ(s["quota"], (json{{"hour_left", 1}, {"day_left", 2}}));
    ASSERT_EQ(up->requests(kSearch).size(), 1u);
    EXPECT_EQ(up->requests(kSearch)[0].param("q"), "body language");
    EXPECT_EQ(up->requests(kSearch)[0].param("type"), "video");
    EXPECT_EQ(up->requests(kSearch)[0].param("channelId"), "");
    // The same search again comes from the cache and spends nothing.
    EXPECT_EQ(ok("search?query=body%20language")["quota"]["hour_left"], 1);
    EXPECT_EQ(up->requests(kSearch).size(), 1u);
    s = ok("search?query=talks&channel=UCAuUUnT6oDeKwE6v1NGQxug");
    EXPECT_EQ(up->requests(kSearch)[1].param("channelId"), "UCAuUUnT6oDeKwE6v1NGQxug");
    EXPECT_EQ(s["quota"]["hour_left"], 0);
    fails("search?query=third", 429, "searches_per_hour");
    EXPECT_EQ(up->requests(kSearch).size(), 2u);  // refused before asking YouTube
    ASSERT_EQ(api.post_json("/clock/advance", {{"ms", 3600 * 1000}}).status, 200);
    EXPECT_EQ(ok("search?query=third")["quota"]["day_left"], 0);
    fails("search?query=fourth", 429, "searches_per_day");
}

TEST_F(Video, SearchLimits) {
    fails("search", 400, "query");
    fails("search?query=", 400, "query");
    fails("search?query=x&channel=TED", 400, "channel");
    fails("search?query=x&channel=UCAuUUnT6oDeKwE6v1NGQxu", 400, "channel");  // 21 after UC
    EXPECT_TRUE(up->requests().empty());
}

TEST_F(Video, YouTubesRefusalsSaySo) {
    up->serve(kVideos,
              FakeUpstream::fixture("youtube", "quota_exceeded.json", "application/json", 403));
    fails("list", 503, "quota for providers.youtube.api_key is spent");
    up->serve(kVideos,
              FakeUpstream::fixture("youtube", "key_invalid.json", "application/json", 400));
    fails("read?id=Ks-_Mh1QhMc", 503, "providers.youtube.api_key");
    up->serve(kVideos, FakeUpstream::status(500, "{}"));
    fails("read?id=dQw4w9WgXcQ", 502, "YouTube");
    up->serve(kVideos, FakeUpstream::status(200, "{\"kind\": \"youtube#searchListResponse\"}"));
    fails("read?id=jfKfPfyJRdk", 502, "YouTube answered a malformed body");
    up->serve(kVideos, FakeUpstream::hang());
    fails("read?id=arj7oStGLkU", 504, "YouTube");
}

TEST_F(Video, TheArchiveListsTheVideosSeen) {
    ok("list");
    up->serve(kVideos, FakeUpstream::fixture("youtube", "video.json"));
    ok("read?id=Ks-_Mh1QhMc");
    const json l = api.get("/api/v1/archive/list?kind=video&limit=100").json()["data"];
    std::vector<std::string> got;
    for (const auto& i : l["items"]) got.push_back(i["id"]);
    EXPECT_NE(std::find(got.begin(), got.end(), "video:dQw4w9WgXcQ"), got.end()) << l;
    EXPECT_NE(std::find(got.begin(), got.end(), "video:Ks-_Mh1QhMc"), got.end()) << l;
    const json g = api.get("/api/v1/archive/get?id=video:dQw4w9WgXcQ").json()["data"];
    EXPECT_EQ(g["kind"], "video");
    EXPECT_EQ(g["title"], "Rick Astley - Never Gonna Give You Up (Official Music Video)");
    EXPECT_EQ(g["text"], "The official video for Never Gonna Give You Up.");
    EXPECT_EQ(g["date"], "2026-12-05T08:00:11Z");
    EXPECT_EQ(g["url"], "https://www.youtube.com/watch?v=dQw4w9WgXcQ");
    EXPECT_EQ(api.get("/api/v1/archive/get?id=video:nope").status, 404);
}

class VideoUnconfigured : public SharedHostTest {};

TEST_F(VideoUnconfigured, EachMethodIs503NamingTheSetting) {
    for (const std::string m : {"list", "read?id=Ks-_Mh1QhMc", "search?query=x"}) {
        const HttpResult r = api.get("/api/v1/video/" + m);
        EXPECT_EQ(r.status, 503) << m << ": " << r.body;
        EXPECT_NE(r.body.find("providers.youtube"), std::string::npos) << r.body;
    }
    const HttpResult a = api.get("/api/v1/archive/list?kind=video");
    EXPECT_EQ(a.status, 200) << a.body;
    EXPECT_TRUE(a.json()["data"]["items"].empty());
}

}  // namespace
