#include "youtube.hpp"

#include <cctype>
#include <cstdlib>

#include "common/upstream/upstream.hpp"

namespace video {

using common::upstream::Malformed;
using nlohmann::json;

namespace {

const json& snippet_of(const json& item) {
    static const json kEmpty = json::object();
    const auto it = item.find("snippet");
    return it != item.end() && it->is_object() ? *it : kEmpty;
}

json text(const json& o, const char* name) {
    const auto it = o.find(name);
    return it != o.end() && it->is_string() ? *it : json(nullptr);
}

// YouTube writes its counts as strings of digits ("74939858"); absent when hidden.
json count(const json& o, const char* name) {
    const auto it = o.find(name);
    if (it == o.end()) return nullptr;
    if (it->is_number_integer()) return *it;
    if (!it->is_string()) return nullptr;
    const std::string s = it->get<std::string>();
    if (s.empty() || s.size() > 19) return nullptr;
    for (char c : s)
        if (!std::isdigit(static_cast<unsigned char>(c))) return nullptr;
    return std::strtoll(s.c_str(), nullptr, 10);
}

// The URL of the largest thumbnail given (maxres, standard, high, medium, default).
json thumbnail(const json& snippet) {
    const auto t = snippet.find("thumbnails");
    if (t == snippet.end() || !t->is_object()) return nullptr;
    for (const char* size : {"maxres", "standard", "high", "medium", "default"}) {
        const auto s = t->find(size);
        if (s != t->end() && s->is_object()) {
            const json u = text(*s, "url");
            if (!u.is_null()) return u;
        }
    }
    return nullptr;
}

json watch_url(const std::string& id) {
    return "https://www.youtube.com/watch?v=" + id;
}

}  // namespace

json video_from(const json& item) {
    if (!item.is_object()) throw Malformed("a video is not an object");
    const json id = text(item, "id");
    if (id.is_null()) throw Malformed("a video has no id");
    const json& sn = snippet_of(item);
    const json details = item.value("contentDetails", json::object());
    const json stats = item.value("statistics", json::object());
    const json duration = details.is_object() ? text(details, "duration") : json();
    json seconds;
    if (duration.is_string())
        if (auto s = duration_seconds(duration.get<std::string>())) seconds = *s;
    json tags = json::array();
    if (sn.contains("tags") && sn["tags"].is_array())
        for (const auto& t : sn["tags"])
            if (t.is_string()) tags.push_back(t);
    return {{"id", id},
            {"title", text(sn, "title")},
            {"description", text(sn, "description")},
            {"channel", text(sn, "channelTitle")},
            {"channel_id", text(sn, "channelId")},
            {"published", text(sn, "publishedAt")},
            {"duration", duration},
            {"seconds", seconds},
            {"views", stats.is_object() ? count(stats, "viewCount") : json()},
            {"likes", stats.is_object() ? count(stats, "likeCount") : json()},
            {"comments", stats.is_object() ? count(stats, "commentCount") : json()},
            {"category_id", text(sn, "categoryId")},
            {"tags", tags},
            {"thumbnail", thumbnail(sn)},
            {"live", text(sn, "liveBroadcastContent")},
            {"url", watch_url(id.get<std::string>())}};
}

std::optional<json> search_result_from(const json& item) {
    if (!item.is_object()) throw Malformed("a search result is not an object");
    const auto rid = item.find("id");
    if (rid == item.end() || !rid->is_object()) throw Malformed("a search result has no id");
    if (rid->value("kind", "") != "youtube#video") return std::nullopt;
    const json id = text(*rid, "videoId");
    if (id.is_null()) throw Malformed("a video search result has no videoId");
    const json& sn = snippet_of(item);
    const auto unescaped = [&](const char* name) {
        const json t = text(sn, name);
        return t.is_string() ? json(unescape_html(t.get<std::string>())) : t;
    };
    return json{{"id", id},
                {"title", unescaped("title")},
                {"description", unescaped("description")},
                {"channel", unescaped("channelTitle")},
                {"channel_id", text(sn, "channelId")},
                {"published", text(sn, "publishedAt")},
                {"thumbnail", thumbnail(sn)},
                {"live", text(sn, "liveBroadcastContent")},
                {"url", watch_url(id.get<std::string>())}};
}

Page page_from(const json& body, const std::string& kind) {
    if (!body.is_object() || body.value("kind", "") != kind)
        throw Malformed("the answer is not a " + kind);
    const auto items = body.find("items");
    Page p;
    if (items != body.end()) {
        if (!items->is_array()) throw Malformed("items is not an array");
        p.items.assign(items->begin(), items->end());
    }
    p.next = body.value("nextPageToken", "");
    const auto info = body.find("pageInfo");
    if (info != body.end() && info->is_object())
        p.total = common::upstream::number_or_null(*info, "totalResults");
    return p;
}

std::vector<Category> categories_from(const json& body) {
    std::vector<Category> out;
    for (const auto& item : page_from(body, "youtube#videoCategoryListResponse").items) {
        const json id = item.is_object() ? text(item, "id") : json();
        const json& sn = item.is_object() ? snippet_of(item) : json::object();
        const json title = text(sn, "title");
        if (id.is_null() || title.is_null()) throw Malformed("a category has no id or title");
        out.push_back(
            {id.get<std::string>(), title.get<std::string>(), sn.value("assignable", false)});
    }
    return out;
}

std::optional<int64_t> duration_seconds(const std::string& iso) {
    if (iso.size() < 3 || iso[0] != 'P') return std::nullopt;
    int64_t total = 0, n = 0;
    bool time = false, digits = false, any = false;
    for (size_t i = 1; i < iso.size(); ++i) {
        const char c = iso[i];
        if (std::isdigit(static_cast<unsigned char>(c))) {
            if (n > 100000000) return std::nullopt;
            n = n * 10 + (c - '0');
            digits = true;
            continue;
        }
        if (c == 'T' && !time && !digits) {
            time = true;
            continue;
        }
        if (!digits) return std::nullopt;
        int64_t unit = 0;
        if (!time && c == 'W')
            unit = 7 * 86400;
        else if (!time && c == 'D')
            unit = 86400;
        else if (time && c == 'H')
            unit = 3600;
        else if (time && c == 'M')
            unit = 60;
        else if (time && c == 'S')
            unit = 1;
        else
            return std::nullopt;
        total += n * unit;
        n = 0;
        digits = false;
        any = true;
    }
    if (digits || !any) return std::nullopt;
    return total;
}

std::string unescape_html(const std::string& s) {
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '&') {
            out += s[i];
            continue;
        }
        const size_t semi = s.find(';', i);
        if (semi == std::string::npos || semi - i > 10) {
            out += s[i];
            continue;
        }
        const std::string name = s.substr(i + 1, semi - i - 1);
        long code = -1;
        if (name == "amp")
            code = '&';
        else if (name == "lt")
            code = '<';
        else if (name == "gt")
            code = '>';
        else if (name == "quot")
            code = '"';
        else if (name == "apos")
            code = '\'';
        else if (name.size() > 1 && name[0] == '#') {
            char* end = nullptr;
            const bool hex = name[1] == 'x' || name[1] == 'X';
            const char* start = name.c_str() + (hex ? 2 : 1);
            code = std::strtol(start, &end, hex ? 16 : 10);
            if (end == start || *end != '\0' || code <= 0 || code > 0x10FFFF ||
                (code >= 0xD800 && code <= 0xDFFF))
                code = -1;
        }
        if (code < 0) {
            out += s[i];
            continue;
        }
        // UTF-8 of the code point.
        if (code < 0x80) {
            out += static_cast<char>(code);
        } else if (code < 0x800) {
            out += static_cast<char>(0xC0 | (code >> 6));
            out += static_cast<char>(0x80 | (code & 0x3F));
        } else if (code < 0x10000) {
            out += static_cast<char>(0xE0 | (code >> 12));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (code & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (code >> 18));
            out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (code & 0x3F));
        }
        i = semi;
    }
    return out;
}

Failure failure_of(const std::string& body) {
    Failure f;
    const json j = json::parse(body, nullptr, false);
    if (!j.is_object() || !j.contains("error") || !j["error"].is_object()) return f;
    const json& e = j["error"];
    f.message = e.value("message", "");
    if (e.contains("errors") && e["errors"].is_array() && !e["errors"].empty() &&
        e["errors"][0].is_object())
        f.reason = e["errors"][0].value("reason", "");
    if (e.contains("details") && e["details"].is_array())
        for (const auto& d : e["details"])
            if (d.is_object() && d.value("reason", json()).is_string())
                f.info = d["reason"].get<std::string>();
    return f;
}

}  // namespace video
