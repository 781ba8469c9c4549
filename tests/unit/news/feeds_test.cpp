// The feed reader (plugins/news/feeds.hpp) on the fixtures of tests/fixtures/news/ (RSS 2.0 and
// Atom with their namespaces, CDATA, entities, RFC 822 and RFC 3339 dates), on RSS 1.0, and on
// documents that are not feeds; the HTML cleaner, the date reader and the article ids.
#include "../../../plugins/news/feeds.hpp"

#include <gtest/gtest.h>

#include "common/upstream/upstream.hpp"
#include "fixtures.hpp"

using common::upstream::Malformed;
using namespace news;

namespace {

const std::string kRssUrl = "http://127.0.0.1:9/world/rss.xml";
const std::string kAtomUrl = "http://127.0.0.1:9/science/feed.atom";

Feed rss() {
    return parse_feed(platform::test::fixture_text("news", "rss.xml"), kRssUrl);
}
Feed atom() {
    return parse_feed(platform::test::fixture_text("news", "atom.xml"), kAtomUrl);
}

}  // namespace

TEST(Rss2, ChannelAndItemsWithCdataEntitiesAndNamespaces) {
    const Feed f = rss();
    EXPECT_EQ(f.format, "rss");
    EXPECT_EQ(f.title, "Example World News");
    ASSERT_EQ(f.entries.size(), 4u);  // the repeated story is still listed; ids make it one
    const Entry& a = f.entries[0];
    EXPECT_EQ(a.title, "Harbour bridge reopens after storm repairs");
    EXPECT_EQ(a.url, "https://news.example.org/world/articles/harbour-bridge");
    EXPECT_EQ(a.guid, "urn:example:news:1001");
    // HTML in CDATA: tags gone, &ndash; decoded, paragraphs on their own lines.
    EXPECT_EQ(a.summary,
              "The bridge reopened on Monday morning \u2013 two weeks ahead of schedule.\n"
              "Engineers said the repairs held.");
    // content:encoded: the script dropped, list items as lines.
    EXPECT_EQ(a.text, "The bridge reopened on Monday morning.\nTwo lanes open\nCycle path closed");
    EXPECT_EQ(a.author, "Ana Lima");  // dc:creator
    ASSERT_TRUE(a.published_ms.has_value());
    EXPECT_EQ(*a.published_ms, 1796635800000);  // Mon, 07 Dec 2026 09:30:00 GMT

    const Entry& b = f.entries[1];
    EXPECT_EQ(b.title, "Talks resume in Geneva & Vienna");  // &amp;
    EXPECT_EQ(b.summary,
              "Delegates return to the table \u2013 \"cautiously optimistic\", officials say.");
    EXPECT_EQ(b.text, b.summary);               // no content:encoded
    EXPECT_EQ(*b.published_ms, 1796642100000);  // 06:15 -0500 is 11:15Z

    const Entry& c = f.entries[2];
    EXPECT_EQ(c.summary, "Sleeper services restart after ten years.");  // escaped HTML
    EXPECT_TRUE(c.guid.empty());
    EXPECT_EQ(*c.published_ms, 1796594400000);
}

TEST(Rss2, ARepeatedGuidIsOneArticleAndIdsAreStable) {
    const Feed f = rss();
    EXPECT_EQ(article_id(f.entries[1], kRssUrl), article_id(f.entries[3], kRssUrl));
    EXPECT_NE(article_id(f.entries[0], kRssUrl), article_id(f.entries[1], kRssUrl));
    EXPECT_EQ(article_id(f.entries[0], kRssUrl), article_id(rss().entries[0], "http://other/"));
    const std::string id = article_id(f.entries[2], kRssUrl);  // no guid: by its link
    EXPECT_EQ(id.size(), 19u);
    EXPECT_EQ(id.rfind("na-", 0), 0u);
}

TEST(Atom, EntriesWithTextConstructsBaseAndDates) {
    const Feed f = atom();
    EXPECT_EQ(f.format, "atom");
    EXPECT_EQ(f.title, "Example Science Desk");
    ASSERT_EQ(f.entries.size(), 3u);
    const Entry& a = f.entries[0];
    EXPECT_EQ(a.title, "Comet C/2026 A1 brightens & grows a tail");  // type="html"
    EXPECT_EQ(a.url, "https://science.example.net/2026/12/comet");   // rel=alternate, not enclosure
    EXPECT_EQ(a.guid, "tag:science.example.net,2026:comet-c2026a1");
    EXPECT_EQ(a.summary, "The comet is now visible with binoculars.");  // type="text"
    EXPECT_EQ(a.text,
              "The comet is now visible with binoculars before dawn.\nLook low in the east.");
    EXPECT_EQ(a.author, "Rosa Ortiz");
    EXPECT_EQ(*a.published_ms, 1796636700000);  // published 10:45+01:00 wins over updated

    const Entry& b = f.entries[1];
    EXPECT_EQ(b.url, "https://science.example.net/2026/12/vents");  // relative to xml:base
    EXPECT_EQ(b.summary, "A survey found 40 unknown species");      // the style dropped
    EXPECT_EQ(*b.published_ms, 1796644200000);                      // updated only

    const Entry& c = f.entries[2];
    EXPECT_EQ(c.url, "https://science.example.net/2026/11/archive-note");
    EXPECT_EQ(*c.published_ms, 1796025600000);  // 2026-11-30T08:00Z, no seconds
}

