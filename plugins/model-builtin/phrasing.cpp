#include "phrasing.hpp"

#include <cctype>
#include <vector>

namespace builtin {

namespace {

bool space(char c) {
    return std::isspace(static_cast<unsigned char>(c)) != 0;
}

std::string trim(const std::string& s) {
    size_t b = 0, e = s.size();
    while (b < e && space(s[b])) ++b;
    while (e > b && space(s[e - 1])) --e;
    return s.substr(b, e - b);
}

bool starts_with_word(const std::string& text, const std::string& phrase) {
    if (text.size() < phrase.size() || lower(text.substr(0, phrase.size())) != phrase) return false;
    return text.size() == phrase.size() || space(text[phrase.size()]) || text[phrase.size()] == ',';
}

bool ends_with_word(const std::string& text, const std::string& phrase) {
    if (text.size() <= phrase.size() || lower(text.substr(text.size() - phrase.size())) != phrase)
        return false;
    const char before = text[text.size() - phrase.size() - 1];
    return space(before) || before == ',';
}

std::string cut_utf8(const std::string& s, size_t max) {
    if (s.size() <= max) return s;
    size_t n = max;
    while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
    return trim(s.substr(0, n));
}

}  // namespace

std::string strip_leading(std::string text, std::initializer_list<const char*> words) {
    text = trim(text);
    for (bool again = true; again;) {
        again = false;
        for (const char* w : words)
            if (starts_with_word(text, w) && text.size() > std::string(w).size()) {
                text = trim(text.substr(std::string(w).size()));
                again = true;
            }
    }
    return text;
}

std::string unquoted(std::string text) {
    text = trim(text);
    while (text.size() >= 2 && ((text.front() == '"' && text.back() == '"') ||
                                (text.front() == '\'' && text.back() == '\'')))
        text = trim(text.substr(1, text.size() - 2));
    return text;
}

std::string normalise(const std::string& text) {
    static const std::vector<std::pair<std::string, std::string>> quotes = {{"\xE2\x80\x99", "'"},
                                                                            {"\xE2\x80\x98", "'"},
                                                                            {"\xE2\x80\x9C", "\""},
                                                                            {"\xE2\x80\x9D", "\""}};
    std::string s = text;
    for (const auto& [from, to] : quotes)
        for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
            s.replace(at, from.size(), to);
    std::string out;
    for (char c : s) {
        if (space(c)) {
            if (!out.empty() && out.back() != ' ') out += ' ';
        } else {
            out += c;
        }
    }
    static const char* const leading[] = {"please",
                                          "pls",
                                          "could you please",
                                          "could you",
                                          "can you please",
                                          "can you",
                                          "would you please",
                                          "would you kindly",
                                          "would you",
                                          "will you",
                                          "kindly",
                                          "hey",
                                          "hi",
                                          "hello",
                                          "ok",
                                          "okay",
                                          "so",
                                          "now",
                                          "just",
                                          "i'd like you to",
                                          "i would like you to",
                                          "i want you to",
                                          "go ahead and",
                                          "assistant"};
    static const char* const trailing[] = {"please", "for me", "thanks", "thank you", "thx"};
    for (bool again = true; again;) {
        again = false;
        out = trim(out);
        while (!out.empty() &&
               (out.back() == '.' || out.back() == '!' || out.back() == '?' || out.back() == ','))
            out.pop_back(), again = true;
        while (!out.empty() && out.front() == ',') out.erase(0, 1), again = true;
        for (const char* w : leading)
            if (starts_with_word(out, w) && out.size() > std::string(w).size()) {
                out = out.substr(std::string(w).size());
                again = true;
                break;
            }
        for (const char* w : trailing)
            if (ends_with_word(out, w)) {
                out.erase(out.size() - std::string(w).size());
                again = true;
                break;
            }
    }
    return trim(out);
}

std::string short_title(const std::string& text) {
    const std::string t = trim(text), l = lower(t);
    size_t cut = std::string::npos;
    for (const char* sep : {" is ", " are ", " was ", " were ", ": ", " = ", " - "})
        if (const size_t at = l.find(sep); at != std::string::npos && at > 0 && at < cut) cut = at;
    std::string head = strip_leading(cut == std::string::npos ? t : t.substr(0, cut),
                                     {"the", "a", "an", "my", "our", "your", "that"});
    if (head.empty()) head = t;
    std::string out;
    size_t words = 0;
    for (size_t i = 0; i < head.size() && words < 6;) {
        const size_t e = std::min(head.find(' ', i), head.size());
        out += (out.empty() ? "" : " ") + head.substr(i, e - i);
        ++words;
        i = e + 1;
    }
    while (!out.empty() && (out.back() == ',' || out.back() == ':' || out.back() == '.'))
        out.pop_back();
    return cut_utf8(out, 80);
}

}  // namespace builtin
