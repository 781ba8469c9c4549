#include "social.hpp"

#include <cstdint>

namespace schema = platform::schema;

using platform::json;

void Social::describe(platform::ServiceSpec<Social>& s) {
    s.id("social")
        .version("1.0.0")
        .service("v1.social")
        .summary("This instance's own social posts");
    s.get("list")
        .title("List social posts")
        .description(
            "This instance's social posts (announcements of its public blog posts), newest first; "
            "all of "
            "them unless `limit`.")
        .schema(schema::object().prop("limit",
                                      schema::limit(100, 0, "At most this many (default: all)")))
        .access(platform::Access::public_)
        .read_only()
        .handler(&Social::list);
    s.get("search")
        .title("Search social posts")
        .description(
            "This instance's own social posts containing every word of the query, newest first.")
        .schema(schema::object()
                    .str("query")
                    .max_len(500)
                    .required()
                    .doc("Words to find (case-insensitive)")
                    .prop("limit", schema::limit(100, 20, "At most this many")))
        .access(platform::Access::public_)
        .read_only()
        .handler(&Social::search);
}

json Social::list(platform::Request& r) {
    const size_t limit = r.args().contains("limit") ? r["limit"].get<size_t>() : SIZE_MAX;
    json out = json::array();
    for (const auto& post : social::public_posts(host_, r)) {
        if (out.size() == limit) break;
        out.push_back(social::announcement(post));
    }
    return {{"posts", out}};
}

json Social::search(platform::Request& r) {
    const std::string query = r.str("query");
    const size_t limit = r["limit"].get<size_t>();
    json out = json::array();
    for (const auto& post : social::public_posts(host_, r)) {
        if (out.size() == limit) break;
        if (social::matches(post, query, {"title", "content", "tags"}))
            out.push_back(social::announcement(post));
    }
    return {{"posts", out}, {"query", query}};
}

PLATFORM_SERVICE(Social)
