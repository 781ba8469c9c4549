// The static check behind apps/test (plugins/apps/static_check.hpp): each rule on small
// documents, with the line it reports; a clean app has no problem at all.
#include "../../../plugins/apps/static_check.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

namespace {

const std::set<std::string> kCallable = {"notes/list", "notes/add", "tasks/list"};

// "rule@line" of every problem, in order.
std::vector<std::string> found(const std::string& html, size_t max = 256 * 1024) {
    std::vector<std::string> out;
    for (const auto& p : apps_check::check(html, max, kCallable))
        out.push_back(p.rule + "@" + std::to_string(p.line));
    return out;
}
std::string messages(const std::string& html) {
    std::string out;
    for (const auto& p : apps_check::check(html, 256 * 1024, kCallable)) out += p.message + "\n";
    return out;
}
using V = std::vector<std::string>;

TEST(AppsStaticCheck, ACleanAppHasNoProblem) {
    const std::string html = R"HTML(<!doctype html>
<html><head><meta charset="utf-8"><title>Counter</title>
<style>body { font: 16px sans-serif } .x { background: url(data:image/png;base64,AAAA) }</style>
</head><body>
<!-- a counter -->
<ul><li>one<li>two</ul>
<table><tr><td>a<td>b</table>
<p>First<p>Second
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4"/><path d="M0 0"/></svg>
<button onclick="add(1)">+</button><br><img src="data:image/gif;base64,R0lGOD" alt="">
<a href="#top">top</a>
<script>
  // a comment with fetch('https://example.com') is not code
  const re = /https?:\/\/x/;
  async function add(n) {
    if (n < 2 && n > 0) { await platform.call('notes', 'add', {title: 'n', text: String(n)}); }
    const r = await fetch('/api/v1/notes/list', {method: 'POST'});
    const t = await fetch(`/api/v1/tasks/list?status=${'todo'}`);
    return platform.call(service, method, {});
  }
</script>
</body></html>)HTML";
    EXPECT_EQ(found(html), V{}) << messages(html);
}

TEST(AppsStaticCheck, Size) {
    EXPECT_EQ(found("<p>hi</p>", 5), V{"size@0"});
}

TEST(AppsStaticCheck, WellFormed) {
    EXPECT_EQ(found("<div>\n<span>x</div>"), V{"well-formed@2"});
    EXPECT_EQ(found("<div>\n\n<b>x</b>"), V{"well-formed@1"});
    EXPECT_EQ(found("x</div>"), V{"well-formed@1"});
    EXPECT_EQ(found("<div class=\"a></div>"), V{"well-formed@1"});
    EXPECT_EQ(found("<div a=1 a=2></div>"), V{"well-formed@1"});
    EXPECT_EQ(found("<div/>"), V{"well-formed@1"});
    EXPECT_EQ(found("<br></br>"), V{"well-formed@1"});
    EXPECT_EQ(found("<!-- open"), V{"well-formed@1"});
    EXPECT_EQ(found("<script>let a = 1;"), V{"well-formed@1"});
    EXPECT_EQ(found("<p>a < b and c</p>"), V{});
    EXPECT_NE(messages("<div>\n<span>x</div>")
                  .find("<span> opened on line 2 is not closed before </div>"),
              std::string::npos);
}

TEST(AppsStaticCheck, OnlyTheSdkAndMethodsTheCallerMayUse) {
    EXPECT_EQ(found("<script>platform.call('mail', 'send', {})</script>"), V{"sdk@1"});
    EXPECT_EQ(found("<script>\nplatform.storage.get('x')</script>"), V{"sdk@2"});
    EXPECT_EQ(found("<script>fetch('/api/v1/mail/send')</script>"), V{"sdk@1"});
    EXPECT_EQ(found("<script>fetch('/api/v1/notes')</script>"), V{"sdk@1"});
    EXPECT_EQ(found("<script>window.fetch('/api/v1/notes/list?x=1')</script>"), V{});
    EXPECT_EQ(found("<script>cache.fetch('anything')</script>"), V{});
    EXPECT_NE(messages("<script>platform.call('mail', 'send', {})</script>").find("mail/send"),
              std::string::npos);
    // Without the caller's tools the names are not checked.
    EXPECT_TRUE(apps_check::check("<script>platform.call('mail','send')</script>", 1000, {}, false)
                    .empty());
}

TEST(AppsStaticCheck, NothingFromOrToOutside) {
    EXPECT_EQ(found("<script>fetch('https://example.com/x')</script>"), V{"external@1"});
    EXPECT_EQ(found("<script>fetch('data.json')</script>"), V{"external@1"});
    EXPECT_EQ(found("<script>const u = \"https://example.com\";</script>"), V{"external@1"});
    EXPECT_EQ(found("<script>new XMLHttpRequest()</script>"), V{"external@1"});
    EXPECT_EQ(found("<script>new WebSocket('ws://x')</script>"), (V{"external@1", "external@1"}));
    EXPECT_EQ(found("<script>navigator.sendBeacon('/x')</script>"), V{"external@1"});
    EXPECT_EQ(found("<script>import('./m.js')</script>"), V{"external@1"});
    EXPECT_EQ(found("<script src=\"https://cdn.example.com/lib.js\"></script>"), V{"external@1"});
    EXPECT_EQ(found("<script src=\"lib.js\"></script>"), V{"external@1"});
    EXPECT_EQ(found("<link rel=\"stylesheet\" href=\"x.css\">"), V{"external@1"});
    EXPECT_EQ(found("<img src=\"//example.com/a.png\">"), V{"external@1"});
    EXPECT_EQ(found("<img srcset=\"a.png 1x, b.png 2x\">"), V{"external@1"});
    EXPECT_EQ(found("<a href=\"https://example.com\">x</a>"), V{"external@1"});
    EXPECT_EQ(found("<form action=\"http://example.com\"></form>"), V{"external@1"});
    EXPECT_EQ(found("<style>\n@import 'x.css';</style>"), V{"external@2"});
    EXPECT_EQ(found("<div style=\"background:url('https://example.com/a.png')\"></div>"),
              V{"external@1"});
    EXPECT_EQ(found("<p>See https://example.com for more</p>"), V{});
}

TEST(AppsStaticCheck, WhatTheSandboxLacks) {
    EXPECT_EQ(found("<script>document.cookie = 'a=1'</script>"), V{"sandbox@1"});
    EXPECT_EQ(found("<script>localStorage.setItem('a', 1)</script>"), V{"sandbox@1"});
    EXPECT_EQ(found("<button onclick=\"top.location = '/'\">x</button>"), V{"sandbox@1"});
}

TEST(AppsStaticCheck, ProblemsAreInDocumentOrderAndCapped) {
    EXPECT_EQ(found("<script>\nlocalStorage.x\n</script>\n<div>"),
              (V{"sandbox@2", "well-formed@4"}));
    std::string many;
    for (int i = 0; i < 300; ++i) many += "</i>";
    EXPECT_EQ(found(many).size(), 100u);
}

}  // namespace
