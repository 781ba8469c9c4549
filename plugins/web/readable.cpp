#include "readable.hpp"

#include <gumbo.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <memory>
#include <platform/sdk/text.hpp>
#include <set>
#include <unordered_map>

namespace web {

namespace {

// ---- the parse tree ---------------------------------------------------------------------------

struct Parsed {
    explicit Parsed(const std::string& html) {
        if (too_deep(html)) return;
        GumboOptions o = kGumboDefaultOptions;
        o.max_errors = 0;  // errors are not read: do not keep them
        options = o;
        output = gumbo_parse_with_options(&options, html.data(), html.size());
    }
    ~Parsed() {
        if (output) gumbo_destroy_output(&options, output);
    }
    Parsed(const Parsed&) = delete;
    Parsed& operator=(const Parsed&) = delete;
    GumboOptions options = kGumboDefaultOptions;
    GumboOutput* output = nullptr;
};

bool is_element(const GumboNode* n) {
    return n && (n->type == GUMBO_NODE_ELEMENT || n->type == GUMBO_NODE_TEMPLATE);
}

GumboTag tag(const GumboNode* n) {
    return is_element(n) ? n->v.element.tag : GUMBO_TAG_UNKNOWN;
}

std::string attr(const GumboNode* n, const char* name) {
    if (!is_element(n)) return {};
    const GumboAttribute* a = gumbo_get_attribute(&n->v.element.attributes, name);
    return a && a->value ? std::string(a->value) : std::string();
}

// Whitespace runs as one space, trimmed.
std::string collapse(const std::string& s) {
    std::string out;
    bool gap = false;
    for (unsigned char c : s) {
        if (html_space(c)) {
            gap = !out.empty();
        } else {
            if (gap) out += ' ';
            gap = false;
            out += static_cast<char>(c);
        }
    }
    return out;
}

// ---- what is dropped --------------------------------------------------------------------------

bool dropped_tag(GumboTag t) {
    switch (t) {
        case GUMBO_TAG_SCRIPT:
        case GUMBO_TAG_STYLE:
        case GUMBO_TAG_NOSCRIPT:
        case GUMBO_TAG_TEMPLATE:
        case GUMBO_TAG_SVG:
        case GUMBO_TAG_MATH:
        case GUMBO_TAG_CANVAS:
        case GUMBO_TAG_IFRAME:
        case GUMBO_TAG_OBJECT:
        case GUMBO_TAG_EMBED:
        case GUMBO_TAG_FORM:
        case GUMBO_TAG_INPUT:
        case GUMBO_TAG_BUTTON:
        case GUMBO_TAG_SELECT:
        case GUMBO_TAG_TEXTAREA:
        case GUMBO_TAG_LABEL:
        case GUMBO_TAG_NAV:
        case GUMBO_TAG_HEADER:
        case GUMBO_TAG_FOOTER:
        case GUMBO_TAG_ASIDE:
        case GUMBO_TAG_MENU:
        case GUMBO_TAG_HEAD:
        case GUMBO_TAG_AUDIO:
        case GUMBO_TAG_VIDEO:
        case GUMBO_TAG_MAP:
            return true;
        default:
            return false;
    }
}

// The name of an element gumbo does not know, lower case ("dialog").
std::string unknown_name(const GumboNode* n) {
    GumboStringPiece piece = n->v.element.original_tag;
    if (!piece.data || !piece.length) return {};
    gumbo_tag_from_original_text(&piece);
    return platform::lower(std::string(piece.data, piece.length));
}

bool names_any(const std::string& names, std::initializer_list<const char*> words) {
    for (const char* w : words)
        if (names.find(w) != std::string::npos) return true;
    return false;
}

// Class and id names of page furniture, and of content (readability's lists, shortened).
bool furniture_name(const std::string& names) {
    return names_any(
        names, {"comment",   "sidebar", "menu",     "share",      "social",     "cookie", "consent",
                "sponsor",   "advert",  "-ad-",     "banner",     "breadcrumb", "popup",  "modal",
                "related",   "footer",  "masthead", "newsletter", "pagination", "pager",  "skip",
                "subscribe", "promo",   "disqus",   "rss",        "gdpr"});
}
bool content_name(const std::string& names) {
    return names_any(
        names, {"article", "content", "main", "post", "entry", "story", "body", "text", "blog"});
}
std::string names_of(const GumboNode* n) {
    return platform::lower(attr(n, "class") + " " + attr(n, "id"));
}

bool dropped(const GumboNode* n) {
    if (!is_element(n)) return n->type == GUMBO_NODE_COMMENT;
    const GumboTag t = tag(n);
    if (dropped_tag(t)) return true;
    if (t == GUMBO_TAG_UNKNOWN && unknown_name(n) == "dialog") return true;  // not in gumbo 0.10
    if (gumbo_get_attribute(&n->v.element.attributes, "hidden")) return true;
    if (platform::lower(attr(n, "aria-hidden")) == "true") return true;
    const std::string role = platform::lower(attr(n, "role"));
    if (role == "navigation" || role == "banner" || role == "contentinfo" ||
        role == "complementary" || role == "search" || role == "menu" || role == "menubar" ||
        role == "dialog")
        return true;
    if (t == GUMBO_TAG_HTML || t == GUMBO_TAG_BODY || t == GUMBO_TAG_ARTICLE ||
        t == GUMBO_TAG_MAIN || t == GUMBO_TAG_A)
        return false;
    const std::string names = names_of(n);
    return furniture_name(names) && !content_name(names);
}

// ---- measuring ----------------------------------------------------------------------------------

struct Stats {
    size_t chars = 0;       // text characters, whitespace collapsed roughly (runs count once)
    size_t link_chars = 0;  // of which inside <a>
    size_t commas = 0;
};

class Measure {
public:
    const Stats& of(const GumboNode* n, size_t depth = 0) {
        auto it = memo_.find(n);
        if (it != memo_.end()) return it->second;
        Stats s;
        if (n->type == GUMBO_NODE_TEXT || n->type == GUMBO_NODE_CDATA) {
            const std::string text = collapse(n->v.text.text);
            s.chars = platform::utf8_length(text);
            s.commas = static_cast<size_t>(std::count(text.begin(), text.end(), ','));
        } else if (is_element(n) && !dropped(n) && depth < kMaxDepth) {
            const GumboVector& kids = n->v.element.children;
            for (unsigned i = 0; i < kids.length; ++i) {
                const Stats& k = of(static_cast<const GumboNode*>(kids.data[i]), depth + 1);
                s.chars += k.chars;
                s.link_chars += k.link_chars;
                s.commas += k.commas;
            }
            if (tag(n) == GUMBO_TAG_A) s.link_chars = s.chars;
        }
        return memo_.emplace(n, s).first->second;
    }
    double link_density(const GumboNode* n) {
        const Stats& s = of(n);
        return s.chars ? static_cast<double>(s.link_chars) / static_cast<double>(s.chars) : 0.0;
    }

private:
    std::unordered_map<const GumboNode*, Stats> memo_;
};

bool block_tag(GumboTag t) {
    switch (t) {
        case GUMBO_TAG_ADDRESS:
        case GUMBO_TAG_ARTICLE:
        case GUMBO_TAG_BLOCKQUOTE:
        case GUMBO_TAG_DD:
        case GUMBO_TAG_DIV:
        case GUMBO_TAG_DL:
        case GUMBO_TAG_DT:
        case GUMBO_TAG_FIGCAPTION:
        case GUMBO_TAG_FIGURE:
        case GUMBO_TAG_H1:
        case GUMBO_TAG_H2:
        case GUMBO_TAG_H3:
        case GUMBO_TAG_H4:
        case GUMBO_TAG_H5:
        case GUMBO_TAG_H6:
        case GUMBO_TAG_HR:
        case GUMBO_TAG_LI:
        case GUMBO_TAG_MAIN:
        case GUMBO_TAG_OL:
        case GUMBO_TAG_P:
        case GUMBO_TAG_PRE:
        case GUMBO_TAG_SECTION:
        case GUMBO_TAG_TABLE:
        case GUMBO_TAG_TBODY:
        case GUMBO_TAG_THEAD:
        case GUMBO_TAG_TFOOT:
        case GUMBO_TAG_TR:
        case GUMBO_TAG_TD:
        case GUMBO_TAG_TH:
        case GUMBO_TAG_UL:
        case GUMBO_TAG_CAPTION:
        case GUMBO_TAG_DETAILS:
        case GUMBO_TAG_SUMMARY:
        case GUMBO_TAG_BODY:
        case GUMBO_TAG_HTML:
            return true;
        default:
            return false;
    }
}

bool has_block_child(const GumboNode* n) {
    const GumboVector& kids = n->v.element.children;
    for (unsigned i = 0; i < kids.length; ++i) {
        const auto* k = static_cast<const GumboNode*>(kids.data[i]);
        if (is_element(k) && !dropped(k) && (block_tag(tag(k)) || tag(k) == GUMBO_TAG_IMG))
            return true;
    }
    return false;
}

bool paragraph_like(const GumboNode* n) {
    const GumboTag t = tag(n);
    if (t == GUMBO_TAG_P || t == GUMBO_TAG_PRE || t == GUMBO_TAG_TD || t == GUMBO_TAG_BLOCKQUOTE)
        return true;
    return t == GUMBO_TAG_DIV && !has_block_child(n);
}

// ---- scoring ------------------------------------------------------------------------------------

class Scorer {
public:
    explicit Scorer(Measure& m) : m_(m) {}

