#include "brave.hpp"

#include "readable.hpp"

namespace web {

using common::upstream::Malformed;
using common::upstream::number_or_null;
using common::upstream::Query;
using nlohmann::json;

const common::upstream::Provider kBrave{"brave", "Brave Search", "https://api.search.brave.com",
                                        10 * 60 * 1000, true};

namespace {

constexpr const char* kSource = "Brave Search";

// A string member as text (HTML fragments read as text), or null.
json text_of(const json& o, const char* name) {
    auto it = o.is_object() ? o.find(name) : o.end();
    if (it == o.end() || !it->is_string()) return nullptr;
    std::string t = fragment_text(it->get<std::string>());
    return t.empty() ? json(nullptr) : json(t);
}

std::string url_of(const json& o, const char* name) {
    auto it = o.is_object() ? o.find(name) : o.end();
    return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
}

const json& results_array(const json& holder, const char* what) {
    if (!holder.is_object()) throw Malformed(std::string(what) + " is not an object");
    auto it = holder.find("results");
    if (it == holder.end()) {
        static const json empty = json::array();
        return empty;
    }
    if (!it->is_array()) throw Malformed(std::string(what) + ".results is not an array");
    return *it;
}

}  // namespace

std::string search_path(const std::string& query, int64_t count) {
    return "/res/v1/web/search" + Query().str("q", query).integer("count", count).text();
}

std::string images_path(const std::string& query, int64_t count) {
    return "/res/v1/images/search" + Query().str("q", query).integer("count", count).text();
}

json search_from(const json& body, const std::string& query, int64_t limit) {
    if (!body.is_object()) throw Malformed("the answer is not an object");
    json out = json::array();
    // No `web` member: Brave found no web results for the query.
    if (auto web = body.find("web"); web != body.end()) {
        for (const json& r : results_array(*web, "web")) {
            if (static_cast<int64_t>(out.size()) >= limit) break;
            const std::string url = url_of(r, "url");
            if (url.empty()) continue;
            json site = nullptr;
            if (auto p = r.find("profile"); p != r.end() && p->is_object())
                site = text_of(*p, "name");
            if (site.is_null())
                if (auto m = r.find("meta_url"); m != r.end() && m->is_object())
                    site = text_of(*m, "hostname");
            out.push_back({{"title", text_of(r, "title")},
                           {"url", url},
                           {"description", text_of(r, "description")},
                           {"site", site},
                           {"age", text_of(r, "age")}});
        }
    }
    bool more = false;
    if (auto q = body.find("query"); q != body.end() && q->is_object())
        more = q->value("more_results_available", false);
    return {{"query", query}, {"results", out}, {"more", more}, {"source", kSource}};
}

json images_from(const json& body, const std::string& query, int64_t limit) {
    const json& results = results_array(body, "the answer");
    json out = json::array();
    for (const json& r : results) {
        if (static_cast<int64_t>(out.size()) >= limit) break;
        if (!r.is_object()) continue;
        std::string image;
        json width = nullptr, height = nullptr;
        if (auto p = r.find("properties"); p != r.end() && p->is_object()) {
            image = url_of(*p, "url");
            width = number_or_null(*p, "width");
            height = number_or_null(*p, "height");
        }
        if (image.empty()) continue;
        json thumbnail = nullptr;
        if (auto t = r.find("thumbnail"); t != r.end() && t->is_object()) {
            const std::string src = url_of(*t, "src");
            if (!src.empty()) thumbnail = src;
        }
        const std::string page = url_of(r, "url");
        out.push_back({{"title", text_of(r, "title")},
                       {"image", image},
                       {"thumbnail", thumbnail},
                       {"page", page.empty() ? json(nullptr) : json(page)},
                       {"site", text_of(r, "source")},
                       {"width", width},
                       {"height", height}});
    }
    return {{"query", query}, {"results", out}, {"source", kSource}};
}

}  // namespace web
