#include "fields.hpp"

#include <set>
#include <vector>

using platform::json;

namespace apps_fields {

namespace {

constexpr size_t kSlugBaseMax = 48, kTagMax = 50, kTagsMax = 20;

bool alnum(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
bool space(unsigned char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

std::string trim(const std::string& s) {
    size_t b = 0, e = s.size();
    while (b < e && space(static_cast<unsigned char>(s[b]))) ++b;
    while (e > b && space(static_cast<unsigned char>(s[e - 1]))) --e;
    return s.substr(b, e - b);
}

std::vector<std::string> split_tags(const std::string& tags) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= tags.size()) {
        size_t comma = tags.find(',', start);
        if (comma == std::string::npos) comma = tags.size();
        std::string tag = trim(tags.substr(start, comma - start));
        if (!tag.empty()) out.push_back(tag);
        start = comma + 1;
    }
    return out;
}

[[noreturn]] void bad_icon(const std::string& why) {
    throw platform::invalid_argument("icon: " + why);
}

}  // namespace

std::string slug_from(const std::string& name) {
    std::string out;
    bool dash = false;
    for (unsigned char c : name) {
        if (alnum(c)) {
            if (dash && !out.empty()) out += '-';
            dash = false;
            out += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
            if (out.size() >= kSlugBaseMax) break;
        } else {
            dash = true;
        }
    }
    while (!out.empty() && out.back() == '-') out.pop_back();
    return out.empty() ? "app" : out;
}

std::string normalise_tags(const std::string& tags) {
    std::string out;
    std::set<std::string> seen;
    for (const auto& tag : split_tags(tags)) {
        if (platform::utf8_length(tag) > kTagMax)
            throw platform::invalid_argument("tags: each tag must be at most " +
                                             std::to_string(kTagMax) + " characters");
        if (!seen.insert(platform::lower(tag)).second) continue;
        if (seen.size() > kTagsMax)
            throw platform::invalid_argument("tags: at most " + std::to_string(kTagsMax) + " tags");
        out += (out.empty() ? "" : ", ") + tag;
    }
    return out;
}

bool has_tag(const std::string& tags, const std::string& tag) {
    const std::string want = platform::lower(trim(tag));
    for (const auto& t : split_tags(tags))
        if (platform::lower(t) == want) return true;
    return false;
}

void check_icon(const std::string& svg) {
    std::string s = trim(svg);
    if (s.empty()) return;
    const std::string low = platform::lower(s);
    size_t start = 0;
    if (low.rfind("<?xml", 0) == 0) {
        const size_t end = low.find("?>");
        if (end == std::string::npos) bad_icon("the XML declaration is not closed");
        start = end + 2;
        while (start < low.size() && space(static_cast<unsigned char>(low[start]))) ++start;
    }
    if (low.compare(start, 4, "<svg") != 0 || start + 4 >= low.size() ||
        !(space(static_cast<unsigned char>(low[start + 4])) || low[start + 4] == '>'))
        bad_icon("must be an SVG image starting with <svg");
    if (low.size() < 6 || low.compare(low.size() - 6, 6, "</svg>") != 0)
        bad_icon("must end with </svg>");
    if (low.find("<script") != std::string::npos) bad_icon("must not hold a script");
    if (low.find("<foreignobject") != std::string::npos) bad_icon("must not hold foreignObject");
    if (low.find("<!") != std::string::npos) bad_icon("must not hold a DOCTYPE or entities");
    if (low.find("javascript:") != std::string::npos) bad_icon("must not hold javascript: URLs");
    for (size_t i = 0; i + 3 < low.size(); ++i) {
        if (!space(static_cast<unsigned char>(low[i])) || low.compare(i + 1, 2, "on") != 0)
            continue;
        size_t j = i + 3;
        while (j < low.size() && low[j] >= 'a' && low[j] <= 'z') ++j;
        if (j == i + 3) continue;
        while (j < low.size() && space(static_cast<unsigned char>(low[j]))) ++j;
        if (j < low.size() && low[j] == '=')
            bad_icon("must not hold event handlers (" + low.substr(i + 1, j - i - 1) + "=)");
    }
    for (const char* scheme : {"http://", "https://"})
        for (size_t at = low.find(scheme); at != std::string::npos; at = low.find(scheme, at + 1))
            if (low.compare(at, 18, "http://www.w3.org/") != 0)
                bad_icon("must not refer to anything outside it (" + std::string(scheme) + "...)");
    for (const char* ref : {"href=\"//", "href='//", "url(//", "url(\"//", "url('//"})
        if (low.find(ref) != std::string::npos)
            bad_icon("must not refer to anything outside it (//...)");
}

std::optional<bool> visibility(const json& args) {
    std::optional<bool> pub, priv;
    if (auto it = args.find("public"); it != args.end() && it->is_boolean()) pub = it->get<bool>();
    if (auto it = args.find("private"); it != args.end() && it->is_boolean())
        priv = it->get<bool>();
    if (pub && priv && *pub == *priv)
        throw platform::invalid_argument(
            "public, private: contradict each other (send one, or opposite values)");
    if (pub) return pub;
    if (priv) return !*priv;
    return std::nullopt;
}

json owner_view(const json& app) {
    json out = app;
    out["url"] = "/ui/apps/" + app.value("slug", "");
    return out;
}

json public_view(const json& app) {
    json out = owner_view(app);
    out.erase("html");
    out.erase("source");
    return out;
}

std::string text(const json& obj, const char* key) {
    if (!obj.is_object()) return "";
    auto it = obj.find(key);
    return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace apps_fields