    // Walks the tree from `n`, scoring paragraphs into their ancestors.
    void walk(const GumboNode* n, size_t depth = 0) {
        if (!is_element(n) || dropped(n) || depth >= kMaxDepth) return;
        if (paragraph_like(n)) score_paragraph(n);
        const GumboVector& kids = n->v.element.children;
        for (unsigned i = 0; i < kids.length; ++i)
            walk(static_cast<const GumboNode*>(kids.data[i]), depth + 1);
    }

    // Final scores (scaled by link density) of every candidate.
    std::unordered_map<const GumboNode*, double> finals() {
        std::unordered_map<const GumboNode*, double> out;
        for (const auto& [n, s] : scores_) out[n] = s * (1.0 - m_.link_density(n));
        return out;
    }

private:
    void score_paragraph(const GumboNode* p) {
        const Stats& s = m_.of(p);
        if (s.chars < 25) return;
        const double points = 1.0 + static_cast<double>(s.commas) +
                              std::min(3.0, std::floor(static_cast<double>(s.chars) / 100.0));
        const GumboNode* a = p->parent;
        for (int level = 0; level < 5 && a && is_element(a); ++level, a = a->parent) {
            if (tag(a) == GUMBO_TAG_HTML) break;
            const double share = level == 0 ? 1.0 : level == 1 ? 2.0 : level * 3.0;
            start(a) += points / share;
        }
    }
    double& start(const GumboNode* n) {
        auto it = scores_.find(n);
        if (it != scores_.end()) return it->second;
        double s = 0;
        switch (tag(n)) {
            case GUMBO_TAG_DIV:
                s = 5;
                break;
            case GUMBO_TAG_ARTICLE:
            case GUMBO_TAG_MAIN:
                s = 10;
                break;
            case GUMBO_TAG_PRE:
            case GUMBO_TAG_TD:
            case GUMBO_TAG_BLOCKQUOTE:
                s = 3;
                break;
            case GUMBO_TAG_ADDRESS:
            case GUMBO_TAG_OL:
            case GUMBO_TAG_UL:
            case GUMBO_TAG_DL:
            case GUMBO_TAG_DD:
            case GUMBO_TAG_DT:
            case GUMBO_TAG_LI:
                s = -3;
                break;
            case GUMBO_TAG_H1:
            case GUMBO_TAG_H2:
            case GUMBO_TAG_H3:
            case GUMBO_TAG_H4:
            case GUMBO_TAG_H5:
            case GUMBO_TAG_H6:
            case GUMBO_TAG_TH:
                s = -5;
                break;
            default:
                break;
        }
        const std::string names = names_of(n);
        if (content_name(names)) s += 25;
        if (furniture_name(names)) s -= 25;
        return scores_.emplace(n, s).first->second;
    }

