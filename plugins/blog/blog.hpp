// blog — posts by their author, public unless private (the catalogue's `blog` service).
//
// A post is {id, title, content, tags, private, author, created, updated, url}; ids are unique
// per author. The post lives in its author's owner-scoped collection `posts`; a public post also
// has a card (the post without its content, plus a snippet) in the shared `public` index, so
// other accounts and anonymous callers can list and read it. Who may do what:
//   - read, list, feed: anyone (public methods, no credential); a private post only for its author,
//     others get 404 as if it did not exist;
//   - create: an account; update, delete: the author only — another account's public post is 403
//     (it is visible, so refusing says nothing new), its private post 404.
// create/update/delete are in blog.cpp; read/list/feed in reading.cpp; titles, snippets and
// tags in text.cpp.
#pragma once

#include <optional>
#include <platform/sdk.hpp>
#include <string>
#include <vector>

class Blog {
public:
    static void describe(platform::ServiceSpec<Blog>& s);
    explicit Blog(const platform::Host& host) : host_(host) {}

    platform::json create(platform::Request& r);
    platform::json update(platform::Request& r);
    platform::json remove(platform::Request& r);
    platform::json read(platform::Request& r);
    platform::json list(platform::Request& r);
    // Every public post in full, newest first, paged ({posts, total, offset}): the instance's
    // public feed, read by the social, stream and archive services.
    platform::json feed(platform::Request& r);

private:
    static constexpr const char* kPosts = "posts";  // owner-scoped: the author's posts by id
    // Shared (owner ""): the card of each public post under "<id>/<escaped author>" (ids are
    // unique per author).
    static constexpr const char* kPublic = "public";

    platform::Collection index() const { return platform::Collection(host_.store(), kPublic, ""); }
    static std::string index_key(const std::string& id, const std::string& author);
    // The public cards with this id (other authors' included), by author.
    std::vector<platform::json> public_cards(const std::string& id) const;
    // The post `id` as the caller may see it (their own, or a public one); nullopt otherwise.
    std::optional<platform::json> visible(platform::Request& r, const std::string& id) const;
    // The one post named by `id` or `title` among `candidates` rules (reading.cpp): the caller's
    // own posts only (own_only), else the caller's and the public ones. 400 without either
    // argument or for an ambiguous title, 404 when none.
    platform::json find(platform::Request& r, bool own_only) const;
    // Every post the caller may read (own ones and public cards), newest first, with `seq`.
    std::vector<platform::json> readable(platform::Request& r) const;
    // Writes the post and its public card (or removes the card of a private post).
    void save(platform::Request& r, const platform::json& post) const;

    platform::Host host_;
};

namespace blog {

// A title from the body: its first non-empty line without markdown markers, at most 80
// characters, cut at a word with "…".
std::string title_from(const std::string& content);
// The content's start, whitespace collapsed, at most 200 characters ("…" when cut).
std::string snippet(const std::string& content);
// Comma-separated tags trimmed, empty ones dropped, duplicates removed: "a,b".
std::string tags(const std::string& text);
// The post's card: the post without `content`, with `snippet`.
platform::json card(const platform::json& post);
// A stored post or card as the methods answer it: without the internal `seq` (write order).
platform::json visible(platform::json post);
using platform::rfc3339;  // "YYYY-MM-DDTHH:MM:SSZ" (platform/sdk/text.hpp)

}  // namespace blog