TEST(Rss1, ItemsBesideTheChannel) {
    const Feed f = parse_feed(
        R"(<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"
         xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel rdf:about="https://example.org/"><title>RDF Site</title></channel>
  <item rdf:about="https://example.org/a"><title>First</title><link>https://example.org/a</link>
    <description>One &amp; two</description><dc:date>2026-12-07T08:00:00+00:00</dc:date></item>
</rdf:RDF>)",
        "https://example.org/index.rdf");
    EXPECT_EQ(f.format, "rdf");
    EXPECT_EQ(f.title, "RDF Site");
    ASSERT_EQ(f.entries.size(), 1u);
    EXPECT_EQ(f.entries[0].guid, "https://example.org/a");
    EXPECT_EQ(f.entries[0].summary, "One & two");
    EXPECT_EQ(*f.entries[0].published_ms, 1796630400000);
}

TEST(Feeds, WhatIsNotAFeedIsRefused) {
    EXPECT_THROW(parse_feed("<html><body>hello</body></html>", kRssUrl), Malformed);
    EXPECT_THROW(parse_feed("<rss><channel><item>", kRssUrl), Malformed);  // not well-formed
    EXPECT_THROW(parse_feed("{\"items\": []}", kRssUrl), Malformed);
    EXPECT_THROW(parse_feed("", kRssUrl), Malformed);
    EXPECT_THROW(parse_feed("<rss version=\"2.0\"/>", kRssUrl), Malformed);  // no channel
    // A feed element outside the Atom namespace is not Atom.
    EXPECT_THROW(parse_feed("<feed><entry><title>x</title></entry></feed>", kRssUrl), Malformed);
}

TEST(Feeds, NothingLeavesTheDocument) {
    // An external entity is neither fetched nor substituted; the rest of the item is read.
    const Feed f = parse_feed(
        R"(<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY x SYSTEM "file:///etc/passwd">]>
<rss version="2.0"><channel><title>T</title><item><title>A &x; B</title>
<link>https://e.org/1</link></item></channel></rss>)",
        kRssUrl);
    ASSERT_EQ(f.entries.size(), 1u);
    EXPECT_EQ(f.entries[0].title.find("root:"), std::string::npos);
    EXPECT_EQ(f.entries[0].url, "https://e.org/1");
}

TEST(Feeds, EntriesWithoutTitleOrLinkAndUnsafeLinksAreDropped) {
    const Feed f = parse_feed(
        R"(<rss version="2.0"><channel><title>T</title>
<item><description>nothing to name it</description></item>
<item><title>Script link</title><link>javascript:alert(1)</link></item>
<item><guid>https://e.org/permalink</guid></item>
</channel></rss>)",
        kRssUrl);
    ASSERT_EQ(f.entries.size(), 2u);
    EXPECT_EQ(f.entries[0].title, "Script link");
    EXPECT_EQ(f.entries[0].url, "");                         // not http(s)
    EXPECT_EQ(f.entries[1].url, "https://e.org/permalink");  // a permalink guid
}

TEST(CleanText, TagsEntitiesAndBlankLines) {
    EXPECT_EQ(clean_text(""), "");
    EXPECT_EQ(clean_text("plain words"), "plain words");
    EXPECT_EQ(clean_text("a&nbsp;b &amp; c &#233;"), "a b & c \u00e9");
    EXPECT_EQ(clean_text("<p>one</p>\n\n\n<p>two</p><br><br><br>three"), "one\ntwo\n\nthree");
    EXPECT_EQ(clean_text("<div><p>a</p><ul><li>b</li></ul></div>c<br>d"), "a\nb\nc\nd");
    EXPECT_EQ(clean_text("<style>x{}</style><script>y()</script>kept"), "kept");
    EXPECT_EQ(clean_text("<div>  spaced \t out  </div>"), "spaced out");
    EXPECT_EQ(clean_text("unclosed <b>bold"), "unclosed bold");
}

TEST(Dates, Rfc822AndRfc3339) {
    EXPECT_EQ(parse_date("Mon, 07 Dec 2026 09:30:00 GMT"), 1796635800000);
    EXPECT_EQ(parse_date("7 Dec 2026 09:30:00 +0000"), 1796635800000);  // no day name
    EXPECT_EQ(parse_date("Mon, 07 Dec 26 09:30 GMT"), 1796635800000);   // two-digit year
    EXPECT_EQ(parse_date("Mon, 07 Dec 2026 04:30:00 EST"), 1796635800000);
    EXPECT_EQ(parse_date("Mon, 07 Dec 2026 10:30:00 +0100"), 1796635800000);
    EXPECT_EQ(parse_date("Mon, 07 Dec 2026 09:30:00"), 1796635800000);  // no zone: UTC
    EXPECT_EQ(parse_date("2026-12-07T09:30:00Z"), 1796635800000);
    EXPECT_EQ(parse_date("2026-12-07T10:30:00+01:00"), 1796635800000);
    EXPECT_EQ(parse_date("2026-12-07T09:30:00.250Z"), 1796635800250);
    EXPECT_EQ(parse_date("2026-12-07"), 1796601600000);
    EXPECT_FALSE(parse_date("").has_value());
    EXPECT_FALSE(parse_date("yesterday").has_value());
    EXPECT_FALSE(parse_date("Mon, 31 Feb 2026 09:30:00 GMT").has_value());
    EXPECT_FALSE(parse_date("Mon, 07 Foo 2026 09:30:00 GMT").has_value());
    EXPECT_FALSE(parse_date("Mon, 07 Dec 2026 25:30:00 GMT").has_value());
    EXPECT_FALSE(parse_date("Mon, 07 Dec 2026 09:30:00 XYZ").has_value());
    EXPECT_FALSE(parse_date("2026-13-07T09:30:00Z").has_value());
}
