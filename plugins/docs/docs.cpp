#include "docs.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <ctime>

namespace schema = platform::schema;

using platform::json;

namespace {

using platform::lower;

using platform::rfc3339;

const schema::Object kIdSchema = schema::id_object("The document's id").min_len(1);
constexpr size_t kSnippet = 160;  // characters of content shown by list

// True when every whitespace-separated word of `query` (lower case) occurs in `text`.
bool matches(const std::string& query, const std::string& text) {
    const std::string hay = lower(text);
    for (size_t i = 0, j; i < query.size(); i = j) {
        i = query.find_first_not_of(" \t\n", i);
        if (i == std::string::npos) break;
        j = std::min(query.find_first_of(" \t\n", i), query.size());
        if (hay.find(query.substr(i, j - i)) == std::string::npos) return false;
    }
    return true;
}

[[noreturn]] void missing_id(const std::string& id) {
    throw platform::not_found("id: no document " + id);
}

}  // namespace

void Docs::describe(platform::ServiceSpec<Docs>& s) {
    s.id("docs").version("1.0.0").service("v1.docs").summary(
        "Markdown documents, private to their owner unless public");
    s.post("write")
        .title("Write a document")
        .description(
            "Creates a markdown document, or replaces the one named by `id` (404 when you have "
            "none). "
            "Private unless `public` is true; a replace without `public` keeps the document's "
            "setting.")
        .schema(schema::object()
                    .str("title")
                    .min_len(1)
                    .max_len(200)
                    .required()
                    .doc("The document's title")
                    .str("content")
                    .max_len(200000)
                    .required()
                    .doc("The document's text (markdown)")
                    .prop("id", schema::id("Replaces this document instead of creating one"))
                    .min_len(1)
                    .boolean("public")
                    .doc("Readable by other accounts by id (default false: private)"))
        .access(platform::Access::owner)
        .handler(&Docs::write);
    s.get("read")
        .title("Read a document")
        .description(
            "One document in full, by `id` or by exact `title` (the most recently changed one with "
            "that title). Give one of them; 404 when there is none.")
        .schema(schema::object()
                    .prop("id", schema::id("The document's id"))
                    .min_len(1)
                    .str("title")
                    .min_len(1)
                    .max_len(200)
                    .doc("The exact title"))
        .access(platform::Access::owner)
        .read_only()
        .handler(&Docs::read);
    s.post("list")
        .title("List documents")
        .description(
            "Your documents, most recently changed first, without their content (a snippet "
            "instead); "
            "`query` keeps those whose title or content contains each of its words "
            "(case-insensitive).")
        .schema(schema::object()
                    .str("query")
                    .max_len(200)
                    .doc("Words to look for in titles and content")
                    .prop("limit", schema::limit(100, 50, "At most this many (1-100, default 50)")))
        .access(platform::Access::owner)
        .read_only()
        .handler(&Docs::list);
    s.post("delete")
        .title("Delete a document")
        .description("Deletes the document with this id; 404 when you have none.")
        .schema(kIdSchema)
        .access(platform::Access::owner)
        .destructive()
        .action()
        .handler(&Docs::remove);
    s.get("resources")
        .title("List documents as MCP resources")
        .description(
            "MCP resources/list: your 100 most recently changed documents as docs://<id> "
            "resources.")
        .schema(schema::object().open().prop("cursor", schema::cursor()))
        .access(platform::Access::owner)
        .read_only()
        .mcp_resources()
        .handler(&Docs::resources);
    s.get("read_resource")
        .title("Read a document as an MCP resource")
        .description("MCP resources/read of docs://<id>; 404 when there is none.")
        .schema(schema::object().open().str("uri").required().doc("docs://<id>"))
        .access(platform::Access::owner)
        .read_only()
        .mcp_resource_read("docs://")
        .handler(&Docs::read_resource);
}

