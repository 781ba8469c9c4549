#include "video.hpp"

#include <algorithm>
#include <cctype>
#include <platform/sdk/text.hpp>
#include <set>

#include "youtube.hpp"

namespace schema = platform::schema;

using common::upstream::Query;
using common::upstream::Upstream;
using platform::json;

namespace video {

const common::upstream::Provider kYouTube{
    "youtube", "YouTube", "https://www.googleapis.com/youtube/v3", 30 * 60 * 1000, true};
const common::upstream::Provider kYouTubeCategories{
    "youtube", "YouTube", "https://www.googleapis.com/youtube/v3", 24 * 60 * 60 * 1000, true};

}  // namespace video

namespace {

constexpr int kPageSize = 50;    // videos.list's largest maxResults
constexpr int kChartSize = 200;  // the most a mostPopular chart holds
constexpr int kSearchSize = 25;  // results of one search
constexpr const char* kSeenPrefix = "seen:";
constexpr const char* kVideoParts = "snippet,contentDetails,statistics";

int64_t setting(const platform::Host& host, const char* key, int64_t fallback, int64_t lo,
                int64_t hi) {
    const json v = host.config(key);
    if (v.is_null()) return fallback;
    if (v.is_number_integer() && v.get<int64_t>() >= lo && v.get<int64_t>() <= hi)
        return v.get<int64_t>();
    host.warn(std::string("video: plugin_config.video.") + key + " must be a whole number from " +
              std::to_string(lo) + " to " + std::to_string(hi) + "; using " +
              std::to_string(fallback));
    return fallback;
}

std::string region_of(const platform::Host& host) {
    const json v = host.config("region");
    if (v.is_string() && v.get<std::string>().size() == 2 &&
        std::isalpha(static_cast<unsigned char>(v.get<std::string>()[0])) &&
        std::isalpha(static_cast<unsigned char>(v.get<std::string>()[1]))) {
        std::string r = v.get<std::string>();
        for (auto& c : r) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        return r;
    }
    if (!v.is_null()) host.warn("video: plugin_config.video.region must be a two-letter code; US");
    return "US";
}

}  // namespace

Video::Video(const platform::Host& host)
    : host_(host),
      region_(region_of(host)),
      keep_ms_(setting(host, "keep_days", 30, 1, 365) * 24 * 3600 * 1000),
      quota_(host, {setting(host, "searches_per_hour", 10, 0, 100000),
                    setting(host, "searches_per_day", 90, 0, 1000000)}) {}

void Video::describe(platform::ServiceSpec<Video>& s) {
    s.id("video")
        .version("1.0.0")
        .service("v1.video")
        .summary("YouTube videos: popular by category, one video's details, search");
    s.get("list")
        .title("Popular videos")
        .description(
            "YouTube's most popular videos now (in the instance's region), of one category or "
            "all, from `offset`. Answers {category: {id, title} or null, region, videos: [{id, "
            "title, description, channel, channel_id, published, duration (ISO 8601), seconds, "
            "views, likes, comments, category_id, tags, thumbnail, live, url}], offset, limit, "
            "total}. A category is an id or a title such as Music or Gaming (any case); an "
            "unknown one is a 400 listing the titles.")
        .schema(schema::object()
                    .str("category")
                    .max_len(60)
                    .doc("A category id (\"10\") or title (\"Music\"); empty for all")
                    .prop("offset", schema::integer()
                                        .min(0)
                                        .max(kChartSize - 1)
                                        .def(0)
                                        .doc("How many to skip (a chart holds at most 200)"))
                    .prop("limit", schema::limit(100, 20, "At most this many (default 20)")))
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&Video::list);
    s.get("read")
        .title("Read a video's details")
        .description(
            "One video's metadata and description (no transcript): {id, title, description, "
            "channel, channel_id, published, duration, seconds, views, likes, comments, "
            "category_id, tags, thumbnail, live, url}. 404 when YouTube has no such public "
            "video.")
        .schema(schema::object()
                    .str("id")
                    .pattern("^[A-Za-z0-9_-]{11}$")
                    .required()
                    .doc("The video's id: 11 characters, as in watch?v=<id>"))
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&Video::read);
    s.get("search")
        .title("Search videos")
        .description(
            "YouTube's videos matching `query` (any channel, or only `channel`), most relevant "
            "first, at most 25. Each search that reaches YouTube spends one of the instance's "
            "searches (an hourly and a daily count; a repeat answered from the cache spends "
            "none); when one is spent the answer is 429 saying when it renews. Answers {query, "
            "channel, videos: [{id, title, description, channel, channel_id, published, "
            "thumbnail, live, url}], total, quota: {hour_left, day_left}}.")
        .schema(schema::object()
                    .str("query")
                    .min_len(1)
                    .max_len(200)
                    .required()
                    .doc("What to search for")
                    .str("channel")
                    .pattern("^UC[A-Za-z0-9_-]{22}$")
                    .doc("Only this channel: its exact id (UC and 22 characters)"))
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&Video::search);
    s.get("held")
        .title("Videos seen (internal)")
        .description(
            "Internal, for the archive: the videos this instance's answers carried lately, the "
            "latest seen first ({videos}), or with `id` that one. Never asks YouTube.")
        .schema(schema::object()
                    .str("id")
                    .max_len(200)
                    .doc("Only this video")
                    .prop("limit", schema::limit(1000, 1000, "At most this many")))
        .access(platform::Access::public_)
        .read_only()
        .internal()
        .handler(&Video::held);
}

