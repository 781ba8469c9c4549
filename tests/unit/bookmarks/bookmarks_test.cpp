// The bookmarks plugin (plugins/bookmarks) through the fake host: saving by URL or archive ref
// (the archive service played by on_call), notes kept on re-saving, search in notes, paging.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../support/plugin_under_test.hpp"

namespace {

using namespace plugin_test;

class BookmarksTest : public ::testing::Test {
protected:
    json add(const json& args, const std::string& who = "alice") {
        return ok_json(bookmarks.call("add", args, who));
    }
    std::vector<std::string> titles(const json& args, const std::string& who = "alice") {
        return listed(bookmarks.call("list", args, who), "bookmarks", "title");
    }
    // An archive service answering `method` with `answer` and anything else with 404.
    void archive(const std::string& method, const json& answer) {
        host.on_call = [method, answer](const std::string& service, const std::string& m,
                                        const json&, const std::string&) {
            if (service != "archive" || m != method) return reply(PLATFORM_NOT_FOUND, "");
            return reply(PLATFORM_OK, answer.dump());
        };
    }

    FakeHost host;
    FakePlugin bookmarks = host.load(platform_plugin_entry);
};

TEST_F(BookmarksTest, SavingAUrlAndReSavingKeepsTheNote) {
    json b = add({{"url", "https://example.org/a"}, {"note", "read on the train"}});
    EXPECT_EQ(b.at("title"), "https://example.org/a");
    EXPECT_EQ(b.at("kind"), "link");
    EXPECT_EQ(b.at("ref"), "");
    EXPECT_FALSE(b.contains("text"));
    host.now_ms += 1000;
    json again = add({{"url", "https://example.org/a"}, {"title", "A"}});
    EXPECT_EQ(again.at("id"), b.at("id"));
    EXPECT_EQ(again.at("note"), "read on the train");
    EXPECT_EQ(again.at("title"), "A");
    EXPECT_EQ(again.at("created"), "2026-01-01T00:00:00Z");
    EXPECT_EQ(again.at("saved"), "2026-01-01T00:00:01Z");
    EXPECT_EQ(add({{"url", "https://example.org/a"}, {"note", "new"}}).at("note"),
              "new");  // a note given replaces
    EXPECT_EQ(titles(json::object()).size(), 1u);
    EXPECT_EQ(add({{"url", "https://www.youtube.com/watch?v=x"}}).at("kind"), "video");
    for (const char* bad : {"ftp://x", "javascript:alert(1)", "https://", "https://a b"})
        EXPECT_EQ(bookmarks.call("add", {{"url", bad}}, "alice").code, PLATFORM_INVALID_ARGUMENT)
            << bad;
    EXPECT_EQ(bookmarks.call("add", {{"title", "no item"}}, "alice").code,
              PLATFORM_INVALID_ARGUMENT);
}

TEST_F(BookmarksTest, ARefIsResolvedThroughTheArchive) {
    Reply none = bookmarks.call("add", {{"ref", "news-1"}}, "alice");  // no archive service
    EXPECT_EQ(none.code, PLATFORM_NOT_FOUND);
    EXPECT_NE(none.body.find("ref"), std::string::npos) << none.body;

    archive("get", {{"id", "news-1"},
                    {"kind", "news"},
                    {"title", "Rates rise"},
                    {"url", "https://n.example/1"},
                    {"text", "The bank raised rates."}});
    json b = add({{"ref", "news-1"}, {"note", "check mortgage"}});
    EXPECT_EQ(b.at("kind"), "article");
    EXPECT_EQ(b.at("title"), "Rates rise");
    EXPECT_EQ(b.at("url"), "https://n.example/1");
    Reply g = bookmarks.call("get", {{"id", b.at("id")}}, "alice");
    ASSERT_EQ(g.code, PLATFORM_OK) << g.body;
    EXPECT_EQ(g.json().at("archived"), "The bank raised rates.");
    EXPECT_EQ(g.json().at("note"), "check mortgage");
    EXPECT_EQ(bookmarks.call("add", {{"ref", "news-2"}}, "alice").code, PLATFORM_NOT_FOUND);

    // An archive with only search: the entry with that id among its results.
    archive(
        "search",
        {{"results",
          {{{"id", "other"}, {"kind", "video"}},
           {{"id", "vid-9"}, {"kind", "video"}, {"title", "Talk"}, {"description", "A talk."}}}}});
    json v = add({{"ref", "vid-9"}});
    EXPECT_EQ(v.at("kind"), "video");
    EXPECT_EQ(bookmarks.call("get", {{"id", v.at("id")}}, "alice").json().at("archived"),
              "A talk.");
    json link = add({{"url", "https://example.org/x"}});
    EXPECT_EQ(bookmarks.call("get", {{"id", link.at("id")}}, "alice").json().at("archived"),
              nullptr);
}

TEST_F(BookmarksTest, AnnotateSetsAndClearsTheNote) {
    json b = add({{"url", "https://example.org/n"}, {"note", "old"}});
    Reply a = bookmarks.call("annotate", {{"id", b.at("id")}, {"note", "new"}}, "alice");
    ASSERT_EQ(a.code, PLATFORM_OK) << a.body;
    EXPECT_EQ(a.json().at("note"), "new");
    EXPECT_EQ(
        bookmarks.call("annotate", {{"id", b.at("id")}, {"note", ""}}, "alice").json().at("note"),
        "");
    EXPECT_EQ(bookmarks.call("annotate", {{"id", b.at("id")}, {"note", "x"}}, "bob").code,
              PLATFORM_NOT_FOUND);
    EXPECT_EQ(bookmarks.call("annotate", {{"id", b.at("id")}}, "alice").json().at("note"), "");
}

TEST_F(BookmarksTest, ListIsNewestFirstSearchesNotesFiltersKindsAndPages) {
    add({{"url", "https://example.org/1"}, {"title", "one"}, {"note", "Quantum stuff"}});
    add({{"url", "https://youtu.be/2"}, {"title", "two"}});
    add({{"url", "https://example.org/3"}, {"title", "three"}});
    EXPECT_EQ(titles(json::object()), (std::vector<std::string>{"three", "two", "one"}));
    EXPECT_EQ(titles({{"query", "quantum"}}), std::vector<std::string>{"one"});
    EXPECT_EQ(titles({{"query", "youtu.be"}}), std::vector<std::string>{"two"});
    EXPECT_EQ(titles({{"kind", "video"}}), std::vector<std::string>{"two"});
    EXPECT_EQ(titles({{"kind", ""}}).size(), 3u);
    EXPECT_EQ(titles({{"offset", 1}, {"limit", 1}}), std::vector<std::string>{"two"});
    EXPECT_EQ(bookmarks.call("list", {{"limit", 1}}, "alice").json().at("total"), 3);
    add({{"url", "https://example.org/1"}});  // re-saved: newest again
    EXPECT_EQ(titles(json::object()),
              (std::vector<std::string>{"one", "three", "two"}));  // title kept
    EXPECT_TRUE(titles(json::object(), "bob").empty());
}

TEST_F(BookmarksTest, DeleteIsOwnerScoped) {
    json b = add({{"url", "https://example.org/d"}});
    EXPECT_EQ(bookmarks.call("delete", {{"id", b.at("id")}}, "bob").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(bookmarks.call("get", {{"id", b.at("id")}}, "bob").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(bookmarks.call("delete", {{"id", b.at("id")}}, "alice").json(),
              (json{{"deleted", b.at("id")}}));
    EXPECT_EQ(bookmarks.call("get", {{"id", b.at("id")}}, "alice").code, PLATFORM_NOT_FOUND);
}

}  // namespace
