#include "library.hpp"

#include <algorithm>
#include <platform/sdk/text.hpp>

#include "common/upstream/upstream.hpp"
#include "feeds.hpp"

using platform::json;

namespace news {

namespace {

constexpr const char* kArticlePrefix = "article:";
constexpr const char* kPolledKey = "polled";
constexpr uint64_t kMaxFeedBytes = 5 * 1024 * 1024;  // a feed larger than this is refused
constexpr size_t kMaxEntries = 200;                  // read from one feed per poll
constexpr size_t kSummaryChars = 2000;               // kept of a description
constexpr size_t kTextChars = 50000;                 // kept of an article's content
constexpr size_t kBriefChars = 400;                  // of the summary in lists

int64_t integer(const platform::Host& host, const char* key, int64_t fallback, int64_t lo,
                int64_t hi, std::string& problem) {
    const json v = host.config(key);
    if (v.is_null()) return fallback;
    if (!v.is_number_integer() || v.get<int64_t>() < lo || v.get<int64_t>() > hi) {
        if (problem.empty())
            problem = std::string("plugin_config.news.") + key + " must be a whole number from " +
                      std::to_string(lo) + " to " + std::to_string(hi);
        return fallback;
    }
    return v.get<int64_t>();
}

std::string cut(const std::string& s, size_t chars) {
    const std::string p = platform::utf8_prefix(s, chars);
    return p.size() < s.size() ? p + "…" : p;
}

std::string header(const json& headers, const char* name) {
    const auto it = headers.find(name);
    return it != headers.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

Settings settings_of(const platform::Host& host) {
    Settings s;
    const json feeds = host.config("feeds");
    if (feeds.is_null() || (feeds.is_array() && feeds.empty())) {
        s.problem =
            "plugin_config.news.feeds is not set: list the RSS or Atom feeds to read in the "
            "profile, e.g. feeds: [{url: \"https://feeds.bbci.co.uk/news/rss.xml\", topic: "
            "world}]";
        return s;
    }
    if (!feeds.is_array()) {
        s.problem = "plugin_config.news.feeds must be a list of {url, topic}";
        return s;
    }
    for (size_t i = 0; i < feeds.size(); ++i) {
        const json& f = feeds[i];
        const std::string at = "plugin_config.news.feeds[" + std::to_string(i) + "]";
        const json url = f.is_object() ? f.value("url", json()) : f;
        if (!url.is_string() || !(url.get<std::string>().rfind("http://", 0) == 0 ||
                                  url.get<std::string>().rfind("https://", 0) == 0)) {
            s.problem = at + ".url must be an http or https URL";
            return s;
        }
        const json topic = f.is_object() ? f.value("topic", json("news")) : json("news");
        if (!topic.is_string() || topic.get<std::string>().empty() ||
            platform::utf8_length(topic.get<std::string>()) > 40) {
            s.problem = at + ".topic must be a name of 1 to 40 characters";
            return s;
        }
        s.feeds.push_back({url.get<std::string>(), platform::lower(topic.get<std::string>())});
    }
    s.every_ms = integer(host, "every_minutes", 15, 1, 1440, s.problem) * 60 * 1000;
    s.keep_ms = integer(host, "keep_days", 30, 1, 365, s.problem) * 24 * 3600 * 1000;
    s.poll_ms = static_cast<int>(integer(host, "poll_ms", 30000, 10, 600000, s.problem));
    return s;
}

Library::Library(const platform::Host& host) : host_(host), settings_(settings_of(host)) {}

void Library::require_feeds() const {
    if (!settings_.problem.empty()) throw platform::unavailable(settings_.problem);
}

json Library::polled() const {
    const auto v = host_.store().get(kPolledKey);
    if (!v) return nullptr;
    json j = json::parse(*v, nullptr, false);
    return j.is_object() ? j : json(nullptr);
}

void Library::refresh() {
    if (!settings_.problem.empty()) return;
    std::lock_guard<std::mutex> g(polling_);
    const int64_t now = host_.now_ms();
    const json last = polled();
    bool due = !last.is_object();
    if (!due) {
        const int64_t at = last.value("at_ms", int64_t{0});
        due = now - at >= settings_.every_ms || now < at;
        // A feed list changed since (a restart with other settings) is read at once.
        std::vector<std::string> before, configured;
        for (const auto& f : last.value("feeds", json::array()))
            before.push_back(f.value("url", ""));
        for (const auto& f : settings_.feeds) configured.push_back(f.url);
        due = due || before != configured;
    }
    if (due) poll(now, last);
}

void Library::poll(int64_t now, const json& last) {
    const platform::Store store = host_.store();
    json feeds = json::array();
    for (const auto& f : settings_.feeds) {
        json st = {{"url", f.url}, {"topic", f.topic}, {"at", platform::rfc3339(now)}};
        json prev;
        if (last.is_object())
            for (const auto& p : last.value("feeds", json::array()))
                if (p.value("url", "") == f.url && p.value("ok", false)) prev = p;
        platform::HttpRequest req;
        req.url = f.url;
        req.operator_url = true;
        req.max_bytes = kMaxFeedBytes;
        req.headers["Accept"] =
            "application/rss+xml, application/atom+xml, application/rdf+xml, "
            "application/xml;q=0.9, text/xml;q=0.9, */*;q=0.1";
        if (prev.is_object()) {
            if (!prev.value("etag", "").empty()) req.headers["If-None-Match"] = prev["etag"];
            if (!prev.value("last_modified", "").empty())
                req.headers["If-Modified-Since"] = prev["last_modified"];
        }
        try {
            const platform::HttpResponse r = host_.fetch(req);
            if (r.status == 304 && prev.is_object()) {
                st.update(json{{"ok", true},
                               {"title", prev.value("title", "")},
                               {"entries", prev.value("entries", 0)},
                               {"etag", prev.value("etag", "")},
                               {"last_modified", prev.value("last_modified", "")}});
            } else if (r.status < 200 || r.status > 299) {
                st.update(
                    json{{"ok", false}, {"error", "answered HTTP " + std::to_string(r.status)}});
            } else {
                const Feed feed = parse_feed(r.body, r.final_url.empty() ? f.url : r.final_url);
                size_t n = 0;
                for (const Entry& e : feed.entries) {
                    if (n++ == kMaxEntries) break;
                    const std::string id = article_id(e, f.url);
                    const std::string key = kArticlePrefix + id;
                    json old;
                    if (const auto v = store.get(key)) old = json::parse(*v, nullptr, false);
                    const bool had = old.is_object();
                    const json published =
                        e.published_ms ? json(platform::rfc3339(*e.published_ms)) : json(nullptr);
                    json a = {{"id", id},
                              {"title", e.title},
                              {"url", e.url},
                              {"summary", cut(e.summary, kSummaryChars)},
                              {"text", cut(e.text, kTextChars)},
                              {"author", e.author},
                              {"topic", had ? old.value("topic", f.topic) : f.topic},
                              {"source", feed.title},
                              {"feed", had ? old.value("feed", f.url) : f.url},
                              {"published", published},
                              {"seen", had ? old.value("seen", platform::rfc3339(now))
                                           : platform::rfc3339(now)},
                              {"at_ms", e.published_ms ? *e.published_ms
                                                       : (had ? old.value("at_ms", now) : now)}};
                    store.put(key, a.dump(), settings_.keep_ms);
                }
                st.update(json{{"ok", true},
                               {"title", feed.title},
                               {"format", feed.format},
                               {"entries", std::min(feed.entries.size(), kMaxEntries)},
                               {"etag", header(r.headers, "etag")},
                               {"last_modified", header(r.headers, "last-modified")}});
            }
        } catch (const common::upstream::Malformed& e) {
            st.update(json{{"ok", false}, {"error", e.what()}});
        } catch (const platform::Error& e) {
            std::string why = e.what();
            if (e.code() == platform::Code::permission_denied)
                why += " (a feed on loopback or a private address must be on outbound.allow)";
            st.update(json{{"ok", false}, {"error", why}});
        }
        if (!st.value("ok", false))
            host_.warn("news: feed " + f.url + ": " + st.value("error", std::string()));
        feeds.push_back(std::move(st));
    }
    store.put(kPolledKey,
              json{{"at_ms", now}, {"at", platform::rfc3339(now)}, {"feeds", feeds}}.dump());
}

std::vector<json> Library::articles() const {
    platform::ScanOptions o;
    o.prefix = kArticlePrefix;
    std::vector<json> out;
    for (const auto& r : host_.store().scan(o)) {
        json a = json::parse(r.value, nullptr, false);
        if (a.is_object()) out.push_back(std::move(a));
    }
    std::stable_sort(out.begin(), out.end(), [](const json& a, const json& b) {
        const int64_t x = a.value("at_ms", int64_t{0}), y = b.value("at_ms", int64_t{0});
        return x != y ? x > y : a.value("id", "") < b.value("id", "");
    });
    return out;
}

std::optional<json> Library::article(const std::string& id) const {
    const auto v = host_.store().get(kArticlePrefix + id);
    if (!v) return std::nullopt;
    json a = json::parse(*v, nullptr, false);
    if (!a.is_object()) return std::nullopt;
    return a;
}

void Library::fail_when_nothing_read() const {
    const json last = polled();
    if (!last.is_object()) return;
    std::string why;
    for (const auto& f : last.value("feeds", json::array())) {
        if (f.value("ok", false)) return;
        why += (why.empty() ? "" : "; ") + f.value("url", "") + ": " + f.value("error", "");
    }
    if (why.empty() || !articles().empty()) return;
    throw platform::Error(platform::Code::bad_gateway, "no news feed could be read: " + why);
}

json Library::brief(const json& a) {
    return {{"id", a.value("id", "")},
            {"title", a.value("title", "")},
            {"url", a.value("url", "")},
            {"summary", cut(a.value("summary", ""), kBriefChars)},
            {"topic", a.value("topic", "")},
            {"source", a.value("source", "")},
            {"published", a.value("published", json())}};
}

json Library::full(const json& a) {
    json out = brief(a);
    out["summary"] = a.value("summary", "");
    out["text"] = a.value("text", "");
    out["author"] = a.value("author", "");
    out["feed"] = a.value("feed", "");
    out["seen"] = a.value("seen", "");
    return out;
}

// ---- Poller ------------------------------------------------------------------------------------

void Poller::start() {
    if (thread_.joinable() || !library_.settings().problem.empty()) return;
    stopping_ = false;
    thread_ = std::thread([this] { run(); });
}

void Poller::stop() {
    {
        std::lock_guard<std::mutex> g(m_);
        stopping_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void Poller::run() {
    std::unique_lock<std::mutex> lock(m_);
    int64_t wait_ms = 1000;
    while (!cv_.wait_for(lock, std::chrono::milliseconds(wait_ms), [&] { return stopping_; })) {
        lock.unlock();
        try {
            library_.refresh();
        } catch (const std::exception& e) {
            host_.warn(std::string("news: poll failed: ") + e.what());
        }
        lock.lock();
        wait_ms = library_.settings().poll_ms;
    }
}

}  // namespace news
