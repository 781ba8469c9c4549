#include <cctype>
#include <platform/host/core/names.hpp>
#include <regex>

namespace platform::host {

std::string camel_word(std::string_view word) {
    std::string out;
    bool upper = true;
    for (char c : word) {
        if (c == '-' || c == '_') {
            upper = true;
            continue;
        }
        out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
        upper = false;
    }
    return out;
}

std::string canonical_method(std::string_view service, std::string_view endpoint) {
    return camel_word(last_segment(service)) + "." + camel_word(endpoint);
}

std::string qualify(std::string_view ns, std::string_view relative) {
    if (ns.empty()) return std::string(relative);
    return std::string(ns) + "." + std::string(relative);
}

std::string_view last_segment(std::string_view name) {
    auto dot = name.rfind('.');
    return dot == std::string_view::npos ? name : name.substr(dot + 1);
}

namespace {
// Every piece of `text` between `sep`s, empty ones included ("a,,b" -> {a, "", b}).
std::vector<std::string_view> pieces(std::string_view text, char sep) {
    std::vector<std::string_view> out;
    size_t i = 0;
    while (i <= text.size()) {
        size_t j = text.find(sep, i);
        if (j == std::string_view::npos) j = text.size();
        out.push_back(text.substr(i, j - i));
        i = j + 1;
    }
    return out;
}
}  // namespace

std::vector<std::string> path_segments(std::string_view path) {
    std::vector<std::string> parts;
    for (std::string_view p : pieces(path, '/'))
        if (!p.empty()) parts.emplace_back(p);
    return parts;
}

std::vector<std::string> comma_list(std::string_view text) {
    std::vector<std::string> out;
    for (std::string_view p : pieces(text, ',')) {
        const size_t first = p.find_first_not_of(" \t");
        if (first != std::string_view::npos)
            out.emplace_back(p.substr(first, p.find_last_not_of(" \t") - first + 1));
    }
    return out;
}

std::optional<Route> resolve_rpc_path(std::string_view path) {
    auto parts = path_segments(path);
    const size_t n = parts.size();
    if (n == 0) return std::nullopt;
    if (n == 1) return Route{parts[0], camel_word(parts[0]) + ".Call"};
    auto method = [&](size_t a, size_t b) {
        return camel_word(parts[a]) + "." + camel_word(parts[b]);
    };
    if (n == 2) return Route{parts[0], method(0, 1)};
    static const std::regex version("^v[0-9]+$");
    if (n == 3 && std::regex_match(parts[0], version))
        return Route{parts[0] + "." + parts[1], method(1, 2)};
    std::string service;
    for (size_t i = 0; i + 2 < n; ++i) service += (i ? "." : "") + parts[i];
    return Route{service, method(n - 2, n - 1)};
}

}  // namespace platform::host

namespace platform::host {

namespace {
bool is_version(std::string_view s) {
    if (s.size() < 2 || s[0] != 'v') return false;
    for (size_t i = 1; i < s.size(); ++i)
        if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
    return true;
}
bool alnum(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0;
}
// ^[a-zA-Z0-9]+(-[a-zA-Z0-9]+)*$
bool proxy_alias(std::string_view s) {
    if (s.empty() || !alnum(s.front()) || !alnum(s.back())) return false;
    for (size_t i = 0; i < s.size(); ++i) {
        if (alnum(s[i])) continue;
        if (s[i] != '-' || s[i + 1] == '-') return false;
    }
    return true;
}
// ^[a-zA-Z0-9]+([a-zA-Z0-9-]*[a-zA-Z0-9]*)?$ — letters, digits and '-', starting alphanumeric.
bool web_name(std::string_view s) {
    if (s.empty() || !alnum(s.front())) return false;
    for (char c : s)
        if (!alnum(c) && c != '-') return false;
    return true;
}
std::vector<std::string_view> split_raw(std::string_view s) {
    std::vector<std::string_view> parts;
    size_t i = 0;
    for (;;) {
        size_t j = s.find('/', i);
        parts.push_back(s.substr(i, j == std::string_view::npos ? std::string_view::npos : j - i));
        if (j == std::string_view::npos) break;
        i = j + 1;
    }
    return parts;
}
int hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}
bool field_path(std::string_view s) {
    if (s.empty() || s.front() == '.' || s.back() == '.') return false;
    for (size_t i = 0; i < s.size(); ++i) {
        char c = s[i];
        if (!(alnum(c) || c == '_' || c == '.') || (c == '.' && s[i + 1] == '.')) return false;
    }
    return true;
}
}  // namespace

