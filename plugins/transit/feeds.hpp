// feeds.hpp — published GTFS timetables of a country from the Mobility Database catalogue
// (GET /v1/gtfs_feeds?country_code= -> [{id, provider, feed_name, status, latest_dataset:
// {hosted_url, downloaded_at, hash, zipped_folder_size_mb, unzipped_folder_size_mb}, locations:
// [{country_code, subdivision_name, municipality}]}]).
#pragma once

#include <nlohmann/json.hpp>

namespace transit {

// The catalogue's feeds as [{id, provider, name, status, url, downloaded_at, hash, size_mb,
// unzipped_size_mb, locations: ["municipality, subdivision, country"]}] (absent values null).
// Throws common::upstream::Malformed unless the body is a list of objects each with an id.
nlohmann::json parse_feeds(const nlohmann::json& body);

}  // namespace transit
