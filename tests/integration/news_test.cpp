// The news service (plugins/news/) through the real host on the `test` profile, its feeds (one
// RSS 2.0, one Atom: tests/fixtures/news/) served by a FakeUpstream on loopback and listed in
// plugin_config.news.feeds (operator URLs: the loopback server is on outbound.allow). The
// business clock is set to 2026-12-07 12:00 UTC, so "today" is the fixtures' day; a poll is due
// every 15 minutes of it, which the tests pass with /clock/advance. Also: the archive's kind
// `news`, a feed that fails or is not a feed, conditional requests, and on a host without feeds
// the 503 naming the setting.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
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

constexpr int64_t kNoon = 1796644800000;  // 2026-12-07T12:00:00Z
const std::string kWorld = "/feeds/world.rss";
const std::string kScience = "/feeds/science.atom";

FakeUpstream::Route world_feed() {
    return FakeUpstream::fixture("news", "rss.xml", "application/rss+xml");
}
FakeUpstream::Route science_feed() {
    return FakeUpstream::fixture("news", "atom.xml", "application/atom+xml; charset=utf-8");
}

std::vector<std::string> titles(const json& list) {
    std::vector<std::string> out;
    for (const auto& a : list) out.push_back(a.value("title", ""));
    return out;
}

class News : public UpstreamHostTest {
protected:
    static void SetUpTestSuite() {
        service_ = "news";
        up = std::make_unique<FakeUpstream>();
        up->serve(kWorld, world_feed());
        up->serve(kScience, science_feed());
        HostProcess::Options o;
        o.profile = suite_dir() + "/news.yaml";
        std::ofstream(o.profile) << with_plugin_config(test_profile_text(), "news",
                                                       "feeds:\n"
                                                       "  - url: \"" +
                                                           up->url(kWorld) +
                                                           "\"\n"
                                                           "    topic: World\n"
                                                           "  - url: \"" +
                                                           up->url(kScience) +
                                                           "\"\n"
                                                           "    topic: science\n"
                                                           "every_minutes: 15\n")
                                 << "\noutbound:\n  allow: [\"" << up->allow_entry()
                                 << "\"]\n  timeout_ms: 1500\n";
        start_host(o);
        HttpClient c("127.0.0.1", host->api_port());
        ASSERT_EQ(c.post_json("/clock/set", {{"unix_ms", kNoon}}).status, 200);
    }
    // Each test starts with both feeds serving their fixtures and nothing recorded.
    void SetUp() override {
        up->serve(kWorld, world_feed());
        up->serve(kScience, science_feed());
        up->forget();
    }
    // Moves the business clock past the poll interval, so that the next call reads the feeds.
    void next_poll() {
        ASSERT_EQ(api.post_json("/clock/advance", {{"ms", 16 * 60 * 1000}}).status, 200);
    }
    std::string id_of(const std::string& title) {
        for (const std::string day : {"today", "yesterday"}) {
            const json l = ok("list?limit=100&day=" + day);
            for (const auto& a : l["articles"])
                if (a["title"] == title) return a["id"];
        }
        ADD_FAILURE() << "no article " << title;
        return "";
    }
};

TEST_F(News, HeadlinesTheLatestStoryOfEachTopicFreshestFirst) {
    const json h = ok("headlines");
    ASSERT_EQ(h["headlines"].size(), 2u) << h;
    EXPECT_EQ(h["headlines"][0]["topic"], "science");
    EXPECT_EQ(h["headlines"][0]["title"], "Deep-sea vents host new microbes");
    EXPECT_EQ(h["headlines"][0]["published"], "2026-12-07T11:50:00Z");
    EXPECT_EQ(h["headlines"][0]["source"], "Example Science Desk");
    EXPECT_EQ(h["headlines"][0]["url"], "https://science.example.net/2026/12/vents");
    EXPECT_EQ(h["headlines"][1]["topic"], "world");  // topics are compared in lower case
    EXPECT_EQ(h["headlines"][1]["title"], "Talks resume in Geneva & Vienna");
    EXPECT_EQ(h["headlines"][1]["published"], "2026-12-07T11:15:00Z");
    EXPECT_TRUE(h["failing"].empty()) << h;
    EXPECT_TRUE(h["updated"].is_string());
}

