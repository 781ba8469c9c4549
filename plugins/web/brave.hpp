// brave.hpp — the Brave Search API as web/search and web/images read it: the request paths and
// the parsers from its answers (WebSearchApiResponse, ImageSearchApiResponse) to the service's.
// Pure functions over JSON (no host), tested offline on tests/fixtures/brave/. A body that is not
// the documented shape throws common::upstream::Malformed (the 502 naming Brave Search); a result
// without a URL is skipped, a missing optional field is null.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "common/upstream/upstream.hpp"

namespace web {

// Provider `brave` (profile outbound.providers.brave: base_url https://api.search.brave.com,
// api_key, api_key_header "X-Subscription-Token", key_required true).
extern const common::upstream::Provider kBrave;

// Limits of the two methods (Brave allows count 1-20 for web results, 1-200 for images).
inline constexpr int64_t kSearchDefault = 10;
inline constexpr int64_t kSearchMax = 20;
inline constexpr int64_t kImagesDefault = 24;
inline constexpr int64_t kImagesMax = 100;

// "/res/v1/web/search?q=<query>&count=<n>" and "/res/v1/images/search?q=<query>&count=<n>".
std::string search_path(const std::string& query, int64_t count);
std::string images_path(const std::string& query, int64_t count);

// {query, results: [{title, url, description, site, age}], more, source}; at most `limit`.
nlohmann::json search_from(const nlohmann::json& body, const std::string& query, int64_t limit);

// {query, results: [{title, image, thumbnail, page, site, width, height}], source}; at most
// `limit`.
nlohmann::json images_from(const nlohmann::json& body, const std::string& query, int64_t limit);

}  // namespace web
