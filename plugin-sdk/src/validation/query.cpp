#include "platform/validation/query.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "platform/validation/json_depth.hpp"

namespace platform::validation {
namespace {

using json = nlohmann::json;

[[noreturn]] void fail(std::string_view key, const std::string& problem) {
    throw QueryError(sanitize_utf8(key) + ": " + problem);
}

int hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// Percent-decodes `s` ('+' is a space) into valid UTF-8; errors name `key`.
std::string decode(std::string_view s, std::string_view key) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '%') {
            out += s[i] == '+' ? ' ' : s[i];
            continue;
        }
        int hi = i + 2 < s.size() ? hex(s[i + 1]) : -1, lo = hi < 0 ? -1 : hex(s[i + 2]);
        if (lo < 0) fail(key, "bad percent-encoding \"" + std::string(s.substr(i, 3)) + "\"");
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
    }
    if (!valid_utf8(out)) fail(key, "must be valid UTF-8");
    return out;
}

struct Part {
    std::string name;
    bool append = false;  // followed by "[]"
};

// "a.b[c][]" → a, b, c (append).
std::vector<Part> split_key(const std::string& key) {
    std::vector<Part> parts;
    std::size_t pos = std::min(key.find('['), key.size());
    std::string base = key.substr(0, pos);
    if (base.find(']') != base.npos) fail(key, "unbalanced bracket");
    for (std::size_t start = 0, end; start <= base.size(); start = end + 1) {
        end = std::min(base.find('.', start), base.size());
        if (end == start) fail(key, base.empty() ? "empty key" : "empty key part");
        parts.push_back({base.substr(start, end - start)});
    }
    while (pos < key.size()) {
        std::size_t close = key.find(']', pos);
        if (key[pos] != '[' || close == key.npos) fail(key, "unbalanced bracket");
        std::string inner = key.substr(pos + 1, close - pos - 1);
        if (inner.find('[') != inner.npos) fail(key, "unbalanced bracket");
        pos = close + 1;
        if (!inner.empty())
            parts.push_back({inner});
        else if (pos != key.size())
            fail(key, "'[]' must come last");
        else
            parts.back().append = true;
    }
    return parts;
}

// The sub-schema of property `name` (or of the items) of `s`, or null.
const json* step(const json* s, const std::string& key) {
    if (!s || !s->is_object()) return nullptr;
    auto it = s->find(key);
    return it != s->end() ? &*it : nullptr;
}
const json* property(const json* s, const std::string& name) {
    return step(step(s, "properties"), name);
}
std::vector<std::string> types(const json* s) {
    const json* t = step(s, "type");
    std::vector<std::string> out;
    if (t && t->is_string()) out.push_back(t->get<std::string>());
    for (std::size_t i = 0; t && t->is_array() && i < t->size(); ++i)
        if ((*t)[i].is_string()) out.push_back((*t)[i].get<std::string>());
    return out;
}
bool has(const std::vector<std::string>& ts, const char* t) {
    return std::find(ts.begin(), ts.end(), t) != ts.end();
}
bool array_typed(const json* s) {
    auto ts = types(s);
    return has(ts, "array") && !has(ts, "string");
}

std::optional<json> as_json(const std::string& v, json::value_t type) {
    if (!json_depth_ok(v)) return std::nullopt;  // stays a string; validation names the argument
    json j = json::parse(v, nullptr, false);
    if (j.is_discarded() || j.type() != type) return std::nullopt;
    return j;
}
// A JSON number written as such (no whitespace, finite, integers within 64 bits).
std::optional<json> as_number(const std::string& v) {
    auto digit = [](char c) { return c >= '0' && c <= '9'; };
    if (v.empty() || !(v[0] == '-' || digit(v[0])) || !digit(v.back())) return std::nullopt;
    json j = json::parse(v, nullptr, false);
    if (j.is_discarded() || !j.is_number()) return std::nullopt;
    if (j.is_number_float() &&
        (!std::isfinite(j.get<double>()) || v.find_first_of(".eE") == v.npos))
        return std::nullopt;
    return j;
}

// micro's guessing: a JSON number or true/false, else the string.
json guess(const std::string& v) {
    if (auto n = as_number(v)) return *n;
    if (v == "true" || v == "false") return v == "true";
    return v;
}

// Types one value by schema `s`; nullopt means "treat as absent".
std::optional<json> coerce(const std::string& v, const json* s, bool bare) {
    auto ts = types(s);
    if (ts.empty()) return guess(v);
    if (has(ts, "string")) return json(v);
    for (auto& t : ts) {
        std::optional<json> j;
        if (t == "integer" || t == "number")
            j = as_number(v);
        else if (t == "boolean" && (bare || v == "true" || v == "1" || v == "on"))
            j = true;
        else if (t == "boolean" && (v == "false" || v == "0" || v == "off"))
            j = false;
        else if (t == "null" && v == "null")
            j = nullptr;
        else if (t == "object")
            j = as_json(v, json::value_t::object);
        else if (t == "array")
            j = as_json(v, json::value_t::array);
        if (j) return j;
    }
    bool scalar = std::all_of(ts.begin(), ts.end(), [](auto& t) {
        return t == "integer" || t == "number" || t == "boolean" || t == "null";
    });
    if (v.empty() && scalar) return std::nullopt;
    return json(v);
}

// Items of an array-typed property given as a plain value: a JSON array, or comma-separated.
json split_items(std::string_view raw, const std::string& key, const json* s) {
    std::string whole = decode(raw, key);
    if (!whole.empty() && whole[0] == '[')
        if (auto j = as_json(whole, json::value_t::array)) return *j;
    json out = json::array();
    for (std::size_t start = 0, end; !raw.empty() && start <= raw.size(); start = end + 1) {
        end = std::min(raw.find(',', start), raw.size());
        if (auto item =
                coerce(decode(raw.substr(start, end - start), key), step(s, "items"), false))
            out.push_back(std::move(*item));
    }
    return out;
}

void add_pair(json& root, std::string_view pair, const json* schema) {
    auto eq = pair.find('=');
    std::string_view raw_key = pair.substr(0, eq), raw = eq == pair.npos ? "" : pair.substr(eq + 1);
    std::string key = decode(raw_key, raw_key);
    if (key.empty()) fail(pair, "empty key");
    auto parts = split_key(key);
    json* node = &root;
    const json* s = schema;
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
        s = property(s, parts[i].name);
        json& child = (*node)[parts[i].name];
        if (!child.is_object()) child = json::object();
        node = &child;
    }
    const Part& last = parts.back();
    s = property(s, last.name);
    json& slot = (*node)[last.name];
    if (last.append || array_typed(s)) {
        json items = json::array();
        if (!last.append)
            items = split_items(raw, key, s);
        else if (auto item = coerce(decode(raw, key), step(s, "items"), false))
            items.push_back(*item);
        if (!slot.is_array()) slot = json::array();
        slot.insert(slot.end(), items.begin(), items.end());
    } else if (auto v = coerce(decode(raw, key), s, eq == pair.npos)) {
        slot = std::move(*v);
    } else {
        node->erase(last.name);
    }
}

}  // namespace

nlohmann::json parse_query(std::string_view query, const Schema* schema) {
    json root = json::object();
    const json* s = schema ? &schema->source() : nullptr;
    for (std::size_t start = 0, end; start <= query.size(); start = end + 1) {
        end = std::min(query.find('&', start), query.size());
        if (end > start) add_pair(root, query.substr(start, end - start), s);
    }
    return root;
}

}  // namespace platform::validation
