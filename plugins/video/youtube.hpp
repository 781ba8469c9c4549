// youtube.hpp — YouTube Data API v3 answers (videos.list, search.list, videoCategories.list) read
// into the video service's answers. Pure functions over JSON, so tests/unit/video/ runs them on the
// fixtures in tests/fixtures/youtube/. A body that is not the documented shape throws
// common::upstream::Malformed (the 502 naming YouTube); a field YouTube left out is null.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace video {

// A `youtube#video` resource (part=snippet,contentDetails,statistics) as the service answers it:
// {id, title, description, channel, channel_id, published, duration (ISO 8601, "PT4M13S"),
// seconds, views, likes, comments (numbers; null when hidden), category_id, tags, thumbnail
// (the largest), live (none|live|upcoming), url (the watch page)}.
nlohmann::json video_from(const nlohmann::json& item);

// A `youtube#searchResult` of kind youtube#video: {id, title, description, channel, channel_id,
// published, thumbnail, live, url}. Search snippets carry HTML-escaped titles ("&#39;"): they
// are unescaped here. nullopt for a result that is not a video.
std::optional<nlohmann::json> search_result_from(const nlohmann::json& item);

// One page of a list answer: its items (checked to be an array), the next page's token ("" on the
// last page) and pageInfo.totalResults (null when absent). `kind` is the response kind expected,
// e.g. "youtube#videoListResponse".
struct Page {
    std::vector<nlohmann::json> items;
    std::string next;
    nlohmann::json total;
};
Page page_from(const nlohmann::json& body, const std::string& kind);

// videoCategories.list: [{id, title, assignable}].
struct Category {
    std::string id, title;
    bool assignable = false;
};
std::vector<Category> categories_from(const nlohmann::json& body);

// Seconds of an ISO 8601 duration as YouTube writes it (P#DT#H#M#S, any part omitted; "P0D" for
// a live stream); nullopt for anything else.
std::optional<int64_t> duration_seconds(const std::string& iso);

// Text with the HTML character references YouTube's search snippets use decoded (&amp; &lt; &gt;
// &quot; &#39; &apos; and numeric &#NNN; / &#xHH;).
std::string unescape_html(const std::string& s);

// The reason of a Google error body ({"error": {"message", "errors": [{"reason"}], "details":
// [{"@type": "...ErrorInfo", "reason"}]}}): YouTube's reason ("quotaExceeded"), the ErrorInfo
// reason ("API_KEY_INVALID") and the message; empty strings when absent.
struct Failure {
    std::string reason, info, message;
};
Failure failure_of(const std::string& body);

}  // namespace video
