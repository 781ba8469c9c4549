#include <algorithm>
#include <cstdio>

#include "archive.hpp"
#include "common/time/time.hpp"

using platform::json;

namespace {

// The answer of service/method as the caller; nullopt when the service or method does not exist.
std::optional<json> ask(const platform::Host& host, platform::Request& r, const char* service,
                        const char* method, const json& args) {
    platform::Host::CallResult res;
    try {
        res = host.call(service, method, args, r.call());
    } catch (const platform::Error& e) {
        if (e.code() == platform::Code::not_found) return std::nullopt;
        throw;
    }
    if (res.code == platform::Code::not_found) throw platform::not_found(res.body);
    if (!res.ok())
        throw platform::Error(res.code, std::string(service) + "/" + method + ": " + res.body);
    return json::parse(res.body, nullptr, false);
}

// Every element of `field` in the pages of service/method (offset, limit 100, answer `total`).
std::vector<json> pages(const platform::Host& host, platform::Request& r, const char* service,
                        const char* method, const char* field) {
    std::vector<json> out;
    for (size_t offset = 0;;) {
        auto page = ask(host, r, service, method, {{"offset", offset}, {"limit", 100}});
        if (!page || !page->is_object()) return out;
        const json items = page->value(field, json::array());
        for (const auto& i : items) out.push_back(i);
        offset += items.size();
        if (items.empty() || offset >= page->value("total", size_t{0})) return out;
    }
}

// Milliseconds since the epoch of an RFC 3339 time (offset applied), so items dated in different
// offsets sort correctly; 0 when unreadable.
int64_t epoch_ms(const std::string& t) {
    const auto at = common::time::parse_rfc3339(t);
    return at ? at->utc_ms() : 0;
}

json post_item(const json& p) {
    return {{"id", "post:" + p.value("id", "")}, {"kind", "post"},
            {"title", p.value("title", "")},     {"url", p.value("url", "")},
            {"text", p.value("content", "")},    {"date", p.value("created", "")},
            {"author", p.value("author", "")}};
}

json social_item(const json& p) {
    return {{"id", "social:" + p.value("id", "")}, {"kind", "social"},
            {"title", p.value("title", "")},       {"url", p.value("url", "")},
            {"text", p.value("text", "")},         {"date", p.value("created", "")},
            {"author", p.value("author", "")}};
}

json reminder_item(const json& e) {
    const std::string id = e.value("id", "");
    return {{"id", "reminder:" + id},        {"kind", "reminder"},
            {"title", e.value("title", "")}, {"url", "/api/v1/events/read?id=" + id},
            {"text", e.value("note", "")},   {"date", e.value("next", e.value("when", ""))}};
}

// A quote markets/recent kept: {symbol, name, category, price, unit, timestamp, source, seen}.
json market_item(const json& q) {
    const std::string symbol = q.value("symbol", "");
    char price[40] = "";
    if (q.contains("price") && q["price"].is_number())
        std::snprintf(price, sizeof price, "%.10g", q["price"].get<double>());
    const std::string at =
        q.value("timestamp", json()).is_string() ? q["timestamp"].get<std::string>() : "";
    return {{"id", "market:" + symbol},
            {"kind", "market"},
            {"title", q.value("name", symbol) + " (" + symbol + "): " + price + " USD"},
            {"url", "/api/v1/markets/quote?symbol=" + symbol},
            {"text", q.value("name", symbol) + " (" + symbol + ", " + q.value("category", "") +
                         ") was " + price + " USD " + q.value("unit", "") +
                         (at.empty() ? "" : " at " + at) + ", from " + q.value("source", "") + "."},
            {"date", q.value("seen", "")}};
}

// A string member, "" when absent or null (news and video leave unknown fields null).
std::string str_of(const json& o, const char* name) {
    const auto it = o.find(name);
    return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// A story the news service holds (news/held): dated when published, else when first read.
json news_item(const json& a) {
    const std::string text = str_of(a, "text");
    const std::string published = str_of(a, "published");
    return {{"id", "news:" + str_of(a, "id")},
            {"kind", "news"},
            {"title", str_of(a, "title")},
            {"url", str_of(a, "url")},
            {"text", text.empty() ? str_of(a, "summary") : text},
            {"date", published.empty() ? str_of(a, "seen") : published},
            {"source", str_of(a, "source")},
            {"topic", str_of(a, "topic")}};
}

// A video the video service's answers carried (video/held): dated when published, else seen.
json video_item(const json& v) {
    const std::string published = str_of(v, "published");
    return {{"id", "video:" + str_of(v, "id")},
            {"kind", "video"},
            {"title", str_of(v, "title")},
            {"url", str_of(v, "url")},
            {"text", str_of(v, "description")},
            {"date", published.empty() ? str_of(v, "seen") : published},
            {"channel", str_of(v, "channel")}};
}

}  // namespace

const std::vector<std::string>& Archive::kinds() {
    static const std::vector<std::string> k = {"news",   "post",   "video",
                                               "market", "social", "reminder"};
    return k;
}

std::vector<json> Archive::collect(platform::Request& r, const std::string& kind) const {
    std::vector<json> out;
    if (kind == "post") {
        for (const auto& p : pages(host_, r, "v1.blog", "feed", "posts"))
            if (!p.value("private", false)) out.push_back(post_item(p));
    } else if (kind == "social") {
        auto answer = ask(host_, r, "v1.social", "list", json::object());
        if (answer && answer->is_object())
            for (const auto& p : answer->value("posts", json::array()))
                out.push_back(social_item(p));
    } else if (kind == "reminder" && !r.anonymous()) {
        for (const auto& e : pages(host_, r, "v1.events", "list", "events"))
            out.push_back(reminder_item(e));
    } else if (kind == "market") {
        auto answer = ask(host_, r, "v1.markets", "recent", {{"limit", 100}});
        if (answer && answer->is_object())
            for (const auto& q : answer->value("quotes", json::array()))
                out.push_back(market_item(q));
    } else if (kind == "news") {
        auto answer = ask(host_, r, "v1.news", "held", json::object());
        if (answer && answer->is_object())
            for (const auto& a : answer->value("articles", json::array()))
                out.push_back(news_item(a));
    } else if (kind == "video") {
        auto answer = ask(host_, r, "v1.video", "held", json::object());
        if (answer && answer->is_object())
            for (const auto& v : answer->value("videos", json::array()))
                out.push_back(video_item(v));
    }
    archive::newest_first(out);
    return out;
}

std::optional<json> Archive::find(platform::Request& r, const std::string& id) const {
    const auto colon = id.find(':');
    if (colon == std::string::npos) return std::nullopt;
    const std::string kind = id.substr(0, colon), key = id.substr(colon + 1);
    try {
        if (kind == "post") {
            auto p = ask(host_, r, "v1.blog", "read", {{"id", key}});
            if (p && p->is_object() && !p->value("private", false)) return post_item(*p);
        } else if (kind == "reminder" && !r.anonymous()) {
            auto e = ask(host_, r, "v1.events", "read", {{"id", key}});
            if (e && e->is_object()) return reminder_item(*e);
        } else if (kind == "social") {
            for (auto& item : collect(r, "social"))
                if (item["id"] == id) return item;
        } else if (kind == "market") {
            for (auto& item : collect(r, "market"))
                if (item["id"] == id) return item;
        } else if (kind == "news" || kind == "video") {
            const bool news = kind == "news";
            auto answer = ask(host_, r, news ? "v1.news" : "v1.video", "held", {{"id", key}});
            const json found = answer && answer->is_object()
                                   ? answer->value(news ? "articles" : "videos", json::array())
                                   : json::array();
            if (!found.empty()) return news ? news_item(found[0]) : video_item(found[0]);
        }
    } catch (const platform::Error& e) {
        if (e.code() != platform::Code::not_found) throw;
    }
    return std::nullopt;
}

void archive::newest_first(std::vector<json>& items) {
    std::stable_sort(items.begin(), items.end(), [](const json& a, const json& b) {
        return epoch_ms(a.value("date", "")) > epoch_ms(b.value("date", ""));
    });
}
