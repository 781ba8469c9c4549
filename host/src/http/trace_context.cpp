#include <algorithm>
#include <cstdio>
#include <cstring>
#include <platform/host/http/trace_context.hpp>
#include <platform/sdk/random.hpp>

namespace platform::host {

namespace {

// `n` bytes from getrandom(2), taken 4 KiB at a time per thread: a request needs 32 (its id and
// its traceparent), and a system call for each cost more than making the rest of them. Bytes
// handed out are wiped from the pool. (A process forked by the host execs at once: it never takes
// from the copy of the pool it got.)
void random_bytes(unsigned char* out, size_t n) {
    thread_local unsigned char pool[4096];
    thread_local size_t left = 0;
    if (n > sizeof pool) return platform::random_bytes(out, n);
    if (left < n) {
        platform::random_bytes(pool, sizeof pool);
        left = sizeof pool;
    }
    unsigned char* from = pool + sizeof pool - left;
    std::memcpy(out, from, n);
    std::memset(from, 0, n);
    left -= n;
}

// `n` random bytes as 2n lower-case hex digits appended to `out`.
void put_random_hex(std::string& out, size_t n) {
    static constexpr char hex[] = "0123456789abcdef";
    unsigned char raw[32];
    random_bytes(raw, n);
    for (size_t i = 0; i < n; ++i) {
        out += hex[raw[i] >> 4];
        out += hex[raw[i] & 15];
    }
}

bool lower_hex(std::string_view s) {
    return std::all_of(s.begin(), s.end(),
                       [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

bool all_zero(std::string_view s) {
    return std::all_of(s.begin(), s.end(), [](char c) { return c == '0'; });
}

}  // namespace

std::string request_id_for(const std::string& given) {
    if (!given.empty() && given.size() <= 128 &&
        std::all_of(given.begin(), given.end(), [](char c) { return c > 32 && c < 127; }))
        return given;
    std::string id;
    id.reserve(16);
    put_random_hex(id, 8);
    return id;
}

bool valid_traceparent(std::string_view v) {
    if (v.size() < 55) return false;
    const std::string_view version = v.substr(0, 2);
    if (!lower_hex(version) || version == "ff") return false;
    if (version == "00" ? v.size() != 55 : (v.size() > 55 && v[55] != '-')) return false;
    if (v[2] != '-' || v[35] != '-' || v[52] != '-') return false;
    const std::string_view trace = v.substr(3, 32), parent = v.substr(36, 16),
                           flags = v.substr(53, 2);
    return lower_hex(trace) && lower_hex(parent) && lower_hex(flags) && !all_zero(trace) &&
           !all_zero(parent);
}

std::string new_traceparent() {
    std::string tp;
    tp.reserve(55);
    tp += "00-";
    put_random_hex(tp, 16);  // trace id
    tp += '-';
    put_random_hex(tp, 8);  // parent id
    tp += "-00";
    if (all_zero(std::string_view(tp).substr(3, 32))) tp[34] = '1';
    if (all_zero(std::string_view(tp).substr(36, 16))) tp[51] = '1';
    return tp;
}

std::string trace_id_of(std::string_view traceparent) {
    return valid_traceparent(traceparent) ? std::string(traceparent.substr(3, 32)) : std::string();
}

}  // namespace platform::host
