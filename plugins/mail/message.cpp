#include "message.hpp"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <platform/sdk/text.hpp>
#include <vector>

namespace mail {

namespace {

constexpr std::size_t kLine = 76;  // the longest line, "=" of a soft break included

bool printable_ascii(const std::string& s) {
    for (unsigned char c : s)
        if (c < 0x20 || c > 0x7E) return false;
    return true;
}

// Splits `text` at LF, CRLF or CR into lines.
std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out(1);
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\r' || text[i] == '\n') {
            if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
            out.emplace_back();
        } else {
            out.back() += text[i];
        }
    }
    return out;
}

std::string hex_byte(unsigned char c) {
    static const char* hex = "0123456789ABCDEF";
    return {'=', hex[c >> 4], hex[c & 15]};
}

// One line of the body as quoted-printable lines joined by soft breaks.
std::string encode_line(const std::string& line) {
    std::string out, current;
    for (size_t i = 0; i < line.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(line[i]);
        const bool last = i + 1 == line.size();
        std::string piece;
        if (c == '=' || c < 0x20 || c > 0x7E) {
            piece = c == '\t' && !last ? "\t" : hex_byte(c);
        } else if (c == ' ' && last) {
            piece = hex_byte(c);  // whitespace before a line break
        } else if (i == 0 && c == '.') {
            piece = hex_byte(c);
        } else if (i == 0 && c == 'F' && line.compare(0, 5, "From ") == 0) {
            piece = hex_byte(c);
        } else {
            piece = std::string(1, static_cast<char>(c));
        }
        // Room for the piece and, unless the line ends here, a soft break's "=".
        if (current.size() + piece.size() + (last ? 0 : 1) > kLine) {
            out += current + "=\r\n";
            current.clear();
            // A continuation starting with '.' would be a line starting with '.'.
            if (piece == ".") piece = hex_byte('.');
        }
        current += piece;
    }
    return out + current;
}

}  // namespace

std::string quoted_printable(const std::string& text) {
    std::string out;
    const auto lines = lines_of(text);
    for (size_t i = 0; i < lines.size(); ++i) {
        if (i) out += "\r\n";
        out += encode_line(lines[i]);
    }
    return out;
}

std::string header_text(const std::string& value, std::size_t used) {
    if (printable_ascii(value) && used + value.size() <= 998) return value;
    // Encoded words of at most 75 characters: "=?UTF-8?B?" + base64 + "?=" (12 characters of
    // frame), so at most 63 base64 characters, 45 bytes of text, cut between characters.
    std::string out;
    size_t start = 0;
    while (start < value.size()) {
        size_t end = std::min(value.size(), start + 45);
        while (end < value.size() && end > start &&
               (static_cast<unsigned char>(value[end]) & 0xC0) == 0x80)
            --end;
        if (!out.empty()) out += "\r\n ";
        out += "=?UTF-8?B?" + platform::base64_encode(value.substr(start, end - start)) + "?=";
        start = end;
    }
    return out;
}

std::string rfc5322_date(int64_t unix_ms) {
    std::time_t t = static_cast<std::time_t>(unix_ms / 1000 - (unix_ms % 1000 < 0 ? 1 : 0));
    std::tm tm{};
    gmtime_r(&t, &tm);
    static const char* days[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
    static const char* months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                   "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s, %02d %s %04d %02d:%02d:%02d +0000", days[tm.tm_wday],
                  tm.tm_mday, months[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min,
                  tm.tm_sec);
    return buf;
}

std::string compose(const Letter& l) {
    std::string out;
    out += "From: " + l.from + "\r\n";
    out += "To: " + l.to + "\r\n";
    out += "Subject: " + header_text(l.subject, 9) + "\r\n";
    out += "Date: " + rfc5322_date(l.date_ms) + "\r\n";
    out += "Message-ID: <" + l.message_id + ">\r\n";
    if (!l.in_reply_to.empty()) {
        out += "In-Reply-To: <" + l.in_reply_to + ">\r\n";
        out += "References: <" + l.in_reply_to + ">\r\n";
    }
    out += "MIME-Version: 1.0\r\n";
    out += "Content-Type: text/plain; charset=utf-8\r\n";
    out += "Content-Transfer-Encoding: quoted-printable\r\n";
    out += "\r\n";
    out += quoted_printable(l.body);
    out += "\r\n";
    return out;
}

}  // namespace mail
