// The YouTube Data API readers (plugins/video/youtube.hpp) on the fixtures of
// tests/fixtures/youtube/: videos, search results, categories, durations, error bodies.
#include "../../../plugins/video/youtube.hpp"

#include <gtest/gtest.h>

#include "common/upstream/upstream.hpp"
#include "fixtures.hpp"

using common::upstream::Malformed;
using nlohmann::json;
using namespace video;

TEST(YouTube, PopularVideosWithTheirCountsAndDurations) {
    const Page p = page_from(platform::test::fixture_json("youtube", "popular.json"),
                             "youtube#videoListResponse");
    ASSERT_EQ(p.items.size(), 3u);
    EXPECT_EQ(p.next, "");
    EXPECT_EQ(p.total, 200);
    const json a = video_from(p.items[0]);
    EXPECT_EQ(a["id"], "Ks-_Mh1QhMc");
    EXPECT_EQ(a["channel"], "TED");
    EXPECT_EQ(a["channel_id"], "UCAuUUnT6oDeKwE6v1NGQxug");
    EXPECT_EQ(a["published"], "2026-12-06T15:27:35Z");
    EXPECT_EQ(a["duration"], "PT21M3S");
    EXPECT_EQ(a["seconds"], 1263);
    EXPECT_EQ(a["views"], 74939858);
    EXPECT_EQ(a["likes"], 1011009);
    EXPECT_EQ(a["comments"], 13379);
    EXPECT_EQ(a["category_id"], "22");
    EXPECT_EQ(a["tags"], json::array({"TED", "talk", "psychology"}));
    EXPECT_EQ(a["thumbnail"], "https://i.ytimg.com/vi/Ks-_Mh1QhMc/maxresdefault.jpg");
    EXPECT_EQ(a["url"], "https://www.youtube.com/watch?v=Ks-_Mh1QhMc");
    EXPECT_NE(a["description"].get<std::string>().find("Follow along"), std::string::npos);
    const json b = video_from(p.items[1]);
    EXPECT_TRUE(b["likes"].is_null());  // hidden
    EXPECT_EQ(b["tags"], json::array());
    const json c = video_from(p.items[2]);
    EXPECT_EQ(c["live"], "live");
    EXPECT_EQ(c["seconds"], 0);  // P0D
}

TEST(YouTube, SearchResultsAreUnescaped) {
    const Page p = page_from(platform::test::fixture_json("youtube", "search.json"),
                             "youtube#searchListResponse");
    ASSERT_EQ(p.items.size(), 3u);
    EXPECT_EQ(p.next, "CBkQAA");
    const auto r = search_result_from(p.items[1]);
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ((*r)["id"], "arj7oStGLkU");
    EXPECT_NE((*r)["description"].get<std::string>().find("doesn't make sense"), std::string::npos);
    EXPECT_FALSE(
        search_result_from(
            json::parse(
                R"({"id": {"kind": "youtube#channel", "channelId": "UC1"}, "snippet": {}})"))
            .has_value());
    EXPECT_THROW(search_result_from(json::parse(R"({"snippet": {}})")), Malformed);
}

TEST(YouTube, Categories) {
    const auto cats = categories_from(platform::test::fixture_json("youtube", "categories.json"));
    ASSERT_EQ(cats.size(), 7u);
    EXPECT_EQ(cats[2].id, "10");
    EXPECT_EQ(cats[2].title, "Music");
    EXPECT_FALSE(cats[6].assignable);
}

TEST(YouTube, WrongShapesAreMalformed) {
    EXPECT_THROW(page_from(json::parse(R"({"kind": "youtube#searchListResponse"})"),
                           "youtube#videoListResponse"),
                 Malformed);
    EXPECT_THROW(page_from(json::parse(R"({"kind": "youtube#videoListResponse", "items": {}})"),
                           "youtube#videoListResponse"),
                 Malformed);
    EXPECT_THROW(video_from(json::parse(R"({"snippet": {}})")), Malformed);
    EXPECT_THROW(page_from(json::array(), "youtube#videoListResponse"), Malformed);
}

TEST(YouTube, Durations) {
    EXPECT_EQ(duration_seconds("PT4M13S"), 253);
    EXPECT_EQ(duration_seconds("PT1H"), 3600);
    EXPECT_EQ(duration_seconds("P1DT2H3M4S"), 93784);
    EXPECT_EQ(duration_seconds("P0D"), 0);
    EXPECT_FALSE(duration_seconds("PT").has_value());
    EXPECT_FALSE(duration_seconds("4M13S").has_value());
    EXPECT_FALSE(duration_seconds("PT4X").has_value());
    EXPECT_FALSE(duration_seconds("PT4").has_value());
}

TEST(YouTube, Unescape) {
    EXPECT_EQ(unescape_html("Tom &amp; Jerry&#39;s &quot;show&quot; &lt;3 &#x263A; &bogus; &"),
              "Tom & Jerry's \"show\" <3 \u263A &bogus; &");
}

TEST(YouTube, ErrorBodies) {
    Failure f = failure_of(platform::test::fixture_text("youtube", "quota_exceeded.json"));
    EXPECT_EQ(f.reason, "quotaExceeded");
    f = failure_of(platform::test::fixture_text("youtube", "key_invalid.json"));
    EXPECT_EQ(f.reason, "badRequest");
    EXPECT_EQ(f.info, "API_KEY_INVALID");
    EXPECT_EQ(f.message, "API key not valid. Please pass a valid API key.");
    f = failure_of("not json");
    EXPECT_EQ(f.reason, "");
}
