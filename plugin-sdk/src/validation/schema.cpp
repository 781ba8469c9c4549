#include "platform/validation/schema.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <mutex>
#include <regex>
#include <tuple>
#include <unordered_map>

namespace platform::validation {
namespace {

using json = nlohmann::json;
using Result = std::optional<std::string>;

constexpr unsigned kString = 1, kNumber = 2, kInteger = 4, kBoolean = 8, kObject = 16, kArray = 32,
                   kNull = 64;
const std::pair<const char*, unsigned> kTypes[] = {
    {"string", kString}, {"number", kNumber}, {"integer", kInteger}, {"boolean", kBoolean},
    {"object", kObject}, {"array", kArray},   {"null", kNull}};
constexpr int kMaxDepth = 100;  // for values no schema describes
// libstdc++'s std::regex recurses once per matched character (~0.5-1 KiB of stack each) and
// overflows the stack on long inputs, so longer strings are refused rather than matched.
constexpr std::size_t kMaxPatternInput = 2048;

// Length of the valid UTF-8 sequence at s[i], or 0.
std::size_t seq_len(std::string_view s, std::size_t i) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) return 1;
    std::size_t len = c >= 0xC2 && c <= 0xDF   ? 2
                      : (c & 0xF0) == 0xE0     ? 3
                      : c >= 0xF0 && c <= 0xF4 ? 4
                                               : 0;
    if (len == 0 || i + len > s.size()) return 0;
    std::uint32_t cp = c & (len == 2 ? 0x1F : len == 3 ? 0x0F : 0x07);
    for (std::size_t k = 1; k < len; ++k) {
        auto d = static_cast<unsigned char>(s[i + k]);
        if ((d & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (d & 0x3F);
    }
    if (len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) return 0;
    if (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) return 0;
    return len;
}

}  // namespace

bool valid_utf8(std::string_view s) {
    for (std::size_t i = 0, n = 0; i < s.size(); i += n)
        if ((n = seq_len(s, i)) == 0) return false;
    return true;
}

std::size_t utf8_length(std::string_view s) {
    return std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; });
}

std::string sanitize_utf8(std::string_view s) {
    std::string out;
    for (std::size_t i = 0, n = 0; i < s.size(); i += n ? n : 1)
        if ((n = seq_len(s, i)) != 0)
            out.append(s.substr(i, n));
        else
            out += "\xEF\xBF\xBD";
    return out;
}

