// The blog plugin (plugins/blog) through the fake host: generated titles, snippets and tags;
// public and private posts; only the author updates or deletes (403 public, 404 private);
// ambiguous titles; the public feed.
#include "blog.hpp"

#include <gtest/gtest.h>

#include "../support/plugin_under_test.hpp"

namespace {

using namespace plugin_test;

const std::string kBody =
    "This body is long enough to be a blog post: it has more than fifty characters.";

TEST(BlogText, TitleFromBody) {
    EXPECT_EQ(blog::title_from("\n\n## Hello   world\nmore"), "Hello world");
    EXPECT_EQ(blog::title_from("  \n"), "Untitled");
    const std::string long_line(30, 'a');
    const std::string t = blog::title_from(long_line + " " + long_line + " " + long_line);
    EXPECT_EQ(t, long_line + " " + long_line + "…");
}

TEST(BlogText, SnippetAndTags) {
    EXPECT_EQ(blog::snippet("a\n\n  b\tc"), "a b c");
    EXPECT_LE(blog::snippet(std::string(500, 'x')).size(), 200u + 3);
    EXPECT_EQ(blog::tags(" c++ , news,,c++, long  tag "), "c++,news,long tag");
    EXPECT_EQ(blog::tags(""), "");
}

class BlogTest : public ::testing::Test {
protected:
    json create(const json& args, const std::string& who) {
        Reply r = blog.call("create", args, who);
        host.now_ms += 1000;
        return ok_json(r);
    }
    std::vector<std::string> listed(const std::string& who) {
        return plugin_test::listed(blog.call("list", json::object(), who), "posts", "id");
    }

