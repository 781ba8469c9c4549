// news — stories from the RSS and Atom feeds the operator lists (the catalogue's `news` service;
// README.md):
//
//   headlines  GET {}                                   the latest story per topic, freshest first, ≤ 10
//   list       GET {day = today, topic, limit = 30}     one day's stories (UTC), newest first
//   read       GET {id*}                                one story by id or by its URL
//   search     GET {query*}                             stories holding every word, newest first
//   held       GET {id, limit}  (internal)              what the store holds, for the archive
//
// Feeds are read by the poller (library.hpp) into the plugin's store; each public method first
// runs a poll that is due, then answers from the store. Without feeds configured the public
// methods answer 503 naming plugin_config.news.feeds; `held` answers what is held (nothing).
#pragma once

#include <platform/sdk.hpp>

#include "library.hpp"

class News {
public:
    static void describe(platform::ServiceSpec<News>& s);
    explicit News(const platform::Host& host)
        : host_(host), library_(host), poller_(library_, host) {}
    void start() { poller_.start(); }
    void stop() { poller_.stop(); }

    platform::json headlines(platform::Request& r);
    platform::json list(platform::Request& r);
    platform::json read(platform::Request& r);
    platform::json search(platform::Request& r);
    platform::json held(platform::Request& r);

private:
    // The configured check, a due poll, and the 502 when nothing could be read; then every
    // article held, newest first.
    std::vector<platform::json> current();

    platform::Host host_;
    news::Library library_;
    news::Poller poller_;
};
