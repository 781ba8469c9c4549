#include <algorithm>
#include <cctype>
#include <vector>

#include "bookmarks.hpp"

using platform::json;

namespace {

using platform::lower;

// True when every whitespace-separated word of `query` (lower case) occurs in `text`.
bool matches(const std::string& query, const std::string& text) {
    const std::string hay = lower(text);
    for (size_t i = 0, j; i < query.size(); i = j) {
        i = query.find_first_not_of(" \t\r\n", i);
        if (i == std::string::npos) break;
        j = std::min(query.find_first_of(" \t\r\n", i), query.size());
        if (hay.find(query.substr(i, j - i)) == std::string::npos) return false;
    }
    return true;
}

}  // namespace

json Bookmarks::list(platform::Request& r) {
    const std::string query = lower(r.str("query")), kind = r.str("kind");
    const size_t offset = r.args().value("offset", int64_t{0}), limit = r.args().value("limit", 20);
    std::vector<json> all;
    for (auto& [id, b] : r.owned(kCollection).list()) all.push_back(std::move(b));
    std::sort(all.begin(), all.end(), [](const json& a, const json& b) {
        return a.value("seq", int64_t{0}) > b.value("seq", int64_t{0});
    });
    json out = json::array();
    size_t total = 0;
    for (auto& b : all) {
        if (!kind.empty() && b.value("kind", "") != kind) continue;
        const std::string hay = b.value("title", "") + "\n" + b.value("url", "") + "\n" +
                                b.value("note", "") + "\n" + b.value("text", "");
        if (!matches(query, hay)) continue;
        if (total++ >= offset && out.size() < limit) out.push_back(summary(std::move(b)));
    }
    return {{"bookmarks", out}, {"total", total}};
}
