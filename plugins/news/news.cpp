#include "news.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <platform/sdk/text.hpp>
#include <set>

#include "common/time/time.hpp"

namespace schema = platform::schema;

using news::Library;
using platform::json;

namespace {

constexpr int64_t kDayMs = 24LL * 3600 * 1000;
constexpr size_t kHeadlines = 10;
constexpr size_t kSearchMax = 30;

// The first millisecond of `day` (today, yesterday or YYYY-MM-DD; UTC) on the business clock.
int64_t day_start(const std::string& day, int64_t now) {
    const int64_t today = (now >= 0 ? now : now - kDayMs + 1) / kDayMs * kDayMs;
    if (day == "today") return today;
    if (day == "yesterday") return today - kDayMs;
    int y = 0, m = 0, d = 0;
    if (day.size() != 10 || std::sscanf(day.c_str(), "%4d-%2d-%2d", &y, &m, &d) != 3 ||
        !common::time::valid_date(y, m, d))
        throw platform::invalid_argument("day: '" + day +
                                         "' is not today, yesterday or a date (YYYY-MM-DD)");
    return common::time::days_from_civil(y, m, d) * kDayMs;
}

// Every word of `query` (case-insensitive) in the article's title, summary or text.
bool matches(const json& a, const std::string& query) {
    const std::string hay = platform::lower(a.value("title", "") + "\n" + a.value("summary", "") +
                                            "\n" + a.value("text", ""));
    const std::string q = platform::lower(query);
    size_t i = 0, words = 0;
    while (i < q.size()) {
        while (i < q.size() && std::isspace(static_cast<unsigned char>(q[i]))) ++i;
        size_t j = i;
        while (j < q.size() && !std::isspace(static_cast<unsigned char>(q[j]))) ++j;
        if (j > i && (++words, hay.find(q.substr(i, j - i)) == std::string::npos)) return false;
        i = j;
    }
    return words > 0;
}

}  // namespace

void News::describe(platform::ServiceSpec<News>& s) {
    s.id("news").version("1.0.0").service("v1.news").summary(
        "News from the RSS and Atom feeds this instance reads, by topic");
    s.get("headlines")
        .title("Headlines")
        .description(
            "The latest story of each topic, freshest first, at most ten. Answers {headlines: "
            "[{id, title, url, summary, topic, source, published (RFC 3339, null when the feed "
            "gave no date)}], updated (when the feeds were last read), failing: [{url, topic, "
            "error}] (feeds the last read could not use)}. 503 when the instance reads no "
            "feeds.")
        .schema(schema::object())
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&News::headlines);
    s.get("list")
        .title("List the news of a day")
        .description(
            "The stories of one day (UTC; a story without a date counts on the day it was first "
            "read), newest first, of every topic or one. Answers {day (YYYY-MM-DD), topic, "
            "articles: [{id, title, url, summary, topic, source, published}], count (how many "
            "matched), updated}.")
        .schema(schema::object()
                    .str("day")
                    .pattern("^(today|yesterday|[0-9]{4}-[0-9]{2}-[0-9]{2})$")
                    .def("today")
                    .doc("today (default), yesterday or a date YYYY-MM-DD (UTC)")
                    .str("topic")
                    .max_len(40)
                    .doc("Only this topic (as the feeds are configured, case-insensitive)")
                    .prop("limit", schema::limit(100, 30, "At most this many (default 30)")))
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&News::list);
    s.get("read")
        .title("Read a story")
        .description(
            "One story in full by its id (from headlines, list or search) or by its URL. Answers "
            "{id, title, url, summary, text (the feed's full content when it carries one, else "
            "the summary), author, topic, source, feed, published, seen (when first read)}; 404 "
            "when no held story has that id or URL.")
        .schema(schema::id_object("The story's id (na-...) or its URL", 2000))
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&News::read);
    s.get("search")
        .title("Search the news")
        .description(
            "Held stories whose title, summary or text contains every word of the query "
            "(case-insensitive), newest first, at most 30. Answers {query, articles: [...], "
            "count (how many matched)}.")
        .schema(
            schema::object().str("query").min_len(1).max_len(500).required().doc("Words to find"))
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&News::search);
    s.get("held")
        .title("Stories held (internal)")
        .description(
            "Internal, for the archive: the stories held, newest first, in full ({articles}), "
            "or with `id` the one story ({articles: [it]} or none). Never reads a feed and "
            "never fails for want of feeds.")
        .schema(schema::object()
                    .str("id")
                    .max_len(2000)
                    .doc("Only this story")
                    .prop("limit", schema::limit(1000, 1000, "At most this many")))
        .access(platform::Access::public_)
        .read_only()
        .internal()
        .handler(&News::held);
}