    Measure& m_;
    std::unordered_map<const GumboNode*, double> scores_;
};

// ---- writing ------------------------------------------------------------------------------------

class Writer {
public:
    Writer(std::string base, std::vector<Link>* links) : base_(std::move(base)), links_(links) {}

    void node(const GumboNode* n, size_t depth = 0, bool pre = false) {
        if (n->type == GUMBO_NODE_TEXT || n->type == GUMBO_NODE_CDATA ||
            n->type == GUMBO_NODE_WHITESPACE) {
            text(n->v.text.text, pre);
            return;
        }
        if (!is_element(n) || dropped(n) || depth >= kMaxDepth) return;
        const GumboTag t = tag(n);
        if (t == GUMBO_TAG_BR) {
            line();
            return;
        }
        if (t == GUMBO_TAG_IMG) return;
        const bool block = block_tag(t);
        if (t == GUMBO_TAG_LI) {
            line();
            literal("- ");
        } else if (t == GUMBO_TAG_TR || t == GUMBO_TAG_DT || t == GUMBO_TAG_DD) {
            line();
        } else if (t == GUMBO_TAG_TD || t == GUMBO_TAG_TH) {
            gap_ = true;
        } else if (block) {
            paragraph();
        }
        if (t == GUMBO_TAG_A) link_start(n);
        const GumboVector& kids = n->v.element.children;
        for (unsigned i = 0; i < kids.length; ++i)
            node(static_cast<const GumboNode*>(kids.data[i]), depth + 1, pre || t == GUMBO_TAG_PRE);
        if (t == GUMBO_TAG_A) link_end();
        if (t == GUMBO_TAG_LI || t == GUMBO_TAG_TR || t == GUMBO_TAG_DT || t == GUMBO_TAG_DD)
            line();
        else if (block && t != GUMBO_TAG_TD && t != GUMBO_TAG_TH)
            paragraph();
    }

