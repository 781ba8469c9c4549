#include <charconv>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <platform/host/http/access_log.hpp>

namespace platform::host {

namespace {

void put_utc(std::string& out, std::chrono::system_clock::time_point t) {
    const auto ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
    const std::time_t secs = static_cast<std::time_t>(ms / 1000);
    std::tm tm{};
    gmtime_r(&secs, &tm);
    char buf[96];
    const int n = std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
                                tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
                                tm.tm_sec, static_cast<int>(ms % 1000));
    out.append(buf, n > 0 ? static_cast<size_t>(n) : 0);
}

// The length of the valid UTF-8 sequence at s[i] (RFC 3629: no overlongs, no surrogates, at most
// U+10FFFF), 0 when it is not one.
size_t utf8_length(std::string_view s, size_t i) {
    const auto b = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
    const unsigned char c = b(0);
    const auto cont = [&](size_t k) { return i + k < s.size() && (b(k) & 0xC0) == 0x80; };
    if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        if (!cont(1) || !cont(2)) return 0;
        if (c == 0xE0 && b(1) < 0xA0) return 0;   // overlong
        if (c == 0xED && b(1) >= 0xA0) return 0;  // surrogate
        return 3;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        if (!cont(1) || !cont(2) || !cont(3)) return 0;
        if (c == 0xF0 && b(1) < 0x90) return 0;   // overlong
        if (c == 0xF4 && b(1) >= 0x90) return 0;  // above U+10FFFF
        return 4;
    }
    return 0;
}

// `"key":"value"` with value escaped as JSON; bytes that are not UTF-8 become U+FFFD.
void put_string(std::string& out, const char* key, std::string_view v) {
    out += '"';
    out += key;
    out += "\":\"";
    for (size_t i = 0; i < v.size();) {
        const unsigned char c = static_cast<unsigned char>(v[i]);
        if (c >= 0x80) {
            const size_t n = utf8_length(v, i);
            if (n) {
                out.append(v.data() + i, n);
                i += n;
            } else {
                out += "\xEF\xBF\xBD";
                ++i;
            }
            continue;
        }
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            case '\b':
                out += "\\b";
                break;
            case '\f':
                out += "\\f";
                break;
            default:
                if (c < 0x20) {
                    char u[8];
                    std::snprintf(u, sizeof u, "\\u%04x", c);
                    out += u;
                } else {
                    out += static_cast<char>(c);
                }
        }
        ++i;
    }
    out += '"';
}

template <class N>
void put_number(std::string& out, const char* key, N n) {
    out += '"';
    out += key;
    out += "\":";
    char buf[32];
    auto r = std::to_chars(buf, buf + sizeof buf, n);
    out.append(buf, r.ptr);
}

}  // namespace

// Written by hand rather than through a JSON object (one allocation, no tree): the keys in the
// order nlohmann's objects gave them before, so the lines read as they always did.
std::string access_log_line(const AccessRecord& r) {
    std::string out;
    out.reserve(256 + r.path.size() + r.user_agent.size());
    out += '{';
    put_number(out, "bytes", r.bytes);
    out += ',';
    put_number(out, "duration_ms", std::round(r.duration_ms * 1000) / 1000);
    out += ',';
    put_string(out, "method", r.method.empty() ? "-" : r.method);
    out += ',';
    put_string(out, "path", r.path.empty() ? "-" : r.path);
    if (!r.port.empty()) {
        out += ',';
        put_string(out, "port", r.port);
    }
    out += ',';
    put_string(out, "remote", r.remote);
    out += ',';
    put_string(out, "request_id", r.request_id);
    out += ',';
    put_number(out, "status", r.status);
    out += ",\"time\":\"";
    put_utc(out, r.time);
    out += '"';
    if (!r.trace_id.empty()) {
        out += ',';
        put_string(out, "trace_id", r.trace_id);
    }
    out += ',';
    put_string(out, "user_agent", r.user_agent);
    out += '}';
    return out;
}

}  // namespace platform::host
