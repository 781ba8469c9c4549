// text_encoding.cpp — valid_utf8, to_utf8 and cut_text (readable.hpp): a page's bytes as UTF-8
// text of a bounded length.
#include <iconv.h>

#include <cerrno>
#include <memory>
#include <platform/sdk/text.hpp>
#include <string>

#include "readable.hpp"

namespace web {

std::string valid_utf8(const std::string& s) {
    static const char kReplacement[] = "\xEF\xBF\xBD";
    std::string out;
    out.reserve(s.size());
    size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        size_t n = 0;
        uint32_t cp = 0;
        if (c < 0x80) {
            out += static_cast<char>(c);
            ++i;
            continue;
        } else if ((c & 0xE0) == 0xC0) {
            n = 1;
            cp = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            n = 2;
            cp = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            n = 3;
            cp = c & 0x07;
        } else {
            out += kReplacement;
            ++i;
            continue;
        }
        bool ok = true;
        for (size_t k = 1; k <= n; ++k) {
            if (i + k >= s.size()) {
                ok = false;
                break;
            }
            const auto d = static_cast<unsigned char>(s[i + k]);
            if ((d & 0xC0) != 0x80) {
                ok = false;
                break;
            }
            cp = (cp << 6) | (d & 0x3F);
        }
        if (ok) {
            const bool overlong =
                (n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000);
            if (overlong || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) ok = false;
        }
        if (!ok) {
            out += kReplacement;
            ++i;  // resynchronise on the next byte
            continue;
        }
        out.append(s, i, n + 1);
        i += n + 1;
    }
    return out;
}

std::string to_utf8(const std::string& bytes, const std::string& charset_in) {
    const std::string charset = platform::lower(trim_space(charset_in));
    if (charset.empty() || charset == "utf-8" || charset == "utf8" || charset == "us-ascii" ||
        charset == "ascii")
        return valid_utf8(bytes);
    // The HTML standard reads these labels as windows-1252.
    const std::string from = charset == "iso-8859-1" || charset == "latin1" || charset == "l1"
                                 ? "WINDOWS-1252"
                                 : charset;
    iconv_t cd = iconv_open("UTF-8", from.c_str());
    if (cd == reinterpret_cast<iconv_t>(-1)) return valid_utf8(bytes);
    std::string out;
    out.reserve(bytes.size() + bytes.size() / 2);
    std::vector<char> in(bytes.begin(), bytes.end());
    char* inp = in.data();
    size_t inleft = in.size();
    char buf[4096];
    while (inleft > 0) {
        char* outp = buf;
        size_t outleft = sizeof buf;
        const size_t rc = iconv(cd, &inp, &inleft, &outp, &outleft);
        out.append(buf, sizeof buf - outleft);
        if (rc == static_cast<size_t>(-1)) {
            if (errno == E2BIG) continue;
            // An invalid or incomplete sequence: one replacement character, then on.
            out += "\xEF\xBF\xBD";
            ++inp;
            --inleft;
            iconv(cd, nullptr, nullptr, nullptr, nullptr);
        }
    }
    char* outp = buf;
    size_t outleft = sizeof buf;
    iconv(cd, nullptr, nullptr, &outp, &outleft);
    out.append(buf, sizeof buf - outleft);
    iconv_close(cd);
    return valid_utf8(out);
}

std::string cut_text(const std::string& text, size_t max_chars, bool* cut) {
    if (cut) *cut = false;
    if (platform::utf8_length(text) <= max_chars) return text;
    if (cut) *cut = true;
    std::string head = platform::utf8_prefix(text, max_chars);
    const auto br = head.rfind("\n\n");
    if (br != std::string::npos && br > head.size() / 2) head.erase(br);
    return head;
}

}  // namespace web
