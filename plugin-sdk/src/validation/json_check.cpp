#include "platform/validation/json_check.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>

namespace platform::validation {
namespace {

using Byte = unsigned char;

bool digit(Byte c) {
    return c >= '0' && c <= '9';
}

const Byte* skip_space(const Byte* p, const Byte* end) {
    while (p != end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')) ++p;
    return p;
}

// A byte a string holds as it is: printable ASCII but '"' and '\\'.
bool plain(Byte c) {
    return c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
}

// Of the 8 bytes at p, the high bit of each that is not plain — exact for the lowest such byte
// (a borrow only ever marks bytes above a true one), so on a little-endian machine the count of
// trailing zero bits / 8 is the index of the first byte that is not plain; 0 when all are.
std::uint64_t not_plain8(const Byte* p) {
    constexpr std::uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
    std::uint64_t x;
    std::memcpy(&x, p, 8);
    const std::uint64_t quote = x ^ (ones * '"'), backslash = x ^ (ones * '\\');
    const std::uint64_t control = (x - ones * 0x20) & ~x;  // bytes below 0x20
    return (control | ((quote - ones) & ~quote) | ((backslash - ones) & ~backslash) | x) & high;
}

// The value of 4 hex digits at p (p + 4 <= end checked by the caller), or -1.
int hex4(const Byte* p) {
    int v = 0;
    for (int i = 0; i < 4; ++i) {
        const Byte c = p[i];
        int d;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if (c >= 'a' && c <= 'f')
            d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            d = c - 'A' + 10;
        else
            return -1;
        v = v * 16 + d;
    }
    return v;
}

// After the backslash of an escape: past its end, or nullptr.
const Byte* escape_end(const Byte* p, const Byte* end) {
    if (p == end) return nullptr;
    switch (*p) {
        case '"':
        case '\\':
        case '/':
        case 'b':
        case 'f':
        case 'n':
        case 'r':
        case 't':
            return p + 1;
        case 'u':
            break;
        default:
            return nullptr;
    }
    ++p;
    if (end - p < 4) return nullptr;
    const int cp = hex4(p);
    p += 4;
    if (cp < 0 || (cp >= 0xDC00 && cp <= 0xDFFF)) return nullptr;  // a low surrogate alone
    if (cp < 0xD800 || cp > 0xDBFF) return p;
    // A high surrogate: a low one must follow, escaped.
    if (end - p < 6 || p[0] != '\\' || p[1] != 'u') return nullptr;
    const int low = hex4(p + 2);
    return low >= 0xDC00 && low <= 0xDFFF ? p + 6 : nullptr;
}

// At a byte >= 0x80: past one well-formed UTF-8 sequence (RFC 3629), or nullptr.
const Byte* utf8_end(const Byte* p, const Byte* end) {
    const Byte c = *p;
    const auto in = [](Byte b, Byte lo, Byte hi) { return b >= lo && b <= hi; };
    if (c >= 0xC2 && c <= 0xDF) return end - p >= 2 && in(p[1], 0x80, 0xBF) ? p + 2 : nullptr;
    if (c >= 0xE0 && c <= 0xEF) {
        const Byte lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
        return end - p >= 3 && in(p[1], lo, hi) && in(p[2], 0x80, 0xBF) ? p + 3 : nullptr;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        const Byte lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
        return end - p >= 4 && in(p[1], lo, hi) && in(p[2], 0x80, 0xBF) && in(p[3], 0x80, 0xBF)
                   ? p + 4
                   : nullptr;
    }
    return nullptr;
}

// After the opening quote: past the closing one, or nullptr.
const Byte* string_end(const Byte* p, const Byte* end) {
    for (;;) {
        if (end - p >= 8) {
            const std::uint64_t m = not_plain8(p);
            if (m == 0) {
                p += 8;
                continue;
            }
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            p += __builtin_ctzll(m) >> 3;
#else
            while (plain(*p)) ++p;
#endif
        } else {
            while (p != end && plain(*p)) ++p;
            if (p == end) return nullptr;
        }
        const Byte c = *p;
        if (c == '"') return p + 1;
        if (c == '\\')
            p = escape_end(p + 1, end);
        else if (c < 0x20)
            return nullptr;  // a control character
        else
            p = utf8_end(p, end);
        if (!p) return nullptr;
    }
}

// Whether the number whose digits (integer part, then fraction, without the '.') are
// [digits, digits_end) and whose value is 0.<those digits from the first non-zero one> × 10^m
// is finite as a double — what nlohmann requires of a number it converts with strtod (every
// float, and integers beyond 64 bits). m ≤ 308: below 10^308, finite; m ≥ 310: at least 10^309,
// infinite; in between the digits decide, and strtod says (as nlohmann's lexer asks it).
bool finite_double(const Byte* digits, const Byte* digits_end, std::int64_t m) {
    if (m <= 308) return true;
    if (m >= 310) return false;
    // m == 309: strtod on "<digits>e<exp>" (no '.', so the locale's decimal point does not
    // matter); the digits start at the first non-zero one.
    std::string spelled;
    char local[512];
    char* text = local;
    std::size_t n = 0;
    const std::size_t room = static_cast<std::size_t>(digits_end - digits) + 32;
    if (room > sizeof local) {
        try {
            spelled.resize(room);
        } catch (...) {
            return false;
        }
        text = spelled.data();
    }
    std::int64_t count = 0;
    for (const Byte* d = digits; d != digits_end; ++d) {
        if (*d == '.') continue;
        if (n == 0 && *d == '0') continue;
        text[n++] = static_cast<char>(*d);
        ++count;
    }
    const std::string exp = "e" + std::to_string(m - count);
    std::memcpy(text + n, exp.c_str(), exp.size() + 1);
    const double v = std::strtod(text, nullptr);
    return v <= 1.7976931348623157e308;  // HUGE_VAL when it overflowed
}

// At '-' or a digit: past the number, or nullptr.
const Byte* number_end(const Byte* p, const Byte* end) {
    if (*p == '-') ++p;
    if (p == end) return nullptr;
    const Byte* const digits = p;
    std::int64_t point;  // digits before the decimal point, counted from the first non-zero one
    const Byte* first = nullptr;  // the first non-zero digit
    if (*p == '0') {
        ++p;
        point = 0;
    } else if (*p >= '1' && *p <= '9') {
        first = p;
        while (p != end && digit(*p)) ++p;
        point = p - digits;
    } else {
        return nullptr;
    }
    if (p != end && *p == '.') {
        ++p;
        const Byte* const fraction = p;
        while (p != end && digit(*p)) {
            if (!first && *p != '0') {
                first = p;
                point = -(p - fraction);
            }
            ++p;
        }
        if (p == fraction) return nullptr;
    }
    const Byte* const digits_end = p;
    std::int64_t exponent = 0;
    if (p != end && (*p == 'e' || *p == 'E')) {
        ++p;
        bool negative = false;
        if (p != end && (*p == '+' || *p == '-')) negative = *p++ == '-';
        const Byte* const exponent_digits = p;
        // Capped far beyond any position a text can have, so the sum below cannot overflow and
        // still says which side of 10^308 the number is on.
        constexpr std::int64_t cap = 100000000000000000;  // 10^17
        while (p != end && digit(*p)) {
            if (exponent < cap) exponent = exponent * 10 + (*p - '0');
            ++p;
        }
        if (p == exponent_digits) return nullptr;
        if (negative) exponent = -exponent;
    }
    if (!first) return p;  // zero, whatever the exponent
    return finite_double(first, digits_end, point + exponent) ? p : nullptr;
}

const Byte* literal_end(const Byte* p, const Byte* end, const char* word, std::size_t n) {
    return static_cast<std::size_t>(end - p) >= n && std::memcmp(p, word, n) == 0 ? p + n : nullptr;
}

// After '{' and its space, or after a ',' in an object: the member's name and ':'; past the ':',
// or nullptr.
const Byte* member_name_end(const Byte* p, const Byte* end) {
    p = skip_space(p, end);
    if (p == end || *p != '"') return nullptr;
    p = string_end(p + 1, end);
    if (!p) return nullptr;
    p = skip_space(p, end);
    return p != end && *p == ':' ? p + 1 : nullptr;
}

// The arrays and objects open around the current value: one bit a level (1: an object).
class Nesting {
public:
    bool empty() const { return depth_ == 0; }
    bool in_object() const { return (words_[(depth_ - 1) >> 6] >> ((depth_ - 1) & 63)) & 1; }
    void pop() { --depth_; }
    bool push(bool object) {
        if (depth_ == capacity_ && !grow()) return false;
        const std::uint64_t bit = std::uint64_t{1} << (depth_ & 63);
        std::uint64_t& w = words_[depth_ >> 6];
        w = object ? (w | bit) : (w & ~bit);
        ++depth_;
        return true;
    }

private:
    static constexpr std::size_t kInlineWords = 64;  // 4096 levels on the stack
    bool grow() {
        const std::size_t words = capacity_ / 32;  // twice as many
        std::unique_ptr<std::uint64_t[]> bigger(new (std::nothrow) std::uint64_t[words]);
        if (!bigger) return false;
        std::memcpy(bigger.get(), words_, capacity_ / 8);
        heap_ = std::move(bigger);
        words_ = heap_.get();
        capacity_ = words * 64;
        return true;
    }
    std::uint64_t inline_[kInlineWords];
    std::unique_ptr<std::uint64_t[]> heap_;
    std::uint64_t* words_ = inline_;
    std::size_t capacity_ = kInlineWords * 64;
    std::size_t depth_ = 0;
};

}  // namespace

bool json_valid(std::string_view text) noexcept {
    const Byte* p = reinterpret_cast<const Byte*>(text.data());
    const Byte* const end = p + text.size();
    Nesting nesting;
    for (;;) {
        // A value.
        p = skip_space(p, end);
        if (p == end) return false;
        switch (*p) {
            case '{':
                p = skip_space(p + 1, end);
                if (p != end && *p == '}') {
                    ++p;
                    break;
                }
                if (!nesting.push(true) || !(p = member_name_end(p, end))) return false;
                continue;  // its first member's value
            case '[':
                p = skip_space(p + 1, end);
                if (p != end && *p == ']') {
                    ++p;
                    break;
                }
                if (!nesting.push(false)) return false;
                continue;  // its first element
            case '"':
                p = string_end(p + 1, end);
                break;
            case 't':
                p = literal_end(p, end, "true", 4);
                break;
            case 'f':
                p = literal_end(p, end, "false", 5);
                break;
            case 'n':
                p = literal_end(p, end, "null", 4);
                break;
            default:
                if (*p != '-' && !digit(*p)) return false;
                p = number_end(p, end);
                break;
        }
        if (!p) return false;
        // After a value: close what ends here, up to a ',' (the next value) or the end.
        for (;;) {
            p = skip_space(p, end);
            if (nesting.empty()) return p == end;
            if (p == end) return false;
            const Byte c = *p++;
            if (c == ',') {
                if (nesting.in_object() && !(p = member_name_end(p, end))) return false;
                break;
            }
            if (c != (nesting.in_object() ? '}' : ']')) return false;
            nesting.pop();
        }
    }
}

}  // namespace platform::validation
