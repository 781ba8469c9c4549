#include <platform/host/names.hpp>

#include <cctype>
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

std::vector<std::string> path_segments(std::string_view path) {
    std::vector<std::string> parts;
    size_t i = 0;
    while (i <= path.size()) {
        size_t j = path.find('/', i);
        if (j == std::string_view::npos) j = path.size();
        if (j > i) parts.emplace_back(path.substr(i, j - i));
        i = j + 1;
    }
    return parts;
}

std::optional<Route> resolve_rpc_path(std::string_view path) {
    auto parts = path_segments(path);
    const size_t n = parts.size();
    if (n == 0) return std::nullopt;
    if (n == 1) return Route{parts[0], camel_word(parts[0]) + ".Call"};
    auto method = [&](size_t a, size_t b) { return camel_word(parts[a]) + "." + camel_word(parts[b]); };
    if (n == 2) return Route{parts[0], method(0, 1)};
    static const std::regex version("^v[0-9]+$");
    if (n == 3 && std::regex_match(parts[0], version))
        return Route{parts[0] + "." + parts[1], method(1, 2)};
    std::string service;
    for (size_t i = 0; i + 2 < n; ++i) service += (i ? "." : "") + parts[i];
    return Route{service, method(n - 2, n - 1)};
}

}  // namespace platform::host
