// The prayer service's methods read from the Reminder knowledge base (common/reminder): verse,
// saying, reflection, search. Each answers excerpts with their source and reference.
#include <cmath>
#include <cstdio>

#include "common/reminder/reminder.hpp"
#include "common/time/civil.hpp"
#include "prayer.hpp"

using platform::json;
namespace reminder = common::reminder;
using common::upstream::Options;
using common::upstream::Upstream;

namespace {

// The UTC day number of the host's clock: which saying is "the day's".
int64_t utc_day(const platform::Host& host) {
    return common::time::day_of(static_cast<int64_t>(std::floor(host.now_ms() / 1000.0)));
}

}  // namespace

json Prayer::verse(platform::Request& r) {
    const Upstream up(host_, reminder::kReminder);
    const int64_t chapter = r.integer("chapter");
    const int64_t verse = r.integer("verse", 0);
    if (verse == 0) {
        const json body = up.get_json("/api/quran/" + std::to_string(chapter));
        return *up.parse(body, [](const json& j) { return reminder::chapter_from(j); });
    }
    // The upstream answers a verse past the chapter's end with an empty body: read the chapter
    // and pick the verse, so that "no such verse" is a 404 and not a malformed body.
    const json body = up.get_json("/api/quran/" + std::to_string(chapter));
    auto found = up.parse(
        body, [&](const json& j) { return reminder::chapter_from(j, static_cast<int>(verse)); });
    if (!found)
        throw platform::not_found("verse: chapter " + std::to_string(chapter) + " has no verse " +
                                  std::to_string(verse));
    return *found;
}

json Prayer::saying(platform::Request& r) {
    const Upstream up(host_, reminder::kReminder);
    const json books = up.parse(up.get_json("/api/hadith/books"),
                                [](const json& j) { return reminder::books_from(j); });
    const int64_t day = utc_day(host_);
    json book_entry;
    if (r.args().contains("book")) {
        const int64_t wanted = r.integer("book");
        for (const json& b : books)
            if (b["number"] == wanted) book_entry = b;
        if (book_entry.is_null())
            throw platform::not_found("book: Sahih al-Bukhari has " + std::to_string(books.size()) +
                                      " books here; there is no book " + std::to_string(wanted));
    } else {
        book_entry = books[static_cast<size_t>(day % static_cast<int64_t>(books.size()))];
    }
    const int number = book_entry["number"].get<int>();
    const json book = up.parse(up.get_json("/api/hadith/" + std::to_string(number)),
                               [&](const json& j) { return reminder::book_from(j, number); });
    const json& hadiths = book["hadiths"];
    if (hadiths.empty())
        throw platform::not_found("book: book " + std::to_string(number) + " has no hadith");
    const json& one = hadiths[static_cast<size_t>(day % static_cast<int64_t>(hadiths.size()))];
    return reminder::hadith_excerpt(book, one);
}

json Prayer::reflection(platform::Request&) {
    const Upstream up(host_, reminder::kReminder);
    const auto d = common::time::civil_from_days(utc_day(host_));
    char date[16];
    std::snprintf(date, sizeof date, "%04d-%02d-%02d", d.year, d.month, d.day);
    // The day's archived reminder; the current one when the archive has none for the date.
    Options o;
    o.pass = {404};
    const auto a = up.fetch(std::string("/api/daily/") + date, o);
    json body;
    if (a.status == 404) {
        body = up.get_json("/api/daily");
    } else {
        body = json::parse(a.body, nullptr, false);
        if (body.is_discarded()) throw up.malformed("the body is not JSON");
    }
    return up.parse(body, [](const json& j) { return reminder::daily_from(j); });
}

json Prayer::search(platform::Request& r) {
    const Upstream up(host_, reminder::kReminder);
    Options o;
    o.method = "POST";
    o.content_type = "application/json";
    o.body = json{{"q", r.str("query")}}.dump();
    const json body = up.get_json("/api/search", o);
    return {
        {"query", r.str("query")},
        {"results", up.parse(body, [](const json& j) { return reminder::references_from(j); })}};
}
