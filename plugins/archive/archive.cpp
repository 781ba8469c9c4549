#include "archive.hpp"

#include <algorithm>
#include <cctype>

namespace schema = platform::schema;

using platform::json;

namespace {

using platform::lower;

// The arguments list and search share.
const schema::Object kKindAndLimit =
    schema::object()
        .str("kind")
        .one_of({"news", "post", "video", "market", "social", "reminder"})
        .doc("Only items of this kind")
        .prop("limit", schema::limit(100, 20, "At most this many"));

}  // namespace

namespace archive {

json summary(const json& item) {
    json out = item;
    const std::string text = item.value("text", "");
    size_t cut =
        std::min<size_t>(text.size(), 200);  // bytes, backed off to a whole UTF-8 character
    while (cut < text.size() && cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
        --cut;
    out.erase("text");
    out["snippet"] = text.substr(0, cut) + (cut < text.size() ? "…" : "");
    return out;
}

bool matches(const json& item, const std::string& query) {
    const std::string hay = lower(item.value("title", "") + "\n" + item.value("text", ""));
    const std::string q = lower(query);
    size_t i = 0, words = 0;
    while (i < q.size()) {
        while (i < q.size() && std::isspace(static_cast<unsigned char>(q[i]))) ++i;
        size_t j = i;
        while (j < q.size() && !std::isspace(static_cast<unsigned char>(q[j]))) ++j;
        if (j > i && (++words, hay.find(q.substr(i, j - i)) == std::string::npos)) return false;
        i = j;
    }
    return words > 0;
}

}  // namespace archive

void Archive::describe(platform::ServiceSpec<Archive>& s) {
    s.id("archive")
        .version("1.0.0")
        .service("v1.archive")
        .summary("Everything this instance has collected");
    s.get("list")
        .title("List the archive")
        .description(
            "With `kind`: the most recent items of that kind. Without: which kinds exist and how "
            "many items "
            "each has.")
        .schema(schema::object().include(kKindAndLimit))
        .access(platform::Access::public_)
        .read_only()
        .handler(&Archive::list);
    s.get("search")
        .title("Search the archive")
        .description(
            "Items whose title or text contains every word of the query, most recent first.")
        .schema(schema::object()
                    .str("query")
                    .max_len(500)
                    .required()
                    .doc("Words to find (case-insensitive)")
                    .include(kKindAndLimit))
        .access(platform::Access::public_)
        .read_only()
        .handler(&Archive::search);
    s.get("get")
        .title("Get an archive item")
        .description(
            "One item in full by its id (<kind>:<id>, as list and search give it; bookmarks' "
            "`ref`).")
        .schema(schema::id_object("The item's id, e.g. post:bp-...", 200))
        .access(platform::Access::public_)
        .read_only()
        .handler(&Archive::get);
}

json Archive::list(platform::Request& r) {
    if (!r.args().contains("kind")) {
        json counts = json::array();
        for (const auto& kind : kinds())
            if (size_t n = collect(r, kind).size())
                counts.push_back({{"kind", kind}, {"count", n}});
        return {{"kinds", counts}};
    }
    const std::string kind = r.str("kind");
    const size_t limit = r["limit"].get<size_t>();
    json items = json::array();
    for (const auto& item : collect(r, kind)) {
        if (items.size() == limit) break;
        items.push_back(archive::summary(item));
    }
    return {{"kind", kind}, {"items", items}};
}

json Archive::search(platform::Request& r) {
    const std::string query = r.str("query");
    const size_t limit = r["limit"].get<size_t>();
    std::vector<json> found;
    for (const auto& kind : kinds()) {
        if (r.args().contains("kind") && r.str("kind") != kind) continue;
        for (auto& item : collect(r, kind))
            if (archive::matches(item, query)) found.push_back(std::move(item));
    }
    archive::newest_first(found);
    json items = json::array();
    for (size_t i = 0; i < found.size() && i < limit; ++i)
        items.push_back(archive::summary(found[i]));
    return {{"query", query}, {"items", items}};
}

json Archive::get(platform::Request& r) {
    const std::string id = r.str("id");
    auto item = find(r, id);
    if (!item) throw platform::not_found("id: no archive item '" + id + "'");
    return *item;
}

PLATFORM_SERVICE(Archive)
