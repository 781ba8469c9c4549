// library.hpp — the articles this instance holds and the polling that fills them (README.md,
// "Polling and the store").
//
// Settings (the profile's plugin_config.news):
//   feeds          [{url, topic}]: RSS 2.0, RSS 1.0 or Atom feeds, http(s); topic defaults to
//                  "news". Fetched as operator URLs through the host's outbound client: a feed on
//                  a public address needs nothing more, one on loopback or a private address must
//                  be on outbound.allow.
//   every_minutes  how often the feeds are read, in business time (default 15, 1 to 1440)
//   keep_days      how long an article stays after its feed last listed it (default 30, 1 to 365)
//   poll_ms        how often (real time) the poller thread looks whether a poll is due (default
//                  30000, 10 to 600000)
//
// The store (the plugin's own table):
//   article:<id>   an article (JSON), written with a TTL of keep_days, renewed at each poll that
//                  still finds it in its feed. The id is feeds.hpp article_id: the same story is
//                  one record whichever poll, feed or host read it (dedupe by guid, else link).
//   polled         {at_ms, at, feeds: [{url, topic, title, ok, error, entries, etag,
//                  last_modified, at}]}: the last poll, so every host sharing the store knows when
//                  the next is due.
//
// A poll is due when there has been none or the last is every_minutes old (business clock). The
// poller thread and the handlers both call refresh(): the first to find a poll due runs it while
// the others wait, then find it done. A feed that fails (unreachable, a 4xx/5xx, not XML, not RSS
// or Atom) is recorded with its error and read again at the next poll; the others go on.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <platform/sdk.hpp>
#include <string>
#include <thread>
#include <vector>

namespace news {

struct FeedSetting {
    std::string url, topic;
};

struct Settings {
    std::vector<FeedSetting> feeds;
    int64_t every_ms = 15 * 60 * 1000;
    int64_t keep_ms = 30LL * 24 * 3600 * 1000;
    int poll_ms = 30000;
    std::string problem;  // why the settings cannot be used ("" when they can)
};

// The settings from the plugin's config; `problem` names a wrong one (never throws).
Settings settings_of(const platform::Host& host);

class Library {
public:
    explicit Library(const platform::Host& host);

    const Settings& settings() const { return settings_; }
    // 503 naming plugin_config.news.feeds when no feed is configured (or a setting is wrong).
    void require_feeds() const;

    // Polls every feed when a poll is due; one poll at a time in this process.
    void refresh();
    // Every article held (JSON as stored), the most recent (`at_ms`) first.
    std::vector<platform::json> articles() const;
    std::optional<platform::json> article(const std::string& id) const;
    // The last poll's record, or null.
    platform::json polled() const;
    // The 502 when no article is held and every feed failed at the last poll (nothing otherwise).
    void fail_when_nothing_read() const;

    // The answer's form of an article: without text (list, headlines, search) or with it (read).
    static platform::json brief(const platform::json& a);
    static platform::json full(const platform::json& a);

private:
    void poll(int64_t now, const platform::json& last);

    platform::Host host_;
    Settings settings_;
    std::mutex polling_;
};

// Calls Library::refresh every poll_ms of real time from start() to stop(), the first time after
// a second (so that the host has finished loading).
class Poller {
public:
    explicit Poller(Library& library, const platform::Host& host)
        : library_(library), host_(host) {}
    ~Poller() { stop(); }
    Poller(const Poller&) = delete;
    Poller& operator=(const Poller&) = delete;

    void start();
    void stop();

private:
    void run();

    Library& library_;
    platform::Host host_;
    std::thread thread_;
    std::mutex m_;
    std::condition_variable cv_;
    bool stopping_ = false;
};

}  // namespace news
