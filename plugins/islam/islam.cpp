#include "islam.hpp"

#include <algorithm>
#include <cctype>

#include "common/reminder/reminder.hpp"

namespace schema = platform::schema;
namespace reminder = common::reminder;
using common::upstream::Options;
using common::upstream::Upstream;
using platform::json;

namespace {

const std::vector<schema::ojson> kCollections = {"quran",   "hadith",  "names",  "seerah",
                                                 "ghazali", "islamqa", "adhkar", "salihin"};

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

}  // namespace

void Islam::describe(platform::ServiceSpec<Islam>& s) {
    s.id("islam")
        .version("1.0.0")
        .service("v1.islam")
        .summary(
            "Reference texts of Islam (the Quran, hadith, the names of Allah) from the Reminder "
            "knowledge base (reminder.dev): search by meaning and read the passage");
    s.get("search")
        .title("Search the reference texts")
        .description(
            "Passages closest in meaning to the query, best first, from Reminder's semantic "
            "index: reference excerpts with their source, reference and a `path` for islam/read, "
            "never a generated answer. `collection` keeps one collection's passages; Reminder "
            "holds the Quran (with tafsir), Sahih al-Bukhari and the names of Allah, so the "
            "others (seerah, ghazali, islamqa, adhkar, salihin) answer only what it holds of "
            "them, often nothing.")
        .schema(schema::object()
                    .str("query")
                    .min_len(1)
                    .max_len(500)
                    .required()
                    .doc("What to look for, in English")
                    .str("collection")
                    .one_of(kCollections)
                    .doc("Only passages of this collection")
                    .prop("limit", schema::limit(50, 20, "At most this many passages (1 to 50)")))
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&Islam::search);
    s.get("read")
        .title("Read a passage")
        .description(
            "The full passage behind a search result's `path` (/api/quran/2/255, "
            "/api/hadith/3#118, /api/names/5) or a page of https://reminder.dev "
            "(https://reminder.dev/quran/2#255): its text with source and reference; a chapter or "
            "a book whole when the path names no verse or hadith. 404 when there is no such "
            "passage.")
        .schema(schema::object().str("path").min_len(1).max_len(300).required().doc(
            "Resource path from a search result, or an absolute URL of the knowledge base"))
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&Islam::read);
}

json Islam::search(platform::Request& r) {
    const Upstream up(host_, reminder::kReminder);
    const std::string query = r.str("query"), collection = r.str("collection");
    const int64_t limit = r.integer("limit", 20);
    Options o;
    o.method = "POST";
    o.content_type = "application/json";
    o.body = json{{"q", query}}.dump();
    const json body = up.get_json("/api/search", o);
    const json all = up.parse(body, [](const json& j) { return reminder::references_from(j); });
    json results = json::array();
    for (const json& e : all) {
        if (static_cast<int64_t>(results.size()) >= limit) break;
        if (collection.empty() || e["collection"] == collection) results.push_back(e);
    }
    json out = {{"query", query}, {"results", results}};
    if (!collection.empty()) out["collection"] = collection;
    return out;
}

json Islam::read(platform::Request& r) {
    const std::string path = r.str("path");
    const auto res = reminder::resource_of(path);
    if (!res)
        throw platform::invalid_argument(
            "path: '" + path +
            "' is not a passage of the knowledge base: give the `path` of a search result "
            "(/api/quran/2/255, /api/hadith/3#118, /api/names/5) or a URL on " +
            reminder::kSite);
    const Upstream up(host_, reminder::kReminder);
    using K = reminder::Resource;
    switch (res->kind) {
        case K::verse:
        case K::chapter: {
            // A verse through its chapter: the upstream answers a verse past the end with an
            // empty body, a chapter lists them all.
            const json body = up.get_json("/api/quran/" + std::to_string(res->a));
            auto found =
                up.parse(body, [&](const json& j) { return reminder::chapter_from(j, res->b); });
            if (!found)
                throw platform::not_found("path: chapter " + std::to_string(res->a) +
                                          " has no verse " + std::to_string(res->b));
            return *found;
        }
        case K::book: {
            const json books = up.parse(up.get_json("/api/hadith/books"),
                                        [](const json& j) { return reminder::books_from(j); });
            if (std::none_of(books.begin(), books.end(),
                             [&](const json& b) { return b["number"] == res->a; }))
                throw platform::not_found("path: Sahih al-Bukhari has no book " +
                                          std::to_string(res->a));
            const json book = up.parse(up.get_json(res->api), [&](const json& j) {
                return reminder::book_from(j, res->a);
            });
            if (res->b == 0) return book;
            for (const json& h : book["hadiths"])
                if (h["number"] == res->b) return reminder::hadith_excerpt(book, h);
            throw platform::not_found("path: book " + std::to_string(res->a) + " has no hadith " +
                                      std::to_string(res->b));
        }
        case K::name: {
            Options o;
            o.pass = {404};
            const auto a = up.fetch(res->api, o);
            if (a.status == 404)
                throw platform::not_found("path: there is no name " + std::to_string(res->a));
            const json body = json::parse(a.body, nullptr, false);
            if (body.is_discarded()) throw up.malformed("the body is not JSON");
            return up.parse(body, [&](const json& j) { return reminder::name_from(j, res->a); });
        }
        case K::names_list: {
            const json names = up.parse(up.get_json(res->api),
                                        [](const json& j) { return reminder::names_from(j); });
            if (res->key.empty()) return {{"collection", "names"}, {"names", names}};
            for (const json& n : names)
                if (lower(n["name"].get<std::string>()) == lower(res->key)) return n;
            throw platform::not_found("path: no name '" + res->key + "'");
        }
    }
    throw platform::internal("unreachable");
}

PLATFORM_SERVICE(Islam)
