#include <algorithm>
#include <cstdio>
#include <platform/host/http/trace_context.hpp>
#include <platform/sdk/random.hpp>

namespace platform::host {

namespace {

std::string hex64() {
    return platform::random_hex(8);
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
    return hex64();
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
    std::string trace = hex64() + hex64(), parent = hex64();
    if (all_zero(trace)) trace[31] = '1';
    if (all_zero(parent)) parent[15] = '1';
    return "00-" + trace + "-" + parent + "-00";
}

std::string trace_id_of(std::string_view traceparent) {
    return valid_traceparent(traceparent) ? std::string(traceparent.substr(3, 32)) : std::string();
}

}  // namespace platform::host
