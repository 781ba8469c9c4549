// video — YouTube videos through the YouTube Data API v3 (the catalogue's `video` service;
// README.md):
//
//   list    GET {category, offset, limit = 20 (max 100)}  popular videos (chart=mostPopular)
//   read    GET {id*}                                     one video: metadata and description
//   search  GET {query*, channel}                         search.list; spends the search quota
//   held    GET {id, limit}  (internal)                   videos seen lately, for the archive
//
// One provider, `youtube` (outbound.providers.youtube: base_url and api_key, sent as ?key), read
// through common/upstream (cache, 503/502/504). Every video an answer carries is remembered in the
// store ("seen:<id>", kept keep_days) so the archive can list what this instance has seen.
#pragma once

#include <platform/sdk.hpp>

#include "common/upstream/upstream.hpp"
#include "quota.hpp"

namespace video {

// videos.list and search.list (kept 30 minutes), videoCategories.list (kept a day).
extern const common::upstream::Provider kYouTube;
extern const common::upstream::Provider kYouTubeCategories;

}  // namespace video

class Video {
public:
    static void describe(platform::ServiceSpec<Video>& s);
    explicit Video(const platform::Host& host);

    platform::json list(platform::Request& r);
    platform::json read(platform::Request& r);
    platform::json search(platform::Request& r);
    platform::json held(platform::Request& r);

private:
    // GET `path` from YouTube: its JSON, with YouTube's own refusals (a spent key quota, a key it
    // does not take) as 503s that say so, and 404 passed back (nullopt).
    std::optional<platform::json> ask(const common::upstream::Upstream& yt,
                                      const std::string& path) const;
    // {id, title} of `category` (an id, or a title in any case), or 400 listing the titles.
    platform::json category_of(const std::string& category) const;
    // Remembers the videos answered (for the archive).
    void remember(const platform::json& videos) const;

    platform::Host host_;
    std::string region_;
    int64_t keep_ms_;
    video::Quota quota_;
};
