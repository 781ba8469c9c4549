// The web plugin's readable-content extraction (plugins/web/readable.hpp), offline: the article
// fixture with its noise (tests/fixtures/web/), small pages for each rule, URL resolution against
// RFC 3986's examples, charsets, UTF-8 repair and the caps.
#include "readable.hpp"

#include <gtest/gtest.h>

#include "fixtures.hpp"

using platform::test::fixture_text;
using namespace web;

namespace {

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

const char* kArticleUrl = "https://gazette.example.com/growing/bees/small-garden.html";

TEST(Readable, TheArticleKeepsItsMainTextAndDropsTheNoise) {
    const Page p = readable(fixture_text("web", "article.html"), kArticleUrl);
    EXPECT_EQ(p.title, "Keeping bees in a small garden | The Allotment Gazette");
    EXPECT_EQ(p.description,
              "How one hive fits in a town garden, and what it needs through the year.");
    EXPECT_EQ(p.lang, "en-GB");
    EXPECT_TRUE(has(p.text, "A single hive fits in a surprisingly small garden")) << p.text;
    EXPECT_TRUE(has(p.text, "Inspections run weekly from April to August")) << p.text;
    EXPECT_TRUE(has(p.text, "Honey from a town garden is often the best of all")) << p.text;
    EXPECT_TRUE(has(p.text, "Through the year")) << p.text;
    for (const char* noise : {"NAV-NEWS", "COOKIE-BANNER", "COMMENTS-SECTION", "SIDEBAR-POPULAR",
                              "SHARE-BUTTONS", "NEWSLETTER-FORM", "FOOTER-TEXT",
                              "TRACKING-SCRIPT-TEXT", "font-family", "Skip to content"})
        EXPECT_FALSE(has(p.text, noise)) << noise << " in " << p.text;
    EXPECT_FALSE(p.truncated);
}

TEST(Readable, ParagraphsAreSeparatedByABlankLineAndListItemsAreLines) {
    const Page p = readable(fixture_text("web", "article.html"), kArticleUrl);
    EXPECT_TRUE(
        has(p.text, "the occasional visitor at the kitchen window.\n\nStart in spring, when"))
        << p.text;
    EXPECT_TRUE(has(p.text, "\n\nThrough the year\n\nInspections run weekly")) << p.text;
    EXPECT_TRUE(has(p.text,
                    "- Spring: inspections begin, supers go on.\n- Summer: swarm control, honey "
                    "harvest.\n- Autumn: varroa treatment, feeding."))
        << p.text;
    EXPECT_FALSE(has(p.text, "\n\n\n")) << p.text;
    EXPECT_FALSE(has(p.text, "  ")) << p.text;
}

TEST(Readable, LinksOfTheMainTextAreAbsoluteAndNoiseLinksAreNot) {
    const Page p = readable(fixture_text("web", "article.html"), kArticleUrl);
    ASSERT_EQ(p.links.size(), 2u);
    EXPECT_EQ(p.links[0].url, "https://gazette.example.com/growing/guides/first-hive.html");
    EXPECT_EQ(p.links[0].text, "first-hive guide");
    EXPECT_EQ(p.links[1].url, "https://www.bbka.org.uk/");
    EXPECT_EQ(p.links[1].text, "British Beekeepers Association");
    EXPECT_FALSE(p.links_truncated);
}

TEST(Readable, BaseHrefIsWhereRelativeLinksResolve) {
    const Page p = readable(
        "<html><head><base href='https://cdn.example.net/docs/'></head><body><article><p>Read "
        "the <a href='guide.html'>guide</a>, the <a href='/x'>root</a>, the <a "
        "href='#top'>top</a>, <a href='mailto:a@example.com'>mail</a> and <a "
        "href='javascript:void(0)'>nothing</a>, twice <a href='guide.html'>again</a>, now, with "
        "commas, enough, for, a, paragraph.</p></article></body></html>",
        "https://example.com/a/b");
    ASSERT_EQ(p.links.size(), 2u);
    EXPECT_EQ(p.links[0].url, "https://cdn.example.net/docs/guide.html");
    EXPECT_EQ(p.links[0].text, "guide");
    EXPECT_EQ(p.links[1].url, "https://cdn.example.net/x");
}

TEST(Readable, TheBestScoredBlockWinsOverALongerLinkList) {
    std::string links;
    for (int i = 0; i < 40; ++i)
        links += "<li><a href='/p" + std::to_string(i) + "'>Another interesting story, number " +
                 std::to_string(i) + "</a></li>";
    const std::string html =
        "<html><body><div class='list'><ul>" + links +
        "</ul></div><div class='story'><p>The first paragraph of the story, with a few commas, "
        "clauses, and the sort of length a real paragraph has in a newspaper.</p><p>The second "
        "paragraph, also long enough, continues the story with more detail, more names, and "
        "more words.</p></div></body></html>";
    const Page p = readable(html, "https://news.example.com/");
    EXPECT_TRUE(has(p.text, "The first paragraph of the story")) << p.text;
    EXPECT_TRUE(has(p.text, "The second paragraph")) << p.text;
    EXPECT_FALSE(has(p.text, "Another interesting story")) << p.text;
}

TEST(Readable, HiddenAndRoleNavigationAreDropped) {
    const Page p = readable(
        "<body><div role='navigation'>ROLE-NAV links here</div><div hidden>HIDDEN-TEXT</div>"
        "<div><p>Visible paragraph text, which is long enough to be scored as content, "
        "surely.</p></div></body>",
        "https://example.com/");
    EXPECT_TRUE(has(p.text, "Visible paragraph text")) << p.text;
    EXPECT_FALSE(has(p.text, "ROLE-NAV")) << p.text;
    EXPECT_FALSE(has(p.text, "HIDDEN-TEXT")) << p.text;
}

TEST(Readable, APageWithoutParagraphsGivesItsBodyText) {
    const Page p = readable("<html><body><span>Short</span> <b>page</b><br>second line</body>",
                            "https://example.com/");
    EXPECT_EQ(p.text, "Short page\nsecond line");
    EXPECT_EQ(p.title, "");
}

TEST(Readable, PreKeepsItsWhitespace) {
    const Page p = readable(
        "<body><article><p>Some code follows here, explained in a long enough sentence, with "
        "commas.</p><pre>int main() {\n    return 0;\n}</pre></article></body>",
        "https://example.com/");
    EXPECT_TRUE(has(p.text, "int main() {\n    return 0;\n}")) << p.text;
}

TEST(Readable, TitleFallsBackToTheFirstHeadingThenOgTitle) {
    EXPECT_EQ(readable("<body><h1> Heading  one </h1><p>x</p></body>", "https://e.com/").title,
              "Heading one");
    EXPECT_EQ(readable("<head><meta property='og:title' content='From OG'></head><body></body>",
                       "https://e.com/")
                  .title,
              "From OG");
}

TEST(Readable, EntitiesAndBrokenMarkupAreReadAsABrowserWould) {
    const Page p = readable(
        "<title>Fish &amp; chips</title><div><p>Caf&eacute; &lt;b&gt; and <b>bold<i> both</b> "
        "nested</i> badly, but still a readable paragraph of text, surely, really.",
        "https://e.com/");
    EXPECT_EQ(p.title, "Fish & chips");
    EXPECT_TRUE(has(p.text, "Café <b> and bold both nested badly")) << p.text;
}

TEST(Readable, TheTextIsCappedAtAParagraph) {
    std::string body;
    for (int i = 0; i < 2000; ++i)
        body += "<p>Paragraph " + std::to_string(i) +
                " has some words in it, with commas, to make it long enough to count.</p>";
    const Page p = readable("<body><article>" + body + "</article></body>", "https://e.com/");
    EXPECT_TRUE(p.truncated);
    size_t chars = 0;
    for (unsigned char c : p.text) chars += (c & 0xC0) != 0x80;
    EXPECT_LE(chars, kMaxTextChars);
    EXPECT_GT(chars, kMaxTextChars / 2);
    EXPECT_EQ(p.text.back(), '.') << "cut at a paragraph break";
}

TEST(Readable, LinksAreCapped) {
    std::string body = "<article><p>";
    for (size_t i = 0; i < kMaxLinks + 10; ++i)
        body += "Words, words, words <a href='/l" + std::to_string(i) + "'>link " +
                std::to_string(i) + "</a>. ";
    const Page p = readable("<body>" + body + "</p></article></body>", "https://e.com/");
    EXPECT_EQ(p.links.size(), kMaxLinks);
    EXPECT_TRUE(p.links_truncated);
}

TEST(Readable, MarkupNestedTooDeepIsNotParsed) {
    std::string deep = "<body>";
    for (size_t i = 0; i <= kMaxNesting; ++i) deep += "<div>";
    EXPECT_TRUE(too_deep(deep + "text"));
    EXPECT_EQ(readable(deep + "text", "https://e.com/").text, "");  // quickly, and no crash
    std::string self_closed = "<body>";
    for (size_t i = 0; i <= kMaxNesting; ++i) self_closed += "<div/>";
    EXPECT_TRUE(too_deep(self_closed)) << "in HTML <div/> stays open";
    std::string huge = "<body>";
    for (int i = 0; i < 400000; ++i) huge += "<span>";
    EXPECT_TRUE(too_deep(huge));
    EXPECT_EQ(readable(huge, "https://e.com/").text, "");
}

TEST(Readable, OrdinaryMarkupIsNotTooDeep) {
    EXPECT_FALSE(too_deep(fixture_text("web", "article.html")));
    std::string wide = "<body><table>";
    for (int i = 0; i < 5000; ++i) wide += "<tr><td>cell<td>cell<li>item<p>para<br><img src=x>";
    EXPECT_FALSE(too_deep(wide)) << "optional end tags and void elements do not nest";
    std::string svg = "<body><svg>";
    for (int i = 0; i < 5000; ++i) svg += "<path d='M0 0'/>";
    EXPECT_FALSE(too_deep(svg + "</svg>")) << "/> closes inside svg";
    std::string script = "<body><script>";
    for (int i = 0; i < 5000; ++i) script += "html += '<div>';";
    EXPECT_FALSE(too_deep(script + "</script><!-- <div><div><div> -->"));
    std::string nested = "<body>";
    for (int i = 0; i < 5000; ++i) nested += "<div>x</div>";
    EXPECT_FALSE(too_deep(nested));
}

TEST(Readable, EmptyAndNonsenseInputGiveValidText) {
    EXPECT_EQ(readable("", "https://e.com/").text, "");
    const Page p = readable("\x01\x02\xff<p>\xc3</p>", "https://e.com/");
    EXPECT_EQ(valid_utf8(p.text), p.text);
}

// ---- URLs ---------------------------------------------------------------------------------------

TEST(Resolve, Rfc3986NormalExamples) {
    const std::string b = "http://a/b/c/d;p?q";
    EXPECT_EQ(resolve(b, "g:h"), "g:h");
    EXPECT_EQ(resolve(b, "g"), "http://a/b/c/g");
    EXPECT_EQ(resolve(b, "./g"), "http://a/b/c/g");
    EXPECT_EQ(resolve(b, "g/"), "http://a/b/c/g/");
    EXPECT_EQ(resolve(b, "/g"), "http://a/g");
    EXPECT_EQ(resolve(b, "//g"), "http://g/");
    EXPECT_EQ(resolve(b, "?y"), "http://a/b/c/d;p?y");
    EXPECT_EQ(resolve(b, "g?y"), "http://a/b/c/g?y");
    EXPECT_EQ(resolve(b, "#s"), "http://a/b/c/d;p?q#s");
    EXPECT_EQ(resolve(b, "g#s"), "http://a/b/c/g#s");
    EXPECT_EQ(resolve(b, ";x"), "http://a/b/c/;x");
    EXPECT_EQ(resolve(b, ""), "http://a/b/c/d;p?q");
    EXPECT_EQ(resolve(b, "."), "http://a/b/c/");
    EXPECT_EQ(resolve(b, "./"), "http://a/b/c/");
    EXPECT_EQ(resolve(b, ".."), "http://a/b/");
    EXPECT_EQ(resolve(b, "../"), "http://a/b/");
    EXPECT_EQ(resolve(b, "../g"), "http://a/b/g");
    EXPECT_EQ(resolve(b, "../.."), "http://a/");
    EXPECT_EQ(resolve(b, "../../g"), "http://a/g");
}

TEST(Resolve, Rfc3986AbnormalExamples) {
    const std::string b = "http://a/b/c/d;p?q";
    EXPECT_EQ(resolve(b, "../../../g"), "http://a/g");
    EXPECT_EQ(resolve(b, "/./g"), "http://a/g");
    EXPECT_EQ(resolve(b, "/../g"), "http://a/g");
    EXPECT_EQ(resolve(b, "g."), "http://a/b/c/g.");
    EXPECT_EQ(resolve(b, "..g"), "http://a/b/c/..g");
    EXPECT_EQ(resolve(b, "./../g"), "http://a/b/g");
    EXPECT_EQ(resolve(b, "g/./h"), "http://a/b/c/g/h");
    EXPECT_EQ(resolve(b, "g/../h"), "http://a/b/c/h");
    EXPECT_EQ(resolve(b, "g?y/./x"), "http://a/b/c/g?y/./x");
}

TEST(Resolve, WhitespaceIsStrippedAndARelativeBaseGivesNothing) {
    EXPECT_EQ(resolve("https://e.com/a/", "  b\n.html "), "https://e.com/a/b.html");
    EXPECT_EQ(resolve("https://e.com", "x"), "https://e.com/x");
    EXPECT_EQ(resolve("/relative", "x"), "");
}

// ---- charsets and text --------------------------------------------------------------------------

TEST(Charset, DeclaredCharsetIsFoundInEitherMetaForm) {
    EXPECT_EQ(declared_charset("<meta charset='Shift_JIS'>").value_or(""), "shift_jis");
    EXPECT_EQ(declared_charset(fixture_text("web", "latin1.html")).value_or(""), "iso-8859-1");
    EXPECT_FALSE(declared_charset("<p>none</p>").has_value());
}

TEST(Charset, Latin1IsConvertedBeforeReading) {
    const std::string html = fixture_text("web", "latin1.html");
    const Page p = readable(to_utf8(html, *declared_charset(html)), "https://e.fr/");
    EXPECT_EQ(p.title, "Café crème");
    EXPECT_TRUE(has(p.text, "Le café crème se boit le matin")) << p.text;
    EXPECT_EQ(p.lang, "fr");
}

TEST(Charset, UnknownCharsetsAndBadBytesBecomeReplacementCharacters) {
    EXPECT_EQ(to_utf8("ok \xff", "no-such-charset"), "ok \xEF\xBF\xBD");
    EXPECT_EQ(to_utf8("\x80", "windows-1252"), "\xE2\x82\xAC");  // the euro sign
    EXPECT_EQ(valid_utf8("a\xC3\xA9"
                         "b"),
              "a\xC3\xA9"
              "b");
    EXPECT_EQ(valid_utf8("a\xC3"), "a\xEF\xBF\xBD");
    EXPECT_EQ(valid_utf8("\xC0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD");                  // overlong
    EXPECT_EQ(valid_utf8("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a surrogate
    EXPECT_EQ(valid_utf8("\xF0\x9F\x90\x9D"), "\xF0\x9F\x90\x9D");                  // U+1F41D
}

TEST(Charset, CutTextCountsCharactersNotBytes) {
    bool cut = false;
    EXPECT_EQ(cut_text("héllo", 5, &cut), "héllo");
    EXPECT_FALSE(cut);
    EXPECT_EQ(cut_text("héllo wörld", 7, &cut), "héllo w");
    EXPECT_TRUE(cut);
    EXPECT_EQ(cut_text("first paragraph\n\nsecond one", 22, &cut), "first paragraph");
}

TEST(Fragment, SnippetsLoseTheirMarkup) {
    EXPECT_EQ(fragment_text("The <strong>borrow</strong>  checker &amp; you"),
              "The borrow checker & you");
    EXPECT_EQ(fragment_text(""), "");
}

}  // namespace
