#include <algorithm>
#include <platform/sdk/percent.hpp>
#include <vector>

#include "notes.hpp"

using platform::json;

namespace {

constexpr std::string_view kScheme = "notes://";
constexpr const char* kMime = "text/markdown";
constexpr size_t kMaxResources = 100, kMaxDescription = 80;  // description: in characters

int hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// The title in a notes:// URI; 404 for another scheme, 400 for a broken %XX.
std::string title_of(const std::string& uri) {
    if (uri.compare(0, kScheme.size(), kScheme) != 0)
        throw platform::not_found("uri: not a notes:// URI: " + uri);
    std::string out;
    for (size_t i = kScheme.size(); i < uri.size(); ++i) {
        if (uri[i] != '%') {
            out += uri[i];
            continue;
        }
        int hi = i + 2 < uri.size() ? hex(uri[i + 1]) : -1, lo = hi < 0 ? -1 : hex(uri[i + 2]);
        if (lo < 0) throw platform::invalid_argument("uri: broken percent-encoding in " + uri);
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
    }
    return out;
}

// The text's first line, cut to kMaxDescription UTF-8 characters.
std::string description(const std::string& text) {
    return platform::utf8_prefix(platform::first_line(text), kMaxDescription);
}

}  // namespace

std::string Notes::uri(std::string_view title) {
    return std::string(kScheme) + platform::percent_encode(title);
}

json Notes::resources(platform::Request& r) {
    std::vector<json> notes;
    for (auto& [title, note] : r.owned(kCollection).list()) notes.push_back(std::move(note));
    std::stable_sort(notes.begin(), notes.end(), [](const json& a, const json& b) {
        return a.value("updated", "") > b.value("updated", "");  // ties stay in title order
    });
    json out = json::array();
    for (size_t i = 0; i < notes.size() && i < kMaxResources; ++i) {
        const std::string title = notes[i].value("title", "");
        out.push_back({{"uri", uri(title)},
                       {"name", title},
                       {"description", description(notes[i].value("text", ""))},
                       {"mimeType", kMime}});
    }
    return {{"resources", out}};
}

json Notes::read_resource(platform::Request& r) {
    const std::string requested = r.str("uri"), title = title_of(requested);
    auto note = r.owned(kCollection).get(title);
    if (!note) throw platform::not_found("uri: no note " + requested);
    return {{"contents",
             json::array(
                 {{{"uri", requested}, {"mimeType", kMime}, {"text", note->value("text", "")}}})}};
}
