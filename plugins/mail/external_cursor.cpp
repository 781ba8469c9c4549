#include "external_cursor.hpp"

#include <platform/sdk/text.hpp>

namespace mail {

namespace {

std::optional<uint32_t> number(const std::string& s) {
    if (s.empty() || s.size() > 10 || (s.size() > 1 && s[0] == '0')) return std::nullopt;
    uint64_t v = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return std::nullopt;
        v = v * 10 + uint64_t(c - '0');
    }
    if (v == 0 || v > 0xFFFFFFFFu) return std::nullopt;
    return uint32_t(v);
}

// "<a><sep><b>" as a reference; nullopt unless both are numbers above 0.
std::optional<MessageRef> pair(const std::string& s, char sep) {
    const size_t at = s.find(sep);
    if (at == std::string::npos) return std::nullopt;
    auto v = number(s.substr(0, at)), u = number(s.substr(at + 1));
    if (!v || !u) return std::nullopt;
    return MessageRef{*v, *u};
}

}  // namespace

std::string page_cursor(MessageRef last_shown) {
    return "c" + platform::base64url_encode(std::to_string(last_shown.uidvalidity) + "." +
                                            std::to_string(last_shown.uid));
}

std::optional<MessageRef> read_page_cursor(const std::string& page) {
    if (page.size() < 2 || page.size() > 40 || page[0] != 'c') return std::nullopt;
    auto text = platform::base64url_decode(page.substr(1));
    return text ? pair(*text, '.') : std::nullopt;
}

std::string external_id(MessageRef m) {
    return std::to_string(m.uidvalidity) + "-" + std::to_string(m.uid);
}

std::optional<MessageRef> read_external_id(const std::string& id) {
    return pair(id, '-');
}

}  // namespace mail
