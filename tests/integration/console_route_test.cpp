// The web console's files as the host serves them (host/src/http/console_route.cpp): /ui/ is the
// page, /ui/console/<file> its scripts and styles, each with the console's Content-Security-Policy;
// PLATFORM_CONSOLE_DIR serves a folder's files instead, read on every request. The pages
// themselves are driven in a browser by console_browser_test.cpp.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "build_tree.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "shared_host_test.hpp"

using namespace platform::test;
namespace fs = std::filesystem;

namespace {

std::string source_file(const std::string& name) {
    std::ifstream in(source_dir() + "/console/" + name, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

void expect_policy(const HttpResult& r) {
    const std::string csp = r.header("content-security-policy");
    EXPECT_NE(csp.find("default-src 'none'"), std::string::npos) << csp;
    EXPECT_NE(csp.find("script-src 'self'"), std::string::npos) << csp;
    EXPECT_NE(csp.find("frame-ancestors 'none'"), std::string::npos) << csp;
    EXPECT_EQ(csp.find("unsafe-inline"), std::string::npos) << csp;
    EXPECT_EQ(csp.find("unsafe-eval"), std::string::npos) << csp;
    EXPECT_EQ(r.header("x-content-type-options"), "nosniff");
}

class ConsoleRoute : public SharedHostTest {};

TEST_F(ConsoleRoute, ThePageIsServedWithTheStrictPolicy) {
    HttpClient api("127.0.0.1", host->api_port());
    auto r = api.get("/ui/");
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.header("content-type"), "text/html; charset=utf-8");
    EXPECT_EQ(r.body, source_file("index.html"));
    EXPECT_NE(r.body.find("<script type=\"module\" src=\"/ui/console/app.js\">"),
              std::string::npos);
    expect_policy(r);
}

TEST_F(ConsoleRoute, UiWithoutTheSlashRedirects) {
    HttpClient api("127.0.0.1", host->api_port());
    auto r = api.get("/ui");
    EXPECT_EQ(r.status, 308);
    EXPECT_EQ(r.header("location"), "/ui/");
}

TEST_F(ConsoleRoute, EveryFileIsServedAsWrittenWithItsType) {
    HttpClient api("127.0.0.1", host->api_port());
    const std::map<std::string, std::string> types{{".js", "text/javascript; charset=utf-8"},
                                                   {".css", "text/css; charset=utf-8"},
                                                   {".svg", "image/svg+xml"},
                                                   {".html", "text/html; charset=utf-8"}};
    int served = 0;
    for (const auto& entry : fs::directory_iterator(source_dir() + "/console")) {
        const std::string name = entry.path().filename().string();
        const auto type = types.find(entry.path().extension().string());
        if (type == types.end()) continue;
        auto r = api.get("/ui/console/" + name);
        ASSERT_EQ(r.status, 200) << name;
        EXPECT_EQ(r.header("content-type"), type->second) << name;
        EXPECT_EQ(r.body, source_file(name)) << name << ": not the file of console/";
        expect_policy(r);
        ++served;
    }
    EXPECT_GE(served, 5);  // index.html, app.js, api.js, dom.js, console.css at least
}

TEST_F(ConsoleRoute, NamesOutsideTheFolderOrUnknownAre404) {
    HttpClient api("127.0.0.1", host->api_port());
    for (const std::string target :
         {"/ui/console/nothing.js", "/ui/console/", "/ui/console/App.js", "/ui/console/app.JS",
          "/ui/console/..%2fREADME.md", "/ui/console/%2e%2e/CMakeLists.txt",
          "/ui/console/sub/app.js", "/ui/console/app.js.map", "/ui/console/.hidden.js"}) {
        auto r = api.get(target);
        EXPECT_EQ(r.status, 404) << target << ": " << r.body;
        EXPECT_NE(r.body.find("the console has no file"), std::string::npos) << target;
        expect_policy(r);
    }
}

TEST_F(ConsoleRoute, OnlyGetAndHeadAreAnswered) {
    HttpClient api("127.0.0.1", host->api_port());
    auto post = api.post("/ui/", "{}");
    EXPECT_EQ(post.status, 405);
    EXPECT_EQ(post.header("allow"), "GET, HEAD");
    auto head = api.request("HEAD", "/ui/console/app.js", "", {});
    EXPECT_EQ(head.status, 200);
    EXPECT_TRUE(head.body.empty());
}

TEST_F(ConsoleRoute, AnUnchangedFileRevalidatesWith304) {
    HttpClient api("127.0.0.1", host->api_port());
    auto first = api.get("/ui/console/app.js");
    const std::string etag = first.header("etag");
    ASSERT_FALSE(etag.empty());
    EXPECT_EQ(first.header("cache-control"), "no-cache");
    auto again = api.get("/ui/console/app.js", {{"If-None-Match", etag}});
    EXPECT_EQ(again.status, 304);
    EXPECT_TRUE(again.body.empty());
    auto other = api.get("/ui/console/api.js", {{"If-None-Match", etag}});
    EXPECT_EQ(other.status, 200);  // another file's validator does not match
}

TEST_F(ConsoleRoute, OtherPagesUnderUiAreNotTaken) {
    HttpClient api("127.0.0.1", host->api_port());
    auto r = api.get("/ui/nothing-here");
    EXPECT_NE(r.status, 200);
    EXPECT_EQ(r.body.find("Loading the console"), std::string::npos);
}

TEST(ConsoleDir, AFolderIsReadOnEveryRequest) {
    TempDir dir;
    const std::string index = dir.path() + "/index.html";
    std::ofstream(index) << "<!doctype html><title>one</title>";
    HostProcess::Options options;
    options.env["PLATFORM_CONSOLE_DIR"] = dir.path();
    HostProcess host(options);
    host.start();
    HttpClient api("127.0.0.1", host.api_port());
    auto one = api.get("/ui/");
    ASSERT_EQ(one.status, 200);
    EXPECT_EQ(one.body, "<!doctype html><title>one</title>");
    std::ofstream(index, std::ios::trunc) << "<!doctype html><title>two</title>";
    auto two = api.get("/ui/");
    EXPECT_EQ(two.body, "<!doctype html><title>two</title>");
    EXPECT_NE(one.header("etag"), two.header("etag"));
    EXPECT_EQ(api.get("/ui/console/app.js").status, 404);  // the folder's files only
}

}  // namespace
