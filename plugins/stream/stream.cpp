#include "stream.hpp"

#include <algorithm>

#include "common/paging/paged_call.hpp"

namespace schema = platform::schema;

using platform::json;

namespace {

// The blog's public posts, read page by page as the caller; none without a blog service.
const common::paging::PagedMethod kBlogFeed{"v1.blog", "feed", "posts", "blog/feed"};

}  // namespace

void Stream::describe(platform::ServiceSpec<Stream>& s) {
    s.id("stream")
        .version("1.0.0")
        .service("v1.stream")
        .summary("What has happened recently on this instance");
    s.get("list")
        .title("Recent activity")
        .description(
            "Public events of this instance (blog posts published or updated), newest first.")
        .schema(schema::object().prop("limit", schema::limit(100, 20, "At most this many")))
        .access(platform::Access::public_)
        .read_only()
        .handler(&Stream::list);
}

std::vector<json> Stream::activities(const json& post) {
    const std::string id = post.value("id", ""), created = post.value("created", ""),
                      updated = post.value("updated", created);
    json base = {{"title", post.value("title", "")},
                 {"url", post.value("url", "")},
                 {"actor", post.value("author", "")}};
    std::vector<json> out;
    if (!updated.empty() && updated != created) {
        json a = base;
        a.update({{"id", id + "/updated"}, {"type", "blog.updated"}, {"at", updated}});
        out.push_back(a);
    }
    base.update({{"id", id + "/published"}, {"type", "blog.published"}, {"at", created}});
    out.push_back(base);
    return out;
}

json Stream::list(platform::Request& r) {
    std::vector<json> all;
    for (const auto& post : common::paging::all_pages(host_, r.call(), kBlogFeed))
        for (auto& a : activities(post)) all.push_back(std::move(a));
    std::stable_sort(all.begin(), all.end(), [](const json& a, const json& b) {
        return a.value("at", "") != b.value("at", "") ? a.value("at", "") > b.value("at", "")
                                                      : a.value("id", "") > b.value("id", "");
    });
    const size_t limit = r["limit"].get<size_t>();
    if (all.size() > limit) all.resize(limit);
    return {{"activities", all}};
}

PLATFORM_SERVICE(Stream)