std::optional<json> Video::ask(const Upstream& yt, const std::string& path) const {
    common::upstream::Options o;
    o.pass = {400, 403, 404};
    const common::upstream::Answer a = yt.fetch(path, o);
    if (a.status == 404) return std::nullopt;
    if (a.status == 400 || a.status == 403) {
        const video::Failure f = video::failure_of(a.body);
        const std::string said = " (" + std::to_string(a.status) +
                                 (f.reason.empty() ? "" : " " + f.reason) + ")" +
                                 (f.message.empty() ? "" : ": " + f.message);
        if (f.reason == "quotaExceeded" || f.reason == "dailyLimitExceeded" ||
            f.reason == "rateLimitExceeded")
            throw platform::unavailable("YouTube's quota for providers.youtube.api_key is spent" +
                                        said +
                                        "; YouTube renews it daily at midnight Pacific Time");
        if (a.status == 403 || f.reason == "keyInvalid" || f.reason == "keyExpired" ||
            f.info == "API_KEY_INVALID" || f.info == "API_KEY_EXPIRED")
            throw platform::unavailable("providers.youtube.api_key: YouTube refused the key" +
                                        said + "; set a valid key");
        throw platform::Error(platform::Code::bad_gateway, "YouTube refused the request" + said);
    }
    json j = json::parse(a.body, nullptr, false);
    if (j.is_discarded()) throw yt.malformed("the body is not JSON");
    return j;
}

json Video::category_of(const std::string& category) const {
    if (std::all_of(category.begin(), category.end(),
                    [](unsigned char c) { return std::isdigit(c) != 0; }))
        return {{"id", category}, {"title", nullptr}};
    const Upstream yt(host_, video::kYouTubeCategories);
    const auto body = ask(
        yt,
        "/videoCategories" +
            Query().str("part", "snippet").str("regionCode", region_).str("hl", "en_US").text());
    if (!body) throw yt.malformed("videoCategories answered 404");
    const auto categories = yt.parse(*body, video::categories_from);
    std::string names;
    for (const auto& c : categories) {
        if (platform::lower(c.title) == platform::lower(category))
            return {{"id", c.id}, {"title", c.title}};
        if (c.assignable) names += (names.empty() ? "" : ", ") + c.title;
    }
    throw platform::invalid_argument("category: YouTube has no category '" + category +
                                     "' in region " + region_ + " (categories: " + names + ")");
}

void Video::remember(const json& videos) const {
    const platform::Store store = host_.store();
    const int64_t now = host_.now_ms();
    for (const auto& v : videos) {
        const std::string key = kSeenPrefix + v.value("id", "");
        json rec = json::object();
        if (const auto old = store.get(key)) {
            rec = json::parse(*old, nullptr, false);
            if (!rec.is_object()) rec = json::object();
        }
        for (const auto& [k, val] : v.items())
            if (!val.is_null()) rec[k] = val;
        rec["seen"] = platform::rfc3339(now);
        rec["seen_ms"] = now;
        store.put(key, rec.dump(), keep_ms_);
    }
}

