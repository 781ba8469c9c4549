// The docs plugin (plugins/docs) through the fake host: owner-scoped documents by id, recency
// order, search, public documents and the MCP resources.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../support/plugin_under_test.hpp"

namespace {

using namespace plugin_test;

class DocsTest : public ::testing::Test {
protected:
    json write(const json& args, const std::string& who = "alice") {
        return ok_json(docs.call("write", args, who));
    }
    std::vector<std::string> titles(const json& args, const std::string& who = "alice") {
        return listed(docs.call("list", args, who), "documents", "title");
    }

    FakeHost host;
    FakePlugin docs = host.load(platform_plugin_entry);
};

TEST_F(DocsTest, WriteCreatesPrivateDocumentsWithFreshIds) {
    json a = write({{"title", "a"}, {"content", "x"}});
    json b = write({{"title", "a"}, {"content", "y"}});
    EXPECT_NE(a.at("id"), b.at("id"));  // titles are not keys
    EXPECT_EQ(a.at("public"), false);
    EXPECT_EQ(a.at("created"), "2026-01-01T00:00:00Z");
    EXPECT_EQ(a.at("updated"), "2026-01-01T00:00:00Z");
    EXPECT_FALSE(a.contains("seq"));
    EXPECT_EQ(host.updated_resources,
              (std::vector<std::string>{"docs://" + a.at("id").get<std::string>(),
                                        "docs://" + b.at("id").get<std::string>()}));
    EXPECT_EQ(host.updated_resource_accounts[0], "alice");
}

TEST_F(DocsTest, ReplaceKeepsCreatedAndPublicUnlessGiven) {
    json a = write({{"title", "t"}, {"content", "v1"}, {"public", true}});
    host.now_ms += 60 * 1000;
    json b = write({{"id", a.at("id")}, {"title", "t2"}, {"content", "v2"}});
    EXPECT_EQ(b.at("created"), "2026-01-01T00:00:00Z");
    EXPECT_EQ(b.at("updated"), "2026-01-01T00:01:00Z");
    EXPECT_EQ(b.at("public"), true);
    EXPECT_EQ(
        docs.call("write", {{"id", "missing"}, {"title", "t"}, {"content", "c"}}, "alice").code,
        PLATFORM_NOT_FOUND);
}

TEST_F(DocsTest, ReadByTitleTakesTheMostRecentlyChanged) {
    write({{"title", "same"}, {"content", "older"}});
    write({{"title", "same"}, {"content", "newer"}});  // same clock: the later write still wins
    Reply r = docs.call("read", {{"title", "same"}}, "alice");
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    EXPECT_EQ(r.json().at("content"), "newer");
    EXPECT_EQ(docs.call("read", json::object(), "alice").code, PLATFORM_INVALID_ARGUMENT);
    Reply missing = docs.call("read", {{"title", "other"}}, "alice");
    EXPECT_EQ(missing.code, PLATFORM_NOT_FOUND);
    EXPECT_NE(missing.body.find("title"), std::string::npos);
}

TEST_F(DocsTest, ListOrdersByChangeSearchesWordsAndLimits) {
    json a = write({{"title", "one"}, {"content", "Red fish"}});
    write({{"title", "two"}, {"content", "blue fish"}});
    write({{"title", "three"}, {"content", "red bird"}});
    EXPECT_EQ(titles(json::object()), (std::vector<std::string>{"three", "two", "one"}));
    write({{"id", a.at("id")}, {"title", "one"}, {"content", "Red fish again"}});
    EXPECT_EQ(titles(json::object()), (std::vector<std::string>{"one", "three", "two"}));
    EXPECT_EQ(titles({{"query", "red"}}), (std::vector<std::string>{"one", "three"}));
    EXPECT_EQ(titles({{"query", "fish RED"}}), std::vector<std::string>{"one"});
    EXPECT_EQ(titles({{"query", "TWO"}}), std::vector<std::string>{"two"});
    EXPECT_EQ(titles({{"query", "red"}, {"limit", 1}}), std::vector<std::string>{"one"});
    EXPECT_TRUE(titles(json::object(), "bob").empty());
}

TEST_F(DocsTest, PublicDocumentsAreReadableByIdByOthers) {
    json priv = write({{"title", "p"}, {"content", "private"}});
    json pub = write({{"title", "q"}, {"content", "public"}, {"public", true}});
    EXPECT_EQ(docs.call("read", {{"id", priv.at("id")}}, "bob").code, PLATFORM_NOT_FOUND);
    Reply r = docs.call("read", {{"id", pub.at("id")}}, "bob");
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    EXPECT_EQ(r.json().at("content"), "public");
    EXPECT_EQ(docs.call("read", {{"title", "q"}}, "bob").code,
              PLATFORM_NOT_FOUND);  // titles: own only
    EXPECT_EQ(docs.call("delete", {{"id", pub.at("id")}}, "bob").code, PLATFORM_NOT_FOUND);
    ASSERT_EQ(docs.call("delete", {{"id", pub.at("id")}}, "alice").code, PLATFORM_OK);
    EXPECT_EQ(docs.call("read", {{"id", pub.at("id")}}, "bob").code, PLATFORM_NOT_FOUND);
}

TEST_F(DocsTest, ResourcesListAndRead) {
    json a = write({{"title", "A"}, {"content", "line one\nline two"}});
    write({{"title", "B"}, {"content", std::string(100, 'b')}});
    json list = docs.call("resources", json::object(), "alice").json().at("resources");
    ASSERT_EQ(list.size(), 2u);
    EXPECT_EQ(list[0].at("name"), "B");
    EXPECT_EQ(list[0].at("description"), std::string(80, 'b'));
    EXPECT_EQ(list[1], (json{{"uri", "docs://" + a.at("id").get<std::string>()},
                             {"name", "A"},
                             {"description", "line one"},
                             {"mimeType", "text/markdown"}}));
    const std::string uri = "docs://" + a.at("id").get<std::string>();
    Reply r = docs.call("read_resource", {{"uri", uri}}, "alice");
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    EXPECT_EQ(
        r.json(),
        (json{{"contents",
               {{{"uri", uri}, {"mimeType", "text/markdown"}, {"text", "line one\nline two"}}}}}));
    EXPECT_EQ(docs.call("read_resource", {{"uri", uri}}, "bob").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(docs.call("read_resource", {{"uri", "notes://x"}}, "alice").code, PLATFORM_NOT_FOUND);
}

TEST_F(DocsTest, DeleteTellsSubscribersAndAnonymousIsRefused) {
    json a = write({{"title", "t"}, {"content", "c"}});
    host.updated_resources.clear();
    Reply d = docs.call("delete", {{"id", a.at("id")}}, "alice");
    ASSERT_EQ(d.code, PLATFORM_OK) << d.body;
    EXPECT_EQ(d.json(), (json{{"deleted", a.at("id")}}));
    EXPECT_EQ(host.updated_resources,
              std::vector<std::string>{"docs://" + a.at("id").get<std::string>()});
    EXPECT_EQ(docs.call("list", json::object(), "").code, PLATFORM_UNAUTHENTICATED);
}

}  // namespace

namespace {

TEST_F(DocsTest, IdsFollowFromTheCallSoFreshAccountsAgree) {
    json a = write({{"title", "same"}, {"content", "same"}});
    json b = write({{"title", "same"}, {"content", "same"}});  // same time and text: still a new id
    EXPECT_NE(a.at("id"), b.at("id"));
    EXPECT_EQ(write({{"title", "same"}, {"content", "same"}}, "carol").at("id"), a.at("id"));
    // Carol's document with Alice's id: each reads their own; a public one is found for others.
    write({{"id", a.at("id")}, {"title", "same"}, {"content", "alice public"}, {"public", true}});
    EXPECT_EQ(docs.call("read", {{"id", a.at("id")}}, "carol").json().at("content"), "same");
    EXPECT_EQ(docs.call("read", {{"id", a.at("id")}}, "bob").json().at("content"), "alice public");
}

}  // namespace
