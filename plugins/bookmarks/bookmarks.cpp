#include "bookmarks.hpp"

#include <algorithm>
#include <atomic>
#include <ctime>

namespace schema = platform::schema;

using platform::json;

namespace {

using platform::rfc3339;

const schema::Object kIdSchema = schema::id_object("The bookmark's id").min_len(1);
constexpr size_t kMaxText = 30000;  // bytes of archived text kept

// At most n bytes of s, not cutting a UTF-8 sequence.
std::string cut(const std::string& s, size_t n) {
    if (s.size() <= n) return s;
    while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
    return s.substr(0, n);
}

void check_url(const std::string& url) {
    const bool scheme = url.rfind("http://", 0) == 0 || url.rfind("https://", 0) == 0;
    if (!scheme || url.find_first_of(" \t\r\n") != std::string::npos ||
        url.size() <= url.find("://") + 3)
        throw platform::invalid_argument("url: must be an http or https URL without spaces");
}

// The title given, else the one the bookmark had, else the item's, else its URL.
std::string title_for(const std::string& given, const std::optional<json>& old,
                      const Bookmarks::ArchiveItem& item) {
    if (!given.empty()) return given;
    if (old && !old->value("title", "").empty()) return old->value("title", "");
    return item.title.empty() ? item.url : item.title;
}

}  // namespace

void Bookmarks::describe(platform::ServiceSpec<Bookmarks>& s) {
    s.id("bookmarks")
        .version("1.0.0")
        .service("v1.bookmarks")
        .summary("Saved items with private notes");
    s.post("add")
        .title("Save a bookmark")
        .description(
            "Saves an archive item by its id (`ref`), or a `url` when the item has no archive id. "
            "Saving "
            "the same item again updates its bookmark and keeps its note and title unless new ones "
            "are given.")
        .schema(schema::object()
                    .str("ref")
                    .min_len(1)
                    .max_len(200)
                    .doc("A public archive item id")
                    .str("url")
                    .min_len(1)
                    .max_len(2048)
                    .doc("The address, when there is no archive id")
                    .str("title")
                    .max_len(300)
                    .doc("A title (default: the item's, or the URL)")
                    .str("note")
                    .max_len(10000)
                    .doc("A private note"))
        .access(platform::Access::owner)
        .idempotent()
        .handler(&Bookmarks::add);
    s.post("annotate")
        .title("Annotate a bookmark")
        .description("Sets the bookmark's private note; an empty or omitted note clears it.")
        .schema(schema::object()
                    .prop("id", schema::id("The bookmark's id"))
                    .min_len(1)
                    .required()
                    .str("note")
                    .max_len(10000)
                    .doc("The note (empty clears it)"))
        .access(platform::Access::owner)
        .idempotent()
        .handler(&Bookmarks::annotate);
    s.post("delete")
        .title("Delete a bookmark")
        .description("Deletes the bookmark with this id; 404 when you have none.")
        .schema(kIdSchema)
        .access(platform::Access::owner)
        .destructive()
        .action()
        .handler(&Bookmarks::remove);
    s.get("get")
        .title("Read a bookmark")
        .description(
            "The item, its private note and, for an archive item, the archived text (`archived`; "
            "videos "
            "have descriptions, not transcripts; null for plain links).")
        .schema(kIdSchema)
        .access(platform::Access::owner)
        .read_only()
        .handler(&Bookmarks::get);
    s.post("list")
        .title("List bookmarks")
        .description(
            "Your bookmarks, newest saved first. `query` keeps those whose title, URL, note or "
            "archived "
            "text contains each of its words (ignoring case); `kind` keeps one kind (empty for "
            "all). "
            "`total` counts the matches before paging.")
        .schema(schema::object()
                    .str("query")
                    .max_len(200)
                    .doc("Words to look for, notes included")
                    .str("kind")
                    .one_of({"", "article", "video", "post", "link"})
                    .doc("article, video, post or link; empty for all")
                    .prop("offset", schema::offset("Bookmarks skipped first"))
                    .prop("limit", schema::limit(100, 20, "At most this many (1-100, default 20)")))
        .access(platform::Access::owner)
        .read_only()
        .handler(&Bookmarks::list);
}

json Bookmarks::summary(json bookmark) {
    bookmark.erase("text");
    bookmark.erase("seq");
    return bookmark;
}

json Bookmarks::add(platform::Request& r) {
    const std::string ref = r.str("ref"), url = r.str("url");
    if (ref.empty() && url.empty())
        throw platform::invalid_argument("ref or url: give one of them");
    ArchiveItem item;
    if (!ref.empty()) {
        item = resolve(r, ref);
        if (item.url.empty()) item.url = url;
    } else {
        check_url(url);
        item.url = url;
        item.kind = kind_of_url(url);
    }
    const std::string id = platform::hash_id(ref.empty() ? "url:" + url : "ref:" + ref),
                      note = r.str("note");
    const int64_t now = host_.now_ms();
    auto saved =
        r.owned(kCollection).update(id, [&](const std::optional<json>& old) -> std::optional<json> {
            return json{{"id", id},
                        {"ref", ref},
                        {"url", item.url},
                        {"title", title_for(r.str("title"), old, item)},
                        {"note", !note.empty() || !old ? note : old->value("note", "")},
                        {"kind", item.kind},
                        {"created", old ? old->value("created", rfc3339(now)) : rfc3339(now)},
                        {"saved", rfc3339(now)},
                        {"text", cut(item.text, kMaxText)},
                        {"seq", platform::next_sequence(now)}};
        });
    return summary(*saved);
}

json Bookmarks::annotate(platform::Request& r) {
    const std::string id = r.str("id"), note = r.str("note");
    auto written =
        r.owned(kCollection).update(id, [&](const std::optional<json>& old) -> std::optional<json> {
            if (!old) throw platform::not_found("id: no bookmark " + id);
            json b = *old;
            b["note"] = note;
            return b;
        });
    return summary(*written);
}

json Bookmarks::get(platform::Request& r) {
    const std::string id = r.str("id");
    auto b = r.owned(kCollection).get(id);
    if (!b) throw platform::not_found("id: no bookmark " + id);
    const std::string text = b->value("text", "");
    json out = summary(*b);
    out["archived"] = b->value("ref", "").empty() ? json(nullptr) : json(text);
    return out;
}

json Bookmarks::remove(platform::Request& r) {
    const std::string id = r.str("id");
    if (!r.owned(kCollection).erase(id)) throw platform::not_found("id: no bookmark " + id);
    return {{"deleted", id}};
}

PLATFORM_SERVICE(Bookmarks)