json Video::list(platform::Request& r) {
    const size_t offset = static_cast<size_t>(r.integer("offset", 0));
    const size_t limit = r["limit"].get<size_t>();
    const std::string category = r.str("category");
    const json cat = category.empty() ? json() : category_of(category);
    const Upstream yt(host_, video::kYouTube);
    std::vector<json> videos;
    std::set<std::string> ids;
    std::string token;
    json total;
    for (int page = 0; page * kPageSize < kChartSize && videos.size() < offset + limit; ++page) {
        Query q;
        q.str("part", kVideoParts)
            .str("chart", "mostPopular")
            .str("regionCode", region_)
            .integer("maxResults", kPageSize);
        if (cat.is_object()) q.str("videoCategoryId", cat["id"].get<std::string>());
        if (!token.empty()) q.str("pageToken", token);
        const auto body = ask(yt, "/videos" + q.text());
        if (!body)
            throw platform::not_found("category: YouTube keeps no chart of popular videos for '" +
                                      category + "' in region " + region_);
        const auto p = yt.parse(
            *body, [](const json& j) { return video::page_from(j, "youtube#videoListResponse"); });
        total = p.total;
        size_t added = 0;
        for (const auto& item : p.items) {
            json v = yt.parse(item, video::video_from);
            if (ids.insert(v["id"].get<std::string>()).second) {
                videos.push_back(std::move(v));
                ++added;
            }
        }
        if (p.next.empty() || added == 0) break;
        token = p.next;
    }
    json out = json::array();
    for (size_t i = offset; i < videos.size() && out.size() < limit; ++i) out.push_back(videos[i]);
    remember(out);
    return {{"category", cat},  {"region", region_}, {"videos", out},
            {"offset", offset}, {"limit", limit},    {"total", total}};
}

json Video::read(platform::Request& r) {
    const std::string id = r.str("id");
    const Upstream yt(host_, video::kYouTube);
    const auto body = ask(yt, "/videos" + Query().str("part", kVideoParts).str("id", id).text());
    const auto p = body ? yt.parse(*body,
                                   [](const json& j) {
                                       return video::page_from(j, "youtube#videoListResponse");
                                   })
                        : video::Page{};
    if (p.items.empty()) throw platform::not_found("id: YouTube has no public video '" + id + "'");
    json v = yt.parse(p.items[0], video::video_from);
    remember(json::array({v}));
    return v;
}

json Video::search(platform::Request& r) {
    const std::string query = r.str("query");
    const std::string channel = r.str("channel");
    const Upstream yt(host_, video::kYouTube);
    Query q;
    q.str("part", "snippet")
        .str("type", "video")
        .integer("maxResults", kSearchSize)
        .str("q", query);
    if (!channel.empty()) q.str("channelId", channel);
    const std::string path = "/search" + q.text();
    const bool spends = !yt.held(path);
    if (spends) quota_.take();
    std::optional<json> body;
    try {
        body = ask(yt, path);
    } catch (const platform::Error& e) {
        // Nothing reached YouTube (no provider or key set, an address the host refuses, no
        // connection): nothing spent (common/upstream's messages for those cases).
        const std::string why = e.what();
        const bool unsent = why.find("is not set") != std::string::npos ||
                            why.find("may not be reached") != std::string::npos ||
                            why.find("could not be reached") != std::string::npos;
        if (spends && unsent) quota_.give_back();
        throw;
    }
    if (!body) throw yt.malformed("search answered 404");
    const auto p = yt.parse(
        *body, [](const json& j) { return video::page_from(j, "youtube#searchListResponse"); });
    json videos = json::array();
    for (const auto& item : p.items)
        if (auto v = yt.parse(item, video::search_result_from)) videos.push_back(*v);
    remember(videos);
    return {{"query", query},
            {"channel", channel.empty() ? json() : json(channel)},
            {"videos", videos},
            {"total", p.total},
            {"quota", quota_.left()}};
}

json Video::held(platform::Request& r) {
    const platform::Store store = host_.store();
    json out = json::array();
    if (r.args().contains("id")) {
        if (const auto v = store.get(kSeenPrefix + r.str("id"))) {
            json j = json::parse(*v, nullptr, false);
            if (j.is_object()) out.push_back(j);
        }
        return {{"videos", out}};
    }
    platform::ScanOptions o;
    o.prefix = kSeenPrefix;
    std::vector<json> all;
    for (const auto& rec : store.scan(o)) {
        json j = json::parse(rec.value, nullptr, false);
        if (j.is_object()) all.push_back(std::move(j));
    }
    std::stable_sort(all.begin(), all.end(), [](const json& a, const json& b) {
        return a.value("seen_ms", int64_t{0}) > b.value("seen_ms", int64_t{0});
    });
    const size_t limit = r["limit"].get<size_t>();
    for (size_t i = 0; i < all.size() && i < limit; ++i) out.push_back(all[i]);
    return {{"videos", out}};
}

PLATFORM_SERVICE(Video)