TEST_F(News, ListOneDayNewestFirstByTopic) {
    json l = ok("list");
    EXPECT_EQ(l["day"], "2026-12-07");
    EXPECT_EQ(l["count"], 4) << l;
    EXPECT_EQ(titles(l["articles"]),
              (std::vector<std::string>{"Deep-sea vents host new microbes",
                                        "Talks resume in Geneva & Vienna",
                                        "Comet C/2026 A1 brightens & grows a tail",
                                        "Harbour bridge reopens after storm repairs"}));
    EXPECT_EQ(l["articles"][3]["summary"],
              "The bridge reopened on Monday morning \u2013 two weeks ahead of schedule.\n"
              "Engineers said the repairs held.");
    EXPECT_FALSE(l["articles"][0].contains("text"));  // lists are brief
    l = ok("list?topic=WORLD");
    EXPECT_EQ(titles(l["articles"]),
              (std::vector<std::string>{"Talks resume in Geneva & Vienna",
                                        "Harbour bridge reopens after storm repairs"}));
    EXPECT_EQ(titles(ok("list?day=yesterday")["articles"]),
              (std::vector<std::string>{"Night trains return to the Alps"}));
    EXPECT_EQ(titles(ok("list?day=2026-11-30&topic=science")["articles"]),
              (std::vector<std::string>{"Old entry with a W3C-DTF date"}));
    EXPECT_TRUE(ok("list?day=2026-12-01")["articles"].empty());
    l = ok("list?limit=1");
    EXPECT_EQ(l["articles"].size(), 1u);
    EXPECT_EQ(l["count"], 4);
}

TEST_F(News, ListLimits) {
    fails("list?day=tomorrow", 400, "day");
    fails("list?day=2026-02-30", 400, "day");
    fails("list?day=07-12-2026", 400, "day");
    fails("list?topic=sport", 400, "topic");
    fails("list?limit=0", 400, "limit");
    fails("list?limit=101", 400, "limit");
    EXPECT_EQ(ok("list?limit=100")["count"], 4);
}

TEST_F(News, ReadByIdOrUrl) {
    const std::string id = id_of("Harbour bridge reopens after storm repairs");
    ASSERT_EQ(id.rfind("na-", 0), 0u) << id;
    const json a = ok("read?id=" + id);
    EXPECT_EQ(a["text"],
              "The bridge reopened on Monday morning.\nTwo lanes open\nCycle path closed");
    EXPECT_EQ(a["author"], "Ana Lima");
    EXPECT_EQ(a["topic"], "world");
    EXPECT_EQ(a["published"], "2026-12-07T09:30:00Z");
    const json by_url = ok("read?id=https%3A%2F%2Fscience.example.net%2F2026%2F12%2Fcomet");
    EXPECT_EQ(by_url["title"], "Comet C/2026 A1 brightens & grows a tail");
    EXPECT_EQ(by_url["text"],
              "The comet is now visible with binoculars before dawn.\nLook low in the east.");
    fails("read?id=na-0000000000000000", 404, "id");
    fails("read?id=https%3A%2F%2Fnowhere.example%2F", 404, "id");
    fails("read", 400, "id");
}

TEST_F(News, SearchEveryWordNewestFirst) {
    json s = ok("search?query=engineers%20BRIDGE");
    EXPECT_EQ(titles(s["articles"]),
              (std::vector<std::string>{"Harbour bridge reopens after storm repairs"}));
    s = ok("search?query=talks");  // listed twice by its feed: one story
    EXPECT_EQ(s["count"], 1);
    s = ok("search?query=the");
    EXPECT_GE(s["count"].get<int>(), 3);
    EXPECT_TRUE(ok("search?query=zeppelin")["articles"].empty());
    fails("search", 400, "query");
    fails("search?query=", 400, "query");
}

TEST_F(News, FeedsAreReadOnScheduleAndStoriesKeptOnce) {
    ok("headlines");
    up->forget();
    ok("list");  // within 15 minutes of the last poll: from the store
    ok("search?query=comet");
    EXPECT_TRUE(up->requests().empty());
    next_poll();
    ok("headlines");
    EXPECT_EQ(up->requests(kWorld).size(), 1u);
    EXPECT_EQ(up->requests(kScience).size(), 1u);
    const auto req = up->requests(kWorld)[0];
    EXPECT_NE(req.header("accept").find("application/rss+xml"), std::string::npos);
    // Read twice, every story is held once: 3 from the RSS (one listed twice), 3 from the Atom.
    const json a = api.get("/api/v1/archive/list?kind=news&limit=100").json()["data"];
    EXPECT_EQ(a["items"].size(), 6u) << a;
}

