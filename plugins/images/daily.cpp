// images/daily: the picture of the day, from the Wikimedia feed API's featured content (keyless):
//
//   GET <providers.wikimedia-feed.base_url>/feed/v1/wikipedia/en/featured/YYYY/MM/DD
//   -> {"tfa": ..., "image": {"title": "File:....jpg", "thumbnail": {source, width, height},
//       "image": {source, width, height}, "file_page", "artist": {html, text},
//       "credit": {html, text}, "license": {type, code, url}, "description": {html, text, lang}},
//       ...}
//
// A day's picture does not change, so the first answer for a date is kept for ever in the
// plugin's store ("daily/<date>") and the feed is never asked about that date again; those kept
// pictures are what list and search show under scope `daily`. A feed without `image` for the day
// (or a 404) answers no picture and keeps nothing. The bytes stay at Wikimedia: `url` is the
// feed's thumbnail, `original` the full file.
#include "common/time/civil.hpp"
#include "common/upstream/upstream.hpp"
#include "images.hpp"

using common::upstream::Malformed;
using common::upstream::Provider;
using common::upstream::text_or_null;
using platform::json;

namespace {

// Cached here by date (for ever), not by the upstream module.
const Provider kWikimediaFeed{"wikimedia-feed", "The Wikimedia feed API",
                              "https://api.wikimedia.org", common::upstream::kNoCache};

// The media type a Commons file name's extension says; null when it says none of these.
json type_of(const std::string& title) {
    const auto dot = title.rfind('.');
    const std::string ext = dot == std::string::npos ? "" : platform::lower(title.substr(dot + 1));
    if (ext == "jpg" || ext == "jpeg") return "image/jpeg";
    if (ext == "png") return "image/png";
    if (ext == "gif") return "image/gif";
    if (ext == "svg") return "image/svg+xml";
    if (ext == "tif" || ext == "tiff") return "image/tiff";
    if (ext == "webp") return "image/webp";
    return nullptr;
}

// `o[outer][inner]` as text (text_or_null), null when either is absent.
json nested_text(const json& o, const char* outer, const char* inner) {
    return o.contains(outer) ? text_or_null(o[outer], inner) : json(nullptr);
}

// The picture of `date` from the feed's `image` member (present: checked by the caller).
json picture_from(const json& feed_image, const std::string& date, int64_t now_ms) {
    const json& f = feed_image;
    if (!f.is_object()) throw Malformed("`image` is not an object");
    const std::string title = f.at("title").get<std::string>();
    const json& full = f.at("image");
    const json& thumb = f.contains("thumbnail") ? f["thumbnail"] : full;
    std::string name = title.rfind("File:", 0) == 0 ? title.substr(5) : title;
    if (const auto dot = name.rfind('.'); dot != std::string::npos) name.erase(dot);
    json picture = {{"id", Images::kDailyId + date},
                    {"date", date},
                    {"title", name},
                    {"description", nested_text(f, "description", "text")},
                    {"tags", json::array()},
                    {"prompt", ""},
                    {"type", type_of(title)},
                    {"width", full.at("width").get<int64_t>()},
                    {"height", full.at("height").get<int64_t>()},
                    {"public", true},
                    {"url", thumb.at("source").get<std::string>()},
                    {"original", full.at("source").get<std::string>()},
                    {"page", text_or_null(f, "file_page")},
                    {"artist", nested_text(f, "artist", "text")},
                    {"credit", nested_text(f, "credit", "text")},
                    {"license", nested_text(f, "license", "type")},
                    {"license_url", nested_text(f, "license", "url")},
                    {"source", "Wikimedia Commons picture of the day"},
                    {"created", platform::rfc3339(now_ms)}};
    if (picture["description"].is_null()) picture["description"] = "";
    return picture;
}

}  // namespace

std::optional<json> Images::picture_of(const std::string& date) const {
    if (auto kept = host_.store().get(kDailyPrefix + date)) return json::parse(*kept);
    common::upstream::Upstream feed(host_, kWikimediaFeed);
    common::upstream::Options o;
    o.pass = {404};
    const auto answer = feed.fetch("/feed/v1/wikipedia/en/featured/" + date.substr(0, 4) + "/" +
                                       date.substr(5, 2) + "/" + date.substr(8, 2),
                                   o);
    if (answer.status == 404) return std::nullopt;
    const json body = json::parse(answer.body, nullptr, false);
    if (body.is_discarded() || !body.is_object())
        throw feed.malformed("the body is not a JSON object");
    if (!body.contains("image") || body["image"].is_null()) return std::nullopt;
    json picture = feed.parse(
        body, [&](const json& j) { return picture_from(j.at("image"), date, host_.now_ms()); });
    host_.store().put(kDailyPrefix + date, picture.dump());
    return picture;
}

json Images::daily(platform::Request& r) {
    const std::string today = platform::rfc3339(host_.now_ms()).substr(0, 10);
    const std::string date = r.str("date", today);
    const int y = std::stoi(date.substr(0, 4)), m = std::stoi(date.substr(5, 2)),
              d = std::stoi(date.substr(8, 2));
    if (!common::time::valid_date(y, m, d))
        throw platform::invalid_argument("date: " + date + " is not a date");
    if (date > today)
        throw platform::invalid_argument("date: " + date +
                                         " is in the future; the picture of the day is known up "
                                         "to today (" +
                                         today + ")");
    auto picture = picture_of(date);
    return {{"date", date}, {"images", picture ? json::array({*picture}) : json::array()}};
}
