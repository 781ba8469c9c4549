#include "blog.hpp"

#include <algorithm>
#include <atomic>

namespace schema = platform::schema;

using platform::json;

namespace {

std::string make_id(const std::string& seed, int attempt) {
    return platform::hash_id(seed, attempt, "bp-");
}

const schema::Object kLookupSchema = schema::object()
                                         .prop("id", schema::id("The post's id"))
                                         .str("title")
                                         .max_len(200)
                                         .doc("The post's exact title (when no id)");

}  // namespace

void Blog::describe(platform::ServiceSpec<Blog>& s) {
    s.id("blog").version("1.0.0").service("v1.blog").summary("Blog posts, public unless private");
    s.post("create")
        .title("Write a blog post")
        .description(
            "Publishes a post (public unless `private`); the title is generated from the body when "
            "omitted.")
        .schema(schema::object()
                    .str("content")
                    .min_len(50)
                    .max_len(100000)
                    .required()
                    .doc("The post (markdown), at least 50 characters")
                    .str("title")
                    .max_len(200)
                    .doc("The title; generated from the body when omitted")
                    .str("tags")
                    .max_len(1000)
                    .doc("Comma-separated tags")
                    .boolean("private")
                    .def(false)
                    .doc("Only you can read a private post"))
        .access(platform::Access::owner)
        .handler(&Blog::create);
    s.post("update")
        .title("Edit your blog post")
        .description(
            "Changes your post; omitted fields keep their value. Another account's post: 403 when "
            "public, else 404.")
        .schema(schema::object()
                    .prop("id", schema::id("The post's id"))
                    .required()
                    .str("title")
                    .max_len(200)
                    .doc("The new title (empty: generated from the body)")
                    .str("content")
                    .min_len(50)
                    .max_len(100000)
                    .doc("The new body, at least 50 characters")
                    .str("tags")
                    .max_len(1000)
                    .doc("Comma-separated tags (empty clears them)")
                    .boolean("private")
                    .doc("Make the post private or public"))
        .access(platform::Access::owner)
        .idempotent()
        .handler(&Blog::update);
    s.post("delete")
        .title("Delete your blog post")
        .description(
            "Deletes your post by id or exact title, irreversibly. An ambiguous title is refused "
            "(400); "
            "another account's post is 403 when public, else 404.")
        .schema(kLookupSchema)
        .access(platform::Access::owner)
        .destructive()
        .action()
        .handler(&Blog::remove);
    s.get("read")
        .title("Read a blog post")
        .description(
            "One post in full, by id or exact title: public posts, and your own private ones.")
        .schema(kLookupSchema)
        .access(platform::Access::public_)
        .read_only()
        .handler(&Blog::read);
    s.get("list")
        .title("List blog posts")
        .description(
            "Recent posts, newest first, as titles, snippets and ids: every public post and your "
            "private "
            "ones; all of them unless `limit`.")
        .schema(schema::object().prop("limit",
                                      schema::limit(100, 0, "At most this many (default: all)")))
        .access(platform::Access::public_)
        .read_only()
        .handler(&Blog::list);
    s.get("feed")
        .title("The public feed")
        .description("Every public post in full, newest first, a page at a time.")
        .schema(schema::object()
                    .prop("offset", schema::offset("Posts to skip"))
                    .prop("limit", schema::limit(100, 100, "Page size")))
        .access(platform::Access::public_)
        .read_only()
        .handler(&Blog::feed);
}

std::string Blog::index_key(const std::string& id, const std::string& author) {
    return id + "/" + platform::Collection::escape(author);
}

void Blog::save(platform::Request& r, const json& post) const {
    const std::string id = post["id"];
    r.owned(kPosts).put(id, post);
    if (post.value("private", false))
        index().erase(index_key(id, r.account()));
    else
        index().put(index_key(id, r.account()), blog::card(post));
}

json Blog::create(platform::Request& r) {
    const std::string content = r.str("content"), title = r.str("title");
    const int64_t now = host_.now_ms();
    json post = {{"title", title.empty() ? blog::title_from(content) : title},
                 {"content", content},
                 {"tags", blog::tags(r.str("tags"))},
                 {"private", r.args().value("private", false)},
                 {"author", r.account()},
                 {"created", blog::rfc3339(now)},
                 {"updated", blog::rfc3339(now)},
                 {"seq", platform::next_sequence(now)}};
    const std::string seed = std::to_string(now) + "\n" + post.value("title", "") + "\n" + content +
                             "\n" + post.value("tags", "") +
                             (post.value("private", false) ? "\nprivate" : "");
    for (int attempt = 0;; ++attempt) {  // the first of the seed's ids this author does not have
        const std::string id = make_id(seed, attempt);
        post["id"] = id;
        post["url"] = "/api/v1/blog/read?id=" + id;
        if (r.owned(kPosts).insert_if_absent(id, post)) break;
    }
    save(r, post);
    return blog::visible(post);
}

json Blog::update(platform::Request& r) {
    const std::string id = r.str("id");
    auto post = r.owned(kPosts).get(id);
    if (!post) {
        if (!public_cards(id).empty())
            throw platform::permission_denied("id: post " + id + " was written by another account");
        throw platform::not_found("id: no post '" + id + "'");
    }
    const auto& a = r.args();
    if (a.contains("content")) (*post)["content"] = a["content"];
    if (a.contains("title")) {
        const std::string title = a["title"];
        (*post)["title"] = title.empty() ? blog::title_from((*post)["content"]) : title;
    }
    if (a.contains("tags")) (*post)["tags"] = blog::tags(a["tags"]);
    if (a.contains("private")) (*post)["private"] = a["private"];
    (*post)["updated"] = blog::rfc3339(host_.now_ms());
    save(r, *post);
    return blog::visible(*post);
}

json Blog::remove(platform::Request& r) {
    const json post = find(r, true);
    const std::string id = post["id"];
    index().erase(index_key(id, r.account()));
    r.owned(kPosts).erase(id);
    return {{"deleted", id}, {"title", post["title"]}};
}

PLATFORM_SERVICE(Blog)
