#include "feeds.hpp"

#include "common/upstream/upstream.hpp"

namespace transit {

using common::upstream::Malformed;
using nlohmann::json;

namespace {

json field(const json& o, const char* name) {
    if (!o.is_object()) return nullptr;
    auto it = o.find(name);
    return it != o.end() && (it->is_string() || it->is_number()) ? *it : json(nullptr);
}

std::string place(const json& l) {
    std::string out;
    for (const char* part : {"municipality", "subdivision_name", "country_code"})
        if (json v = field(l, part); v.is_string() && !v.get<std::string>().empty())
            out += (out.empty() ? "" : ", ") + v.get<std::string>();
    return out;
}

}  // namespace

json parse_feeds(const json& body) {
    if (!body.is_array()) throw Malformed("the feed catalogue is not a list");
    json out = json::array();
    for (const json& f : body) {
        if (!f.is_object() || !f.contains("id") || !f["id"].is_string())
            throw Malformed("a feed without an id");
        json latest = f.contains("latest_dataset") ? f["latest_dataset"] : json(nullptr);
        json locations = json::array();
        if (auto l = f.find("locations"); l != f.end() && l->is_array())
            for (const json& one : *l)
                if (std::string p = place(one); !p.empty()) locations.push_back(p);
        out.push_back({{"id", f["id"]},
                       {"provider", field(f, "provider")},
                       {"name", field(f, "feed_name")},
                       {"status", field(f, "status")},
                       {"url", field(latest, "hosted_url")},
                       {"downloaded_at", field(latest, "downloaded_at")},
                       {"hash", field(latest, "hash")},
                       {"size_mb", field(latest, "zipped_folder_size_mb")},
                       {"unzipped_size_mb", field(latest, "unzipped_folder_size_mb")},
                       {"locations", locations}});
    }
    return out;
}

}  // namespace transit
