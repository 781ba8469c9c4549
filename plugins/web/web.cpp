#include "web.hpp"

#include "brave.hpp"
#include "readable.hpp"

namespace schema = platform::schema;

using platform::json;

namespace {

schema::Object query_schema(int64_t max, int64_t def, const std::string& what) {
    return schema::object()
        .str("query")
        .min_len(1)
        .max_len(400)
        .required()
        .doc("What to search for, at most 400 characters")
        .prop("limit", schema::limit(max, def,
                                     what + ": 1 to " + std::to_string(max) + ", default " +
                                         std::to_string(def)));
}

// The query, trimmed; 400 when nothing is left.
std::string query_of(platform::Request& r) {
    std::string q = r.str("query");
    const auto a = q.find_first_not_of(" \t\r\n");
    const auto b = q.find_last_not_of(" \t\r\n");
    if (a == std::string::npos) throw platform::invalid_argument("query: must not be blank");
    return q.substr(a, b - a + 1);
}

}  // namespace

void Web::describe(platform::ServiceSpec<Web>& s) {
    s.id("web").version("1.0.0").service("v1.web").summary(
        "Read a web page's main text, search the web and its images");
    s.get("fetch")
        .title("Read a web page")
        .description(
            "Fetches an http(s) URL and answers its readable content: {url, final_url, status, "
            "content_type, title, description, lang, text, characters, truncated, links: [{url, "
            "text}], links_truncated}. `text` is the page's main text without navigation, "
            "headers, footers, sidebars, scripts and forms, paragraphs separated by a blank line, "
            "at most " +
            std::to_string(web::kMaxTextChars) +
            " characters; `links` are the main text's links, absolute, at most " +
            std::to_string(web::kMaxLinks) +
            ". Plain text pages pass as text; other types are refused (400). Pages larger than "
            "2 MiB are refused (502). Addresses on this network (loopback, private, link-local, "
            "cloud metadata) and schemes other than http and https are refused (403) with the "
            "reason. Needs an account.")
        .schema(schema::object().str("url").min_len(1).max_len(2048).uri().required().doc(
            "The page's absolute http or https URL, at most 2048 characters"))
        .access(platform::Access::account)
        .read_only()
        .open_world()
        .handler(&Web::fetch);
    s.get("search")
        .title("Search the web")
        .description(
            "Web results for a query from Brave Search: {query, results: [{title, url, "
            "description, site, age}], more, source}, best first. Costs " +
            std::to_string(web::kSearchPrice) +
            " credit a call (an account's allowance first; without an account, an x402 "
            "payment); a failed call costs nothing. 503 when the server has no search key.")
        .schema(query_schema(web::kSearchMax, web::kSearchDefault, "Results"))
        .access(platform::Access::public_)
        .metered(web::kSearchPrice)
        .read_only()
        .open_world()
        .handler(&Web::search);
    s.get("images")
        .title("Search for images")
        .description(
            "Image results for a query from Brave Search (safe search strict): {query, results: "
            "[{title, image, thumbnail, page, site, width, height}], source}. Costs " +
            std::to_string(web::kSearchPrice) +
            " credit a call, like search; 503 when the server has no search key.")
        .schema(query_schema(web::kImagesMax, web::kImagesDefault, "Images"))
        .access(platform::Access::public_)
        .metered(web::kSearchPrice)
        .read_only()
        .open_world()
        .handler(&Web::images);
}

json Web::search(platform::Request& r) {
    const std::string q = query_of(r);
    const int64_t limit = r.integer("limit", web::kSearchDefault, 1, web::kSearchMax);
    common::upstream::Upstream brave(host_, web::kBrave);
    common::upstream::Options o;
    o.headers["Accept"] = "application/json";
    const json body = brave.get_json(web::search_path(q, limit), o);
    return brave.parse(body, [&](const json& b) { return web::search_from(b, q, limit); });
}

json Web::images(platform::Request& r) {
    const std::string q = query_of(r);
    const int64_t limit = r.integer("limit", web::kImagesDefault, 1, web::kImagesMax);
    common::upstream::Upstream brave(host_, web::kBrave);
    common::upstream::Options o;
    o.headers["Accept"] = "application/json";
    const json body = brave.get_json(web::images_path(q, limit), o);
    return brave.parse(body, [&](const json& b) { return web::images_from(b, q, limit); });
}

PLATFORM_SERVICE(Web)