    // A paragraph break before the next text (none right after a list item's "- ").
    void paragraph() {
        if (!marker_) pending_ = 2;
    }
    std::string take() { return std::move(out_); }
    // Whether links were left out past kMaxLinks.
    bool more_links() const { return more_links_; }

private:
    void line() {
        if (!marker_ && pending_ < 1) pending_ = 1;
    }
    void breaks() {
        if (!out_.empty() && pending_) {
            while (!out_.empty() && out_.back() == ' ') out_.pop_back();
            while (!out_.empty() && out_.back() == '\n') out_.pop_back();
            out_ += pending_ == 2 ? "\n\n" : "\n";
        }
        pending_ = 0;
        gap_ = false;
    }
    void literal(const char* s) {
        breaks();
        out_ += s;
        marker_ = true;
    }
    void text(const char* raw, bool pre) {
        if (pre) {
            std::string t = raw;
            if (t.empty()) return;
            breaks();
            out_ += t;
            marker_ = false;
            if (anchor_) anchor_text_ += t;
            return;
        }
        for (const char* p = raw; *p; ++p) {
            const auto c = static_cast<unsigned char>(*p);
            if (html_space(c)) {
                gap_ = true;
                continue;
            }
            if (pending_ && !out_.empty()) {
                breaks();
            } else if (gap_ && !out_.empty() && out_.back() != '\n' && out_.back() != ' ') {
                out_ += ' ';
                if (anchor_) anchor_text_ += ' ';
            }
            pending_ = 0;
            gap_ = false;
            marker_ = false;
            out_ += static_cast<char>(c);
            if (anchor_) anchor_text_ += static_cast<char>(c);
        }
    }
    void link_start(const GumboNode* a) {
        anchor_ = true;
        anchor_text_.clear();
        anchor_href_ = trim_space(attr(a, "href"));
        anchor_title_ = attr(a, "title");
    }
    void link_end() {
        anchor_ = false;
        if (!links_ || anchor_href_.empty() || anchor_href_[0] == '#') return;
        const std::string url = resolve(base_, anchor_href_);
        const std::string scheme = platform::lower(url.substr(0, url.find(':')));
        if (scheme != "http" && scheme != "https") return;
        std::string label = collapse(anchor_text_);
        if (label.empty()) label = collapse(anchor_title_);
        if (label.empty() || !seen_.insert(url).second) return;
        if (links_->size() >= kMaxLinks) {
            more_links_ = true;
            return;
        }
        links_->push_back({url, platform::utf8_prefix(label, kMaxLinkTextChars)});
    }

