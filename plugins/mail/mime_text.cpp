#include "mime_text.hpp"

#include <platform/sdk/text.hpp>

namespace mail {

namespace {

using platform::lower;

constexpr int kMaxDepth = 8;

std::string trim(const std::string& s) {
    const size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

int hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// The head and body of a message or part (split at the first empty line).
std::pair<std::string, std::string> split(const std::string& raw) {
    size_t at = raw.find("\r\n\r\n"), skip = 4;
    const size_t lf = raw.find("\n\n");
    if (lf != std::string::npos && (at == std::string::npos || lf < at)) at = lf, skip = 2;
    if (raw.rfind("\r\n", 0) == 0) return {"", raw.substr(2)};
    if (at == std::string::npos) return {raw, ""};
    return {raw.substr(0, at), raw.substr(at + skip)};
}

// The value of parameter `name` of a structured header ("text/plain; charset=utf-8").
std::string param(const std::string& value, const std::string& name) {
    const std::string l = lower(value);
    for (size_t at = l.find(';'); at != std::string::npos; at = l.find(';', at + 1)) {
        const size_t eq = l.find('=', at);
        if (eq == std::string::npos || trim(l.substr(at + 1, eq - at - 1)) != name) continue;
        std::string v = trim(value.substr(eq + 1));
        if (!v.empty() && v[0] == '"') return v.substr(1, v.find('"', 1) - 1);
        return trim(v.substr(0, v.find(';')));
    }
    return "";
}

std::string to_utf8(const std::string& bytes, const std::string& charset) {
    const std::string c = lower(charset);
    if (c != "iso-8859-1" && c != "latin1" && c != "latin-1" && c != "windows-1252" &&
        c != "iso8859-1")
        return bytes;
    std::string out;
    for (unsigned char b : bytes) {
        if (b < 0x80) {
            out += char(b);
        } else {
            out += char(0xC0 | (b >> 6));
            out += char(0x80 | (b & 0x3F));
        }
    }
    return out;
}

std::string lf_lines(const std::string& text) {
    std::string out;
    for (size_t i = 0; i < text.size(); ++i)
        if (text[i] != '\r' || i + 1 >= text.size() || text[i + 1] != '\n') out += text[i];
    return out;
}

std::string decoded(const std::string& body, const std::map<std::string, std::string>& h) {
    const auto cte = h.find("content-transfer-encoding");
    const std::string enc = cte == h.end() ? "" : lower(trim(cte->second));
    std::string bytes = body;
    if (enc == "quoted-printable") {
        bytes = decode_quoted_printable(body);
    } else if (enc == "base64") {
        auto b = platform::base64_decode(body);
        bytes = b ? *b : body;
    }
    const auto ct = h.find("content-type");
    return lf_lines(to_utf8(bytes, ct == h.end() ? "" : param(ct->second, "charset")));
}

void read_part(const std::string& raw, int depth, MessageText& out, bool top) {
    auto [head, body] = split(raw);
    const auto h = header_fields(head);
    if (top) out.headers = h;
    const auto ct = h.find("content-type");
    const std::string type =
        ct == h.end() ? "text/plain" : lower(trim(ct->second.substr(0, ct->second.find(';'))));
    const auto cd = h.find("content-disposition");
    std::string name = cd == h.end() ? "" : param(cd->second, "filename");
    if (name.empty() && ct != h.end()) name = param(ct->second, "name");
    const bool attachment =
        !name.empty() || (cd != h.end() && lower(trim(cd->second)).rfind("attachment", 0) == 0);
    if (type.rfind("multipart/", 0) == 0 && depth < kMaxDepth) {
        const std::string boundary = param(ct->second, "boundary");
        if (boundary.empty()) return;
        const std::string delimiter = "--" + boundary;
        size_t at = body.find(delimiter);
        while (at != std::string::npos) {
            size_t start = body.find('\n', at);
            if (start == std::string::npos || body.compare(at + delimiter.size(), 2, "--") == 0)
                break;
            const size_t next = body.find("\n" + delimiter, start);
            std::string part = body.substr(
                start + 1, next == std::string::npos ? std::string::npos : next - start);
            read_part(part, depth + 1, out, false);
            at = next == std::string::npos ? next : next + 1;
        }
    } else if (attachment) {
        out.attachments.push_back(decode_words(name.empty() ? "attachment" : name));
    } else if (type == "text/plain" && out.body.empty()) {
        out.body = decoded(body, h);
    }
}

}  // namespace

std::map<std::string, std::string> header_fields(const std::string& head) {
    std::map<std::string, std::string> out;
    std::string name, value;
    auto keep = [&] {
        if (!name.empty()) out.emplace(lower(name), trim(value));
        name.clear();
    };
    size_t start = 0;
    while (start < head.size()) {
        size_t end = head.find('\n', start);
        if (end == std::string::npos) end = head.size();
        std::string line = head.substr(start, end - start);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        start = end + 1;
        if (!line.empty() && (line[0] == ' ' || line[0] == '\t')) {
            value += line;
        } else if (const size_t colon = line.find(':'); colon != std::string::npos) {
            keep();
            name = trim(line.substr(0, colon));
            value = line.substr(colon + 1);
        }
    }
    keep();
    return out;
}

std::string decode_quoted_printable(const std::string& text) {
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '=') {
            out += text[i];
        } else if (text.compare(i + 1, 2, "\r\n") == 0) {
            i += 2;
        } else if (i + 1 < text.size() && text[i + 1] == '\n') {
            i += 1;
        } else if (i + 2 < text.size() && hex(text[i + 1]) >= 0 && hex(text[i + 2]) >= 0) {
            out += char(hex(text[i + 1]) * 16 + hex(text[i + 2]));
            i += 2;
        } else {
            out += '=';
        }
    }
    return out;
}

std::string decode_words(const std::string& value) {
    std::string out, pending_space;
    size_t i = 0;
    bool after_word = false;
    while (i < value.size()) {
        const size_t open = value.find("=?", i);
        const size_t q1 = open == std::string::npos ? open : value.find('?', open + 2);
        const size_t q2 = q1 == std::string::npos ? q1 : value.find('?', q1 + 1);
        const size_t close = q2 == std::string::npos ? q2 : value.find("?=", q2 + 1);
        if (close == std::string::npos) break;
        const std::string between = value.substr(i, open - i);
        out += after_word && trim(between).empty() ? "" : between;
        const std::string charset = value.substr(open + 2, q1 - open - 2);
        const char enc = char(std::toupper(static_cast<unsigned char>(value[q1 + 1])));
        std::string text = value.substr(q2 + 1, close - q2 - 1), bytes;
        if (enc == 'B') {
            auto b = platform::base64_decode(text);
            bytes = b ? *b : text;
        } else {
            for (char& c : text)
                if (c == '_') c = ' ';
            bytes = decode_quoted_printable(text);
        }
        out += to_utf8(bytes, charset.substr(0, charset.find('*')));
        i = close + 2;
        after_word = true;
    }
    return out + value.substr(i);
}

MessageText read_message(const std::string& raw) {
    MessageText out;
    read_part(raw, 0, out, true);
    return out;
}

}  // namespace mail
