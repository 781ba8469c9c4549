// readable.hpp — a web page's readable content: the HTML parsed by gumbo (a real HTML5 parser,
// never patterns over the markup), then a readability-style choice of the main text.
//
// The rules (README.md, "Readable content"):
//   - Dropped before anything is scored: script, style, noscript, template, svg, canvas, iframe,
//     object, embed, form and its controls, nav, header, footer, aside, dialog; elements that are
//     hidden (`hidden`, aria-hidden="true"), that have a navigation-like ARIA role (navigation,
//     banner, contentinfo, complementary, search, menu, menubar, dialog), or whose class or id
//     names page furniture (comment, sidebar, menu, share, cookie, sponsor, ...) without naming
//     content (article, content, main, post, ...).
//   - Scored: each paragraph-like element (p, pre, td, blockquote, and a div with no block inside)
//     of at least 25 characters earns 1 + its commas + one point per 100 characters (at most 3);
//     its parent gets the whole of it, its grandparent half, further ancestors less (up to five
//     levels). An ancestor starts from its tag (div +5, article and main +10, pre, td, blockquote
//     +3, lists -3, headings -5) and its class and id (+25 for content-like, -25 for
//     furniture-like names); its total is scaled by (1 - link density).
//   - Chosen: the best-scored element, with those of its siblings that score at least a fifth of
//     it (at least 10), or that are paragraphs of more than 80 characters with few links. No
//     candidate at all: the whole body (minus what was dropped).
//   - Written: paragraphs, headings, list items, quotes and table rows on their own lines,
//     paragraphs separated by a blank line ("\n\n"), list items as "- ", <br> as a line end,
//     whitespace collapsed except inside <pre>.
// Links are those of the chosen content: http(s) only, made absolute against the page (and its
// <base href>), one per URL, the first text kept.
//
// Pure functions (no host), tested offline in tests/unit/web/. Deeply nested markup is read to a
// fixed depth (kMaxDepth); below it nothing is read.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace web {

// Caps on one answer.
inline constexpr std::size_t kMaxTextChars = 50000;  // the text, cut at a paragraph when it can
inline constexpr std::size_t kMaxLinks = 200;
inline constexpr std::size_t kMaxLinkTextChars = 200;
inline constexpr std::size_t kMaxTitleChars = 500;
inline constexpr std::size_t kMaxDepth = 400;
// gumbo's time grows with the square of the nesting depth (each block start tag scans the open
// elements), and a few hundred thousand nested elements overflow its stack: markup estimated to
// nest deeper than this (Blink's own cap on tree depth) is not parsed at all.
inline constexpr std::size_t kMaxNesting = 512;

struct Link {
    std::string url, text;
};

struct Page {
    std::string title;        // <title>, else the first <h1>, else og:title
    std::string description;  // <meta name="description">, else og:description
    std::string lang;         // <html lang>
    std::string text;         // the main text, paragraphs separated by a blank line
    bool truncated = false;   // the text was cut at kMaxTextChars
    std::vector<Link> links;  // of the main text, at most kMaxLinks
    bool links_truncated = false;
};

// The readable content of `html` (UTF-8) fetched from `page_url`; an empty page when `html`
// nests deeper than kMaxNesting (check too_deep first to say so).
Page readable(const std::string& html, const std::string& page_url);

// Whether `html` may nest elements deeper than kMaxNesting. An estimate from the tags alone,
// before any parse: start tags count, end tags uncount, void elements and those whose end tag
// is optional (p, li, td, tr, option, ...) do not count, the contents of script, style,
// textarea, title and comments are skipped, and "/>" closes only inside svg and math (in HTML a
// `<div/>` stays open, as the parser reads it).
bool too_deep(const std::string& html);

// The charset a document declares in <meta charset> or <meta http-equiv="content-type">
// (lower case), if any.
std::optional<std::string> declared_charset(const std::string& html);

// The text of an HTML fragment (a search result's snippet with <strong> in it), whitespace
// collapsed.
std::string fragment_text(const std::string& html);

// ---- helpers, public for the tests ------------------------------------------------------------

// HTML's whitespace (space, tab, LF, CR, FF), and `s` without it at either end.
bool html_space(unsigned char c);
std::string trim_space(const std::string& s);

// `ref` resolved against the absolute URL `base` (RFC 3986 §5.2, dot segments removed); "" when
// `base` is not absolute.
std::string resolve(const std::string& base, const std::string& ref);

// `s` with every invalid UTF-8 sequence replaced by U+FFFD.
std::string valid_utf8(const std::string& s);

// `bytes` in `charset` converted to UTF-8 (iconv); invalid input becomes U+FFFD. An unknown
// charset leaves the bytes as they are (then read as UTF-8).
std::string to_utf8(const std::string& bytes, const std::string& charset);

// `text` cut to at most `max_chars` characters, at the last paragraph break inside the limit
// when there is one in its second half, else at a character boundary.
std::string cut_text(const std::string& text, std::size_t max_chars, bool* cut);

}  // namespace web
