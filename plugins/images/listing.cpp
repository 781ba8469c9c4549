#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <sstream>

#include "images.hpp"

using platform::json;

namespace {

using platform::lower;

// A cursor is "<fingerprint of scope and query>.<last id shown>": ids are time-ordered, so the
// next page is every match older than that id, whatever was added or deleted meanwhile.
std::string fingerprint(const std::string& scope, const std::string& query) {
    uint32_t h = 2166136261u;
    for (unsigned char c : scope + "\n" + lower(query)) h = (h ^ c) * 16777619u;
    char buf[16];
    std::snprintf(buf, sizeof buf, "%08x", h);
    return buf;
}

bool matches(const json& image, const std::vector<std::string>& words) {
    std::string text = lower(image.value("title", "") + "\n" + image.value("description", "") +
                             "\n" + image.value("prompt", ""));
    for (const auto& t : image.value("tags", json::array()))
        if (t.is_string()) text += "\n" + lower(t.get<std::string>());
    return std::all_of(words.begin(), words.end(),
                       [&](const std::string& w) { return text.find(w) != std::string::npos; });
}

}  // namespace

json Images::page(platform::Request& r, const std::string& query) {
    const std::string scope = r.str("scope", "public"), fp = fingerprint(scope, query),
                      cursor = r.str("cursor");
    const size_t limit = r.args().value("limit", 20);
    std::string after;  // ids strictly older than this one
    if (!cursor.empty()) {
        const auto dot = cursor.find('.');
        if (dot == std::string::npos || dot + 1 == cursor.size())
            throw platform::invalid_argument("cursor: not a cursor from images");
        if (cursor.substr(0, dot) != fp)
            throw platform::invalid_argument(
                "cursor: it belongs to another query or scope; keep them unchanged while paging");
        after = cursor.substr(dot + 1);
    }
    std::vector<std::string> words;
    std::istringstream in(lower(query));
    for (std::string w; in >> w;) words.push_back(w);

    std::map<std::string, json, std::greater<>> found;  // newest first
    if (scope == "mine" || scope == "all")
        for (auto& [id, image] : r.owned(kImages).list()) found.emplace(id, std::move(image));
    if (scope == "public" || scope == "all") {
        platform::ScanOptions o;
        o.prefix = "public/";
        for (const auto& rec : host_.store().scan(o))
            found.emplace(rec.key.substr(o.prefix.size()), json::parse(rec.value));
    }
    if (scope == "daily") {  // the pictures of the day kept so far (daily.cpp)
        platform::ScanOptions o;
        o.prefix = kDailyPrefix;
        for (const auto& rec : host_.store().scan(o)) {
            json picture = json::parse(rec.value);
            found.emplace(picture.value("id", ""), std::move(picture));
        }
    }
    json out = json::array();
    std::string last;
    bool more = false;
    for (auto it = after.empty() ? found.begin() : found.upper_bound(after); it != found.end();
         ++it) {
        if (!matches(it->second, words)) continue;
        if (out.size() == limit) {
            more = true;
            break;
        }
        last = it->first;
        out.push_back(std::move(it->second));
    }
    return {{"images", out},
            {"scope", scope},
            {"next_cursor", more ? json(fp + "." + last) : json(nullptr)}};
}

json Images::list(platform::Request& r) {
    return page(r, "");
}

json Images::search(platform::Request& r) {
    return page(r, r.str("query"));
}
