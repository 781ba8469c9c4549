// config — the value tree (tree.hpp).
#include "tree.hpp"

#include <platform/sdk/error.hpp>

namespace config_tree {

namespace {
bool segment_char(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
}
bool plain_object(const json& n) {
    return n.is_object() && !is_secret(n);
}
}  // namespace

std::vector<std::string> split(std::string_view path, const char* arg) {
    std::vector<std::string> out;
    if (path.empty()) return out;
    size_t start = 0;
    for (;;) {
        size_t dot = path.find('.', start);
        std::string_view seg = path.substr(
            start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
        if (seg.empty())
            throw platform::invalid_argument(
                std::string(arg) + ": '" + std::string(path) +
                "' has an empty segment (write dotted paths like a.b.c)");
        for (char c : seg)
            if (!segment_char(c))
                throw platform::invalid_argument(std::string(arg) + ": segment '" +
                                                 std::string(seg) +
                                                 "' may hold only letters, digits, '_' and '-'");
        out.emplace_back(seg);
        if (dot == std::string_view::npos) break;
        start = dot + 1;
    }
    return out;
}

bool is_secret(const json& node) {
    if (!node.is_object() || node.size() != 1) return false;
    auto it = node.find(kSecretKey);
    return it != node.end() && it->is_string();
}

void check_no_marker(const json& value, const std::string& arg) {
    if (is_secret(value))
        throw platform::invalid_argument(
            arg +
            ": an object whose only member is \"$secret\" is reserved for sealed "
            "secrets (set it with secret=true instead)");
    if (value.is_object())
        for (auto& [k, v] : value.items()) check_no_marker(v, arg + "." + k);
    else if (value.is_array())
        for (size_t i = 0; i < value.size(); ++i)
            check_no_marker(value[i], arg + "[" + std::to_string(i) + "]");
}

json normalise(const json& value) {
    if (!value.is_string()) return value;
    const auto& s = value.get_ref<const std::string&>();
    size_t first = s.find_first_not_of(" \t\r\n");
    if (first == std::string::npos || s[first] != '{') return value;
    json parsed = json::parse(s, nullptr, false);
    return parsed.is_object() ? parsed : value;
}

void merge(json& into, const json& from) {
    if (!plain_object(into) || !plain_object(from)) {
        into = from;
        return;
    }
    for (auto& [k, v] : from.items()) {
        auto it = into.find(k);
        if (it != into.end() && plain_object(*it) && plain_object(v))
            merge(*it, v);
        else
            into[k] = v;
    }
}

void set(json& doc, const std::vector<std::string>& rest, const json& value, bool merge_objects) {
    json* node = &doc;
    for (const auto& seg : rest) {
        if (!plain_object(*node)) *node = json::object();
        node = &(*node)[seg];
    }
    if (merge_objects && plain_object(value) && plain_object(*node))
        merge(*node, value);
    else
        *node = value;
}

bool erase(json& doc, const std::vector<std::string>& rest) {
    json* node = &doc;
    for (size_t i = 0; i + 1 < rest.size(); ++i) {
        if (!plain_object(*node)) return false;
        auto it = node->find(rest[i]);
        if (it == node->end()) return false;
        node = &*it;
    }
    if (rest.empty() || !plain_object(*node)) return false;
    return node->erase(rest.back()) > 0;
}

json reveal(const json& node, const Opener& open) {
    if (is_secret(node))
        return open ? reveal(open(node[kSecretKey].get<std::string>()), nullptr)
                    : json(kSecretShown);
    if (!node.is_object()) return node;
    json out = json::object();
    for (auto& [k, v] : node.items()) out[k] = reveal(v, open);
    return out;
}

json read(const json& doc, const std::vector<std::string>& rest, const Opener& open, bool& found) {
    found = false;
    json opened;  // keeps an opened secret alive while we walk into it
    const json* node = &doc;
    for (const auto& seg : rest) {
        if (is_secret(*node)) {
            if (!open) {
                found = true;
                return kSecretShown;
            }
            opened = open((*node)[kSecretKey].get<std::string>());
            node = &opened;
        }
        if (!node->is_object()) return nullptr;
        auto it = node->find(seg);
        if (it == node->end()) return nullptr;
        node = &*it;
    }
    found = true;
    return reveal(*node, open);
}

void leaves(const json& node, const std::string& base, std::vector<std::string>& out) {
    if (!plain_object(node) || node.empty()) {
        out.push_back(base);
        return;
    }
    for (auto& [k, v] : node.items()) leaves(v, base.empty() ? k : base + "." + k, out);
}

}  // namespace config_tree
