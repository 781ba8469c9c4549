// The archive plugin (plugins/archive) through the fake host: items gathered from blog/feed,
// social/list and events/list as the caller; counts per kind; search; get by <kind>:<id>;
// reminders only for accounts; absent services contribute nothing.
#include "archive.hpp"

#include <gtest/gtest.h>

#include "../support/plugin_under_test.hpp"

namespace {

using namespace plugin_test;

TEST(ArchiveOrder, NewestFirstAcrossOffsets) {
    std::vector<json> items = {
        {{"id", "a"}, {"date", "2026-01-02T00:30:00+01:00"}},  // 2026-01-01T23:30Z
        {{"id", "b"}, {"date", "2026-01-02T00:00:00Z"}},
        {{"id", "c"}, {"date", "2026-01-01T20:00:00-05:00"}},  // 2026-01-02T01:00Z
        {{"id", "d"}, {"date", "2026-01-02T00:00:00.500Z"}}};
    archive::newest_first(items);
    std::vector<std::string> ids;
    for (const auto& i : items) ids.push_back(i["id"]);
    EXPECT_EQ(ids, (std::vector<std::string>{"c", "d", "b", "a"}));
}

class ArchiveTest : public ::testing::Test {
protected:
    void SetUp() override {
        posts = json::array({{{"id", "bp-2"},
                              {"title", "Tomato season"},
                              {"content", "Gardening notes " + std::string(300, 'x')},
                              {"url", "/api/v1/blog/read?id=bp-2"},
                              {"created", "2026-01-02T00:00:00Z"},
                              {"author", "alice"}},
                             {{"id", "bp-1"},
                              {"title", "Hello"},
                              {"content", "First words"},
                              {"url", "/api/v1/blog/read?id=bp-1"},
                              {"created", "2026-01-01T00:00:00Z"},
                              {"author", "bob"}}});
        host.on_call = [this](const std::string& service, const std::string& method,
                              const json& req, const std::string& account) {
            calls.push_back(service + "/" + method + " as " + account);
            auto ok = [](const json& j) { return reply(PLATFORM_OK, j.dump()); };
            if (service == "v1.blog" && method == "feed")
                return ok({{"posts", req.at("offset") == 0 ? posts : json::array()},
                           {"total", posts.size()}});
            if (service == "v1.blog" && method == "read") {
                for (const auto& p : posts)
                    if (p["id"] == req.at("id")) return ok(p);
                return reply(PLATFORM_NOT_FOUND, "id: no post");
            }
            if (service == "v1.social" && method == "list")
                return ok({{"posts", json::array({{{"id", "bp-2"},
                                                   {"title", "Tomato season"},
                                                   {"text", "Tomato season — Gardening"},
                                                   {"url", "/api/v1/blog/read?id=bp-2"},
                                                   {"created", "2026-01-02T00:00:00Z"}}})}});
            if (service == "v1.events" && events) {
                if (account.empty()) return reply(PLATFORM_UNAUTHENTICATED, "needs an account");
                json ev = {{"id", "ev-1"},
                           {"title", "Water the tomatoes"},
                           {"note", "garden"},
                           {"when", "2026-01-05T09:00:00+01:00"},
                           {"next", "2026-01-05T09:00:00+01:00"}};
                if (method == "list")
                    return ok(
                        {{"events", req.at("offset") == 0 ? json::array({ev}) : json::array()},
                         {"total", 1}});
                if (method == "read" && account == "alice" && req.at("id") == "ev-1") return ok(ev);
                return reply(PLATFORM_NOT_FOUND, "id: no event");
            }
            return reply(PLATFORM_NOT_FOUND, "");  // no such service
        };
    }
    json call(const std::string& method, const json& args, const std::string& who = "alice") {
        return ok_json(archive.call(method, args, who), method);
    }

