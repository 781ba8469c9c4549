// record.hpp — reading the JSON records this plugin stores (jobs.hpp): tolerant accessors that
// give "" / 0 / null for a missing or mistyped field, and the one serialisation the store sees
// (compare-and-set compares these bytes).
#pragma once

#include <cstdint>
#include <optional>
#include <platform/sdk.hpp>
#include <string>

namespace work::record {

using platform::json;

inline std::string dump(const json& j) {
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

inline json parse(const std::optional<std::string>& raw) {
    if (!raw) return json();
    json j = json::parse(*raw, nullptr, false);
    return j.is_object() ? j : json();
}

inline std::string text(const json& j, const char* key) {
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

inline int64_t number(const json& j, const char* key) {
    auto it = j.find(key);
    return it != j.end() && it->is_number_integer() ? it->get<int64_t>() : 0;
}

inline json or_null(const json& j, const char* key) {
    const std::string s = text(j, key);
    return s.empty() ? json() : json(s);
}

}  // namespace work::record
