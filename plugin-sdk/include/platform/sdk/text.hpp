// platform/sdk/text.hpp — small text helpers plugins (and the host) share: RFC 3339 times, ASCII
// case folding, UTF-8 lengths and cuts, HTML escaping, base64 and base64url, content-derived and time-ordered ids, and a
// write sequence.
//
// Header-only, no state except the process-wide counter of next_sequence; every function may be called
// from any thread.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <optional>
#include <string>
#include <string_view>

namespace platform {

// "YYYY-MM-DDTHH:MM:SSZ" (UTC, whole seconds) from Unix milliseconds — the business clock's
// Host::now_ms() as the catalogue's answers show it.
inline std::string rfc3339(int64_t unix_ms) {
    int64_t secs = unix_ms / 1000;
    if (unix_ms % 1000 < 0) --secs;
    std::time_t t = static_cast<std::time_t>(secs);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

// ASCII lower case; other bytes (UTF-8 sequences included) are kept.
inline std::string lower(std::string s) {
    for (auto& c : s)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return s;
}

// The number of UTF-8 characters (lead bytes) in `s`.
inline size_t utf8_length(std::string_view s) {
    size_t n = 0;
    for (unsigned char c : s) n += (c & 0xC0) != 0x80;
    return n;
}

// The first `n` UTF-8 characters of `s` (all of it when it has no more).
inline std::string utf8_prefix(const std::string& s, size_t n) {
    size_t chars = 0;
    for (size_t i = 0; i < s.size(); ++i)
        if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80 && chars++ == n)
            return s.substr(0, i);
    return s;
}

// The first line of `text` (up to the first '\n', a trailing '\r' dropped).
inline std::string first_line(const std::string& text) {
    std::string line = text.substr(0, text.find('\n'));
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return line;
}

// Text safe inside HTML elements and double-quoted attributes.
inline std::string html_escape(const std::string& s) {
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            case '\'':
                out += "&#39;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

// The value of a base64 digit of either alphabet ('+' and '-' are 62, '/' and '_' are 63); -1 for
// any other character.
inline int base64_digit(unsigned char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+' || c == '-') return 62;
    if (c == '/' || c == '_') return 63;
    return -1;
}

// Standard base64 (RFC 4648 §4) with padding.
inline std::string base64_encode(std::string_view bytes) {
    static const char* abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    for (size_t i = 0; i < bytes.size(); i += 3) {
        uint32_t n = uint32_t(uint8_t(bytes[i])) << 16;
        if (i + 1 < bytes.size()) n |= uint32_t(uint8_t(bytes[i + 1])) << 8;
        if (i + 2 < bytes.size()) n |= uint8_t(bytes[i + 2]);
        out += abc[(n >> 18) & 63];
        out += abc[(n >> 12) & 63];
        out += i + 1 < bytes.size() ? abc[(n >> 6) & 63] : '=';
        out += i + 2 < bytes.size() ? abc[n & 63] : '=';
    }
    return out;
}

// Decodes base64, standard or URL-safe alphabet (RFC 4648 §4, §5); ASCII whitespace (line breaks
// of MIME-wrapped text) is skipped and padding is optional but, when present, must be right.
// nullopt for any other character, data after the padding, or a length no bytes can have.
inline std::optional<std::string> base64_decode(std::string_view text) {
    std::string out;
    out.reserve(text.size() / 4 * 3);
    uint32_t acc = 0;
    int bits = 0, pads = 0;
    size_t chars = 0;
    for (unsigned char c : text) {
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
        if (c == '=') {
            ++pads;
            continue;
        }
        if (pads) return std::nullopt;
        const int v = base64_digit(c);
        if (v < 0) return std::nullopt;
        ++chars;
        acc = (acc << 6) | uint32_t(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += static_cast<char>((acc >> bits) & 0xFF);
        }
    }
    if (chars % 4 == 1 || pads > 2 || (pads && (chars + pads) % 4 != 0)) return std::nullopt;
    return out;
}

// base64url (RFC 4648 §5) without padding, as JWS, JWT and ACME write it.
inline std::string base64url_encode(std::string_view bytes) {
    static const char* abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    std::string out;
    out.reserve((bytes.size() * 4 + 2) / 3);
    uint32_t acc = 0;
    int bits = 0;
    for (unsigned char c : bytes) {
        acc = (acc << 8) | c;
        for (bits += 8; bits >= 6; bits -= 6) out += abc[(acc >> (bits - 6)) & 63];
    }
    if (bits > 0) out += abc[(acc << (6 - bits)) & 63];
    return out;
}

// Decodes unpadded base64url strictly, for signed tokens: only the URL-safe alphabet, no padding,
// no whitespace, and the unused bits of the last character must be zero, so each byte string has
// exactly one accepted spelling. nullopt otherwise, and for a length no bytes can have.
inline std::optional<std::string> base64url_decode(std::string_view text) {
    if (text.size() % 4 == 1) return std::nullopt;
    std::string out;
    out.reserve(text.size() * 3 / 4);
    uint32_t acc = 0;
    int bits = 0;
    for (unsigned char c : text) {
        const int v = c == '+' || c == '/' ? -1 : base64_digit(c);
        if (v < 0) return std::nullopt;
        acc = (acc << 6) | uint32_t(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += static_cast<char>((acc >> bits) & 0xFF);
        }
    }
    if (acc & ((1u << bits) - 1)) return std::nullopt;  // non-canonical trailing bits
    return out;
}

// `prefix` + 16 hex digits of FNV-1a over `seed` (and `attempt`, when not negative): an id that
// is a function of what is written and when, so the same call made by two fresh accounts
// answers the same; a caller moves past ids it already has with attempt 0, 1, 2, ... For record
// ids inside an owner's collection only: they name, they do not guard (the owner-scoped store
// does). Anything that must not be guessed comes from platform/sdk/random.hpp.
inline std::string hash_id(const std::string& seed, int attempt = -1,
                           const std::string& prefix = "") {
    uint64_t h = 1469598103934665603ULL;
    const std::string input = attempt < 0 ? seed : seed + "#" + std::to_string(attempt);
    for (unsigned char c : input) h = (h ^ c) * 1099511628211ULL;
    static const char* hex = "0123456789abcdef";
    std::string out = prefix;
    for (int i = 0; i < 16; ++i, h >>= 4) out += hex[h & 15];
    return out;
}

// A number that grows with every call in this process and with the business clock across
// restarts (microseconds of `now_ms`, or one more than the last): newest-first listings sort by it.
inline int64_t next_sequence(int64_t now_ms) {
    static std::atomic<int64_t> last{0};
    int64_t prev = last.load(), next;
    do next = std::max(now_ms * 1000, prev + 1);
    while (!last.compare_exchange_weak(prev, next));
    return next;
}

}  // namespace platform
