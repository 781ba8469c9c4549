// The apps pages in a real browser: headless Chromium (Debian's /usr/bin/chromium) driven by
// playwright-core (tests/e2e/apps_sandbox.mjs; both installed by scripts/e2e-deps.sh) against the
// real host on the `local` profile (auth-local: real accounts and browser sessions).
//
// Each test signs a viewer in through the browser (POST /auth/login from a page of the host, so
// the browser holds the HttpOnly session cookie and the CSRF cookie), creates one app of
// tests/e2e/apps/ as that viewer and opens it at /ui/apps/<slug>:
//   - notes.html uses the app SDK (platform.call and the fetch replacement): it lists the note the
//     test added for the viewer and adds one of its own, through the bridge (apps/relay with the
//     page's view token), as the viewer;
//   - exfiltrate.html tries every way out to https://example.com: all fail, the frame's CSP
//     reports each request it blocked, and none reaches the browser's network (a route of the
//     script would have answered it);
//   - cookies.html reads its own and the console's cookies and storage: each read throws
//     SecurityError, and neither the session's nor the CSRF token nor the view token appears
//     anywhere in what the app saw.
// Without Chromium or tests/e2e/node_modules the tests fail, naming scripts/e2e-deps.sh.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include "build_tree.hpp"
#include "e2e_script.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "local_accounts.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

const std::string kE2e = e2e_dir();
const std::string kChromium = "/usr/bin/chromium";
const std::string kAdminSecret = "admin-secret-for-apps-browser";
const std::string kViewer = "viewer", kViewerSecret = "viewer-secret-1";

