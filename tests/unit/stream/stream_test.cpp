// The stream plugin (plugins/stream) through the fake host: the activity feed derived from the
// blog's public feed — published and updated events, newest first, the limit, no blog = empty.
#include "stream.hpp"

#include <gtest/gtest.h>

#include "../support/plugin_under_test.hpp"

namespace {

using namespace plugin_test;

class StreamTest : public ::testing::Test {
protected:
    void SetUp() override {
        host.on_call = [this](const std::string& service, const std::string& method,
                              const json& req, const std::string&) {
            if (!blog || service != "v1.blog" || method != "feed")
                return reply(PLATFORM_NOT_FOUND, "");
            const size_t offset = req.at("offset"), limit = req.at("limit");
            json page = json::array();
            for (size_t i = offset; i < posts.size() && page.size() < limit; ++i)
                page.push_back(posts[i]);
            return reply(PLATFORM_OK, json{{"posts", page}, {"total", posts.size()}}.dump());
        };
    }
    std::vector<std::string> ids(int limit) {
        return listed(stream.call("list", {{"limit", limit}}, ""), "activities", "id");
    }

    std::vector<json> posts = {{{"id", "b"},
                                {"title", "B"},
                                {"author", "bob"},
                                {"url", "/b"},
                                {"created", "2026-01-03T00:00:00Z"},
                                {"updated", "2026-01-03T00:00:00Z"}},
                               {{"id", "a"},
                                {"title", "A"},
                                {"author", "alice"},
                                {"url", "/a"},
                                {"created", "2026-01-01T00:00:00Z"},
                                {"updated", "2026-01-04T00:00:00Z"}}};
    bool blog = true;
    FakeHost host;
    FakePlugin stream = host.load(platform_plugin_entry);
};

TEST_F(StreamTest, PublishedAndUpdatedNewestFirst) {
    EXPECT_EQ(ids(20), (std::vector<std::string>{"a/updated", "b/published", "a/published"}));
    EXPECT_EQ(ids(1), std::vector<std::string>{"a/updated"});
    const json first = stream.call("list", {{"limit", 1}}, "").json()["activities"][0];
    EXPECT_EQ(first, json({{"id", "a/updated"},
                           {"type", "blog.updated"},
                           {"title", "A"},
                           {"url", "/a"},
                           {"actor", "alice"},
                           {"at", "2026-01-04T00:00:00Z"}}));
}

TEST_F(StreamTest, PagesThroughTheWholeFeed) {
    posts.clear();
    for (int i = 250; i > 0; --i) {
        char t[32];
        std::snprintf(t, sizeof t, "2026-01-01T00:%02d:%02dZ", i / 60, i % 60);
        posts.push_back({{"id", "p" + std::to_string(i)}, {"created", t}, {"updated", t}});
    }
    const auto all = ids(100);
    ASSERT_EQ(all.size(), 100u);
    EXPECT_EQ(all.front(), "p250/published");
}

TEST_F(StreamTest, NoBlogMeansNothingHappened) {
    blog = false;
    EXPECT_TRUE(ids(20).empty());
}

}  // namespace
