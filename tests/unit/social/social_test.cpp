// The social plugin (plugins/social) through the fake host: announcements of the blog's public
// feed (read page by page), search by words, limits, and no blog service = no posts.
#include "social.hpp"

#include <gtest/gtest.h>

#include "../support/plugin_under_test.hpp"

namespace {

using namespace plugin_test;

class SocialTest : public ::testing::Test {
protected:
    void SetUp() override {
        // 150 public posts, newest first: p149 ... p0; the feed pages them 100 at a time.
        for (int i = 149; i >= 0; --i)
            posts.push_back(
                {{"id", "p" + std::to_string(i)},
                 {"title", i == 7 ? "Rust and C++" : "Post " + std::to_string(i)},
                 {"content", i == 42 ? "About gardening tomatoes" : "Nothing special here"},
                 {"tags", i == 3 ? "garden" : ""},
                 {"author", "alice"},
                 {"url", "/api/v1/blog/read?id=p" + std::to_string(i)},
                 {"created", "2026-01-01T00:00:00Z"}});
        host.on_call = [this](const std::string& service, const std::string& method,
                              const json& req, const std::string&) {
            calls.push_back(service + "/" + method);
            if (!blog) return reply(PLATFORM_NOT_FOUND, "");
            const size_t offset = req.at("offset"), limit = req.at("limit");
            json page = json::array();
            for (size_t i = offset; i < posts.size() && page.size() < limit; ++i)
                page.push_back(posts[i]);
            return reply(PLATFORM_OK,
                         json{{"posts", page}, {"total", posts.size()}, {"offset", offset}}.dump());
        };
    }

    std::vector<json> posts;
    std::vector<std::string> calls;
    bool blog = true;
    FakeHost host;
    FakePlugin social = host.load(platform_plugin_entry);
};

TEST_F(SocialTest, ListAnnouncesEveryPublicPostNewestFirst) {
    Reply r = social.call("list", json::object(), "");
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    const json list = r.json()["posts"];
    ASSERT_EQ(list.size(), 150u);
    EXPECT_EQ(list[0]["id"], "p149");
    EXPECT_EQ(list[0]["post"], "p149");
    EXPECT_EQ(list[0]["text"], "Post 149 — Nothing special here");
    EXPECT_EQ(list[149]["id"], "p0");
    EXPECT_EQ(calls, (std::vector<std::string>{"v1.blog/feed", "v1.blog/feed"}));
    EXPECT_EQ(social.call("list", {{"limit", 3}}, "").json()["posts"].size(), 3u);
}

TEST_F(SocialTest, SearchNeedsEveryWordInTitleBodyOrTags) {
    auto ids = [&](const std::string& q, int limit = 20) {
        std::vector<std::string> out;
        const json body = social.call("search", {{"query", q}, {"limit", limit}}, "").json();
        for (const auto& p : body["posts"]) out.push_back(p["id"]);
        return out;
    };
    EXPECT_EQ(ids("GARDENING tomatoes"), std::vector<std::string>{"p42"});
    EXPECT_EQ(ids("c++ rust"), std::vector<std::string>{"p7"});
    EXPECT_EQ(ids("garden"), (std::vector<std::string>{"p42", "p3"}));
    EXPECT_TRUE(ids("gardening cucumbers").empty());
    EXPECT_EQ(ids("post", 5).size(), 5u);
}

TEST_F(SocialTest, NoBlogServiceMeansNoPosts) {
    blog = false;
    Reply r = social.call("list", json::object(), "");
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    EXPECT_TRUE(r.json()["posts"].empty());
}

TEST(SocialText, AnnouncementCutsOnACharacterBoundary) {
    std::string body(199, 'a');
    body += "é and more";
    const json a = social::announcement({{"id", "x"}, {"title", "T"}, {"content", body}});
    const std::string text = a["text"];
    EXPECT_EQ(text, "T — " + std::string(199, 'a') + "…");
}

}  // namespace