    FakeHost host;
    FakePlugin blog = host.load(platform_plugin_entry);
};

TEST_F(BlogTest, CreateGeneratesTitleAndNormalisesTags) {
    json p = create({{"content", "# First post\n" + kBody}, {"tags", "a, b"}}, "alice");
    EXPECT_EQ(p["title"], "First post");
    EXPECT_EQ(p["tags"], "a,b");
    EXPECT_EQ(p["private"], false);
    EXPECT_EQ(p["author"], "alice");
    EXPECT_EQ(p["url"], "/api/v1/blog/read?id=" + p["id"].get<std::string>());
}

TEST_F(BlogTest, IdsComeFromTheRequestAndAreUniquePerAuthor) {
    const json args = {{"content", kBody}, {"title", "Same"}};
    const json a = blog.call("create", args, "alice").json(),
               b = blog.call("create", args, "bob").json();
    EXPECT_EQ(a["id"], b["id"]);  // same request, same time: same id (HTTP and MCP answers agree)
    EXPECT_FALSE(a.contains("seq"));
    const json again = blog.call("create", args, "alice").json();
    EXPECT_NE(again["id"], a["id"]);
    EXPECT_EQ(blog.call("read", {{"id", a["id"]}}, "alice").json()["author"],
              "alice");  // own first
    EXPECT_EQ(blog.call("read", {{"id", b["id"]}}, "bob").json()["author"], "bob");
    EXPECT_EQ(blog.call("delete", {{"id", a["id"]}}, "alice").code, PLATFORM_OK);
    EXPECT_EQ(blog.call("read", {{"id", a["id"]}}, "alice").json()["author"],
              "bob");  // bob's is public
}

TEST_F(BlogTest, PublicReadableByAllPrivateOnlyByAuthor) {
    json pub = create({{"content", kBody}, {"title", "Open"}}, "alice");
    json priv = create({{"content", kBody}, {"title", "Closed"}, {"private", true}}, "alice");
    EXPECT_EQ(blog.call("read", {{"id", pub["id"]}}, "").json(), pub);
    EXPECT_EQ(blog.call("read", {{"id", pub["id"]}}, "bob").json(), pub);
    EXPECT_EQ(blog.call("read", {{"id", priv["id"]}}, "bob").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(blog.call("read", {{"id", priv["id"]}}, "").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(blog.call("read", {{"title", "Closed"}}, "alice").json(), priv);
    EXPECT_EQ(listed("alice"), (std::vector<std::string>{priv["id"], pub["id"]}));
    EXPECT_EQ(listed("bob"), (std::vector<std::string>{pub["id"]}));
    EXPECT_EQ(listed(""), (std::vector<std::string>{pub["id"]}));
}

TEST_F(BlogTest, OnlyTheAuthorUpdatesOrDeletes) {
    json pub = create({{"content", kBody}}, "alice");
    json priv = create({{"content", kBody}, {"private", true}}, "alice");
    EXPECT_EQ(blog.call("update", {{"id", pub["id"]}, {"title", "x"}}, "bob").code,
              PLATFORM_PERMISSION_DENIED);
    EXPECT_EQ(blog.call("update", {{"id", priv["id"]}, {"title", "x"}}, "bob").code,
              PLATFORM_NOT_FOUND);
    EXPECT_EQ(blog.call("delete", {{"id", pub["id"]}}, "bob").code, PLATFORM_PERMISSION_DENIED);
    EXPECT_EQ(blog.call("delete", {{"id", priv["id"]}}, "bob").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(blog.call("read", {{"id", pub["id"]}}, "bob").code, PLATFORM_OK);
}

TEST_F(BlogTest, UpdateKeepsOmittedFieldsAndMovesTheCard) {
    json p = create({{"content", kBody}, {"title", "T"}, {"tags", "x"}}, "alice");
    host.now_ms += 60000;
    Reply u = blog.call("update", {{"id", p["id"]}, {"private", true}}, "alice");
    ASSERT_EQ(u.code, PLATFORM_OK) << u.body;
    EXPECT_EQ(u.json()["title"], "T");
    EXPECT_EQ(u.json()["tags"], "x");
    EXPECT_EQ(u.json()["content"], kBody);
    EXPECT_EQ(u.json()["created"], p["created"]);
    EXPECT_NE(u.json()["updated"], p["updated"]);
    EXPECT_EQ(blog.call("read", {{"id", p["id"]}}, "bob").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(blog.call("feed", {{"offset", 0}, {"limit", 100}}, "").json()["total"], 0);
    u = blog.call("update", {{"id", p["id"]}, {"private", false}, {"title", ""}, {"tags", ""}},
                  "alice");
    EXPECT_EQ(u.json()["title"], blog::title_from(kBody));
    EXPECT_EQ(u.json()["tags"], "");
    EXPECT_EQ(blog.call("read", {{"id", p["id"]}}, "bob").code, PLATFORM_OK);
}

TEST_F(BlogTest, AmbiguousTitleRefusedAndDeleteIsFinal) {
    json a = create({{"content", kBody}, {"title", "Same"}}, "alice");
    json b = create({{"content", kBody}, {"title", "Same"}}, "alice");
    Reply amb = blog.call("delete", {{"title", "Same"}}, "alice");
    EXPECT_EQ(amb.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_NE(amb.body.find(a["id"].get<std::string>()), std::string::npos) << amb.body;
    EXPECT_EQ(blog.call("read", {{"title", "Same"}}, "bob").code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(blog.call("delete", {{"title", "Same"}}, "bob").code,
              PLATFORM_NOT_FOUND);  // not bob's
    Reply d = blog.call("delete", {{"id", a["id"]}}, "alice");
    ASSERT_EQ(d.code, PLATFORM_OK) << d.body;
    EXPECT_EQ(d.json()["deleted"], a["id"]);
    Reply t = blog.call("delete", {{"title", "Same"}}, "alice");
    ASSERT_EQ(t.code, PLATFORM_OK) << t.body;
    EXPECT_EQ(t.json()["deleted"], b["id"]);
    EXPECT_EQ(blog.call("read", {{"id", a["id"]}}, "alice").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(blog.call("read", json::object(), "alice").code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_TRUE(listed("alice").empty());
}

TEST_F(BlogTest, FeedPagesPublicPostsInFull) {
    std::vector<std::string> ids;
    for (int i = 0; i < 5; ++i)
        ids.push_back(
            create({{"content", kBody + std::to_string(i)}}, i % 2 ? "bob" : "alice")["id"]);
    create({{"content", kBody}, {"private", true}}, "alice");
    Reply f = blog.call("feed", {{"offset", 1}, {"limit", 2}}, "");
    ASSERT_EQ(f.code, PLATFORM_OK) << f.body;
    const json page = f.json();
    EXPECT_EQ(page["total"], 5);
    ASSERT_EQ(page["posts"].size(), 2u);
    EXPECT_EQ(page["posts"][0]["id"], ids[3]);
    EXPECT_EQ(page["posts"][1]["id"], ids[2]);
    EXPECT_EQ(page["posts"][0]["content"], kBody + "3");
    Reply l = blog.call("list", {{"limit", 2}}, "carol");
    EXPECT_EQ(l.json()["posts"].size(), 2u);
}

}  // namespace
