#include "segments.hpp"

#include <vector>

namespace sms {

namespace {

// The GSM 03.38 default alphabet beyond ASCII's letters, digits and the punctuation it shares.
constexpr char32_t kDefaultNonAscii[] = {
    0x00A3, 0x00A5, 0x00E8, 0x00E9, 0x00F9, 0x00EC, 0x00F2, 0x00C7, 0x00D8, 0x00F8,
    0x00C5, 0x00E5, 0x0394, 0x03A6, 0x0393, 0x039B, 0x03A9, 0x03A0, 0x03A8, 0x03A3,
    0x0398, 0x039E, 0x00C6, 0x00E6, 0x00DF, 0x00C9, 0x00A4, 0x00A1, 0x00C4, 0x00D6,
    0x00D1, 0x00DC, 0x00A7, 0x00BF, 0x00E4, 0x00F6, 0x00F1, 0x00FC, 0x00E0};
// The extension table: an escape and one of these.
constexpr char32_t kExtension[] = {0x000C, '^', '{', '}', '\\', '[', ']', '~', '|', 0x20AC};

// Decodes UTF-8 into code points; a malformed sequence is one U+FFFD.
std::vector<char32_t> code_points(std::string_view s) {
    std::vector<char32_t> out;
    for (size_t i = 0; i < s.size();) {
        const auto b = static_cast<unsigned char>(s[i]);
        const int n = b < 0x80         ? 1
                      : (b >> 5) == 6  ? 2
                      : (b >> 4) == 14 ? 3
                      : (b >> 3) == 30 ? 4
                                       : 0;
        char32_t c = n == 1 ? b : n == 2 ? b & 0x1F : n == 3 ? b & 0x0F : b & 0x07;
        bool ok = n > 0 && i + n <= s.size();
        for (int k = 1; ok && k < n; ++k) {
            const auto cb = static_cast<unsigned char>(s[i + k]);
            ok = (cb & 0xC0) == 0x80;
            c = (c << 6) | (cb & 0x3F);
        }
        if (!ok) {
            out.push_back(0xFFFD);
            ++i;
            continue;
        }
        out.push_back(c);
        i += static_cast<size_t>(n);
    }
    return out;
}

// Fills parts of `per_part` units with characters of `widths` units each, never splitting one.
size_t parts_of(const std::vector<int>& widths, size_t per_part) {
    size_t parts = 1, used = 0;
    for (int w : widths) {
        if (used + static_cast<size_t>(w) > per_part) {
            ++parts;
            used = 0;
        }
        used += static_cast<size_t>(w);
    }
    return parts;
}

}  // namespace

const char* encoding_name(Encoding e) {
    return e == Encoding::gsm7 ? "GSM-7" : "UCS-2";
}

int gsm7_septets(char32_t c) {
    for (char32_t e : kExtension)
        if (c == e) return 2;
    if (c == '\n' || c == '\r' || (c >= 0x20 && c < 0x7F && c != '`')) return 1;
    for (char32_t d : kDefaultNonAscii)
        if (c == d) return 1;
    return 0;
}

Segments count_segments(std::string_view text) {
    const std::vector<char32_t> chars = code_points(text);
    std::vector<int> septets, units;
    bool gsm = true;
    for (char32_t c : chars) {
        const int s = gsm7_septets(c);
        gsm = gsm && s > 0;
        septets.push_back(s);
        units.push_back(c > 0xFFFF ? 2 : 1);
    }
    Segments out;
    out.encoding = gsm ? Encoding::gsm7 : Encoding::ucs2;
    const std::vector<int>& widths = gsm ? septets : units;
    for (int w : widths) out.units += static_cast<size_t>(w);
    const size_t single = gsm ? 160 : 70, per_part = gsm ? 153 : 67;
    out.parts = out.units <= single ? 1 : parts_of(widths, per_part);
    return out;
}

}  // namespace sms
