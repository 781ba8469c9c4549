#include "images.hpp"

#include <atomic>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <random>

#include "raster.hpp"

namespace schema = platform::schema;

using platform::json;

namespace {

using platform::rfc3339;

const schema::Object kUploadSchema =
    schema::object()
        .str("data")
        .max_len(1000000)
        .required()
        .doc("The image, base64 (PNG, JPEG or GIF; at most 512 KB decoded and 8 megapixels)")
        .str("description")
        .max_len(1000)
        .doc("What the image shows");

const schema::Object kIdSchema = schema::id_object("The image's id");

const schema::Object kUpdateSchema =
    schema::object()
        .prop("id", schema::id("Your image's id"))
        .required()
        .str("title")
        .max_len(200)
        .str("description")
        .max_len(1000)
        .array("tags", schema::string().min_len(1).max_len(50))
        .max_items(20)
        .boolean("public")
        .doc(
            "true publishes the image to everyone (list/search scope public, its URL); false makes "
            "it private again");

const schema::Object kDailySchema = schema::object()
                                        .str("date")
                                        .pattern("^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
                                        .doc("YYYY-MM-DD; omit for today");

const schema::Object kGenerateSchema =
    schema::object().str("prompt").max_len(4000).required().doc("What to draw");

// Time-ordered: the listing cursors rely on newer ids sorting after older ones.
std::string new_id(int64_t now_ms) {
    return platform::time_ordered_id("im", now_ms);
}

[[noreturn]] void missing(const std::string& id) {
    throw platform::not_found("id: no image '" + id + "'");
}

}  // namespace

void Images::describe(platform::ServiceSpec<Images>& s) {
    // What list and search page by.
    const schema::Object list_args =
        schema::object()
            .str("scope")
            .one_of({"mine", "public", "all", "daily"})
            .def("public")
            .doc("Whose images")
            .prop("limit", schema::limit(100, 20, "Page size"))
            .str("cursor")
            .max_len(200)
            .doc("From the previous page; keep query and scope unchanged");
    s.id("images")
        .version("1.0.0")
        .service("v1.images")
        .summary("Images their owner uploads; private until made public");
    s.post("upload")
        .title("Upload an image")
        .description(
            "Stores a private PNG, JPEG or GIF (base64; at most 512 KB decoded and 8 megapixels; "
            "the type is "
            "read from the bytes) and returns it with its URL.")
        .schema(kUploadSchema)
        .access(platform::Access::owner)
        .max_body(1100 * 1024)
        .handler(&Images::upload);
    s.get("get")
        .title("Get an image")
        .description("Metadata and URL of your image or of a public one.")
        .schema(kIdSchema)
        .access(platform::Access::owner)
        .read_only()
        .handler(&Images::get);
    s.get("list")
        .title("List images")
        .description("Newest first, one page; pass `cursor` from the answer for the next.")
        .schema(list_args)
        .access(platform::Access::owner)
        .read_only()
        .handler(&Images::list);
    s.post("search")
        .title("Search images")
        .description(
            "Images whose title, description or tags contain every word of the query, newest "
            "first.")
        .schema(schema::object()
                    .str("query")
                    .max_len(200)
                    .required()
                    .doc("Words to find")
                    .include(list_args))
        .access(platform::Access::owner)
        .read_only()
        .handler(&Images::search);
    s.post("update")
        .title("Update an image")
        .description(
            "Changes the title, description, tags or `public` flag of your image; omitted fields "
            "keep their value.")
        .schema(kUpdateSchema)
        .access(platform::Access::owner)
        .idempotent()
        .handler(&Images::update);
    s.post("delete")
        .title("Delete an image")
        .description("Deletes your image and its bytes.")
        .schema(kIdSchema)
        .access(platform::Access::owner)
        .destructive()
        .action()
        .idempotent()
        .handler(&Images::remove);
    s.get("daily")
        .title("Image of the day")
        .description(
            "The picture of the day from Wikimedia Commons for a date (today by default), with "
            "its title, description, artist and license; also listed under scope daily.")
        .schema(kDailySchema)
        .access(platform::Access::owner)
        .read_only()
        .handler(&Images::daily);
    s.post("generate")
        .title("Generate an image")
        .description(
            "Draws an image from a prompt with the configured image model, stores it as your "
            "private image and returns it with its URL.")
        .schema(kGenerateSchema)
        .access(platform::Access::owner)
        .handler(&Images::generate);
    s.get("raw")
        .title("An image's bytes")
        .description("GET /ui/images/<id>: the bytes with their content type.")
        .schema(kIdSchema)
        .access(platform::Access::public_)
        .read_only()
        .http_path("/ui/images/{id}")
        .mcp_hidden()
        .async(&Images::serve);
    describe_browser_upload(s);
}

json Images::upload(platform::Request& r) {
    return store_upload(r, kMaxBytes, "512 KB");
}

json Images::store_upload(platform::Request& r, size_t max_bytes, const char* max_text) {
    auto bytes = images::base64_decode(r.str("data"));
    if (!bytes) throw platform::invalid_argument("data: not valid base64");
    if (bytes->size() > max_bytes)
        throw platform::invalid_argument("data: " + std::to_string(bytes->size()) +
                                         " bytes decoded is more than " + max_text + " (" +
                                         std::to_string(max_bytes) + " bytes)");
    auto checked = images::inspect(*bytes);
    if (!checked.raster) throw platform::invalid_argument("data: " + checked.error);
    const auto& img = *checked.raster;
    if (uint64_t(img.width) * img.height > kMaxPixels)
        throw platform::invalid_argument("data: " + std::to_string(img.width) + "x" +
                                         std::to_string(img.height) + " is more than 8 megapixels");
    return store_image(r, *bytes, img.type, img.width, img.height, r.str("description"), "");
}

json Images::store_image(platform::Request& r, const std::string& bytes, const std::string& type,
                         uint32_t width, uint32_t height, const std::string& description,
                         const std::string& prompt) {
    const int64_t now = host_.now_ms();
    const std::string id = new_id(now);
    json image = {{"id", id},
                  {"owner", r.account()},
                  {"title", ""},
                  {"description", description},
                  {"tags", json::array()},
                  {"prompt", prompt},
                  {"type", type},
                  {"width", width},
                  {"height", height},
                  {"bytes", bytes.size()},
                  {"public", false},
                  {"url", "/ui/images/" + id},
                  {"created", rfc3339(now)},
                  {"updated", rfc3339(now)}};
    r.owned(kData).put(id, {{"data", images::base64_encode(bytes)}});
    r.owned(kImages).put(id, image);
    return image;
}

std::optional<json> Images::visible(const platform::Request& r, const std::string& id) const {
    if (!r.anonymous())
        if (auto own = r.owned(kImages).get(id)) return own;
    if (auto raw = host_.store().get("public/" + id)) return json::parse(*raw);
    if (id.rfind(kDailyId, 0) == 0)
        if (auto raw = host_.store().get(kDailyPrefix + id.substr(std::strlen(kDailyId))))
            return json::parse(*raw);
    return std::nullopt;
}

json Images::get(platform::Request& r) {
    const std::string id = r.str("id");
    auto image = visible(r, id);
    if (!image) missing(id);
    return *image;
}

json Images::update(platform::Request& r) {
    const auto& a = r.args();
    const std::string id = r.str("id");
    auto images = r.owned(kImages);
    auto written = images.update(id, [&](const std::optional<json>& cur) -> std::optional<json> {
        if (!cur) missing(id);
        json image = *cur;
        for (const char* k : {"title", "description", "tags", "public"})
            if (a.contains(k)) image[k] = a[k];
        image["updated"] = rfc3339(host_.now_ms());
        return image;
    });
    if (written->value("public", false))
        host_.store().put("public/" + id, written->dump());
    else
        host_.store().erase("public/" + id);
    return *written;
}

json Images::remove(platform::Request& r) {
    const std::string id = r.str("id");
    if (!r.owned(kImages).erase(id)) missing(id);
    r.owned(kData).erase(id);
    host_.store().erase("public/" + id);
    return {{"deleted", id}};
}

void Images::serve(platform::Request& r, platform::Responder out) {
    const std::string id = r.str("id");
    auto image = visible(r, id);
    if (!image || image->value("owner", "").empty())
        missing(id);  // a picture of the day is
                      // served by Wikimedia
    auto data = platform::Collection(host_.store(), kData, image->value("owner", "")).get(id);
    if (!data) missing(id);
    auto bytes = images::base64_decode(data->value("data", ""));
    if (!bytes) throw platform::internal("stored image " + id + " is not readable");
    out.raw(image->value("type", "application/octet-stream"), *bytes);
}

PLATFORM_SERVICE(Images)
