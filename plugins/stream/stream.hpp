// stream — what has happened recently on this instance (the catalogue's `stream` service, one
// method, list): an activity feed of public events, newest first.
//
// An activity is {id, type, title, url, actor, at}. The events are derived, at each call, from
// what the instance publishes — the blog's public posts (blog/feed, read through the host as the
// caller): a post gives `blog.published` at its creation and, once edited, `blog.updated` at its
// last change. Private and deleted posts give nothing; without a blog service the feed is empty.
// No store of its own. Plugin id `stream`, service `v1.stream`.
#pragma once

#include <platform/sdk.hpp>
#include <string>
#include <vector>

class Stream {
public:
    static void describe(platform::ServiceSpec<Stream>& s);
    explicit Stream(const platform::Host& host) : host_(host) {}

    platform::json list(platform::Request& r);

    // The activities of one public blog post, newest first.
    static std::vector<platform::json> activities(const platform::json& post);

private:
    platform::Host host_;
};
