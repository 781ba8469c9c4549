#include "html_text.hpp"

#include <cctype>
#include <cstdlib>

namespace mail {

namespace {

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

void append_utf8(std::string& out, unsigned long cp) {
    if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) cp = 0xFFFD;
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

// The character reference at html[i] ('&'): appended to `out`; returns where it ends.
std::size_t reference(const std::string& html, std::size_t i, std::string& out) {
    const std::size_t semi = html.find(';', i);
    if (semi == std::string::npos || semi - i > 10) return out += '&', i + 1;
    const std::string name = html.substr(i + 1, semi - i - 1);
    static const std::pair<const char*, const char*> named[] = {
        {"amp", "&"}, {"lt", "<"}, {"gt", ">"}, {"quot", "\""}, {"apos", "'"}, {"nbsp", " "}};
    for (auto& [n, v] : named)
        if (name == n) return out += v, semi + 1;
    if (name.size() > 1 && name[0] == '#') {
        const bool hex = name[1] == 'x' || name[1] == 'X';
        char* end = nullptr;
        const unsigned long cp = std::strtoul(name.c_str() + (hex ? 2 : 1), &end, hex ? 16 : 10);
        if (end && *end == 0) return append_utf8(out, cp), semi + 1;
    }
    return out += '&', i + 1;
}

}  // namespace

std::string html_to_text(const std::string& html) {
    std::string raw;
    for (std::size_t i = 0; i < html.size();) {
        if (html.compare(i, 4, "<!--") == 0) {
            const std::size_t end = html.find("-->", i + 4);
            i = end == std::string::npos ? html.size() : end + 3;
        } else if (html[i] == '<') {
            const std::size_t end = html.find('>', i);
            if (end == std::string::npos) break;
            std::string tag = lower(html.substr(i + 1, end - i - 1));
            const std::size_t stop = tag.find_first_of(" \t\r\n/", tag[0] == '/' ? 1 : 0);
            const std::string name = tag.substr(0, stop);
            i = end + 1;
            if (name == "script" || name == "style") {  // their contents are no text
                const std::size_t close = lower(html.substr(i)).find("</" + name);
                i = close == std::string::npos ? html.size() : i + close;
            } else if (name == "br" || name == "/p" || name == "/div" || name == "/li" ||
                       name == "/tr" || name == "p" ||
                       (name.size() == 3 && name[0] == '/' && name[1] == 'h' && isdigit(name[2]))) {
                raw += '\n';
            }
        } else if (html[i] == '&') {
            i = reference(html, i, raw);
        } else {
            const char c = html[i++];
            raw += c == '\r' || c == '\n' || c == '\t' ? ' ' : c;
        }
    }
    std::string out;
    int newlines = 0;
    for (char c : raw) {
        if (c == '\n') {
            while (!out.empty() && out.back() == ' ') out.pop_back();
            if (!out.empty() && newlines < 2) out += '\n';
            ++newlines;
        } else if (c == ' ') {
            if (!out.empty() && out.back() != ' ' && out.back() != '\n') out += ' ';
        } else {
            out += c;
            newlines = 0;
        }
    }
    while (!out.empty() && (out.back() == ' ' || out.back() == '\n')) out.pop_back();
    return out;
}

}  // namespace mail
