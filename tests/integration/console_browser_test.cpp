// The web console (/ui/) in a real browser: headless Chromium (Debian's /usr/bin/chromium) driven
// by playwright-core (tests/e2e/console.mjs; both installed by scripts/e2e-deps.sh, with axe-core)
// against the real host on the `local` profile (auth-local: real accounts and browser sessions)
// with model-openai pointed at the scripted fake model server.
//
// Each test starts a fresh instance (its admin secret generated and printed once, read from the
// host's output as a person reads it from the console), signs in with the console's form and runs
// the flows it asserts on:
//   - signed out, /ui/ is the sign-in page; the first sign-in offers a new secret, used here (the
//     other tests skip it with "Not now"); Sign out ends the session;
//   - Chat: the agent (the scripted model: one notes_add call, then the reply) shows the tool step
//     and then the reply; after a reload the thread opens again from the list;
//   - Tokens: a token made in the page works with curl until revoked in the page, then 401;
//   - Services: notes/add tried in the explorer, and the note shows in Notes;
//   - a cookie POST without X-CSRF-Token (or with a wrong one) is refused 403;
//   - every page (and the agent's thread) at 1280 and 390 px wide: screenshots written to
//     <build>/test-artifacts/console/<page>-<width>.png, no horizontal scroll at 390 px, and no
//     axe-core violation of impact serious or critical;
//   - every console answer the browser got (/ui, /ui/, /ui/console/*) carries the strict CSP, and
//     the browser reported no violation of it.
// Without Chromium or tests/e2e/node_modules (playwright-core, axe-core) the tests are skipped,
// naming scripts/e2e-deps.sh.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <regex>

#include "build_tree.hpp"
#include "e2e_script.hpp"
#include "fake_model_server.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "local_accounts.hpp"
#include "profiles.hpp"

using nlohmann::json;
using namespace platform::test;
using M = FakeModelServer;

namespace {

const std::string kE2e = e2e_dir();
const std::string kChromium = "/usr/bin/chromium";
const std::string kNewSecret = "console-e2e-new-secret";
const std::vector<std::string> kPages = {"chat", "inbox",    "work",   "tasks", "notes",  "events",
                                         "apps", "services", "tokens", "admin", "runtime"};

// What is missing to run the browser, or "".
std::string missing_browser() {
    std::string missing;
    if (access(kChromium.c_str(), X_OK) != 0) missing += kChromium + " ";
    for (const std::string& f :
         {kE2e + "/node_modules/.bin/node", kE2e + "/node_modules/playwright-core/package.json",
          kE2e + "/node_modules/axe-core/axe.min.js"})
        if (access(f.c_str(), F_OK) != 0) missing += f + " ";
    return missing;
}

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// A fresh host on the `local` profile, its admin secret generated and printed, model-openai on
// the fake model server.
class ConsoleBrowser : public ::testing::Test {
protected:
    void SetUp() override {
        const std::string missing = missing_browser();
        if (!missing.empty())
            GTEST_SKIP() << "missing " << missing
                         << "— run scripts/e2e-deps.sh (Debian's chromium and the npm clients of "
                            "tests/e2e: playwright-core, axe-core)";
        HostProcess::Options o =
            model_server_host(model, dir.path() + "/console.yaml", profile_text("local"));
        o.env["PLATFORM_ADMIN_SECRET"] = "";  // generated and printed once, as on a new instance
        host = std::make_unique<HostProcess>(o);
        host->start();
        ASSERT_TRUE(host->wait_for_log("platform admin reset-secret")) << host->log();
        const std::regex boxed("\\|\\s{5}([A-Za-z0-9_-]{24})\\s+\\|");
        std::smatch m;
        const std::string log = host->log();
        ASSERT_TRUE(std::regex_search(log, m, boxed)) << log;
        secret = m[1];
        api = std::make_unique<HttpClient>("127.0.0.1", host->api_port());
    }

    std::string base() const { return "http://127.0.0.1:" + std::to_string(host->api_port()); }