    std::string base_;
    std::vector<Link>* links_;
    std::string out_;
    int pending_ = 0;      // 1: a line break, 2: a paragraph break before the next text
    bool marker_ = false;  // a list item's "- " is the last thing written
    bool gap_ = false;
    bool anchor_ = false;
    std::string anchor_text_, anchor_href_, anchor_title_;
    std::set<std::string> seen_;
    bool more_links_ = false;
};

// ---- finding things -----------------------------------------------------------------------------

const GumboNode* find_first(const GumboNode* n, GumboTag t, size_t depth = 0) {
    if (!is_element(n) || depth >= kMaxDepth) return nullptr;
    if (tag(n) == t) return n;
    const GumboVector& kids = n->v.element.children;
    for (unsigned i = 0; i < kids.length; ++i)
        if (const GumboNode* f =
                find_first(static_cast<const GumboNode*>(kids.data[i]), t, depth + 1))
            return f;
    return nullptr;
}

void find_all(const GumboNode* n, GumboTag t, std::vector<const GumboNode*>* out,
              size_t depth = 0) {
    if (!is_element(n) || depth >= kMaxDepth) return;
    if (tag(n) == t) out->push_back(n);
    const GumboVector& kids = n->v.element.children;
    for (unsigned i = 0; i < kids.length; ++i)
        find_all(static_cast<const GumboNode*>(kids.data[i]), t, out, depth + 1);
}

// All the text under `n` (nothing dropped), collapsed.
std::string plain(const GumboNode* n, size_t depth = 0) {
    if (n->type == GUMBO_NODE_TEXT || n->type == GUMBO_NODE_CDATA ||
        n->type == GUMBO_NODE_WHITESPACE)
        return n->v.text.text;
    if (!is_element(n) || depth >= kMaxDepth) return {};
    const GumboTag t = tag(n);
    if (t == GUMBO_TAG_SCRIPT || t == GUMBO_TAG_STYLE || t == GUMBO_TAG_TEMPLATE) return {};
    std::string out;
    const GumboVector& kids = n->v.element.children;
    for (unsigned i = 0; i < kids.length; ++i) {
        out += plain(static_cast<const GumboNode*>(kids.data[i]), depth + 1);
        if (t == GUMBO_TAG_BR || block_tag(t)) out += ' ';
    }
    return out;
}

// <meta name=…|property=…> content.
std::string meta(const GumboNode* root, const char* key) {
    std::vector<const GumboNode*> metas;
    find_all(root, GUMBO_TAG_META, &metas);
    for (const GumboNode* m : metas)
        if (platform::lower(attr(m, "name")) == key || platform::lower(attr(m, "property")) == key)
            return collapse(attr(m, "content"));
    return {};
}

const GumboNode* body_of(const GumboNode* root) {
    const GumboNode* b = find_first(root, GUMBO_TAG_BODY);
    return b ? b : root;
}

}  // namespace

// ---- the page -----------------------------------------------------------------------------------

Page readable(const std::string& html, const std::string& page_url) {
    Page page;
    Parsed parsed(html);
    if (!parsed.output) return page;
    const GumboNode* root = parsed.output->root;

    page.lang = collapse(attr(root, "lang"));
    if (const GumboNode* t = find_first(root, GUMBO_TAG_TITLE)) page.title = collapse(plain(t));
    if (page.title.empty())
        if (const GumboNode* h = find_first(body_of(root), GUMBO_TAG_H1))
            page.title = collapse(plain(h));
    if (page.title.empty()) page.title = meta(root, "og:title");
    page.title = platform::utf8_prefix(page.title, kMaxTitleChars);
    page.description = meta(root, "description");
    if (page.description.empty()) page.description = meta(root, "og:description");
    page.description = platform::utf8_prefix(page.description, 2 * kMaxTitleChars);

    std::string base = page_url;
    if (const GumboNode* b = find_first(root, GUMBO_TAG_BASE)) {
        const std::string href = trim_space(attr(b, "href"));
        if (!href.empty()) {
            const std::string resolved = resolve(page_url, href);
            if (!resolved.empty()) base = resolved;
        }
    }

    Measure measure;
    Scorer scorer(measure);
    const GumboNode* body = body_of(root);
    scorer.walk(body);
    const auto scores = scorer.finals();
    const GumboNode* top = nullptr;
    double best = 0;
    for (const auto& [n, s] : scores)
        if (!top || s > best || (s == best && n->index_within_parent < top->index_within_parent)) {
            top = n;
            best = s;
        }

    Writer w(base, &page.links);
    if (!top || best <= 0) {
        w.node(body);
    } else if (!top->parent || !is_element(top->parent) || top == body) {
        w.node(top);
    } else {
        // The top candidate with the siblings that belong with it.
        const double threshold = std::max(10.0, best * 0.2);
        const std::string top_class = attr(top, "class");
        const GumboVector& kids = top->parent->v.element.children;
        for (unsigned i = 0; i < kids.length; ++i) {
            const auto* s = static_cast<const GumboNode*>(kids.data[i]);
            if (!is_element(s) || dropped(s)) continue;
            bool keep = s == top;
            if (!keep) {
                auto it = scores.find(s);
                double score = it == scores.end() ? 0 : it->second;
                if (!top_class.empty() && attr(s, "class") == top_class) score += best * 0.2;
                keep = score >= threshold;
                if (!keep && tag(s) == GUMBO_TAG_P) {
                    const Stats& st = measure.of(s);
                    const double density = measure.link_density(s);
                    const std::string t = collapse(plain(s));
                    keep = (st.chars > 80 && density < 0.25) ||
                           (st.chars > 0 && st.chars <= 80 && density == 0 &&
                            t.find(". ") != std::string::npos);
                }
            }
            if (keep) {
                w.node(s);
                w.paragraph();
            }
        }
    }
    page.links_truncated = w.more_links();
    page.text = cut_text(trim_space(w.take()), kMaxTextChars, &page.truncated);
    return page;
}

std::optional<std::string> declared_charset(const std::string& html) {
    Parsed parsed(html);
    if (!parsed.output) return std::nullopt;
    std::vector<const GumboNode*> metas;
    find_all(parsed.output->root, GUMBO_TAG_META, &metas);
    for (const GumboNode* m : metas) {
        std::string cs = platform::lower(trim_space(attr(m, "charset")));
        if (!cs.empty()) return cs;
        if (platform::lower(trim_space(attr(m, "http-equiv"))) == "content-type") {
            const std::string content = platform::lower(attr(m, "content"));
            const auto at = content.find("charset=");
            if (at == std::string::npos) continue;
            cs = content.substr(at + 8);
            const auto end = cs.find_first_of("; \t\"'");
            cs = trim_space(cs.substr(0, end));
            if (!cs.empty() && cs.front() == '"') cs.erase(0, 1);
            if (!cs.empty()) return cs;
        }
    }
    return std::nullopt;
}

std::string fragment_text(const std::string& html) {
    Parsed parsed(html);
    if (!parsed.output) return {};
    return collapse(plain(body_of(parsed.output->root)));
}

// ---- shared ------------------------------------------------------------------------------------

bool html_space(unsigned char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

std::string trim_space(const std::string& s) {
    size_t a = 0, b = s.size();
    while (a < b && html_space(static_cast<unsigned char>(s[a]))) ++a;
    while (b > a && html_space(static_cast<unsigned char>(s[b - 1]))) --b;
    return s.substr(a, b - a);
}

}  // namespace web
