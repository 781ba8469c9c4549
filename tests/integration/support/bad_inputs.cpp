#include "bad_inputs.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <regex>

namespace platform::test {

using nlohmann::json;

namespace {

// Strings tried, in order, for a string schema with a pattern or a length (never a real service,
// account or host name, so a call that succeeds touches nothing the sweep relies on).
const char* const kCandidates[] = {"sweep",
                                   "sweep-1",
                                   "sweep_1",
                                   "sweep.txt",
                                   "Sweep",
                                   "s1",
                                   "2030-01-01",
                                   "2030-01-01T10:00:00Z",
                                   "10:00",
                                   "UTC",
                                   "text/plain",
                                   "sweep@example.com",
                                   "https://127.0.0.1:9/sweep",
                                   "sweep:sweep:sweep",
                                   "service:sweep:*",
                                   "sweep/sweep",
                                   "/sweep",
                                   "1",
                                   "en",
                                   "EUR",
                                   "#000000",
                                   "a",
                                   "+447700900000",  // E.164, in a range kept for fiction
                                   "000000",
                                   "sweep_video"};  // a YouTube video id's shape (11 characters)
constexpr const char* kUnknown = "sweep_unknown_argument";
// Stands for raw bytes in a dumped body (invalid UTF-8, numbers JSON values cannot hold).
constexpr const char* kRawMarker = "@@sweep-raw@@";

std::vector<std::string> types_of(const json& s) {
    std::vector<std::string> out;
    if (!s.is_object() || !s.contains("type")) return out;
    if (s["type"].is_string()) out.push_back(s["type"]);
    if (s["type"].is_array())
        for (const auto& t : s["type"]) out.push_back(t);
    return out;
}
bool has(const std::vector<std::string>& ts, const std::string& t) {
    return std::count(ts.begin(), ts.end(), t) > 0;
}

bool allows(const std::vector<std::string>& ts, const json& v) {
    if (v.is_number()) {
        const bool integral =
            v.is_number_integer() || std::floor(v.get<double>()) == v.get<double>();
        return has(ts, "number") || (has(ts, "integer") && integral);
    }
    return has(ts, v.is_string()    ? "string"
                   : v.is_boolean() ? "boolean"
                   : v.is_null()    ? "null"
                   : v.is_object()  ? "object"
                                    : "array");
}

size_t count(const json& s, const char* key) {
    return s.contains(key) ? s[key].get<size_t>() : 0;
}

bool string_fits(const json& s, const std::string& v) {
    const size_t len = std::count_if(v.begin(), v.end(), [](char c) { return (c & 0xC0) != 0x80; });
    if (s.contains("minLength") && len < count(s, "minLength")) return false;
    if (s.contains("maxLength") && len > count(s, "maxLength")) return false;
    if (s.contains("pattern") &&
        !std::regex_search(v, std::regex(s["pattern"].get<std::string>(), std::regex::ECMAScript)))
        return false;
    return true;
}

std::optional<json> valid_string(const json& s) {
    const std::string format = s.value("format", "");
    std::vector<std::string> tries;
    if (format == "date-time") tries.push_back("2030-01-01T10:00:00Z");
    if (format == "email") tries.push_back("sweep@example.com");
    if (format.empty() || (format != "date-time" && format != "email"))
        for (const char* c : kCandidates) tries.push_back(c);
    const size_t min = count(s, "minLength");
    for (const auto& t : tries) {
        if (string_fits(s, t)) return json(t);
        if (t.size() < min && string_fits(s, t + std::string(min - t.size(), 'x')))
            return json(t + std::string(min - t.size(), 'x'));
    }
    return std::nullopt;
}

json number_in_range(const json& s, bool integer) {
    double lo = s.contains("minimum") ? s["minimum"].get<double>() : -INFINITY;
    double hi = s.contains("maximum") ? s["maximum"].get<double>() : INFINITY;
    if (s.contains("exclusiveMinimum"))
        lo = std::max(lo, s["exclusiveMinimum"].get<double>() + (integer ? 1 : 0.5));
    if (s.contains("exclusiveMaximum"))
        hi = std::min(hi, s["exclusiveMaximum"].get<double>() - (integer ? 1 : 0.5));
    double v = std::isfinite(lo) ? (integer ? std::ceil(lo) : lo) : std::min(1.0, hi);
    if (integer) return static_cast<int64_t>(std::isfinite(v) ? v : 1);
    return v;
}

// Values of each JSON type; a case of wrong_type sends those the schema refuses.
const json& representatives() {
    static const json all =
        json::array({"sweep", 7.5, true, json::object(), json::array(), nullptr});
    return all;
}

json copies(const json& item, size_t n) {
    json out = json::array();
    for (size_t i = 0; i < n; ++i) out.push_back(item);
    return out;
}

// `n` distinct valid items (uniqueItems), or nullopt.
std::optional<json> distinct_items(const json& item_schema, size_t n) {
    auto item = valid_value(item_schema);
    if (!item) return std::nullopt;
    json out = json::array();
    for (size_t i = 0; i < n; ++i) {
        json v = item->is_string()           ? json(item->get<std::string>() + std::to_string(i))
                 : item->is_number_integer() ? json(item->get<int64_t>() + static_cast<int64_t>(i))
                                             : *item;
        if (v.is_string() && !string_fits(item_schema, v.get<std::string>())) return std::nullopt;
        out.push_back(v);
    }
    if (n > 1 && out[0] == out[1]) return std::nullopt;
    return out;
}

// Valid values at the edges of property schema `s`, labelled: its bounds (or the 64-bit
// extremes where it has none), every enum value, maxLength two-byte characters, control
// characters, NUL and a four-byte character in a string, "" where that is allowed, true, and
// [] or maxItems items.
std::vector<std::pair<std::string, json>> at_limits(const json& s,
                                                    const std::vector<std::string>& ts,
                                                    bool required) {
    std::vector<std::pair<std::string, json>> out;
    const bool integer = has(ts, "integer") && !has(ts, "number");
    const bool numeric = has(ts, "integer") || has(ts, "number");
    for (const char* bound : {"minimum", "maximum"})
        if (s.contains(bound)) out.emplace_back(std::string("= ") + bound, s[bound]);
    if (integer && s.contains("exclusiveMinimum"))
        out.emplace_back("= exclusiveMinimum + 1", s["exclusiveMinimum"].get<int64_t>() + 1);
    if (integer && s.contains("exclusiveMaximum"))
        out.emplace_back("= exclusiveMaximum - 1", s["exclusiveMaximum"].get<int64_t>() - 1);
    if (numeric && !s.contains("enum") && !s.contains("const")) {
        if (!s.contains("minimum") && !s.contains("exclusiveMinimum"))
            out.emplace_back("= lowest", integer ? json(INT64_MIN) : json(-1e308));
        if (!s.contains("maximum") && !s.contains("exclusiveMaximum"))
            out.emplace_back("= highest", integer ? json(INT64_MAX) : json(1e308));
    }
    for (const auto& v : s.value("enum", json::array())) out.emplace_back("= " + v.dump(), v);
    const std::string format = s.value("format", "");
    if (has(ts, "string") && !s.contains("pattern") && !s.contains("enum") &&
        !s.contains("const") && format != "date-time" && format != "email") {
        const size_t min = count(s, "minLength"),
                     max = s.contains("maxLength") ? count(s, "maxLength") : SIZE_MAX;
        if (s.contains("maxLength")) {
            std::string two_byte;
            for (size_t i = 0; i < max; ++i) two_byte += "\xC3\xA9";  // é
            out.emplace_back("= maxLength two-byte characters", two_byte);
        }
        static const char kNasty[] =
            "a\0b\x01\x1F\x7F\xF0\x9F\x98\x80\xE2\x80\xA8\t\\\"'<>%s../";  // 19 code points
        if (min <= 19 && max >= 19)
            out.emplace_back("= control characters, NUL, U+1F600, U+2028",
                             std::string(kNasty, sizeof kNasty - 1));
        if (!required && min == 0) out.emplace_back("= \"\"", "");
    }
    if (has(ts, "boolean")) out.emplace_back("= true", true);
    if (has(ts, "array") && count(s, "minItems") == 0) out.emplace_back("= []", json::array());
    if (has(ts, "array") && s.contains("maxItems")) {
        const json item_schema = s.value("items", json(true));
        auto items = s.value("uniqueItems", false)
                         ? distinct_items(item_schema, count(s, "maxItems"))
                         : std::optional<json>(copies(valid_value(item_schema).value_or(json(0)),
                                                      count(s, "maxItems")));
        if (items) out.emplace_back("= maxItems items", *items);
    }
    return out;
}

}  // namespace

const char* kind_name(BadKind kind) {
    switch (kind) {
        case BadKind::missing:
            return "missing";
        case BadKind::wrong_type:
            return "wrong type";
        case BadKind::out_of_range:
            return "out of range";
        case BadKind::oversize:
            return "oversize";
        case BadKind::invalid_utf8:
            return "invalid UTF-8";
        case BadKind::malformed_json:
            return "malformed JSON";
        case BadKind::unknown_argument:
            return "unknown argument";
        case BadKind::at_limits:
            return "at the limits";
    }
    return "?";
}

std::optional<json> valid_value(const json& s) {
    if (s.is_boolean()) return s.get<bool>() ? std::optional<json>("sweep") : std::nullopt;
    if (!s.is_object()) return std::nullopt;
    if (s.contains("const")) return s["const"];
    if (s.contains("default")) return s["default"];
    if (s.contains("enum")) return s["enum"][0];
    if (s.contains("examples") && !s["examples"].empty()) return s["examples"][0];
    auto ts = types_of(s);
    const std::string type = ts.empty()                              ? "string"
                             : ts.front() == "null" && ts.size() > 1 ? ts[1]
                                                                     : ts.front();
    if (type == "string") return valid_string(s);
    if (type == "integer" || type == "number") return number_in_range(s, type == "integer");
    if (type == "boolean") return json(false);
    if (type == "null") return json(nullptr);
    if (type == "array") {
        const size_t n = count(s, "minItems");
        if (n == 0) return json::array();
        auto item = valid_value(s.value("items", json(true)));
        if (!item) return std::nullopt;
        return copies(*item, n);
    }
    auto base = baseline(s);
    if (!base.unsatisfiable.empty()) return std::nullopt;
    return base.args;
}

Baseline baseline(const json& schema) {
    Baseline out;
    const json props = schema.value("properties", json::object());
    for (const auto& name : schema.value("required", json::array())) {
        auto v = props.contains(name) ? valid_value(props[name]) : std::optional<json>("sweep");
        if (v)
            out.args[name.get<std::string>()] = *v;
        else
            out.unsatisfiable.push_back(name);
    }
    return out;
}

std::vector<BadInput> bad_inputs(const json& schema, const BadInputOptions& options) {
    std::vector<BadInput> out;
    const Baseline base = baseline(schema);
    const json props = schema.value("properties", json::object());
    const json required = schema.value("required", json::array());
    auto add = [&](BadKind kind, const std::string& arg, std::string label, json args,
                   bool valid = false) {
        out.push_back({kind, arg + " " + label, arg, std::move(args), "", valid});
    };
    for (const auto& r : required) {
        json args = base.args;
        args.erase(r.get<std::string>());
        add(BadKind::missing, r, "left out", args);
    }
    json extra = base.args;
    extra[kUnknown] = 1;
    const bool closed =
        schema.contains("additionalProperties") && schema["additionalProperties"] == false;
    add(BadKind::unknown_argument, kUnknown, "= 1 (not declared)", extra, !closed);

    for (const auto& prop : props.items()) {
        // Named copies, not a structured binding: clang (the sanitizer build) cannot capture those.
        const std::string name = prop.key();
        const json& s = prop.value();
        const bool others_ok = std::all_of(base.unsatisfiable.begin(), base.unsatisfiable.end(),
                                           [&](auto& u) { return u == name; });
        if (!others_ok || !s.is_object()) continue;
        auto with = [&](json v) {
            json args = base.args;
            args[name] = std::move(v);
            return args;
        };
        // The body with `text` (a number as written) as this argument's value.
        auto with_raw = [&](const char* text) {
            std::string body = with(kRawMarker).dump();
            body.replace(body.find(std::string("\"") + kRawMarker + "\""),
                         std::string(kRawMarker).size() + 2, text);
            return body;
        };
        const auto ts = types_of(s);
        const bool is_required =
            std::find(required.begin(), required.end(), name) != required.end();
        for (const auto& v : representatives())
            if (!ts.empty() && !allows(ts, v))
                add(BadKind::wrong_type, name, "= " + v.dump() + " (type)", with(v));
        const bool integer = has(ts, "integer") && !has(ts, "number");
        auto num = [&](double d) { return integer ? json(static_cast<int64_t>(d)) : json(d); };
        if (s.contains("minimum"))
            add(BadKind::out_of_range, name, "below minimum",
                with(num(s["minimum"].get<double>() - 1)));
        if (s.contains("exclusiveMinimum"))
            add(BadKind::out_of_range, name, "at exclusiveMinimum", with(s["exclusiveMinimum"]));
        if (s.contains("maximum"))
            add(BadKind::out_of_range, name, "above maximum",
                with(num(s["maximum"].get<double>() + 1)));
        if (s.contains("exclusiveMaximum"))
            add(BadKind::out_of_range, name, "at exclusiveMaximum", with(s["exclusiveMaximum"]));
        if (count(s, "minLength") > 0)
            add(BadKind::out_of_range, name, "shorter than minLength",
                with(std::string(count(s, "minLength") - 1, 'x')));
        else if (is_required && has(ts, "string") && !s.contains("enum") && !s.contains("const"))
            add(BadKind::out_of_range, name, "= \"\" (required)", with(""));
        if (s.contains("enum")) {
            json v = s["enum"][0].is_number() ? json(987654321) : json("sweep-not-in-enum");
            if (std::find(s["enum"].begin(), s["enum"].end(), v) == s["enum"].end())
                add(BadKind::out_of_range, name, "not in enum", with(v));
        }
        const json an_item = valid_value(s.value("items", json(true))).value_or(json(0));
        if (s.contains("maxItems"))
            add(BadKind::out_of_range, name, "above maxItems",
                with(copies(an_item, count(s, "maxItems") + 1)));
        if (count(s, "minItems") > 0)
            add(BadKind::out_of_range, name, "below minItems",
                with(copies(an_item, count(s, "minItems") - 1)));
        for (auto& [label, v] : at_limits(s, ts, is_required))
            add(BadKind::at_limits, name, label, with(v), true);
        if (has(ts, "number") || has(ts, "integer")) {
            // Numbers a JSON parser may trip on. -0, 2^53 + 1 and integers beyond int64 are
            // JSON the schema judges (any answer but a 5xx); beyond a double's range is bad
            // input naming the argument; 1e-400 rounds to 0.
            add(BadKind::at_limits, name, "= -0", with(-0.0), true);
            add(BadKind::at_limits, name, "= 2^53 + 1", with(int64_t(9007199254740993)), true);
            add(BadKind::at_limits, name, "= 2^64 - 1 (beyond int64)",
                with(uint64_t(18446744073709551615u)), true);
            if (options.raw_bodies) {
                for (const char* number : {"1e999", "-1e999"})
                    out.push_back({BadKind::out_of_range, name + " = " + number, name, json(),
                                   with_raw(number)});
                for (const char* number : {"1e-400", "100000000000000000000000"})
                    out.push_back({BadKind::at_limits, name + " = " + number, name, json(),
                                   with_raw(number), true});
            }
        }
        if (!has(ts, "string") && !ts.empty()) continue;
        if (s.contains("maxLength")) {
            add(BadKind::oversize, name, "maxLength + 1",
                with(std::string(count(s, "maxLength") + 1, 'x')));
        } else {
            const size_t cap = std::min<size_t>(1 << 20, options.max_body),
                         overhead = base.args.dump().size() + 4096;
            const size_t room = cap > 2 * overhead ? cap - overhead : cap / 2;
            const std::string format = s.value("format", "");
            const bool valid = !s.contains("pattern") && !s.contains("enum") &&
                               !s.contains("const") && format != "date-time" && format != "email";
            add(BadKind::oversize, name, "~1 MiB (no maxLength)", with(std::string(room, 'x')),
                valid);
        }
        if (options.raw_bodies) {
            std::string body = with(kRawMarker).dump();
            body.replace(body.find(kRawMarker), std::string(kRawMarker).size(), "sweep\xC3\x28");
            out.push_back({BadKind::invalid_utf8, name + " holds C3 28", name, json(), body});
        }
    }
    if (options.raw_bodies) {
        const std::string d = base.args.dump();
        for (const auto& [label, raw] :
             {std::pair<std::string, std::string>{"truncated", d.substr(0, d.size() - 1)},
              {"trailing garbage", d + " }x"},
              {"an array", "[" + d + "]"},
              {"a string", "\"sweep\""}})
            out.push_back({BadKind::malformed_json, "body " + label, "body", json(), raw});
    }
    return out;
}

bool names(const std::string& message, const std::string& argument) {
    auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    for (size_t at = message.find(argument); at != std::string::npos;
         at = message.find(argument, at + 1)) {
        const size_t end = at + argument.size();
        if ((at == 0 || !word(message[at - 1])) && (end == message.size() || !word(message[end])))
            return true;
    }
    return false;
}

}  // namespace platform::test