namespace {

struct Node {
    std::optional<bool> boolean;  // a `true` / `false` schema
    unsigned types = 0;           // 0: any type
    std::vector<std::pair<std::string, Node>> props;
    std::vector<std::string> required;
    std::unique_ptr<Node> additional;  // null: anything goes
    std::optional<json> enum_, const_, default_, minimum, maximum, ex_min, ex_max;
    std::optional<std::size_t> min_len, max_len, max_bytes, min_items, max_items, min_props,
        max_props;
    std::shared_ptr<const std::regex> pattern;  // shared by every schema with the same source
    std::string pattern_src, format;
    std::unique_ptr<Node> items;
    bool unique = false;
};

// The compiled form of a "pattern", made once per process for each source text. Compiling is
// the costliest part of checking a schema (a bracket expression alone is ~0.5 M instructions),
// and the host compiles every endpoint's schema at start, where the same patterns recur (dates,
// slugs, ids). A compiled std::regex is only read afterwards, so sharing it between threads is
// safe. Throws std::regex_error for an invalid source (nothing is kept then).
std::shared_ptr<const std::regex> compiled_pattern(const std::string& source) {
    static std::mutex m;
    static std::unordered_map<std::string, std::shared_ptr<const std::regex>> known;
    {
        std::lock_guard<std::mutex> g(m);
        auto it = known.find(source);
        if (it != known.end()) return it->second;
    }
    auto re = std::make_shared<const std::regex>(source, std::regex::ECMAScript);
    std::lock_guard<std::mutex> g(m);
    return known.emplace(source, std::move(re)).first->second;
}

// Compares two JSON numbers: exact for integers, as doubles otherwise.
int cmp(const json& a, const json& b) {
    auto sign = [](auto x, auto y) { return (x > y) - (x < y); };
    if (!a.is_number_integer() || !b.is_number_integer())
        return sign(a.get<double>(), b.get<double>());
    bool au = a.is_number_unsigned(), bu = b.is_number_unsigned();
    if (au && bu) return sign(a.get<std::uint64_t>(), b.get<std::uint64_t>());
    if (!au && !bu) return sign(a.get<std::int64_t>(), b.get<std::int64_t>());
    if (!au) return -cmp(b, a);
    auto y = b.get<std::int64_t>();
    return y < 0 ? 1 : sign(a.get<std::uint64_t>(), std::uint64_t(y));
}

template <class J>
struct Builder {
    [[noreturn]] static void fail(const std::string& ptr, const std::string& msg) {
        throw SchemaError((ptr.empty() ? "/" : ptr) + ": " + msg);
    }
    static json need(const J& v, bool ok, const std::string& p, const char* what) {
        if (!ok) fail(p, std::string("must be ") + what);
        return json(v);
    }
    static std::string esc(const std::string& key) {
        std::string out;
        for (char c : key) out += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
        return out;
    }
    static std::size_t count(const J& v, const std::string& p) {
        double d = v.is_number() ? v.template get<double>() : -1;
        if (v.is_number_unsigned()) return v.template get<std::size_t>();
        if (d >= 0 && d < 1e18 && std::floor(d) == d) return static_cast<std::size_t>(d);
        fail(p, "must be a non-negative integer");
    }
    static unsigned type_bit(const J& t, const std::string& p) {
        if (!t.is_string()) fail(p, "must be a type name");
        for (auto& [name, bit] : kTypes)
            if (t == name) return bit;
        fail(p, "unknown type \"" + t.template get<std::string>() + "\"");
    }
    static unsigned type(const J& v, const std::string& p) {
        if (v.is_string()) return type_bit(v, p);
        if (!v.is_array() || v.empty()) fail(p, "must be a type name or a non-empty array of them");
        unsigned mask = 0;
        for (std::size_t i = 0; i < v.size(); ++i) {
            unsigned bit = type_bit(v[i], p + "/" + std::to_string(i));
            if (mask & bit) fail(p + "/" + std::to_string(i), "duplicate type");
            mask |= bit;
        }
        return mask;
    }
    static void keyword(Node& n, const std::string& k, const J& v, const std::string& p,
                        bool root) {
        using T = json::value_t;
        static const std::pair<const char*, std::optional<std::size_t> Node::*> counts[] = {
            {"minLength", &Node::min_len},      {"maxLength", &Node::max_len},
            {"maxBytes", &Node::max_bytes},     {"minItems", &Node::min_items},
            {"maxItems", &Node::max_items},     {"minProperties", &Node::min_props},
            {"maxProperties", &Node::max_props}};
        static const std::pair<const char*, std::optional<json> Node::*> bounds[] = {
            {"minimum", &Node::minimum},
            {"maximum", &Node::maximum},
            {"exclusiveMinimum", &Node::ex_min},
            {"exclusiveMaximum", &Node::ex_max}};
        static const std::tuple<const char*, T, const char*> notes[] = {
            {"title", T::string, "a string"},       {"description", T::string, "a string"},
            {"$comment", T::string, "a string"},    {"examples", T::array, "an array"},
            {"readOnly", T::boolean, "a boolean"},  {"writeOnly", T::boolean, "a boolean"},
            {"deprecated", T::boolean, "a boolean"}};
        for (auto& [name, field] : counts)
            if (k == name) return void(n.*field = count(v, p));
        for (auto& [name, field] : bounds)
            if (k == name) return void(n.*field = need(v, v.is_number(), p, "a number"));
        for (auto& [name, type, what] : notes)
            if (k == name) return void(need(v, v.type() == type, p, what));
        if (k == "type") return void(n.types = type(v, p));
        if (k == "enum")
            return void(n.enum_ = need(v, v.is_array() && !v.empty(), p, "a non-empty array"));
        if (k == "const") return void(n.const_ = json(v));
        if (k == "default") return void(n.default_ = json(v));
        if (k == "additionalProperties")
            return void(n.additional = std::make_unique<Node>(build(v, p, false)));
        if (k == "items") return void(n.items = std::make_unique<Node>(build(v, p, false)));
        if (k == "uniqueItems")
            return void(n.unique = need(v, v.is_boolean(), p, "a boolean") == true);
        if (k == "format")
            return void(n.format =
                            need(v, v.is_string(), p, "a string").template get<std::string>());
        if (k == "$schema" && root) return void(need(v, v.is_string(), p, "a string"));
        if (k == "properties") {
            need(v, v.is_object(), p, "an object");
            for (auto it = v.begin(); it != v.end(); ++it)
                n.props.emplace_back(it.key(), build(it.value(), p + "/" + esc(it.key()), false));
        } else if (k == "required") {
            need(v, v.is_array(), p, "an array of strings");
            for (std::size_t i = 0; i < v.size(); ++i) {
                auto ip = p + "/" + std::to_string(i);
                auto name =
                    need(v[i], v[i].is_string(), ip, "a string").template get<std::string>();
                if (std::count(n.required.begin(), n.required.end(), name))
                    fail(ip, "duplicate \"" + name + "\"");
                n.required.push_back(name);
            }
        } else if (k == "pattern") {
            n.pattern_src = need(v, v.is_string(), p, "a string").template get<std::string>();
            try {
                n.pattern = compiled_pattern(n.pattern_src);
            } catch (const std::regex_error& e) {
                fail(p, std::string("invalid regular expression: ") + e.what());
            }
        } else {
            fail(p, "unsupported keyword");
        }
    }
    static Node build(const J& s, const std::string& ptr, bool root) {
        Node n;
        if (s.is_boolean() && !root) {
            n.boolean = s.template get<bool>();
            return n;
        }
        if (!s.is_object())
            fail(ptr, root ? "the root schema must be a JSON object" : "must be a schema");
        if (root && (!s.contains("type") || s["type"] != "object"))
            fail("/type", "the root schema must have \"type\": \"object\"");
        for (auto it = s.begin(); it != s.end(); ++it)
            keyword(n, it.key(), it.value(), ptr + "/" + esc(it.key()), root);
        auto order = [&](const auto& lo, const auto& hi, const char* lk, const char* hk) {
            if (lo && hi && *lo > *hi) fail(ptr + "/" + lk, std::string("is greater than ") + hk);
        };
        order(n.min_len, n.max_len, "minLength", "maxLength");
        order(n.min_items, n.max_items, "minItems", "maxItems");
        order(n.min_props, n.max_props, "minProperties", "maxProperties");
        if (n.minimum && n.maximum && cmp(*n.minimum, *n.maximum) > 0)
            fail(ptr + "/minimum", "is greater than maximum");
        for (std::size_t i = 0;
             n.additional && n.additional->boolean == false && i < n.required.size(); ++i)
            if (std::none_of(n.props.begin(), n.props.end(),
                             [&](auto& pr) { return pr.first == n.required[i]; }))
                fail(ptr + "/required/" + std::to_string(i),
                     "\"" + n.required[i] +
                         "\" is not in properties and additionalProperties is false");
        return n;
    }
};

// --- validation -------------------------------------------------------------------------------

Result fail(const std::string& path, const std::string& msg) {
    return (path.empty() ? "arguments" : path) + ": " + msg;
}
std::string join(const std::string& path, const std::string& key) {
    return path.empty() ? sanitize_utf8(key) : path + "." + sanitize_utf8(key);
}
std::string plural(std::size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}
std::string show(const json& v) {
    return !v.is_string()                            ? v.dump()
           : v.get_ref<const std::string&>().empty() ? "\"\""
                                                     : v.get<std::string>();
}
std::string type_names(unsigned mask) {
    static const char* const names[] = {"a string",  "a number", "an integer", "a boolean",
                                        "an object", "an array", "null"};
    std::string out;
    for (int i = 0; i < 7; ++i)
        if ((mask & (1u << i)) && !(i == 2 && (mask & kNumber)))
            out += (out.empty() ? "" : " or ") + std::string(names[i]);
    return out;
}
bool integral(const json& v) {
    if (v.is_number_integer()) return true;
    double d = v.is_number_float() ? v.get<double>() : 0.5;
    return std::isfinite(d) && std::floor(d) == d;
}
bool matches(unsigned mask, const json& v) {
    if (v.is_number()) return (mask & kNumber) || ((mask & kInteger) && integral(v));
    return mask & (v.is_string()    ? kString
                   : v.is_boolean() ? kBoolean
                   : v.is_null()    ? kNull
                   : v.is_object()  ? kObject
                                    : kArray);
}

bool digits(std::string_view s, std::size_t pos, std::size_t n, int& out) {
    out = 0;
    for (std::size_t i = pos; i < pos + n; ++i) {
        if (i >= s.size() || s[i] < '0' || s[i] > '9') return false;
        out = out * 10 + (s[i] - '0');
    }
    return true;
}
bool is_date_time(std::string_view s) {
    int y, mo, d, h, mi, se, oh, om;
    if (!digits(s, 0, 4, y) || s[4] != '-' || !digits(s, 5, 2, mo) || s[7] != '-' ||
        !digits(s, 8, 2, d) || (s[10] != 'T' && s[10] != 't') || !digits(s, 11, 2, h) ||
        s[13] != ':' || !digits(s, 14, 2, mi) || s[16] != ':' || !digits(s, 17, 2, se))
        return false;
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (mo < 1 || mo > 12 || d < 1 || d > days[mo - 1] + (mo == 2 && leap) || h > 23 || mi > 59 ||
        se > 60)
        return false;
    std::size_t i = 19;
    if (i < s.size() && s[i] == '.') {
        std::size_t start = ++i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
        if (i == start) return false;
    }
    if (i < s.size() && (s[i] == 'Z' || s[i] == 'z')) return i + 1 == s.size();
    return i + 6 == s.size() && (s[i] == '+' || s[i] == '-') && digits(s, i + 1, 2, oh) &&
           s[i + 3] == ':' && digits(s, i + 4, 2, om) && oh < 24 && om < 60;
}
bool is_email(std::string_view s) {
    auto at = s.find('@');
    if (at == 0 || at == s.npos || s.find('@', at + 1) != s.npos) return false;
    if (std::any_of(s.begin(), s.end(),
                    [](char c) { return c == 0x7F || (unsigned char)c <= 0x20; }))
        return false;
    auto dom = s.substr(at + 1);
    return dom.find('.') != dom.npos && dom.front() != '.' && dom.back() != '.' &&
           dom.find("..") == dom.npos;
}

// Checks what no schema describes: UTF-8 of strings and keys, and a sane depth.
Result deep(const json& v, const std::string& path, int depth = 0) {
    if (depth > kMaxDepth) return fail(path, "is nested too deeply");
    if (v.is_string() && !valid_utf8(v.get_ref<const std::string&>()))
        return fail(path, "must be valid UTF-8");
    if (v.is_array())
        for (std::size_t i = 0; i < v.size(); ++i)
            if (auto r = deep(v[i], join(path, std::to_string(i)), depth + 1)) return r;
    if (v.is_object())
        for (auto it = v.begin(); it != v.end(); ++it) {
            if (!valid_utf8(it.key())) return fail(join(path, it.key()), "must be valid UTF-8");
            if (auto r = deep(it.value(), join(path, it.key()), depth + 1)) return r;
        }
    return std::nullopt;
}

Result check(const Node& n, json& v, const std::string& path, bool required);

Result check_string(const Node& n, const std::string& s, const std::string& path, bool required) {
    if (required && s.empty() && !n.min_len && !n.enum_ && !n.const_)
        return fail(path, "must not be empty");
    if (n.max_bytes && s.size() > *n.max_bytes)
        return fail(path, "must be at most " + plural(*n.max_bytes, "byte", "bytes"));
    std::size_t len = n.min_len || n.max_len ? utf8_length(s) : 0;
    if (n.min_len && len < *n.min_len)
        return fail(path, "must be at least " + plural(*n.min_len, "character", "characters"));
    if (n.max_len && len > *n.max_len)
        return fail(path, "must be at most " + plural(*n.max_len, "character", "characters"));
    if (n.pattern && s.size() > kMaxPatternInput)
        return fail(path, "is too long to check against its pattern (over " +
                              std::to_string(kMaxPatternInput) + " bytes)");
    if (n.pattern && !std::regex_search(s, *n.pattern))
        return fail(path, "must match the pattern " + n.pattern_src);
    if (n.format == "date-time" && !is_date_time(s))
        return fail(path, "must be a date-time (RFC 3339, e.g. 2024-01-31T09:00:00Z)");
    if (n.format == "email" && !is_email(s)) return fail(path, "must be an email address");
    return std::nullopt;
}

Result check_number(const Node& n, const json& v, const std::string& path) {
    if (n.minimum && cmp(v, *n.minimum) < 0)
        return fail(path, "must be at least " + n.minimum->dump());
    if (n.maximum && cmp(v, *n.maximum) > 0)
        return fail(path, "must be at most " + n.maximum->dump());
    if (n.ex_min && cmp(v, *n.ex_min) <= 0)
        return fail(path, "must be greater than " + n.ex_min->dump());
    if (n.ex_max && cmp(v, *n.ex_max) >= 0)
        return fail(path, "must be less than " + n.ex_max->dump());
    return std::nullopt;
}

Result check_array(const Node& n, json& v, const std::string& path) {
    if (n.min_items && v.size() < *n.min_items)
        return fail(path, "must have at least " + plural(*n.min_items, "item", "items"));
    if (n.max_items && v.size() > *n.max_items)
        return fail(path, "must have at most " + plural(*n.max_items, "item", "items"));
    if (n.unique) {
        std::vector<const json*> sorted;
        for (const auto& e : v) sorted.push_back(&e);
        std::sort(sorted.begin(), sorted.end(), [](auto a, auto b) { return *a < *b; });
        if (std::adjacent_find(sorted.begin(), sorted.end(),
                               [](auto a, auto b) { return *a == *b; }) != sorted.end())
            return fail(path, "must not contain duplicate items");
    }
    for (std::size_t i = 0; i < v.size(); ++i) {
        auto p = join(path, std::to_string(i));
        if (auto r = n.items ? check(*n.items, v[i], p, false) : deep(v[i], p)) return r;
    }
    return std::nullopt;
}

Result check_object(const Node& n, json& v, const std::string& path) {
    auto declared = [&](const std::string& key) {
        return std::any_of(n.props.begin(), n.props.end(),
                           [&](auto& pr) { return pr.first == key; });
    };
    for (auto it = v.begin(); it != v.end(); ++it)
        if (!valid_utf8(it.key())) return fail(join(path, it.key()), "must be valid UTF-8");
    for (auto& [name, child] : n.props)
        if (child.default_ && !v.contains(name)) v[name] = *child.default_;
    for (auto& name : n.required)
        if (!v.contains(name)) return fail(join(path, name), "is required");
    if (n.additional && n.additional->boolean == false)
        for (auto it = v.begin(); it != v.end(); ++it) {
            if (declared(it.key())) continue;
            std::vector<std::string> names;
            for (auto& pr : n.props) names.push_back(pr.first);
            std::sort(names.begin(), names.end());
            std::string allowed;
            for (auto& a : names) allowed += (allowed.empty() ? "" : ", ") + a;
            return fail(join(path, it.key()), names.empty()
                                                  ? "unknown argument (none are accepted)"
                                                  : "unknown argument (allowed: " + allowed + ")");
        }
    if (n.min_props && v.size() < *n.min_props)
        return fail(path, "must have at least " + plural(*n.min_props, "property", "properties"));
    if (n.max_props && v.size() > *n.max_props)
        return fail(path, "must have at most " + plural(*n.max_props, "property", "properties"));
    for (auto& [name, child] : n.props) {
        auto it = v.find(name);
        bool req = std::count(n.required.begin(), n.required.end(), name) > 0;
        if (it != v.end())
            if (auto r = check(child, *it, join(path, name), req)) return r;
    }
    for (auto it = v.begin(); it != v.end(); ++it) {
        if (declared(it.key())) continue;
        auto p = join(path, it.key());
        if (auto r =
                n.additional ? check(*n.additional, it.value(), p, false) : deep(it.value(), p))
            return r;
    }
    return std::nullopt;
}

Result check(const Node& n, json& v, const std::string& path, bool required) {
    if (n.boolean) return *n.boolean ? deep(v, path) : fail(path, "is not allowed");
    if (n.types && !matches(n.types, v)) return fail(path, "must be " + type_names(n.types));
    if ((n.types & kInteger) && !(n.types & kNumber) && v.is_number_float() &&
        std::fabs(v.get<double>()) < 9e18)
        v = static_cast<std::int64_t>(v.get<double>());
    if (v.is_string() && !valid_utf8(v.get_ref<const std::string&>()))
        return fail(path, "must be valid UTF-8");
    if (n.enum_ && std::find(n.enum_->begin(), n.enum_->end(), v) == n.enum_->end()) {
        std::string list;
        for (auto& e : *n.enum_) list += (list.empty() ? "" : ", ") + show(e);
        return fail(path, "must be one of " + list);
    }
    if (n.const_ && v != *n.const_) return fail(path, "must be " + show(*n.const_));
    if (v.is_string()) return check_string(n, v.get_ref<const std::string&>(), path, required);
    if (v.is_number()) return check_number(n, v, path);
    if (v.is_array()) return check_array(n, v, path);
    if (v.is_object()) return check_object(n, v, path);
    return std::nullopt;
}

}  // namespace

