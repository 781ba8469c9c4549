// nesting.cpp — too_deep (readable.hpp): how deep a page's tags nest, estimated before any parse.
#include <platform/sdk/text.hpp>
#include <string>
#include <vector>

#include "readable.hpp"

namespace web {

namespace {

bool one_of(const std::string& name, std::initializer_list<const char*> names) {
    for (const char* n : names)
        if (name == n) return true;
    return false;
}

// Elements that never hold others, or whose end tag is optional (the next one closes them).
bool does_not_nest(const std::string& name) {
    return one_of(name, {"area",   "base", "br",   "col",      "embed",   "hr",     "img",
                         "input",  "link", "meta", "param",    "source",  "track",  "wbr",
                         "keygen", "p",    "li",   "dt",       "dd",      "option", "optgroup",
                         "tr",     "td",   "th",   "thead",    "tbody",   "tfoot",  "rb",
                         "rt",     "rp",   "rtc",  "colgroup", "caption", "frame",  "image"});
}

// Elements whose content is text up to their end tag.
bool raw_text(const std::string& name) {
    return one_of(name, {"script", "style", "textarea", "title", "xmp", "noembed", "noframes",
                         "iframe", "plaintext"});
}

bool name_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == ':' || c == '_';
}

}  // namespace

bool too_deep(const std::string& html) {
    const std::string h = platform::lower(html);
    const size_t n = h.size();
    size_t depth = 0, foreign = 0, i = 0;
    while (i < n) {
        const size_t lt = h.find('<', i);
        if (lt == std::string::npos || lt + 1 >= n) break;
        i = lt + 1;
        if (h.compare(i, 3, "!--") == 0) {
            const size_t end = h.find("-->", i + 3);
            if (end == std::string::npos) break;
            i = end + 3;
            continue;
        }
        const bool closing = h[i] == '/';
        const size_t start = closing ? i + 1 : i;
        if (start >= n || !std::isalpha(static_cast<unsigned char>(h[start]))) continue;
        size_t end = start;
        while (end < n && name_char(h[end])) ++end;
        const std::string name = h.substr(start, end - start);
        const size_t gt = h.find('>', end);
        if (gt == std::string::npos) break;
        const bool self_closed = h[gt - 1] == '/';
        i = gt + 1;
        if (closing) {
            if (!does_not_nest(name) && depth) --depth;
            if ((name == "svg" || name == "math") && foreign) --foreign;
            continue;
        }
        if (raw_text(name) && !self_closed) {
            const size_t close = h.find("</" + name, i);
            if (close == std::string::npos) break;
            i = close;
            continue;
        }
        if (does_not_nest(name) || (self_closed && foreign)) continue;
        if (name == "svg" || name == "math") {
            if (self_closed) continue;
            ++foreign;
        }
        if (++depth > kMaxNesting) return true;
    }
    return false;
}

}  // namespace web
