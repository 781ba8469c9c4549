// images — raster images their owner uploads or has drawn, private until the owner makes them
// public, and the picture of the day (the catalogue's `images` service, README.md). Upload, get,
// update, delete and the bytes at /ui/images/<id> in images.cpp; generate (an OpenAI-compatible
// images API) in generate.cpp; daily (the Wikimedia feed's picture of the day) in daily.cpp; list
// and search with their cursors in listing.cpp; reading the bytes in raster.cpp.
#pragma once

#include <optional>
#include <platform/sdk.hpp>
#include <string>

class Images {
public:
    static void describe(platform::ServiceSpec<Images>& s);
    explicit Images(const platform::Host& host) : host_(host) {}

    platform::json upload(platform::Request& r);
    platform::json get(platform::Request& r);
    platform::json list(platform::Request& r);
    platform::json search(platform::Request& r);
    platform::json update(platform::Request& r);
    platform::json remove(platform::Request& r);
    platform::json daily(platform::Request& r);
    platform::json generate(platform::Request& r);
    // GET /ui/images/<id>: the bytes with their content type — the owner's image, or anyone's
    // public one; 404 otherwise.
    void serve(platform::Request& r, platform::Responder out);
    // The browser's way in (browser_upload.cpp): GET /ui/images is an upload page; POST /ui/images
    // takes the same arguments as upload with the browser limit, 8 MB decoded.
    void upload_page(platform::Request& r, platform::Responder out);
    platform::json browser_upload(platform::Request& r);

    static constexpr size_t kMaxBytes = 512 * 1024;              // decoded
    static constexpr size_t kMaxBrowserBytes = 8 * 1024 * 1024;  // decoded, POST /ui/images
    static constexpr uint64_t kMaxPixels = 8'000'000;            // 8 megapixels
    // Owner-scoped: metadata by id, and {"data": base64} by id. Plugin-wide: "public/<id>" -> the
    // metadata plus `owner`, for public listing and serving.
    static constexpr const char* kImages = "images";
    static constexpr const char* kData = "image_data";
    // Plugin-wide: "daily/<YYYY-MM-DD>" -> that day's picture (its id is "daily-<YYYY-MM-DD>"),
    // kept for ever once fetched.
    static constexpr const char* kDailyPrefix = "daily/";
    static constexpr const char* kDailyId = "daily-";

private:
    static void describe_browser_upload(platform::ServiceSpec<Images>& s);
    // Validates `data` (base64 PNG/JPEG/GIF, at most `max_bytes` decoded, 8 megapixels) and
    // stores it as the caller's private image.
    platform::json store_upload(platform::Request& r, size_t max_bytes, const char* max_text);
    // Stores checked bytes (`type`, `width` x `height`) as the caller's private image.
    platform::json store_image(platform::Request& r, const std::string& bytes,
                               const std::string& type, uint32_t width, uint32_t height,
                               const std::string& description, const std::string& prompt);
    // The picture of `date` (YYYY-MM-DD) from the store, else from the Wikimedia feed (then
    // stored); nullopt when the feed has none for that day.
    std::optional<platform::json> picture_of(const std::string& date) const;
    // The caller's image, else a public one (with `owner`), else a stored picture of the day,
    // else nullopt.
    std::optional<platform::json> visible(const platform::Request& r, const std::string& id) const;
    // Lists or searches: one page of `scope` matching every word of `query` (empty: all).
    platform::json page(platform::Request& r, const std::string& query);

    platform::Host host_;
};