std::string read_file(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// What is missing to run the browser, or "".
std::string missing_browser() {
    std::string missing;
    if (access(kChromium.c_str(), X_OK) != 0) missing += kChromium + " ";
    for (const std::string& f :
         {kE2e + "/node_modules/.bin/node", kE2e + "/node_modules/playwright-core/package.json"})
        if (access(f.c_str(), F_OK) != 0) missing += f + " ";
    return missing;
}

// A host on the `local` profile with the viewer's account, a note of the viewer's, and the app
// tests/e2e/apps/<file> created by the viewer.
class AppsBrowser : public ::testing::Test {
protected:
    AppsBrowser() : host(local_options(kAdminSecret)) {}

    void SetUp() override {
        const std::string missing = missing_browser();
        ASSERT_TRUE(missing.empty()) << "missing " << missing
                                     << "— run scripts/e2e-deps.sh (Debian's chromium and the "
                                        "npm clients of tests/e2e, playwright-core among them)";
        host.start();
        api = std::make_unique<HttpClient>("127.0.0.1", host.api_port());
        const std::string admin = access_token(*api, "admin", kAdminSecret);
        auto made = api->post_json("/auth/createAccount",
                                   {{"id", kViewer}, {"secret", kViewerSecret}}, bearer(admin));
        ASSERT_EQ(made.status, 200) << made.body;
        token = access_token(*api, kViewer, kViewerSecret);
        ASSERT_FALSE(token.empty());
        auto note = api->post_json("/api/v1/notes/add",
                                   {{"title", "added by the test"}, {"text", "before the app ran"}},
                                   bearer(token));
        ASSERT_EQ(note.status, 200) << note.body;
    }

    // Creates tests/e2e/apps/<file> as the viewer (private); answers its slug.
    std::string create_app(const std::string& name, const std::string& file) {
        const std::string html = read_file(kE2e + "/apps/" + file);
        EXPECT_FALSE(html.empty()) << file;
        auto r =
            api->post_json("/api/v1/apps/create", {{"name", name}, {"html", html}}, bearer(token));
        EXPECT_EQ(r.status, 200) << r.body;
        return r.status == 200 ? r.json()["data"].value("slug", "") : "";
    }

    // Runs tests/e2e/apps_sandbox.mjs on the app `slug` (named `name` in its output); answers the
    // whole output, after checking the sign-in every test relies on.
    json open_app(const std::string& name, const std::string& slug, const json& waits = {}) {
        json config = {{"base", "http://127.0.0.1:" + std::to_string(host.api_port())},
                       {"id", kViewer},
                       {"secret", kViewerSecret},
                       {"apps", {{name, slug}}}};
        if (!waits.is_null()) config["waits"] = waits;
        json out = run_e2e_script("apps_sandbox.mjs", config, home.path(), 150);
        if (out.empty()) return out;
        EXPECT_EQ(out["login"]["status"], 200) << out.dump(1);
        // The browser holds both cookies; the page's script sees the CSRF one only (the session
        // cookie is HttpOnly) — what an app would be after, were it in the console's origin.
        session = out["cookies"].value("session", "");
        csrf = out["cookies"].value("csrf", "");
        EXPECT_GE(session.size(), 16u) << out.dump(1);
        EXPECT_GE(csrf.size(), 16u) << out.dump(1);
        const std::string seen = out.value("wrapper_cookie", "");
        EXPECT_NE(seen.find("platform_csrf=" + csrf), std::string::npos) << seen;
        EXPECT_EQ(seen.find(session), std::string::npos) << seen;
        const json& app = out["apps"][name];
        EXPECT_FALSE(app.contains("error")) << out.dump(1);
        EXPECT_EQ(app["status"], 200) << out.dump(1);
        EXPECT_EQ(app.value("frame_url", ""),
                  config["base"].get<std::string>() + "/ui/apps/" + slug + "/frame")
            << out.dump(1);
        // Nothing left for anywhere but the host: a request for elsewhere was started only to be
        // refused by the page's policy (Chromium lists those as failed "csp"), and the route that
        // would have answered example.com was never reached.
        for (const json& r : out["requests"]) {
            EXPECT_EQ(r.value("failure", ""), "csp") << out.dump(1);
            EXPECT_FALSE(r.contains("status")) << out.dump(1);
        }
        EXPECT_EQ(out["example_hits"], json::array()) << out.dump(1);
        return out;
    }

    // Neither the session's nor the CSRF token, nor the page's view token, appears in what the
    // app `name` saw.
    void expect_no_secrets(const json& out, const std::string& name) {
        const std::string text = out["apps"][name]["result"].dump() + out["console"].dump();
        const std::string view = out["apps"][name].value("view", "");
        ASSERT_FALSE(session.empty());
        ASSERT_GE(view.size(), 16u) << out.dump(1);
        EXPECT_EQ(text.find(session), std::string::npos) << text;
        EXPECT_EQ(text.find(csrf), std::string::npos) << text;
        EXPECT_EQ(text.find(view), std::string::npos) << text;
    }

    static std::vector<std::string> titles(const json& list) {
        std::vector<std::string> out;
        if (list.is_object() && list["notes"].is_array())
            for (const json& n : list["notes"]) out.push_back(n.value("title", ""));
        return out;
    }

    TempDir home;
    HostProcess host;
    std::unique_ptr<HttpClient> api;
    std::string token, session, csrf;
};

TEST_F(AppsBrowser, AnAppListsAndAddsNotesThroughTheBridgeAsItsViewer) {
    const std::string slug = create_app("Notes through the bridge", "notes.html");
    ASSERT_FALSE(slug.empty());
    json out = open_app("notes", slug);
    const json& r = out["apps"]["notes"]["result"];
    ASSERT_TRUE(r.is_object()) << out.dump(1);
    EXPECT_EQ(r["origin"], "null") << "the app's document must have an opaque origin";

    // notes/add: a write, relayed as the viewer through the page's view token.
    EXPECT_EQ(r["add"].value("title", ""), "written by the app") << r.dump(1);
    // notes/list through platform.call and through fetch('/api/v1/notes/list'): the viewer's
    // notes, the test's among them.
    const std::vector<std::string> both = {"added by the test", "written by the app"};
    EXPECT_EQ(titles(r["call"]), both) << r.dump(1);
    EXPECT_EQ(r["fetch"]["status"], 200) << r.dump(1);
    EXPECT_EQ(titles(r["fetch"]["body"]["data"]), both) << r.dump(1);
    for (const json& n : r["call"]["notes"]) {
        if (n["title"] == "added by the test") {
            EXPECT_EQ(n["text"], "before the app ran");
        }
    }
    // A refused call: an Error with the status and code through platform.call, the /api/v1 error
    // answer through fetch.
    EXPECT_EQ(r["missing"]["status"], 404) << r.dump(1);
    EXPECT_FALSE(r["missing"].value("code", "").empty()) << r.dump(1);
    EXPECT_EQ(r["missing_fetch"]["status"], 404) << r.dump(1);
    EXPECT_TRUE(r["missing_fetch"]["body"]["error"].is_object()) << r.dump(1);
    // A method the viewer's apps may not call (the relay itself): 403.
    EXPECT_EQ(r["relay"]["status"], 403) << r.dump(1);

    // The app's note is the viewer's, as the host sees it.
    auto got = api->get("/api/v1/notes/get?title=written%20by%20the%20app", bearer(token));
    ASSERT_EQ(got.status, 200) << got.body;
    EXPECT_EQ(got.json()["data"]["text"], "through the bridge");
    expect_no_secrets(out, "notes");
}

TEST_F(AppsBrowser, AnAppCannotReachAnotherSiteByAnyMeans) {
    const std::string slug = create_app("Sends data out", "exfiltrate.html");
    ASSERT_FALSE(slug.empty());
    json out = open_app("exfiltrate", slug, {{"exfiltrate", "csp_expected"}});
    const json& app = out["apps"]["exfiltrate"];
    const json& r = app["result"];
    ASSERT_TRUE(r.is_object()) << out.dump(1);
    const json& a = r["attempts"];

    // The SDK's fetch refuses anything but /api/v1 before any request.
    EXPECT_NE(a["sdk_fetch"].value("error", "").find("/api/v1"), std::string::npos) << a.dump(1);
    // Every other way fails: the browser's fetch (in a child document) rejects, XHR, the socket and
    // the image fire their error events, no popup opens, the console's window is not navigated.
    // (sendBeacon answers true and form.submit() returns: the CSP reports, the sandbox's refusal
    // and the requests below show that neither went anywhere.)
    EXPECT_EQ(a["native_fetch"].value("error", "").rfind("TypeError", 0), 0u) << a.dump(1);
    EXPECT_TRUE(a["xhr"].contains("error")) << a.dump(1);
    EXPECT_TRUE(a["websocket"].contains("error")) << a.dump(1);
    EXPECT_TRUE(a["image"].contains("error")) << a.dump(1);
    EXPECT_TRUE(a["popup"].contains("error") || a["popup"]["opened"] == false) << a.dump(1);
    EXPECT_EQ(a["navigation"].value("error", "").rfind("SecurityError", 0), 0u) << a.dump(1);
    for (const char* key : {"sdk_fetch", "native_fetch", "xhr", "websocket", "image"})
        EXPECT_FALSE(a[key].contains("ok")) << key << ": " << a.dump(1);

    // The frame's CSP blocked each request and said so: connect-src for fetch, XHR, the beacon
    // and the socket, img-src for the image.
    EXPECT_FALSE(app.contains("violations_wait")) << "CSP reports missing: " << out.dump(1);
    std::map<std::string, int> blocked;
    for (const json& v : r["violations"]) {
        const std::string uri = v.value("blocked", "");
        EXPECT_TRUE(uri.rfind("https://example.com", 0) == 0 ||
                    uri.rfind("wss://example.com", 0) == 0)
            << v.dump();
        ++blocked[v.value("directive", "")];
    }
    EXPECT_EQ(blocked["connect-src"], 4) << r["violations"].dump(1);
    EXPECT_EQ(blocked["img-src"], 1) << r["violations"].dump(1);
    std::set<std::string> by;
    for (const json& v : r["violations"]) {
        const std::string uri = v.value("blocked", "");
        const size_t at = uri.find("&by=");
        by.insert(at == std::string::npos ? uri : uri.substr(at + 4));
    }
    EXPECT_EQ(
        by, (std::set<std::string>{"fetch", "xhr", "beacon", "image", "wss://example.com/socket"}))
        << r["violations"].dump(1);
    // The form and the popup were refused by the sandbox (no allow-forms, no allow-popups; the
    // navigation of the console's window above for want of allow-top-navigation): Chromium says so.
    for (const auto& [what, why] : std::vector<std::pair<std::string, std::string>>{
             {"by=form", "allow-forms"}, {"by=popup", "allow-popups"}}) {
        bool found = false;
        for (const json& line : out["console"]) {
            const std::string text = line.get<std::string>();
            found = found ||
                    (text.find(what) != std::string::npos && text.find(why) != std::string::npos);
        }
        EXPECT_TRUE(found) << what << " refused for " << why << ":\n" << out["console"].dump(1);
    }
    // And nothing reached the network (open_app checks the requests for anywhere but the host).
}

TEST_F(AppsBrowser, AnAppCannotReadTheConsolesCookiesOrStorage) {
    const std::string slug = create_app("Reads the console's cookies", "cookies.html");
    ASSERT_FALSE(slug.empty());
    json out = open_app("cookies", slug);
    const json& r = out["apps"]["cookies"]["result"];
    ASSERT_TRUE(r.is_object()) << out.dump(1);
    EXPECT_EQ(r["origin"], json({{"value", "null"}})) << r.dump(1);
    // The opaque origin has no cookies or storage of its own, and the console's document is
    // another origin's: every read throws SecurityError.
    for (const char* probe : {"document.cookie", "document.cookie=", "parent.document.cookie",
                              "top.document.cookie", "parent.location.href", "localStorage",
                              "sessionStorage", "parent.localStorage", "indexedDB", "cookieStore"})
        EXPECT_EQ(r[probe], json({{"error", "SecurityError"}})) << probe << ": " << r.dump(1);
    expect_no_secrets(out, "cookies");
}

}  // namespace
