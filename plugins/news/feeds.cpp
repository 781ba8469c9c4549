#include "feeds.hpp"

#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/uri.h>
#include <openssl/sha.h>

#include <array>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>

#include "common/time/time.hpp"
#include "common/upstream/upstream.hpp"

namespace news {

using common::upstream::Malformed;

namespace {

constexpr const char* kAtom = "http://www.w3.org/2005/Atom";
constexpr const char* kRss1 = "http://purl.org/rss/1.0/";
constexpr const char* kRdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
constexpr const char* kContent = "http://purl.org/rss/1.0/modules/content/";
constexpr const char* kDc = "http://purl.org/dc/elements/1.1/";

void init_libxml() {
    static std::once_flag once;
    std::call_once(once, [] { xmlInitParser(); });
}

std::string str(const xmlChar* s) {
    return s ? reinterpret_cast<const char*>(s) : "";
}

// An element named `name` in namespace `ns` (nullptr: in no namespace).
bool is(const xmlNode* n, const char* name, const char* ns) {
    if (!n || n->type != XML_ELEMENT_NODE || std::strcmp(str(n->name).c_str(), name) != 0)
        return false;
    if (!ns) return n->ns == nullptr || n->ns->href == nullptr;
    return n->ns && n->ns->href && str(n->ns->href) == ns;
}

const xmlNode* first(const xmlNode* parent, const char* name, const char* ns) {
    if (!parent) return nullptr;
    for (const xmlNode* c = parent->children; c; c = c->next)
        if (is(c, name, ns)) return c;
    return nullptr;
}

std::string attr(const xmlNode* n, const char* name) {
    std::unique_ptr<xmlChar, void (*)(void*)> v(
        xmlGetProp(n, reinterpret_cast<const xmlChar*>(name)), xmlFree);
    return str(v.get());
}

bool space(unsigned char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

std::string trim(std::string s) {
    size_t a = 0, b = s.size();
    while (a < b && space(s[a])) ++a;
    while (b > a && space(s[b - 1])) --b;
    return s.substr(a, b - a);
}

// The text of an element (CDATA and entities decoded by the parser), trimmed.
std::string text(const xmlNode* n) {
    if (!n) return "";
    std::unique_ptr<xmlChar, void (*)(void*)> t(xmlNodeGetContent(n), xmlFree);
    return trim(str(t.get()));
}

// What an element holds as markup: its children serialised when it has element children
// (an RSS description with unescaped XHTML, Atom's type="xhtml"), else its text, which is then
// HTML written as escaped text or CDATA.
std::string markup(const xmlNode* n) {
    if (!n) return "";
    bool elements = false;
    for (const xmlNode* c = n->children; c; c = c->next) elements |= c->type == XML_ELEMENT_NODE;
    if (!elements) return text(n);
    std::unique_ptr<xmlBuffer, void (*)(xmlBuffer*)> buf(xmlBufferCreate(), xmlBufferFree);
    for (xmlNode* c = n->children; c; c = c->next) xmlNodeDump(buf.get(), n->doc, c, 0, 0);
    return str(xmlBufferContent(buf.get()));
}

// Atom's text constructs (title, summary, content): type "html" and "xhtml" are cleaned, "text"
// (the default) has its white space collapsed.
std::string atom_text(const xmlNode* n) {
    if (!n) return "";
    const std::string type = attr(n, "type");
    if (type == "html" || type == "xhtml" || type == "text/html") return clean_text(markup(n));
    std::string out;
    bool gap = false;
    for (char c : text(n)) {
        if (space(static_cast<unsigned char>(c))) {
            gap = true;
            continue;
        }
        if (gap && !out.empty()) out += ' ';
        gap = false;
        out += c;
    }
    return out;
}

// `href` resolved against the element's xml:base (and the document's URL); "" unless http(s).
std::string resolve(const xmlNode* n, const std::string& href) {
    if (href.empty()) return "";
    std::unique_ptr<xmlChar, void (*)(void*)> base(xmlNodeGetBase(n->doc, n), xmlFree);
    std::unique_ptr<xmlChar, void (*)(void*)> abs(
        xmlBuildURI(reinterpret_cast<const xmlChar*>(href.c_str()), base.get()), xmlFree);
    std::string url = abs ? str(abs.get()) : href;
    std::string scheme = url.substr(0, url.find(':'));
    for (auto& c : scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return scheme == "http" || scheme == "https" ? url : "";
}

Entry rss_entry(const xmlNode* item, const char* ns) {
    Entry e;
    e.title = clean_text(markup(first(item, "title", ns)));
    const xmlNode* link = first(item, "link", ns);
    if (link) e.url = resolve(link, text(link));
    const xmlNode* guid = first(item, "guid", ns);
    e.guid = text(guid);
    if (ns) {  // RSS 1.0: the item's rdf:about is its identifier
        std::unique_ptr<xmlChar, void (*)(void*)> about(
            xmlGetNsProp(item, reinterpret_cast<const xmlChar*>("about"),
                         reinterpret_cast<const xmlChar*>(kRdf)),
            xmlFree);
        if (e.guid.empty()) e.guid = str(about.get());
    }
    if (e.url.empty() && guid && attr(guid, "isPermaLink") != "false")
        e.url = resolve(guid, e.guid);
    e.summary = clean_text(markup(first(item, "description", ns)));
    e.text = clean_text(markup(first(item, "encoded", kContent)));
    if (e.text.empty()) e.text = e.summary;
    if (e.summary.empty()) e.summary = e.text;
    if (const xmlNode* d = first(item, "pubDate", ns)) e.published_ms = parse_date(text(d));
    if (!e.published_ms)
        if (const xmlNode* d = first(item, "date", kDc)) e.published_ms = parse_date(text(d));
    e.author = text(first(item, "creator", kDc));
    if (e.author.empty()) e.author = text(first(item, "author", ns));
    return e;
}

Entry atom_entry(const xmlNode* entry) {
    Entry e;
    e.title = atom_text(first(entry, "title", kAtom));
    e.guid = text(first(entry, "id", kAtom));
    std::string fallback;
    for (const xmlNode* c = entry->children; c; c = c->next) {
        if (!is(c, "link", kAtom)) continue;
        const std::string rel = attr(c, "rel");
        const std::string href = resolve(c, attr(c, "href"));
        if (href.empty()) continue;
        if (rel.empty() || rel == "alternate") {
            e.url = href;
            break;
        }
        if (fallback.empty() && rel != "self" && rel != "enclosure") fallback = href;
    }
    if (e.url.empty()) e.url = fallback;
    e.summary = atom_text(first(entry, "summary", kAtom));
    const xmlNode* content = first(entry, "content", kAtom);
    if (content && attr(content, "src").empty()) e.text = atom_text(content);
    if (e.text.empty()) e.text = e.summary;
    if (e.summary.empty()) e.summary = e.text;
    if (const xmlNode* d = first(entry, "published", kAtom)) e.published_ms = parse_date(text(d));
    if (!e.published_ms)
        if (const xmlNode* d = first(entry, "updated", kAtom)) e.published_ms = parse_date(text(d));
    e.author = text(first(first(entry, "author", kAtom), "name", kAtom));
    return e;
}

void keep(Feed& f, Entry e) {
    if (!e.title.empty() || !e.url.empty()) f.entries.push_back(std::move(e));
}

// ---- HTML to text ------------------------------------------------------------------------------

// In the text walk() gathers: a block element's edge ends a line (however many meet), a <br>
// ends one too and a second in a row makes a blank line.
constexpr char kSoftBreak = '\x01';
constexpr char kHardBreak = '\n';

bool block(const std::string& name) {
    static const char* const kBlocks[] = {
        "p",       "div",    "li",     "ul",     "ol",         "h1",         "h2",  "h3",
        "h4",      "h5",     "h6",     "tr",     "table",      "blockquote", "pre", "section",
        "article", "header", "footer", "figure", "figcaption", "hr",         "dd",  "dt",
        "dl",      "aside",  "nav",    "main",   "address"};
    for (const char* b : kBlocks)
        if (name == b) return true;
    return false;
}

bool hidden(const std::string& name) {
    return name == "script" || name == "style" || name == "noscript" || name == "template" ||
           name == "head" || name == "iframe" || name == "object";
}

void walk(const xmlNode* n, std::string& out) {
    for (; n; n = n->next) {
        if (n->type == XML_TEXT_NODE || n->type == XML_CDATA_SECTION_NODE) {
            const std::string t = str(n->content);
            for (size_t i = 0; i < t.size(); ++i) {
                const unsigned char c = t[i];
                if (space(c)) {
                    out += ' ';
                } else if (c == 0xC2 && i + 1 < t.size() &&
                           static_cast<unsigned char>(t[i + 1]) == 0xA0) {
                    out += ' ';  // no-break space
                    ++i;
                } else {
                    out += static_cast<char>(c);
                }
            }
        } else if (n->type == XML_ELEMENT_NODE) {
            std::string name = str(n->name);
            for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            if (hidden(name)) continue;
            if (name == "br") {
                out += kHardBreak;
                continue;
            }
            const bool b = block(name);
            if (b) out += kSoftBreak;
            walk(n->children, out);
            if (b) out += kSoftBreak;
        }
    }
}

// Spaces collapsed, lines trimmed, at most one blank line in a row, the whole trimmed.
std::string tidy(const std::string& raw) {
    std::string out, line;
    int hard = 0;  // <br>s since the last line
    bool blank = false;
    auto end_line = [&](bool hard_break) {
        const std::string t = trim(line);
        line.clear();
        if (t.empty()) {
            if (hard_break && ++hard >= 2 && !out.empty()) blank = true;
            return;
        }
        if (!out.empty()) out += blank ? "\n\n" : "\n";
        out += t;
        blank = false;
        hard = hard_break ? 1 : 0;
    };
    for (char c : raw) {
        if (c == kSoftBreak || c == kHardBreak) {
            end_line(c == kHardBreak);
        } else if (c == ' ') {
            if (!line.empty() && line.back() != ' ') line += ' ';
        } else {
            line += c;
        }
    }
    end_line(false);
    return out;
}

// Day number of a month's three-letter English name, 0 for none.
int month_of(std::string m) {
    static const char* const kMonths[] = {"jan", "feb", "mar", "apr", "may", "jun",
                                          "jul", "aug", "sep", "oct", "nov", "dec"};
    if (m.size() < 3) return 0;
    m = m.substr(0, 3);
    for (auto& c : m) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (int i = 0; i < 12; ++i)
        if (m == kMonths[i]) return i + 1;
    return 0;
}

bool digits(const std::string& s) {
    if (s.empty()) return false;
    for (char c : s)
        if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    return true;
}

// Seconds east of UTC of an RFC 822 zone, nullopt for one not known.
std::optional<int> zone_of(std::string z) {
    if (z.empty()) return 0;
    if ((z[0] == '+' || z[0] == '-') && z.size() == 5 && digits(z.substr(1))) {
        const int h = std::stoi(z.substr(1, 2)), m = std::stoi(z.substr(3, 2));
        if (h > 23 || m > 59) return std::nullopt;
        return (z[0] == '-' ? -1 : 1) * (h * 3600 + m * 60);
    }
    for (auto& c : z) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    static const std::pair<const char*, int> kZones[] = {
        {"UT", 0},   {"UTC", 0},  {"GMT", 0},  {"Z", 0},    {"EST", -5}, {"EDT", -4},
        {"CST", -6}, {"CDT", -5}, {"MST", -7}, {"MDT", -6}, {"PST", -8}, {"PDT", -7}};
    for (const auto& [name, h] : kZones)
        if (z == name) return h * 3600;
    if (z.size() == 1 && std::isalpha(static_cast<unsigned char>(z[0])) && z != "J")
        return 0;  // military zones: RFC 2822 says to read them as UTC
    return std::nullopt;
}

std::optional<int64_t> parse_rfc822(const std::string& s) {
    std::vector<std::string> t;
    std::string cur;
    for (char c : s) {
        if (space(static_cast<unsigned char>(c)) || c == ',') {
            if (!cur.empty()) t.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty()) t.push_back(cur);
    size_t i = 0;
    if (i < t.size() && !t[i].empty() && std::isalpha(static_cast<unsigned char>(t[i][0]))) ++i;
    if (t.size() < i + 4) return std::nullopt;
    if (!digits(t[i]) || t[i].size() > 2) return std::nullopt;
    const int day = std::stoi(t[i]);
    const int month = month_of(t[i + 1]);
    if (!digits(t[i + 2]) || (t[i + 2].size() != 2 && t[i + 2].size() != 4) || month == 0)
        return std::nullopt;
    int year = std::stoi(t[i + 2]);
    if (t[i + 2].size() == 2) year += year < 50 ? 2000 : 1900;
    // hh:mm or hh:mm:ss
    const std::string& hms = t[i + 3];
    int h = 0, m = 0, sec = 0;
    if (hms.size() == 5 && hms[2] == ':' && digits(hms.substr(0, 2)) && digits(hms.substr(3, 2))) {
        h = std::stoi(hms.substr(0, 2));
        m = std::stoi(hms.substr(3, 2));
    } else if (hms.size() == 8 && hms[2] == ':' && hms[5] == ':' && digits(hms.substr(0, 2)) &&
               digits(hms.substr(3, 2)) && digits(hms.substr(6, 2))) {
        h = std::stoi(hms.substr(0, 2));
        m = std::stoi(hms.substr(3, 2));
        sec = std::stoi(hms.substr(6, 2));
    } else {
        return std::nullopt;
    }
    if (h > 23 || m > 59 || sec > 60 || !common::time::valid_date(year, month, day))
        return std::nullopt;
    if (sec == 60) sec = 59;
    const auto zone = zone_of(t.size() > i + 4 ? t[i + 4] : "");
    if (!zone || t.size() > i + 5) return std::nullopt;
    const int64_t local =
        common::time::days_from_civil(year, month, day) * 86400 + h * 3600 + m * 60 + sec;
    return (local - *zone) * 1000;
}

}  // namespace

Feed parse_feed(const std::string& xml, const std::string& url) {
    init_libxml();
    // No network, no DTD loading or entity substitution, no messages on stderr; CDATA as text.
    std::unique_ptr<xmlDoc, void (*)(xmlDoc*)> doc(
        xmlReadMemory(
            xml.data(), static_cast<int>(xml.size()), url.c_str(), nullptr,
            XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_NOCDATA),
        xmlFreeDoc);
    if (!doc) throw Malformed("the feed is not well-formed XML");
    const xmlNode* root = xmlDocGetRootElement(doc.get());
    if (!root) throw Malformed("the feed is an empty document");
    Feed f;
    if (is(root, "rss", nullptr)) {
        f.format = "rss";
        const xmlNode* channel = first(root, "channel", nullptr);
        if (!channel) throw Malformed("the RSS document has no <channel>");
        f.title = clean_text(markup(first(channel, "title", nullptr)));
        for (const xmlNode* c = channel->children; c; c = c->next)
            if (is(c, "item", nullptr)) keep(f, rss_entry(c, nullptr));
    } else if (is(root, "RDF", kRdf)) {
        f.format = "rdf";
        f.title = clean_text(markup(first(first(root, "channel", kRss1), "title", kRss1)));
        for (const xmlNode* c = root->children; c; c = c->next)
            if (is(c, "item", kRss1)) keep(f, rss_entry(c, kRss1));
    } else if (is(root, "feed", kAtom)) {
        f.format = "atom";
        f.title = atom_text(first(root, "title", kAtom));
        for (const xmlNode* c = root->children; c; c = c->next)
            if (is(c, "entry", kAtom)) keep(f, atom_entry(c));
    } else {
        throw Malformed("the document is not an RSS or Atom feed (its root is <" + str(root->name) +
                        ">)");
    }
    return f;
}

std::string clean_text(const std::string& html) {
    if (trim(html).empty()) return "";
    init_libxml();
    std::unique_ptr<xmlDoc, void (*)(xmlDoc*)> doc(
        htmlReadMemory(html.data(), static_cast<int>(html.size()), nullptr, "UTF-8",
                       HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING),
        xmlFreeDoc);
    if (!doc) return "";
    std::string raw;
    walk(xmlDocGetRootElement(doc.get()), raw);
    return tidy(raw);
}

std::optional<int64_t> parse_date(const std::string& in) {
    const std::string s = trim(in);
    if (s.empty()) return std::nullopt;
    if (std::isdigit(static_cast<unsigned char>(s[0])) && s.size() >= 10 && s[4] == '-') {
        // RFC 3339, and W3C-DTF's shorter forms (dc:date): a date alone, a time without seconds.
        std::string t = s;
        if (t.size() == 10) t += "T00:00:00Z";
        if (t.size() > 16 && t[13] == ':' && t[16] != ':') t.insert(16, ":00");
        if (auto at = common::time::parse_rfc3339(t)) return at->utc_ms();
        if (!digits(s.substr(0, 4))) return std::nullopt;
    }
    return parse_rfc822(s);
}

std::string article_id(const Entry& e, const std::string& feed_url) {
    const std::string seed = !e.guid.empty()  ? "guid\n" + e.guid
                             : !e.url.empty() ? "link\n" + e.url
                                              : "title\n" + feed_url + "\n" + e.title;
    unsigned char d[SHA256_DIGEST_LENGTH];
    SHA256(reinterpret_cast<const unsigned char*>(seed.data()), seed.size(), d);
    std::string id = "na-";
    char two[3];
    for (int i = 0; i < 8; ++i) {
        std::snprintf(two, sizeof two, "%02x", d[i]);
        id += two;
    }
    return id;
}

}  // namespace news