std::string proxy_route(std::string_view path) {
    auto parts = split_raw(path);  // micro splits the raw path: parts[0] is before the first '/'
    if (parts.size() < 2) return "";
    std::string service;
    std::string_view alias;
    if (parts.size() > 2 && is_version(parts[1])) {
        service = std::string(parts[1]) + "." + std::string(parts[2]);
        alias = parts[2];
    } else {
        service = std::string(parts[1]);
        alias = parts[1];
    }
    return proxy_alias(alias) ? service : "";
}

std::optional<ForwardRoute> resolve_proxy_path(std::string_view path) {
    std::string service = proxy_route(path);
    if (service.empty()) return std::nullopt;
    return ForwardRoute{std::move(service), std::string(path)};
}

std::optional<ForwardRoute> resolve_web_path(std::string_view path) {
    auto parts = path_segments(path);
    if (parts.empty() || !web_name(parts[0])) return std::nullopt;
    return ForwardRoute{parts[0], std::string(path)};
}

std::optional<std::string> resolve_vpath(std::string_view prefix, std::string_view path) {
    if (path.empty() || path == "/") return std::nullopt;
    auto parts = split_raw(path.substr(path.front() == '/' ? 1 : 0));
    std::string name(parts[0]);
    if (parts.size() > 1 && is_version(parts[0])) name += "." + std::string(parts[1]);
    if (name.empty()) return std::nullopt;
    return qualify(prefix, name);
}

EventRoute resolve_event_path(std::string_view ns, std::string_view path) {
    auto parts = path_segments(path);
    if (parts.empty()) return {std::string(ns), "event"};
    size_t topic_parts = parts.size() >= 2 && is_version(parts[0]) ? 2 : 1;
    std::string topic, action;
    for (size_t i = 0; i < topic_parts; ++i) topic += (i ? "." : "") + parts[i];
    for (size_t i = topic_parts; i < parts.size(); ++i)
        action += (i > topic_parts ? "." : "") + parts[i];
    return {qualify(ns, topic), action};
}

namespace {
std::string percent_decode(std::string_view s, bool plus_is_space) {
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size(); ++i) {
        int hi = 0, lo = 0;
        if (plus_is_space && s[i] == '+') {
            out += ' ';
        } else if (s[i] == '%' && i + 2 < s.size() && (hi = hex(s[i + 1])) >= 0 &&
                   (lo = hex(s[i + 2])) >= 0) {
            out += static_cast<char>(hi * 16 + lo);
            i += 2;
        } else {
            out += s[i];
        }
    }
    return out;
}
}  // namespace

std::string percent_decode_path(std::string_view s) {
    return percent_decode(s, false);
}

std::string form_decode(std::string_view s) {
    return percent_decode(s, true);
}

