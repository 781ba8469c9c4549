#include <platform/sdk/text.hpp>

#include "bookmarks.hpp"

using platform::json;

namespace {

// The first string among an entry's usual text fields.
std::string first_of(const json& item, std::initializer_list<const char*> names) {
    for (const char* n : names)
        if (item.contains(n) && item[n].is_string() && !item[n].get<std::string>().empty())
            return item[n];
    return "";
}

// The object with id `ref` in `answer` itself or in one of its top-level arrays.
std::optional<json> entry_with_id(const json& answer, const std::string& ref) {
    auto is = [&](const json& j) { return j.is_object() && j.contains("id") && j["id"] == ref; };
    if (is(answer)) return answer;
    if (!answer.is_object()) return std::nullopt;
    for (const auto& [key, value] : answer.items()) {
        if (is(value)) return value;
        if (value.is_array())
            for (const auto& e : value)
                if (is(e)) return e;
    }
    return std::nullopt;
}

}  // namespace

std::string Bookmarks::kind_of_archive(const std::string& k) {
    if (k == "news" || k == "article") return "article";
    if (k == "post" || k == "social") return "post";
    if (k == "video") return "video";
    return "link";
}

std::string Bookmarks::kind_of_url(const std::string& url) {
    std::string host = url.substr(url.find("://") + 3);
    host = host.substr(0, host.find_first_of("/?#:"));
    host = platform::lower(host);
    if (host.rfind("www.", 0) == 0) host = host.substr(4);
    for (const char* v :
         {"youtube.com", "m.youtube.com", "youtu.be", "vimeo.com", "dailymotion.com", "twitch.tv"})
        if (host == v) return "video";
    return "link";
}

Bookmarks::ArchiveItem Bookmarks::resolve(platform::Request& r, const std::string& ref) const {
    std::optional<json> item;
    for (const auto& [method, args] : {std::pair<const char*, json>{"get", {{"id", ref}}},
                                       std::pair<const char*, json>{"search", {{"query", ref}}}}) {
        try {
            auto answer = host_.call("archive", method, args, r.call());
            if (answer.ok()) item = entry_with_id(json::parse(answer.body, nullptr, false), ref);
        } catch (const std::exception&) {  // no archive service, or no such method
        }
        if (item) break;
    }
    if (!item) throw platform::not_found("ref: no archive item " + ref);
    ArchiveItem out;
    out.title = first_of(*item, {"title", "name", "headline"});
    out.url = first_of(*item, {"url", "link"});
    out.kind = kind_of_archive(first_of(*item, {"kind", "type"}));
    out.text = first_of(*item, {"text", "content", "body", "description", "summary", "snippet"});
    return out;
}
