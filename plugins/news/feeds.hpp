// feeds.hpp — an RSS or Atom document read into articles (libxml2, never patterns over the text).
// Pure functions, no host: tests/unit/news/ runs them on the fixtures in tests/fixtures/news/.
//
// Formats read:
//   RSS 2.0   <rss><channel><item>: title, link, guid, description, content:encoded
//             (http://purl.org/rss/1.0/modules/content/), pubDate (RFC 822), dc:date and
//             dc:creator (http://purl.org/dc/elements/1.1/), author.
//   RSS 1.0   <rdf:RDF> with <item> (http://purl.org/rss/1.0/) beside <channel>: the same fields.
//   Atom 1.0  <feed xmlns="http://www.w3.org/2005/Atom"><entry>: title, link rel="alternate" (or
//             no rel) href, id, summary, content, published, updated, author/name.
// CDATA sections read as text; the five XML entities and character references are decoded by the
// parser; the document may not reach the network (no DTD loading, no external entities).
// Descriptions, content and titles may hold HTML: they are cleaned into plain text by libxml2's
// HTML parser (clean_text). Links are resolved against xml:base and the feed's URL; only http and
// https links are kept.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace news {

// One story as a feed gives it.
struct Entry {
    std::string guid;     // RSS guid / Atom id; may be empty
    std::string title;    // plain text
    std::string url;      // absolute http(s) link; may be empty
    std::string summary;  // plain text of the description / summary
    std::string text;     // plain text of content:encoded / content (else the summary)
    std::string author;   // may be empty
    std::optional<int64_t> published_ms;  // pubDate / dc:date / published / updated
};

// A feed: its own title and its entries in document order.
struct Feed {
    std::string format;  // "rss", "rdf" or "atom"
    std::string title;
    std::vector<Entry> entries;
};

// Reads `xml` fetched from `url` (the base for relative links). Throws
// common::upstream::Malformed for a document that is not well-formed XML or is not RSS or Atom.
// Entries with neither a title nor a link are skipped.
Feed parse_feed(const std::string& xml, const std::string& url);

// Plain text of an HTML fragment: tags dropped (script, style and their content too), entities
// decoded, a line for each block (p, div, li, h1...), a line break for each <br> (two make a
// blank line, never more than one), runs of spaces collapsed, lines trimmed.
std::string clean_text(const std::string& html);

// Unix milliseconds of a feed's date: RFC 822 / RFC 2822 ("Mon, 07 Dec 2026 06:30:00 GMT",
// "7 Dec 26 06:30 +0100", the zones UT, GMT, Z, EST/EDT, CST/CDT, MST/MDT, PST/PDT, military
// letters read as UTC) or RFC 3339 ("2026-12-07T06:30:00Z", "...+01:00"). nullopt otherwise.
std::optional<int64_t> parse_date(const std::string& text);

// The article id of an entry of the feed at `feed_url`: "na-" and 16 hex digits of the SHA-256 of
// its guid, else its link, else the feed's URL and its title — the same story read again gets the
// same id, whichever poll, host or restart.
std::string article_id(const Entry& e, const std::string& feed_url);

}  // namespace news