    // Runs tests/e2e/console.mjs with `flows`; answers its output after checking what every run
    // does: the signed-out page, the sign-in, the policy on every console answer.
    json run(const std::vector<std::string>& flows, bool change_secret = false) {
        json config = {{"base", base()},
                       {"secret", secret},
                       {"flows", flows},
                       {"artifacts", build_dir() + "/test-artifacts/console"},
                       {"run", ::testing::UnitTest::GetInstance()->current_test_info()->name()},
                       {"chat",
                        {{"prompt", "Please remember that the boiler code is 4512"},
                         {"tool", "notes_add"},
                         {"reply", "Saved the boiler code in your notes."}}},
                       {"token_name", "console e2e token"},
                       {"note", {{"title", "From the explorer"}, {"text", "tried in the console"}}},
                       {"pages", kPages}};
        if (change_secret) config["new_secret"] = kNewSecret;
        json out = run_e2e_script("console.mjs", config, dir.path(), 240);
        if (out.empty()) return out;

        // Signed out, /ui/ is the sign-in page; GET /ui sends there.
        json so = out["signed_out"];
        EXPECT_FALSE(so.contains("error")) << so.dump(1);
        EXPECT_EQ(so["status"], 200) << so.dump(1);
        EXPECT_TRUE(has(so.value("content_type", ""), "text/html")) << so.dump(1);
        EXPECT_EQ(so["heading"], "Sign in") << so.dump(1);
        EXPECT_EQ(so["account_field"], 1) << so.dump(1);
        EXPECT_EQ(so["secret_field"], 1) << so.dump(1);
        EXPECT_EQ(so["sign_in_button"], 1) << so.dump(1);
        EXPECT_EQ(so["alerts"], json::array()) << "signed out is not an error: " << so.dump(1);
        EXPECT_EQ(out["redirect"]["status"], 308) << out["redirect"].dump(1);
        EXPECT_EQ(out["redirect"]["location"], "/ui/") << out["redirect"].dump(1);
        // The policy is on refusals too: a missing file and a name outside the rule (404), a
        // POST (405).
        json probes = out["redirect"]["probes"];
        EXPECT_EQ(probes.size(), 3u) << out["redirect"].dump(1);
        if (probes.size() == 3) {
            EXPECT_EQ(probes[0]["status"], 404) << probes.dump(1);
            EXPECT_EQ(probes[1]["status"], 404) << probes.dump(1);
            EXPECT_EQ(probes[2]["status"], 405) << probes.dump(1);
        }
        json answers = out["csp"];
        if (probes.is_array())
            for (const json& p : probes) answers.push_back(p);
        answers.push_back(out["redirect"]);

        // Signed in with the printed secret: the first sign-in offered a new one.
        json login = out["login"];
        EXPECT_FALSE(login.contains("error")) << login.dump(1);
        EXPECT_EQ(login["offer_shown"], true) << login.dump(1);
        EXPECT_EQ(login["offer_heading"], "Choose a new secret") << login.dump(1);
        EXPECT_EQ(login["heading"], "Chat") << login.dump(1);
        EXPECT_EQ(login["hash"], "#/chat") << login.dump(1);
        if (!change_secret) {
            // "Not now": the printed secret stays, and so does the offer for the next sign-in.
            EXPECT_EQ(login["skipped"], true) << login.dump(1);
            auto me = api->get("/auth/me", bearer(admin_token(secret)));
            EXPECT_EQ(me.status, 200) << me.body;
            if (me.status == 200) {
                EXPECT_EQ(me.json()["account"]["metadata"]["secret_initial"], true) << me.body;
            }
        }

        // Every console answer carries the policy: scripts from the console's origin only, nothing
        // inline, nothing elsewhere; and the browser reported no violation of it.
        EXPECT_FALSE(out["csp"].empty()) << out.dump(1);
        for (const json& a : answers) {
            const std::string csp = a["csp"].is_string() ? a["csp"].get<std::string>() : "";
            EXPECT_TRUE(has(csp, "default-src 'none'")) << a.dump();
            EXPECT_TRUE(has(csp, "script-src 'self'")) << a.dump();
            EXPECT_TRUE(has(csp, "frame-ancestors 'none'")) << a.dump();
            EXPECT_FALSE(has(csp, "unsafe-inline")) << a.dump();
            EXPECT_FALSE(has(csp, "unsafe-eval")) << a.dump();
            EXPECT_FALSE(has(csp, "*")) << a.dump();
            if (a.contains("nosniff")) {
                EXPECT_EQ(a["nosniff"], "nosniff") << a.dump();
            }
        }
        EXPECT_TRUE(out["csp_violations"].empty()) << out["csp_violations"].dump(1);
        EXPECT_TRUE(out["pageerrors"].empty()) << out["pageerrors"].dump(1);
        return out;
    }

    // An access token of admin's.
    std::string admin_token(const std::string& with) { return access_token(*api, "admin", with); }