TEST_F(News, AFailingFeedIsNamedWhileTheOthersServe) {
    ASSERT_EQ(ok("headlines")["headlines"].size(), 2u);  // both feeds read once (alone or not)
    up->serve(kWorld, FakeUpstream::status(500, "down"));
    up->serve(kScience, FakeUpstream::fixture("news", "SOURCE", "text/html"));  // not XML
    next_poll();
    const json h = ok("headlines");
    ASSERT_EQ(h["failing"].size(), 2u) << h;
    EXPECT_EQ(h["failing"][0]["url"], up->url(kWorld));
    EXPECT_NE(h["failing"][0]["error"].get<std::string>().find("500"), std::string::npos);
    EXPECT_NE(h["failing"][1]["error"].get<std::string>().find("not well-formed XML"),
              std::string::npos);
    EXPECT_EQ(h["headlines"].size(), 2u);  // what was read before is still held
    up->serve(kScience, FakeUpstream::status(200, "<html><body>hi</body></html>", "text/html"));
    next_poll();
    const json h2 = ok("headlines");
    ASSERT_EQ(h2["failing"].size(), 2u) << h2;
    EXPECT_NE(h2["failing"][1]["error"].get<std::string>().find("not an RSS or Atom feed"),
              std::string::npos);
    up->serve(kWorld, FakeUpstream::hang());  // the host's timeout ends it
    up->serve(kScience, science_feed());
    next_poll();
    const json h3 = ok("headlines");
    ASSERT_EQ(h3["failing"].size(), 1u) << h3;
    EXPECT_EQ(h3["failing"][0]["topic"], "world");
    up->serve(kWorld, world_feed());
    next_poll();  // both answer again
    EXPECT_TRUE(ok("headlines")["failing"].empty());
}

TEST_F(News, ConditionalRequestsWithTheFeedsValidators) {
    auto tagged = world_feed();
    tagged.headers = {{"ETag", "\"w-1\""}, {"Last-Modified", "Mon, 07 Dec 2026 11:20:03 GMT"}};
    up->serve(kWorld, tagged);
    next_poll();
    ok("headlines");
    up->serve(kWorld, FakeUpstream::status(304));
    up->forget();
    next_poll();
    const json h = ok("headlines");
    ASSERT_EQ(up->requests(kWorld).size(), 1u);
    EXPECT_EQ(up->requests(kWorld)[0].header("if-none-match"), "\"w-1\"");
    EXPECT_EQ(up->requests(kWorld)[0].header("if-modified-since"), "Mon, 07 Dec 2026 11:20:03 GMT");
    EXPECT_TRUE(h["failing"].empty()) << h;  // 304: nothing new, nothing wrong
    EXPECT_EQ(h["headlines"].size(), 2u);
}

TEST_F(News, TheArchiveListsGetsAndSearchesTheStories) {
    ok("headlines");
    const json l = api.get("/api/v1/archive/list?kind=news&limit=3").json()["data"];
    ASSERT_EQ(l["items"].size(), 3u) << l;
    EXPECT_EQ(l["items"][0]["title"], "Deep-sea vents host new microbes");
    EXPECT_EQ(l["items"][0]["date"], "2026-12-07T11:50:00Z");
    const std::string id = l["items"][2]["id"];  // the comet
    ASSERT_EQ(id.rfind("news:na-", 0), 0u) << id;
    const json g = api.get("/api/v1/archive/get?id=" + id).json()["data"];
    EXPECT_EQ(g["kind"], "news");
    EXPECT_EQ(g["text"],
              "The comet is now visible with binoculars before dawn.\nLook low in the east.");
    const json s = api.get("/api/v1/archive/search?query=sleeper&kind=news").json()["data"];
    ASSERT_EQ(s["items"].size(), 1u) << s;
    EXPECT_EQ(s["items"][0]["title"], "Night trains return to the Alps");
    EXPECT_EQ(api.get("/api/v1/archive/get?id=news:na-0000000000000000").status, 404);
    const json kinds = api.get("/api/v1/archive/list").json()["data"]["kinds"];
    bool counted = false;
    for (const auto& k : kinds)
        if (k["kind"] == "news") counted = k["count"].get<int>() == 6;
    EXPECT_TRUE(counted) << kinds;
}

TEST_F(News, TheArchiveMethodIsNotReachableFromOutside) {
    EXPECT_EQ(get("held").status, 404);
}

class NewsUnconfigured : public SharedHostTest {};

TEST_F(NewsUnconfigured, EachMethodIs503NamingTheSetting) {
    for (const std::string m : {"headlines", "list", "read?id=na-1", "search?query=x"}) {
        const HttpResult r = api.get("/api/v1/news/" + m);
        EXPECT_EQ(r.status, 503) << m << ": " << r.body;
        EXPECT_NE(r.body.find("plugin_config.news.feeds"), std::string::npos) << r.body;
    }
    // The archive has no stories, and says so without an error.
    const HttpResult a = api.get("/api/v1/archive/list?kind=news");
    EXPECT_EQ(a.status, 200) << a.body;
    EXPECT_TRUE(a.json()["data"]["items"].empty());
}

}  // namespace
