// social — this instance's own social posts: the catalogue's `social` service, list and search.
//
// The hosted-assistant API has no method that writes a social post, so a social post here is
// the announcement of a public blog post: {id, title, text, author, url, post, created}, where
// `post` (and `id`) is the blog post's id and `text` is "<title> — <snippet>". They are read from
// the blog's public feed (blog/feed) through the host, so there is no store of their own: a post
// made private or deleted is no longer announced. Without a blog service there are no posts.
// list and search are in social.cpp; reading and matching the feed in feed.cpp.
#pragma once

#include <platform/sdk.hpp>
#include <string>
#include <vector>

class Social {
public:
    static void describe(platform::ServiceSpec<Social>& s);
    explicit Social(const platform::Host& host) : host_(host) {}

    platform::json list(platform::Request& r);
    platform::json search(platform::Request& r);

private:
    platform::Host host_;
};

namespace social {

// Every public blog post, newest first, read page by page from blog/feed as the caller; empty when
// there is no blog service. Another failure of the blog is passed on.
std::vector<platform::json> public_posts(const platform::Host& host, platform::Request& r);
// The announcement of a blog post.
platform::json announcement(const platform::json& post);
// True when every word of `query` (case-insensitive) occurs in one of `fields` of `item`.
bool matches(const platform::json& item, const std::string& query,
             std::initializer_list<const char*> fields);

}  // namespace social