std::optional<RoutePattern> RoutePattern::compile(std::string_view pattern, std::string* error) {
    auto fail = [&](const std::string& why) -> std::optional<RoutePattern> {
        if (error) *error = "route '" + std::string(pattern) + "': " + why;
        return std::nullopt;
    };
    RoutePattern p;
    p.text_ = std::string(pattern);
    const bool caret = !pattern.empty() && pattern.front() == '^';
    const bool dollar = !pattern.empty() && pattern.back() == '$';
    if (caret || dollar) {
        if (!caret) return fail("a regular expression must start with '^'");
        if (!dollar) return fail("a regular expression must end with '$'");
        try {
            p.regex_ = std::make_shared<const std::regex>(p.text_, std::regex::ECMAScript);
        } catch (const std::regex_error& e) {
            return fail(std::string("invalid regular expression: ") + e.what());
        }
        return p;
    }
    if (pattern.empty() || pattern.front() != '/')
        return fail("must start with '/' (a template) or '^' (a regular expression)");
    // Segments between '/', where a '/' inside {...} does not split.
    std::vector<std::string> raw;
    std::string cur;
    int depth = 0;
    for (size_t i = 1; i < pattern.size(); ++i) {
        char c = pattern[i];
        if (c == '{' && ++depth > 1) return fail("nested '{'");
        if (c == '}' && --depth < 0) return fail("unbalanced '}'");
        if (c == '/' && depth == 0) {
            raw.push_back(std::move(cur));
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (depth != 0) return fail("unbalanced '{'");
    raw.push_back(std::move(cur));
    auto add_plain = [&](std::string_view seg, int var) -> bool {
        if (seg == "*")
            p.segments_.push_back({Segment::star, "", var});
        else if (seg == "**")
            p.segments_.push_back({Segment::double_star, "", var});
        else if (seg.find_first_of("{}*") != std::string_view::npos)
            return false;
        else
            p.segments_.push_back({Segment::literal, percent_decode_path(seg), var});
        return true;
    };
    for (const auto& seg : raw) {
        if (seg.empty()) continue;  // "//" and a trailing '/' add nothing, like empty path segments
        if (seg.front() == '{') {
            if (seg.back() != '}') return fail("a variable must be a whole segment: '" + seg + "'");
            std::string inner = seg.substr(1, seg.size() - 2);
            auto eq = inner.find('=');
            std::string name = inner.substr(0, eq);
            if (!field_path(name)) return fail("invalid variable name '" + name + "'");
            for (const auto& v : p.vars_)
                if (v == name) return fail("variable '" + name + "' appears twice");
            int var = static_cast<int>(p.vars_.size());
            p.vars_.push_back(name);
            if (eq == std::string::npos) {
                p.segments_.push_back({Segment::star, "", var});
                continue;
            }
            std::string sub = inner.substr(eq + 1);
            if (sub.empty()) return fail("empty pattern for variable '" + name + "'");
            size_t i = 0;
            for (;;) {
                size_t j = sub.find('/', i);
                std::string_view part = std::string_view(sub).substr(
                    i, j == std::string::npos ? std::string::npos : j - i);
                if (part.empty() || !add_plain(part, var))
                    return fail("invalid pattern for variable '" + name + "'");
                if (j == std::string::npos) break;
                i = j + 1;
            }
        } else if (!add_plain(seg, -1)) {
            return fail("invalid segment '" + seg + "'");
        }
    }
    for (size_t i = 0; i + 1 < p.segments_.size(); ++i)
        if (p.segments_[i].kind == Segment::double_star)
            return fail("'**' may only be the last segment");
    return p;
}

std::optional<RouteVars> RoutePattern::match(std::string_view path) const {
    if (regex_) {
        if (path.size() > 2048) return std::nullopt;  // std::regex's stack grows with the input
        if (!std::regex_match(path.begin(), path.end(), *regex_)) return std::nullopt;
        return RouteVars{};
    }
    const auto parts = path_segments(path);
    const bool rest = !segments_.empty() && segments_.back().kind == Segment::double_star;
    if (rest ? parts.size() + 1 < segments_.size() : parts.size() != segments_.size())
        return std::nullopt;
    std::vector<std::string> values(vars_.size());
    std::vector<bool> bound(vars_.size(), false);
    auto bind = [&](int var, const std::string& text) {
        if (var < 0) return;
        values[var] += (bound[var] ? "/" : "") + text;
        bound[var] = true;
    };
    for (size_t i = 0; i < segments_.size(); ++i) {
        const Segment& s = segments_[i];
        if (s.kind == Segment::double_star) {
            for (size_t k = i; k < parts.size(); ++k) bind(s.var, percent_decode_path(parts[k]));
            if (s.var >= 0) bound[s.var] = true;
            break;
        }
        std::string decoded = percent_decode_path(parts[i]);
        if (s.kind == Segment::literal && decoded != s.text) return std::nullopt;
        bind(s.var, decoded);
    }
    RouteVars out;
    for (size_t v = 0; v < vars_.size(); ++v) out[vars_[v]] = values[v];
    return out;
}

}  // namespace platform::host
