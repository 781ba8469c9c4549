#include <ctime>
#include <set>

#include "blog.hpp"

using platform::json;

namespace {

bool space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

std::string collapse(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (space(c)) {
            if (!out.empty() && out.back() != ' ') out += ' ';
        } else {
            out += c;
        }
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out;
}

// At most `max` UTF-8 characters of `text`; with `at_word`, cut at the last space when there is
// one in the second half. Appends "…" when cut.
std::string cut(const std::string& text, size_t max, bool at_word) {
    size_t chars = 0;
    for (size_t i = 0; i < text.size(); ++i) {
        if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80 || chars++ < max) continue;
        std::string head = text.substr(0, i);
        auto sp = head.rfind(' ');
        if (at_word && sp != std::string::npos && sp > head.size() / 2) head = head.substr(0, sp);
        while (!head.empty() && head.back() == ' ') head.pop_back();
        return head + "…";
    }
    return text;
}

}  // namespace

namespace blog {

std::string title_from(const std::string& content) {
    size_t start = 0;
    while (start <= content.size()) {
        size_t end = content.find('\n', start);
        if (end == std::string::npos) end = content.size();
        std::string line = collapse(content.substr(start, end - start));
        size_t skip = 0;
        while (skip < line.size() && (line[skip] == '#' || line[skip] == '>' || line[skip] == '*' ||
                                      line[skip] == '-' || line[skip] == ' '))
            ++skip;
        line = line.substr(skip);
        if (!line.empty()) return cut(line, 80, true);
        start = end + 1;
    }
    return "Untitled";
}

std::string snippet(const std::string& content) {
    return cut(collapse(content), 200, true);
}

std::string tags(const std::string& text) {
    std::string out;
    std::set<std::string> seen;
    size_t i = 0;
    while (i <= text.size()) {
        size_t j = text.find(',', i);
        if (j == std::string::npos) j = text.size();
        std::string tag = collapse(text.substr(i, j - i));
        if (!tag.empty() && seen.insert(tag).second) out += (out.empty() ? "" : ",") + tag;
        i = j + 1;
    }
    return out;
}

json card(const json& post) {
    json out = post;
    out.erase("content");
    out["snippet"] = snippet(post.value("content", ""));
    return out;
}

json visible(json post) {
    post.erase("seq");
    return post;
}

}  // namespace blog
