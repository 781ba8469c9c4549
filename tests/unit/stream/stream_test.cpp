// The stream plugin (plugins/stream) through the fake host: the activity feed derived from the
// blog's public feed — published and updated events, newest first, the limit, no blog = empty.
#include "stream.hpp"

#include <gtest/gtest.h>

#include <platform/testing/fake_host.hpp>

extern "C" const platform_plugin_desc_t* platform_plugin_entry(const platform_entry_args_t*);

namespace {

using nlohmann::json;
using platform::testing::FakeHost;
using platform::testing::Reply;

// A reply from another service, as the fake host's on_call hook answers it.
Reply reply(platform_status_t code, std::string body) {
    Reply r;
    r.code = code;
    r.body = std::move(body);
    return r;
}

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
        Reply r = stream.call("list", {{"limit", limit}}, "");
        EXPECT_EQ(r.code, PLATFORM_OK) << r.body;
        std::vector<std::string> out;
        const json body = r.json();
        for (const auto& a : body["activities"]) out.push_back(a["id"]);
        return out;
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
    platform::testing::FakePlugin stream = host.load(platform_plugin_entry);
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
