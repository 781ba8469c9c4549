// The forms plugin (plugins/forms) through the fake host: owner methods, submissions to public,
// private and closed forms, validation against the fields, and the HTML page.
#include <gtest/gtest.h>

#include "../support/plugin_under_test.hpp"

namespace {

using namespace plugin_test;

class FormsTest : public ::testing::Test {
protected:
    json ok(const std::string& method, const json& args, const std::string& who = "alice") {
        return ok_json(plugin.call(method, args, who), method);
    }
    json survey(bool is_public = true, bool closed = false) {
        return ok("write", {{"title", "Survey <1>"},
                            {"fields",
                             {{{"name", "name"}, {"label", "Your name"}, {"required", true}},
                              {{"name", "email"}, {"label", "Email"}, {"type", "email"}},
                              {{"name", "comments"}, {"label", "Comments"}, {"type", "textarea"}}}},
                            {"public", is_public},
                            {"closed", closed}});
    }

    FakeHost host;
    FakePlugin plugin = host.load(platform_plugin_entry);
};

TEST_F(FormsTest, WriteReadReplaceList) {
    json f = survey(false);
    EXPECT_EQ(f["public"], false);
    EXPECT_EQ(f["url"], "/ui/forms/" + f["id"].get<std::string>());
    EXPECT_EQ(
        f["fields"][0],
        (json{{"name", "name"}, {"label", "Your name"}, {"type", "text"}, {"required", true}}));
    EXPECT_EQ(ok("read", {{"id", f["id"]}}), f);
    EXPECT_EQ(plugin.call("read", {{"id", f["id"]}}, "bob").code, PLATFORM_NOT_FOUND);
    host.now_ms += 1000;
    json g =
        ok("write",
           {{"id", f["id"]}, {"title", "Survey 2"}, {"fields", {{{"name", "x"}, {"label", "X"}}}}});
    EXPECT_EQ(g["id"], f["id"]);
    EXPECT_EQ(g["created"], f["created"]);
    EXPECT_EQ(
        plugin
            .call("write",
                  {{"id", f["id"]}, {"title", "t"}, {"fields", {{{"name", "x"}, {"label", "X"}}}}},
                  "bob")
            .code,
        PLATFORM_NOT_FOUND);
    EXPECT_EQ(
        plugin
            .call("write",
                  {{"title", "t"},
                   {"fields", {{{"name", "x"}, {"label", "X"}}, {{"name", "x"}, {"label", "Y"}}}}},
                  "alice")
            .code,
        PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(plugin
                  .call("write", {{"title", "t"}, {"fields", {{{"name", "id"}, {"label", "X"}}}}},
                        "alice")
                  .code,
              PLATFORM_INVALID_ARGUMENT);
    host.now_ms += 1000;
    json h = survey();
    json l = ok("list", {{"offset", 0}});
    ASSERT_EQ(l["forms"].size(), 2u);
    EXPECT_EQ(l["forms"][0]["id"], h["id"]);  // newest first
    EXPECT_EQ(ok("list", {{"offset", 1}})["forms"][0]["id"], f["id"]);
    EXPECT_TRUE(ok("list", {{"offset", 0}}, "bob")["forms"].empty());
}

TEST_F(FormsTest, AnonymousSubmissionsAreValidatedAndPrivate) {
    json f = survey();
    const std::string id = f["id"];
    Reply r = plugin.call(
        "submit",
        {{"id", id}, {"name", "Zoë"}, {"email", "zoe@example.org"}, {"comments", "line1\nline2"}});
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    const std::string rid = r.json()["response_id"];
    host.now_ms += 1000;
    ASSERT_EQ(plugin.call("submit", {{"id", id}, {"name", 42}}).code,
              PLATFORM_OK);  // typed by a query parser

    json rs = ok("responses", {{"id", id}, {"offset", 0}});
    EXPECT_EQ(rs["untrusted"], true);
    ASSERT_EQ(rs["responses"].size(), 2u);
    EXPECT_EQ(rs["responses"][0]["values"],
              (json{{"name", "42"}}));  // newest first; empty optional left out
    EXPECT_EQ(rs["responses"][1]["values"]["comments"], "line1\nline2");
    EXPECT_EQ(rs["responses"][1]["response_id"], rid);
    EXPECT_EQ(plugin.call("responses", {{"id", id}, {"offset", 0}}, "bob").code,
              PLATFORM_NOT_FOUND);

    auto refused = [&](const json& args) { return plugin.call("submit", args).code; };
    EXPECT_EQ(refused({{"id", id}, {"email", "a@b.c"}}),
              PLATFORM_INVALID_ARGUMENT);                                         // name required
    EXPECT_EQ(refused({{"id", id}, {"name", "  "}}), PLATFORM_INVALID_ARGUMENT);  // blank
    EXPECT_EQ(refused({{"id", id}, {"name", "x"}, {"email", "not-an-email"}}),
              PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(refused({{"id", id}, {"name", "x"}, {"other", "y"}}),
              PLATFORM_INVALID_ARGUMENT);  // unknown field
    EXPECT_EQ(refused({{"id", id}, {"name", "two\nlines"}}), PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(refused({{"id", id}, {"name", std::string(1001, 'a')}}), PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(refused({{"id", id}, {"name", json::array({"a"})}}), PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(refused({{"id", "fm-nope"}, {"name", "x"}}), PLATFORM_NOT_FOUND);
    EXPECT_EQ(ok("responses", {{"id", id}, {"offset", 0}})["responses"].size(), 2u);

    EXPECT_EQ(plugin.call("delete", {{"id", id}, {"response_id", rid}}, "bob").code,
              PLATFORM_NOT_FOUND);
    ok("delete", {{"id", id}, {"response_id", rid}});
    EXPECT_EQ(ok("responses", {{"id", id}, {"offset", 0}})["responses"].size(), 1u);
    ok("delete", {{"id", id}});
    EXPECT_EQ(plugin.call("read", {{"id", id}}, "alice").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(refused({{"id", id}, {"name", "x"}}), PLATFORM_NOT_FOUND);
}

TEST_F(FormsTest, PrivateAndClosedFormsRefuseVisitors) {
    json priv = survey(false), closed = survey(true, true);
    EXPECT_EQ(plugin.call("submit", {{"id", priv["id"]}, {"name", "x"}}).code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(plugin.call("submit", {{"id", priv["id"]}, {"name", "x"}}, "bob").code,
              PLATFORM_NOT_FOUND);
    EXPECT_EQ(plugin.call("submit", {{"id", priv["id"]}, {"name", "x"}}, "alice").code,
              PLATFORM_OK);  // its owner
    EXPECT_EQ(plugin.call("submit", {{"id", closed["id"]}, {"name", "x"}}).code,
              PLATFORM_PERMISSION_DENIED);
    EXPECT_EQ(plugin.call("page", {{"id", priv["id"]}}).code, PLATFORM_NOT_FOUND);
    Reply page = plugin.call("page", {{"id", closed["id"]}});
    ASSERT_EQ(page.code, PLATFORM_OK);
    EXPECT_NE(page.body.find("This form is closed"), std::string::npos);
    EXPECT_EQ(page.body.find("<form"), std::string::npos);
}

TEST_F(FormsTest, PageShowsTheFieldsEscaped) {
    json f = survey();
    Reply page = plugin.call("page", {{"id", f["id"]}});
    ASSERT_EQ(page.code, PLATFORM_OK) << page.body;
    EXPECT_EQ(page.content_type, "text/html; charset=utf-8");
    EXPECT_NE(page.body.find("<title>Survey &lt;1&gt;</title>"), std::string::npos);
    EXPECT_EQ(page.body.find("Survey <1>"), std::string::npos);
    EXPECT_NE(page.body.find("name=\"email\" type=\"email\""), std::string::npos);
    EXPECT_NE(page.body.find("<textarea id=\"f-comments\""), std::string::npos);
    EXPECT_NE(page.body.find("action=\"/ui/forms/" + f["id"].get<std::string>() + "\""),
              std::string::npos);
    Reply thanks = plugin.call("submit", {{"id", f["id"]}, {"name", "x"}}, "",
                               {{"content-type", "application/x-www-form-urlencoded"}});
    ASSERT_EQ(thanks.code, PLATFORM_OK);
    EXPECT_EQ(thanks.content_type, "text/html; charset=utf-8");
    EXPECT_NE(thanks.body.find("Thank you"), std::string::npos);
}

}  // namespace
