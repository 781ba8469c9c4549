#include "docs.hpp"

using platform::json;

namespace {

constexpr std::string_view kScheme = "docs://";
constexpr const char* kMime = "text/markdown";
constexpr size_t kMaxResources = 100, kMaxDescription = 80;  // description: in characters

// The content's first line, cut to kMaxDescription UTF-8 characters.
std::string description(const std::string& text) {
    return platform::utf8_prefix(platform::first_line(text), kMaxDescription);
}

}  // namespace

json Docs::resources(platform::Request& r) {
    json out = json::array();
    for (const auto& doc : by_recency(r.owned(kCollection))) {
        if (out.size() == kMaxResources) break;
        out.push_back({{"uri", uri(doc.value("id", ""))},
                       {"name", doc.value("title", "")},
                       {"description", description(doc.value("content", ""))},
                       {"mimeType", kMime}});
    }
    return {{"resources", out}};
}

json Docs::read_resource(platform::Request& r) {
    const std::string requested = r.str("uri");
    if (requested.compare(0, kScheme.size(), kScheme) != 0)
        throw platform::not_found("uri: not a docs:// URI: " + requested);
    auto doc = r.owned(kCollection).get(requested.substr(kScheme.size()));
    if (!doc) throw platform::not_found("uri: no document " + requested);
    return {{"contents", json::array({{{"uri", requested},
                                       {"mimeType", kMime},
                                       {"text", doc->value("content", "")}}})}};
}
