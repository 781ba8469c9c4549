// The apps plugin (plugins/apps) through the fake host: slugs, defaults and limits of create,
// edit keeping what is omitted, who sees what, search and collection, fork, embed and test.
#include <gtest/gtest.h>

#include "../support/plugin_under_test.hpp"

namespace {

using namespace plugin_test;

const std::string kHtml = "<!doctype html><title>t</title><p>Hello</p>";
const std::string kIcon =
    R"(<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><circle cx="4" cy="4" r="3"/></svg>)";

class AppsTest : public ::testing::Test {
protected:
    json ok(const std::string& method, const json& args, const std::string& who = "alice") {
        return ok_json(plugin.call(method, args, who), method);
    }
    platform_status_t code(const std::string& method, const json& args,
                           const std::string& who = "alice") {
        return plugin.call(method, args, who).code;
    }
    std::string body(const std::string& method, const json& args,
                     const std::string& who = "alice") {
        return plugin.call(method, args, who).body;
    }

    FakeHost host;
    FakePlugin plugin = host.load(platform_plugin_entry);
};

TEST_F(AppsTest, CreateDerivesTheSlugAndDefaults) {
    json a = ok("create", {{"name", "My Tip Calculator!"}, {"html", kHtml}});
    EXPECT_EQ(a["slug"], "my-tip-calculator");
    EXPECT_EQ(a["description"], "My Tip Calculator!");
    EXPECT_EQ(a["public"], false);
    EXPECT_EQ(a["price"], 0);
    EXPECT_EQ(a["tags"], "");
    EXPECT_EQ(a["html"], kHtml);
    EXPECT_EQ(a["owner"], "alice");
    EXPECT_TRUE(a["source"].is_null());

    json b = ok("create", {{"name", "x"},
                           {"slug", "tools"},
                           {"html", kHtml},
                           {"tags", " maths, , Money ,maths,money "},
                           {"icon", kIcon},
                           {"price", 1000},
                           {"public", true}});
    EXPECT_EQ(b["slug"], "tools");
    EXPECT_EQ(b["tags"], "maths, Money");
    EXPECT_EQ(b["public"], true);
    EXPECT_EQ(ok("create", {{"name", "!!!"}, {"html", kHtml}})["slug"], "app");
    EXPECT_EQ(ok("create", {{"name", "y"}, {"html", kHtml}, {"private", false}})["public"], true);
}

TEST_F(AppsTest, ATakenSlugGetsAUniqueOne) {
    const std::string first = ok("create", {{"name", "Timer"}, {"html", kHtml}})["slug"];
    const std::string second = ok("create", {{"name", "Timer"}, {"html", kHtml}}, "bob")["slug"];
    const std::string third =
        ok("create", {{"name", "other"}, {"slug", "timer"}, {"html", kHtml}})["slug"];
    EXPECT_EQ(first, "timer");
    EXPECT_NE(second, first);
    EXPECT_NE(third, first);
    EXPECT_NE(third, second);
    EXPECT_EQ(second.rfind("timer-", 0), 0u) << second;
    EXPECT_EQ(second.size(), std::string("timer-").size() + 6);
    EXPECT_EQ(ok("read", {{"slug", second}}, "bob")["owner"], "bob");
}

TEST_F(AppsTest, LimitsAreNamed) {
    EXPECT_EQ(code("create", {{"name", "x"}, {"html", std::string(256 * 1024 + 1, 'a')}}),
              PLATFORM_INVALID_ARGUMENT);
    EXPECT_NE(
        body("create", {{"name", "x"}, {"html", std::string(256 * 1024 + 1, 'a')}}).find("html"),
        std::string::npos);
    EXPECT_EQ(code("create", {{"name", "x"}, {"html", std::string(256 * 1024, 'a')}}), PLATFORM_OK);
    EXPECT_NE(body("create", {{"name", "x"}, {"html", "h"}, {"price", 1001}}).find("price"),
              std::string::npos);
    EXPECT_EQ(code("create", {{"name", "x"}, {"html", "h"}, {"price", -1}}),
              PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(code("create", {{"name", "x"}, {"html", "h"}, {"slug", "Bad Slug"}}),
              PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(code("create", {{"html", "h"}}), PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(code("create", {{"name", "x"}}), PLATFORM_INVALID_ARGUMENT);
    for (const char* icon :
         {"<svg><script>alert(1)</script></svg>", "<svg onload=\"x()\"></svg>", "<div></div>",
          "<svg><image href=\"https://example.com/a.png\"/></svg>", "<svg>"}) {
        auto r = plugin.call("create", {{"name", "x"}, {"html", "h"}, {"icon", icon}}, "alice");
        EXPECT_EQ(r.code, PLATFORM_INVALID_ARGUMENT) << icon;
        EXPECT_EQ(r.body.rfind("icon: ", 0), 0u) << r.body;
    }
    auto both = plugin.call(
        "create", {{"name", "x"}, {"html", "h"}, {"public", true}, {"private", true}}, "alice");
    EXPECT_EQ(both.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_NE(both.body.find("public, private"), std::string::npos) << both.body;
    auto tags = plugin.call(
        "create", {{"name", "x"}, {"html", "h"}, {"tags", std::string(51, 't')}}, "alice");
    EXPECT_EQ(tags.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(tags.body.rfind("tags: ", 0), 0u) << tags.body;
}

TEST_F(AppsTest, EditKeepsWhatIsOmitted) {
    json a = ok("create", {{"name", "Notes board"}, {"html", kHtml}, {"tags", "a"}, {"price", 5}});
    host.now_ms += 60000;
    json e = ok("edit", {{"slug", a["slug"]}, {"name", "Board"}});
    EXPECT_EQ(e["name"], "Board");
    EXPECT_EQ(e["description"], "Notes board");
    EXPECT_EQ(e["html"], kHtml);
    EXPECT_EQ(e["tags"], "a");
    EXPECT_EQ(e["price"], 5);
    EXPECT_EQ(e["created"], a["created"]);
    EXPECT_NE(e["updated"], a["updated"]);
    e = ok("edit",
           {{"slug", a["slug"]}, {"html", "<p>2</p>"}, {"description", ""}, {"public", true}});
    EXPECT_EQ(e["html"], "<p>2</p>");
    EXPECT_EQ(e["description"], "Board");
    EXPECT_EQ(e["public"], true);
    EXPECT_EQ(code("edit", {{"slug", a["slug"]}, {"name", "mine"}}, "bob"), PLATFORM_NOT_FOUND);
    EXPECT_EQ(code("edit", {{"slug", "nothing-here"}}), PLATFORM_NOT_FOUND);
    EXPECT_EQ(code("edit", {{"slug", a["slug"]}, {"price", 1001}}), PLATFORM_INVALID_ARGUMENT);
}

TEST_F(AppsTest, OthersSeePublicMetadataOnly) {
    json priv = ok("create", {{"name", "Secret"}, {"html", kHtml}});
    json pub = ok("create", {{"name", "Shared"}, {"html", kHtml}, {"public", true}});
    EXPECT_EQ(ok("read", {{"slug", priv["slug"]}})["html"], kHtml);
    EXPECT_EQ(code("read", {{"slug", priv["slug"]}}, "bob"), PLATFORM_NOT_FOUND);
    EXPECT_EQ(code("read", {{"slug", priv["slug"]}}, ""), PLATFORM_NOT_FOUND);
    json seen = ok("read", {{"slug", pub["slug"]}}, "bob");
    EXPECT_FALSE(seen.contains("html"));
    EXPECT_EQ(seen["name"], "Shared");
    EXPECT_EQ(ok("read", {{"slug", pub["slug"]}}, "")["name"], "Shared");
    EXPECT_EQ(code("read", {{"slug", "never-made"}}, "bob"), PLATFORM_NOT_FOUND);
}

TEST_F(AppsTest, SearchAndCollectionAreTheCallersOwn) {
    ok("create", {{"name", "Tip calculator"}, {"html", kHtml}, {"tags", "Money, maths"}});
    host.now_ms += 1000;
    ok("create", {{"name", "Pomodoro timer"}, {"html", kHtml}, {"tags", "time"}, {"public", true}});
    ok("create", {{"name", "Tip jar"}, {"html", kHtml}, {"tags", "money"}, {"public", true}},
       "bob");
    EXPECT_EQ(listed(plugin.call("search", {{"query", "TIP"}}, "alice"), "apps", "slug"),
              std::vector<std::string>{"tip-calculator"});
    EXPECT_EQ(listed(plugin.call("search", {{"tag", "money"}}, "alice"), "apps", "slug"),
              std::vector<std::string>{"tip-calculator"});
    EXPECT_EQ(listed(plugin.call("search", json::object(), "alice"), "apps", "slug"),
              (std::vector<std::string>{"pomodoro-timer", "tip-calculator"}));
    EXPECT_TRUE(
        listed(plugin.call("search", {{"query", "tip"}, {"tag", "time"}}, "alice"), "apps", "slug")
            .empty());
    json found = ok("search", {{"query", "pomodoro"}});
    EXPECT_FALSE(found["apps"][0].contains("html"));

    ok("fork", {{"slug", "tip-jar"}});
    json c = ok("collection", json::object());
    ASSERT_EQ(c["apps"].size(), 3u);
    EXPECT_EQ(c["sources"], json::array({{{"kind", "fork"}, {"slug", "tip-jar"}}}));
    EXPECT_FALSE(c["apps"][0].contains("html"));
}

TEST_F(AppsTest, ForkCopiesIntoTheCallersAccount) {
    json pub =
        ok("create", {{"name", "Counter"}, {"html", kHtml}, {"public", true}, {"tags", "x"}});
    json priced = ok("create", {{"name", "Paid"}, {"html", kHtml}, {"public", true}, {"price", 3}});
    json priv = ok("create", {{"name", "Mine"}, {"html", kHtml}});
    json f = ok("fork", {{"slug", "counter"}}, "bob");
    EXPECT_NE(f["slug"], "counter");
    EXPECT_EQ(f["owner"], "bob");
    EXPECT_EQ(f["html"], kHtml);
    EXPECT_EQ(f["tags"], "x");
    EXPECT_EQ(f["public"], false);
    EXPECT_EQ(f["source"], (json{{"kind", "fork"}, {"slug", "counter"}}));
    EXPECT_EQ(ok("read", {{"slug", f["slug"]}}, "bob")["html"], kHtml);
    EXPECT_EQ(ok("fork", {{"slug", "counter"}, {"new_slug", "bobs-counter"}}, "bob")["slug"],
              "bobs-counter");
    EXPECT_EQ(code("fork", {{"slug", priv["slug"]}}, "bob"), PLATFORM_NOT_FOUND);
    EXPECT_EQ(code("fork", {{"slug", priced["slug"]}}, "bob"), PLATFORM_PERMISSION_DENIED);
    EXPECT_EQ(ok("fork", {{"slug", priced["slug"]}})["price"], 0);
    // The original is unchanged.
    EXPECT_EQ(ok("read", {{"slug", "counter"}})["owner"], "alice");
}

TEST_F(AppsTest, EmbedKeepsPermissionsAndPublishesNothing) {
    json priv = ok("create", {{"name", "Mine"}, {"html", kHtml}});
    json e = ok("embed", {{"slug", priv["slug"]}});
    EXPECT_EQ(e["published"], false);
    EXPECT_EQ(e["embed"]["visible_to"], "owner");
    EXPECT_EQ(e["embed"]["html"], kHtml);
    EXPECT_EQ(e["embed"]["sandbox"], "allow-scripts");
    EXPECT_EQ(ok("read", {{"slug", priv["slug"]}})["public"], false);
    EXPECT_EQ(code("embed", {{"slug", priv["slug"]}}, "bob"), PLATFORM_NOT_FOUND);
    ok("edit", {{"slug", priv["slug"]}, {"public", true}});
    json other = ok("embed", {{"slug", priv["slug"]}}, "bob");
    EXPECT_EQ(other["embed"]["visible_to"], "anyone");
    EXPECT_FALSE(other["embed"].contains("html"));
    EXPECT_FALSE(other["app"].contains("html"));
}

TEST_F(AppsTest, TestListsProblemsWithTheirRules) {
    host.tools = json::array(
        {{{"name", "notes_list"}, {"service", "go.core.api.v1.notes"}, {"method", "list"}}});
    json good =
        ok("create", {{"name", "Good"},
                      {"html", "<p>x</p><script>platform.call('notes', 'list', {})</script>"}});
    json t = ok("test", {{"slug", good["slug"]}});
    EXPECT_EQ(t["ok"], true) << t;
    EXPECT_EQ(t["problems"], json::array());
    EXPECT_EQ(t["calls_checked"], true);

    json bad = ok("create", {{"name", "Bad"},
                             {"html",
                              "<div>\n<script>fetch('https://example.com');\n"
                              "platform.call('mail', 'send', {})</script>"}});
    t = ok("test", {{"slug", bad["slug"]}});
    EXPECT_EQ(t["ok"], false);
    ASSERT_EQ(t["problems"].size(), 3u) << t;
    EXPECT_EQ(t["problems"][0]["rule"], "well-formed");
    EXPECT_EQ(t["problems"][0]["line"], 1);
    EXPECT_EQ(t["problems"][1]["rule"], "external");
    EXPECT_EQ(t["problems"][1]["line"], 2);
    EXPECT_EQ(t["problems"][2]["rule"], "sdk");
    EXPECT_EQ(t["problems"][2]["line"], 3);
    EXPECT_EQ(code("test", {{"slug", bad["slug"]}}, "bob"), PLATFORM_NOT_FOUND);
}

TEST_F(AppsTest, PagesCarryTheirSandbox) {
    json a = ok("create", {{"name", "P"}, {"html", "<!DOCTYPE html><p>x</p>"}});
    EXPECT_EQ(a["url"], "/ui/apps/p");
    auto page = plugin.call("page", {{"slug", "p"}}, "alice");
    ASSERT_EQ(page.code, PLATFORM_OK) << page.body;
    EXPECT_EQ(page.content_type, "text/html; charset=utf-8");
    EXPECT_NE(page.body.find("sandbox=\"allow-scripts\" src=\"/ui/apps/p/frame\""),
              std::string::npos);
    EXPECT_EQ(page.headers["Content-Security-Policy"].rfind("default-src 'none'; ", 0), 0u);
    EXPECT_EQ(page.headers["X-Frame-Options"], "SAMEORIGIN");
    auto frame = plugin.call("frame", {{"slug", "p"}}, "alice");
    ASSERT_EQ(frame.code, PLATFORM_OK) << frame.body;
    EXPECT_EQ(frame.body.rfind("<!DOCTYPE html><script>", 0), 0u) << frame.body;
    EXPECT_NE(frame.body.find("</script>\n<p>x</p>"), std::string::npos);
    EXPECT_EQ(frame.headers["Content-Security-Policy"].rfind("sandbox allow-scripts; ", 0), 0u);
    EXPECT_EQ(plugin.call("page", {{"slug", "p"}}, "bob").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(plugin.call("frame", {{"slug", "p"}}, "").code, PLATFORM_NOT_FOUND);
    // Without a doctype the helper goes first.
    ok("edit", {{"slug", "p"}, {"html", "<p>y</p>"}});
    EXPECT_EQ(plugin.call("frame", {{"slug", "p"}}, "alice").body.rfind("<script>", 0), 0u);
}

}  // namespace