struct Schema::Impl {
    json src;
    Node root;
};

Schema Schema::compile(const json& schema) {
    auto impl = std::make_shared<Impl>();
    impl->root = Builder<json>::build(schema, "", true);
    impl->src = schema;
    return Schema(std::move(impl));
}

Schema Schema::parse(std::string_view text) {
    nlohmann::ordered_json doc;
    try {
        doc = nlohmann::ordered_json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        throw SchemaError(std::string("/: invalid JSON: ") + e.what());
    }
    auto impl = std::make_shared<Impl>();
    impl->root = Builder<nlohmann::ordered_json>::build(doc, "", true);
    impl->src = json(doc);
    return Schema(std::move(impl));
}

std::optional<std::string> Schema::validate(json& args) const {
    if (!args.is_object()) return "arguments: must be a JSON object";
    return check(impl_->root, args, "", false);
}

const json& Schema::source() const {
    return impl_->src;
}

std::vector<std::pair<std::string, std::string>> Schema::property_types() const {
    std::vector<std::pair<std::string, std::string>> out;
    for (auto& [name, child] : impl_->root.props) {
        const json& s = impl_->src["properties"][name];
        const json* t = s.is_object() && s.contains("type") ? &s["type"] : nullptr;
        std::string type = t && t->is_string() ? t->get<std::string>() : "";
        for (std::size_t i = 0;
             t && t->is_array() && i < t->size() && (type.empty() || type == "null"); ++i)
            type = (*t)[i].get<std::string>();
        out.emplace_back(name, type);
    }
    return out;
}

const json* Schema::property(const std::string& dotted_path) const {
    const json* cur = &impl_->src;
    if (dotted_path.empty()) return cur;
    for (std::size_t start = 0, end; start <= dotted_path.size(); start = end + 1) {
        end = std::min(dotted_path.find('.', start), dotted_path.size());
        std::string seg = dotted_path.substr(start, end - start);
        if (!cur->is_object()) return nullptr;
        auto props = cur->find("properties");
        if (props != cur->end() && props->contains(seg))
            cur = &(*props)[seg];
        else if (!seg.empty() && seg.find_first_not_of("0123456789") == seg.npos &&
                 cur->contains("items"))
            cur = &(*cur)["items"];
        else
            return nullptr;
    }
    return cur;
}

}  // namespace platform::validation