json Docs::visible(json doc) {
    doc.erase("seq");
    return doc;
}

std::vector<json> Docs::by_recency(const platform::Collection& docs) {
    std::vector<json> out;
    for (auto& [id, doc] : docs.list()) out.push_back(std::move(doc));
    std::sort(out.begin(), out.end(), [](const json& a, const json& b) {
        return a.value("seq", int64_t{0}) > b.value("seq", int64_t{0});
    });
    return out;
}

std::optional<json> Docs::find_public(const std::string& id) const {
    platform::ScanOptions o;
    o.prefix = kPublicPrefix + id + "/";
    for (const auto& entry : host_.store().scan(o)) {
        const std::string owner = json::parse(entry.value).value("owner", "");
        auto doc = platform::Collection(host_.store(), kCollection, owner).get(id);
        if (doc && doc->value("public", false)) return doc;
    }
    return std::nullopt;
}

json Docs::write(platform::Request& r) {
    auto docs = r.owned(kCollection);
    const int64_t now = host_.now_ms();
    const bool replacing = r.args().contains("id");
    std::string id = r.str("id");
    std::optional<json> old;
    if (replacing && !(old = docs.get(id))) missing_id(id);
    const bool is_public = r.args().value("public", old ? old->value("public", false) : false);
    json doc = {{"id", id},
                {"title", r.str("title")},
                {"content", r.str("content")},
                {"public", is_public},
                {"created", old ? old->value("created", rfc3339(now)) : rfc3339(now)},
                {"updated", rfc3339(now)},
                {"seq", platform::next_sequence(now)}};
    if (replacing) {
        docs.put(id, doc);
    } else {  // a fresh id: the first of the seed's ids this owner does not have
        const std::string seed =
            std::to_string(now) + "\n" + r.str("title") + "\n" + r.str("content");
        for (int attempt = 0;; ++attempt) {
            doc["id"] = id = platform::hash_id(seed, attempt);
            if (docs.insert_if_absent(id, doc)) break;
        }
    }
    const std::string index = kPublicPrefix + id + "/" + platform::Collection::escape(r.account());
    if (is_public)
        host_.store().put(index, json{{"owner", r.account()}}.dump());
    else if (old && old->value("public", false))
        host_.store().erase(index);
    host_.resource_updated(uri(id), r.account());
    return visible(doc);
}

json Docs::read(platform::Request& r) {
    auto docs = r.owned(kCollection);
    if (r.args().contains("id")) {
        const std::string id = r.str("id");
        if (auto doc = docs.get(id)) return visible(*doc);
        if (auto doc = find_public(id)) return visible(*doc);
        missing_id(id);
    }
    if (!r.args().contains("title"))
        throw platform::invalid_argument("id or title: give one of them");
    const std::string title = r.str("title");
    for (auto& doc : by_recency(docs))
        if (doc.value("title", "") == title) return visible(doc);
    throw platform::not_found("title: no document titled '" + title + "'");
}

json Docs::list(platform::Request& r) {
    const std::string query = lower(r.str("query"));
    const size_t limit = r.args().value("limit", 50);
    json out = json::array();
    for (auto& doc : by_recency(r.owned(kCollection))) {
        if (out.size() == limit) break;
        const std::string content = doc.value("content", "");
        if (!matches(query, doc.value("title", "") + "\n" + content)) continue;
        doc.erase("content");
        doc["snippet"] = platform::utf8_prefix(content, kSnippet);
        out.push_back(visible(std::move(doc)));
    }
    return {{"documents", out}};
}

json Docs::remove(platform::Request& r) {
    const std::string id = r.str("id");
    if (!r.owned(kCollection).erase(id)) missing_id(id);
    host_.store().erase(kPublicPrefix + id + "/" + platform::Collection::escape(r.account()));
    host_.resource_updated(uri(id), r.account());
    return {{"deleted", id}};
}

PLATFORM_SERVICE(Docs)