    json posts;
    bool events = true;
    std::vector<std::string> calls;
    FakeHost host;
    FakePlugin archive = host.load(platform_plugin_entry);
};

TEST_F(ArchiveTest, ListWithoutKindCountsEachKind) {
    EXPECT_EQ(
        call("list", {{"limit", 20}}),
        json::parse(
            R"({"kinds":[{"kind":"post","count":2},{"kind":"social","count":1},{"kind":"reminder","count":1}]})"));
    EXPECT_EQ(call("list", {{"limit", 20}}, ""),
              json::parse(R"({"kinds":[{"kind":"post","count":2},{"kind":"social","count":1}]})"));
    events = false;
    EXPECT_EQ(call("list", {{"limit", 20}})["kinds"].size(), 2u);
}

TEST_F(ArchiveTest, ListOfAKindIsMostRecentFirstWithSnippets) {
    const json page = call("list", {{"kind", "post"}, {"limit", 1}});
    ASSERT_EQ(page["items"].size(), 1u);
    const json item = page["items"][0];
    EXPECT_EQ(item["id"], "post:bp-2");
    EXPECT_EQ(item["kind"], "post");
    EXPECT_FALSE(item.contains("text"));
    EXPECT_EQ(item["snippet"].get<std::string>().substr(0, 16), "Gardening notes ");
    EXPECT_TRUE(call("list", {{"kind", "news"}, {"limit", 20}})["items"].empty());
    EXPECT_TRUE(call("list", {{"kind", "reminder"}, {"limit", 20}}, "")["items"].empty());
    EXPECT_EQ(call("list", {{"kind", "reminder"}, {"limit", 20}})["items"][0]["id"],
              "reminder:ev-1");
}

TEST_F(ArchiveTest, SearchAcrossKindsOrByKind) {
    auto ids = [&](const json& args, const std::string& who = "alice") {
        std::vector<std::string> out;
        const json body = call("search", args, who);
        for (const auto& i : body["items"]) out.push_back(i["id"]);
        return out;
    };
    EXPECT_EQ(ids({{"query", "TOMATO"}, {"limit", 20}}),
              (std::vector<std::string>{"reminder:ev-1", "post:bp-2", "social:bp-2"}));
    EXPECT_EQ(ids({{"query", "tomato"}, {"limit", 20}}, ""),
              (std::vector<std::string>{"post:bp-2", "social:bp-2"}));
    EXPECT_EQ(ids({{"query", "tomato garden"}, {"kind", "post"}, {"limit", 20}}),
              std::vector<std::string>{"post:bp-2"});
    EXPECT_EQ(ids({{"query", "tomato"}, {"limit", 1}}).size(), 1u);
    EXPECT_TRUE(ids({{"query", "nothing-like-this"}, {"limit", 20}}).empty());
}

TEST_F(ArchiveTest, GetResolvesEachKind) {
    const json post = call("get", {{"id", "post:bp-1"}});
    EXPECT_EQ(post, json({{"id", "post:bp-1"},
                          {"kind", "post"},
                          {"title", "Hello"},
                          {"url", "/api/v1/blog/read?id=bp-1"},
                          {"text", "First words"},
                          {"date", "2026-01-01T00:00:00Z"},
                          {"author", "bob"}}));
    EXPECT_EQ(call("get", {{"id", "social:bp-2"}})["text"], "Tomato season — Gardening");
    EXPECT_EQ(call("get", {{"id", "reminder:ev-1"}})["title"], "Water the tomatoes");
    EXPECT_EQ(archive.call("get", {{"id", "reminder:ev-1"}}, "bob").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(archive.call("get", {{"id", "reminder:ev-1"}}, "").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(archive.call("get", {{"id", "post:bp-9"}}, "alice").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(archive.call("get", {{"id", "news:1"}}, "alice").code, PLATFORM_NOT_FOUND);
    Reply bad = archive.call("get", {{"id", "no-colon"}}, "alice");
    EXPECT_EQ(bad.code, PLATFORM_NOT_FOUND);
    EXPECT_NE(bad.body.find("id:"), std::string::npos);
    EXPECT_EQ(calls.front(), "v1.blog/read as alice");
}

TEST_F(ArchiveTest, ASourceInErrorIsPassedOn) {
    host.on_call = [](const std::string&, const std::string&, const json&, const std::string&) {
        return reply(PLATFORM_UNAVAILABLE, "down");
    };
    EXPECT_EQ(archive.call("list", {{"kind", "post"}, {"limit", 20}}, "alice").code,
              PLATFORM_UNAVAILABLE);
}

}  // namespace
