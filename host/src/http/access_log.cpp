#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <platform/host/http/access_log.hpp>

namespace platform::host {

namespace {

// The time as 2025-05-20T10:00:00.123Z. gmtime_r and the date's digits run once per second and
// thread: the text up to the seconds is kept.
void put_utc(std::string& out, std::chrono::system_clock::time_point t) {
    const auto ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
    const int64_t secs = ms / 1000 - (ms % 1000 < 0 ? 1 : 0);
    const int milli = static_cast<int>(ms - secs * 1000);
    thread_local int64_t kept_secs = INT64_MIN;
    thread_local char kept[32];
    thread_local size_t kept_size = 0;
    if (secs != kept_secs) {
        const std::time_t tt = static_cast<std::time_t>(secs);
        std::tm tm{};
        gmtime_r(&tt, &tm);
        const int n =
            std::snprintf(kept, sizeof kept, "%04d-%02d-%02dT%02d:%02d:%02d.", tm.tm_year + 1900,
                          tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
        kept_size = n > 0 ? std::min(static_cast<size_t>(n), sizeof kept - 1) : 0;
        kept_secs = secs;
    }
    out.append(kept, kept_size);
    const char digits[4] = {static_cast<char>('0' + milli / 100),
                            static_cast<char>('0' + milli / 10 % 10),
                            static_cast<char>('0' + milli % 10), 'Z'};
    out.append(digits, 4);
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

// Bytes that go into a JSON string as they are: printable ASCII but `"` and `\`.
bool plain(unsigned char c) {
    return c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
}

// `"key":"value"` with value escaped as JSON; bytes that are not UTF-8 become U+FFFD. Runs of
// plain bytes are appended at once.
void put_string(std::string& out, const char* key, std::string_view v) {
    out += '"';
    out += key;
    out += "\":\"";
    for (size_t i = 0; i < v.size();) {
        size_t run = i;
        while (run < v.size() && plain(static_cast<unsigned char>(v[run]))) ++run;
        out.append(v.data() + i, run - i);
        if ((i = run) == v.size()) break;
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
            default: {  // another control character
                constexpr char hex[] = "0123456789abcdef";
                const char u[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
                out.append(u, 6);
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
void append_access_log_line(std::string& out, const AccessRecord& r) {
    out.reserve(out.size() + 256 + r.path.size() + r.user_agent.size());
    out += '{';
    put_number(out, "bytes", r.bytes);
    out += ',';
    put_number(out, "duration_ms", std::round(r.duration_ms * 1000) / 1000);
    out += ',';
    put_string(out, "method", r.method.empty() ? std::string_view("-") : r.method);
    out += ',';
    put_string(out, "path", r.path.empty() ? std::string_view("-") : r.path);
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
}

std::string access_log_line(const AccessRecord& r) {
    std::string out;
    append_access_log_line(out, r);
    return out;
}

}  // namespace platform::host
