// archive — what this instance has collected, across services (the catalogue's `archive` service).
//
// An item is {id, kind, title, url, text, date} (list and search give `snippet`, the first 200
// bytes of `text`, instead of `text`). Its id is "<kind>:<the source's id>" — what bookmarks/add
// takes as `ref` and what `get` resolves. The archive keeps no store: each kind is read from the
// service that owns it, through the host's service calls, as the caller:
//   post      the public blog posts (blog/feed)            post:<blog post id>
//   social    this instance's social posts (social/list)   social:<blog post id>
//   reminder  the caller's own reminders (events/list)     reminder:<event id>  (accounts only)
//   market    the quotes markets answered lately (markets/recent, internal)  market:<SYMBOL>
//   news      the stories the news service holds (news/held)   news:<story id>
//   video     the videos video's answers carried (video/held)  video:<video id>
// A source whose service is absent gives nothing (no error); an answer in error is passed on.
// list/search/get are in archive.cpp; the sources in sources.cpp.
#pragma once

#include <optional>
#include <platform/sdk.hpp>
#include <string>
#include <vector>

class Archive {
public:
    static void describe(platform::ServiceSpec<Archive>& s);
    explicit Archive(const platform::Host& host) : host_(host) {}

    platform::json list(platform::Request& r);
    platform::json search(platform::Request& r);
    // One item in full by id; 404 (naming `id`) for an unknown kind, an absent item or one the
    // caller may not see.
    platform::json get(platform::Request& r);

    // The kinds archive/list takes: news, post, video, market, social, reminder, in that order.
    static const std::vector<std::string>& kinds();

private:
    // Every item of `kind` the caller may see, newest `date` first; empty for a kind with no
    // source.
    std::vector<platform::json> collect(platform::Request& r, const std::string& kind) const;
    // The item with this id, or nullopt.
    std::optional<platform::json> find(platform::Request& r, const std::string& id) const;

    platform::Host host_;
};

namespace archive {

// An item as list and search answer it: `text` replaced by `snippet`.
platform::json summary(const platform::json& item);
// Sorts items by `date` (RFC 3339, any offset), the latest first; stable for equal times.
void newest_first(std::vector<platform::json>& items);
// True when every word of `query` (case-insensitive) occurs in the item's title or text.
bool matches(const platform::json& item, const std::string& query);

}  // namespace archive