    FakeModelServer model;
    TempDir dir;
    std::unique_ptr<HostProcess> host;
    std::unique_ptr<HttpClient> api;
    std::string secret;
};

TEST_F(ConsoleBrowser, TheFirstSignInOffersANewSecretAndSignOutEndsTheSession) {
    json out = run({"signout"}, true);
    json login = out["login"];
    EXPECT_EQ(login["used"], true) << login.dump(1);
    EXPECT_TRUE(has(login.value("offer_text", ""), "printed")) << login.dump(1);
    // The navigation lists every page, Admin among them (admin is an administrator).
    std::vector<std::string> links;
    for (const json& l : login["links"]) links.push_back(l);
    EXPECT_EQ(links, (std::vector<std::string>{"Chat", "Inbox", "Work", "Tasks", "Notes", "Events",
                                               "Apps", "Services", "Tokens", "Runtime", "Admin"}))
        << login.dump(1);

    // The new secret is admin's now; the printed one no longer signs in.
    auto old = api->post_json("/auth/token", {{"id", "admin"}, {"secret", secret}});
    EXPECT_EQ(old.status, 401) << old.body;
    const std::string token = admin_token(kNewSecret);
    ASSERT_FALSE(token.empty());
    auto me = api->get("/auth/me", bearer(token));
    ASSERT_EQ(me.status, 200) << me.body;
    EXPECT_FALSE(me.json()["account"]["metadata"].contains("secret_initial")) << me.body;

    // Sign out: the sign-in page again, and the browser's session is over.
    json so = out["signout"];
    EXPECT_FALSE(so.contains("error")) << so.dump(1);
    EXPECT_EQ(so["heading"], "Sign in") << so.dump(1);
    EXPECT_EQ(so["me"], 401) << so.dump(1);
}

TEST_F(ConsoleBrowser, ChatShowsTheToolStepThenTheReplyAndTheThreadAgainAfterAReload) {
    model.enqueue(M::kOpenAiPath,
                  M::ok(M::openai_tool_call("call_1", "notes_add",
                                            {{"title", "boiler"}, {"text", "the code is 4512"}})));
    model.enqueue(M::kOpenAiPath, M::ok(M::openai_text("Saved the boiler code in your notes.")));
    json out = run({"chat"});
    json chat = out["chat"];
    EXPECT_FALSE(chat.contains("error")) << chat.dump(1) << "\n" << host->log();
    EXPECT_TRUE(has(chat.value("step_text", ""), "notes")) << chat.dump(1);
    // The step showed before the reply (a MutationObserver in the page noted each).
    ASSERT_TRUE(chat["seen"].is_array()) << chat.dump(1);
    ASSERT_EQ(chat["seen"].size(), 2u) << chat.dump(1);
    EXPECT_EQ(chat["seen"][0]["what"], "step") << chat.dump(1);
    EXPECT_EQ(chat["seen"][1]["what"], "reply") << chat.dump(1);
    EXPECT_GE(chat.value("live_regions", 0), 1) << "the streamed reply is in a live region";

    // The model was asked twice (the tool call, then the reply after the tool's result), and the
    // tool ran as admin.
    EXPECT_EQ(model.requests(M::kOpenAiPath).size(), 2u);
    const std::string token = admin_token(secret);
    auto note = api->get("/api/v1/notes/get?title=boiler", bearer(token));
    ASSERT_EQ(note.status, 200) << note.body;
    EXPECT_EQ(note.json()["data"]["text"], "the code is 4512");

    // After a reload, the thread opens again from the conversation list.
    json reopen = out["reopen"];
    EXPECT_FALSE(reopen.contains("error")) << reopen.dump(1);
    EXPECT_EQ(reopen["reply_seen"], true) << reopen.dump(1);
    EXPECT_EQ(reopen["prompt_seen"], true) << reopen.dump(1);
}

TEST_F(ConsoleBrowser, ATokenMadeInTheTokensPageWorksWithCurlUntilRevokedInThePage) {
    json out = run({"token"});
    json t = out["token"];
    EXPECT_FALSE(t.contains("error")) << t.dump(1);
    EXPECT_EQ(t["token_length"], 43) << t.dump(1);
    EXPECT_EQ(t["before"], 200) << t.dump(1);
    EXPECT_EQ(t["after"], 401) << t.dump(1);
    EXPECT_EQ(t["shown_after_reload"], false) << "a token is shown once: " << t.dump(1);
    // Gone from admin's tokens.
    auto list = api->get("/auth/listTokens", bearer(admin_token(secret)));
    ASSERT_EQ(list.status, 200) << list.body;
    EXPECT_FALSE(has(list.body, "console e2e token")) << list.body;
}

TEST_F(ConsoleBrowser, NotesAddTriedInTheExplorerShowsInNotes) {
    json out = run({"explorer"});
    json e = out["explorer"];
    EXPECT_FALSE(e.contains("error")) << e.dump(1);
    EXPECT_EQ(e["snippets"]["curl"], true) << e.dump(1);
    EXPECT_EQ(e["snippets"]["cli"], true) << e.dump(1);
    EXPECT_EQ(e["snippets"]["mcp"], true) << e.dump(1);
    json n = out["notes"];
    EXPECT_FALSE(n.contains("error")) << n.dump(1);
    EXPECT_EQ(n["note_shown"], true) << n.dump(1);
    auto note =
        api->get("/api/v1/notes/get?title=From%20the%20explorer", bearer(admin_token(secret)));
    ASSERT_EQ(note.status, 200) << note.body;
    EXPECT_EQ(note.json()["data"]["text"], "tried in the console");
}

TEST_F(ConsoleBrowser, ACookiePostWithoutTheCsrfHeaderIsRefused) {
    json out = run({"csrf"});
    json c = out["csrf"];
    EXPECT_FALSE(c.contains("error")) << c.dump(1);
    EXPECT_GE(c.value("csrf_cookie", 0), 16) << c.dump(1);
    EXPECT_EQ(c["without"]["status"], 403) << c.dump(1);
    EXPECT_EQ(c["wrong"]["status"], 403) << c.dump(1);
    EXPECT_EQ(c["with"]["status"], 200) << c.dump(1);
    // Only the POST with the header wrote.
    const std::string token = admin_token(secret);
    EXPECT_EQ(api->get("/api/v1/notes/get?title=csrf%20probe%20without", bearer(token)).status,
              404);
    EXPECT_EQ(api->get("/api/v1/notes/get?title=csrf%20probe%20wrong", bearer(token)).status, 404);
    EXPECT_EQ(api->get("/api/v1/notes/get?title=csrf%20probe%20with", bearer(token)).status, 200);
}

TEST_F(ConsoleBrowser, EveryPageAtDesktopAndPhoneWidthsHasNoSeriousAxeViolationNorSideScroll) {
    // A conversation with the agent first, so that Chat, Inbox and Notes show one.
    model.enqueue(M::kOpenAiPath,
                  M::ok(M::openai_tool_call("call_1", "notes_add",
                                            {{"title", "boiler"}, {"text", "the code is 4512"}})));
    model.enqueue(M::kOpenAiPath, M::ok(M::openai_text("Saved the boiler code in your notes.")));
    json out = run({"chat", "pages"});
    ASSERT_TRUE(out["pages"].is_object()) << out.dump(1);
    EXPECT_FALSE(out["chat"].contains("error")) << out["chat"].dump(1);
    // At 390 px the navigation is behind "Menu", which opens it.
    json nav = out["phone_nav"];
    EXPECT_FALSE(nav.contains("error")) << nav.dump(1);
    EXPECT_EQ(nav["notes_visible_before"], false) << nav.dump(1);
    EXPECT_EQ(nav["expanded"], "true") << nav.dump(1);
    EXPECT_EQ(nav["hash"], "#/notes") << nav.dump(1);
    std::vector<std::string> pages = kPages;
    pages.push_back("chat-thread");  // the agent's thread the chat flow left open
    for (const std::string& id : pages) {
        SCOPED_TRACE("#/" + id);
        json p = out["pages"][id];
        if (!p.is_object()) {
            ADD_FAILURE() << "not checked: " << out["pages"].dump(1);
            continue;
        }
        EXPECT_FALSE(p.contains("error")) << p.dump(1);
        EXPECT_TRUE(p["alerts"].empty()) << "the page showed an error: " << p.dump(1);
        for (const char* width : {"desktop", "phone"}) {
            const std::string png = p.value(width, "");
            EXPECT_EQ(access(png.c_str(), F_OK), 0) << width << " screenshot: " << p.dump(1);
            if (!png.empty()) std::cout << "[ screenshot ] " << png << "\n";
        }
        // Every violation axe found, of any impact, in the test's output; the serious and
        // critical ones fail it.
        std::cout << "[ axe ] #/" << id << ": " << p.value("axe_rules", 0) << " rules applied";
        for (const json& v : p["axe_violations"])
            std::cout << ", " << v.value("impact", "") << " " << v.value("id", "");
        std::cout << "\n";
        EXPECT_TRUE(p["axe_serious"].is_array() && p["axe_serious"].empty())
            << "axe-core, serious or critical: " << p["axe_serious"].dump(1);
        EXPECT_EQ(p["inner_width"], 390) << p.dump(1);
        EXPECT_LE(p.value("scroll_width", 100000), 390) << "horizontal scroll at 390 px";
    }
}

}  // namespace