std::vector<json> News::current() {
    library_.require_feeds();
    library_.refresh();
    library_.fail_when_nothing_read();
    return library_.articles();
}

json News::headlines(platform::Request&) {
    const auto all = current();
    json out = json::array();
    std::set<std::string> topics;
    for (const auto& a : all) {
        if (out.size() == kHeadlines) break;
        if (topics.insert(a.value("topic", "")).second) out.push_back(Library::brief(a));
    }
    const json polled = library_.polled();
    json failing = json::array();
    if (polled.is_object())
        for (const auto& f : polled.value("feeds", json::array()))
            if (!f.value("ok", false))
                failing.push_back({{"url", f.value("url", "")},
                                   {"topic", f.value("topic", "")},
                                   {"error", f.value("error", "")}});
    return {{"headlines", out},
            {"updated", polled.is_object() ? polled.value("at", json()) : json()},
            {"failing", failing}};
}

json News::list(platform::Request& r) {
    const std::string day = r.str("day", "today");
    const int64_t from = day_start(day, host_.now_ms());
    const std::string topic = platform::lower(r.str("topic"));
    const auto all = current();
    if (!topic.empty()) {
        std::set<std::string> known;
        for (const auto& f : library_.settings().feeds) known.insert(f.topic);
        for (const auto& a : all) known.insert(a.value("topic", ""));
        if (!known.count(topic)) {
            std::string names;
            for (const auto& k : known) names += (names.empty() ? "" : ", ") + k;
            throw platform::invalid_argument("topic: no feed has the topic '" + topic +
                                             "' (topics: " + names + ")");
        }
    }
    const size_t limit = r["limit"].get<size_t>();
    json articles = json::array();
    size_t count = 0;
    for (const auto& a : all) {
        const int64_t at = a.value("at_ms", int64_t{0});
        if (at < from || at >= from + kDayMs) continue;
        if (!topic.empty() && a.value("topic", "") != topic) continue;
        ++count;
        if (articles.size() < limit) articles.push_back(Library::brief(a));
    }
    const json polled = library_.polled();
    return {{"day", common::time::format_rfc3339(from / 1000).substr(0, 10)},
            {"topic", topic.empty() ? json() : json(topic)},
            {"articles", articles},
            {"count", count},
            {"updated", polled.is_object() ? polled.value("at", json()) : json()}};
}

json News::read(platform::Request& r) {
    const std::string id = r.str("id");
    library_.require_feeds();
    library_.refresh();
    if (id.rfind("http://", 0) == 0 || id.rfind("https://", 0) == 0) {
        for (const auto& a : library_.articles())
            if (a.value("url", "") == id) return Library::full(a);
    } else if (auto a = library_.article(id)) {
        return Library::full(*a);
    }
    throw platform::not_found("id: no story '" + id +
                              "' is held (ids and URLs come from headlines, list and search)");
}

json News::search(platform::Request& r) {
    const std::string query = r.str("query");
    json articles = json::array();
    size_t count = 0;
    for (const auto& a : current()) {
        if (!matches(a, query)) continue;
        ++count;
        if (articles.size() < kSearchMax) articles.push_back(Library::brief(a));
    }
    return {{"query", query}, {"articles", articles}, {"count", count}};
}

json News::held(platform::Request& r) {
    json out = json::array();
    if (r.args().contains("id")) {
        if (auto a = library_.article(r.str("id"))) out.push_back(Library::full(*a));
        return {{"articles", out}};
    }
    const size_t limit = r["limit"].get<size_t>();
    for (const auto& a : library_.articles()) {
        if (out.size() == limit) break;
        out.push_back(Library::full(a));
    }
    return {{"articles", out}};
}

PLATFORM_SERVICE(News)
