// The Reminder parsers (plugins/common/reminder) on the fixtures of tests/fixtures/reminder/, on
// empty results and on malformed bodies; the resource paths islam/read accepts.
#include "common/reminder/reminder.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

using namespace common::reminder;
using common::upstream::Malformed;

namespace {

json fixture(const std::string& file) {
    std::ifstream in(std::string(PRAYER_FIXTURES) + "/" + file);
    std::stringstream s;
    s << in.rdbuf();
    return json::parse(s.str());
}

}  // namespace

TEST(ReminderParsers, Verse) {
    const json v = verse_from(fixture("verse_2_255.json"));
    EXPECT_EQ(v["reference"], "Quran 2:255");
    EXPECT_EQ(v["chapter"], 2);
    EXPECT_EQ(v["verse"], 255);
    EXPECT_EQ(v["path"], "/api/quran/2/255");
    EXPECT_EQ(v["url"], "https://reminder.dev/quran/2#255");
    EXPECT_EQ(v["text"].get<std::string>().rfind("God! There is no god except He", 0), 0u);
    EXPECT_FALSE(v["arabic"].get<std::string>().empty());
    EXPECT_THROW(verse_from(json::object()), Malformed);
    EXPECT_THROW(verse_from(json{{"chapter", 1}, {"number", 1}, {"text", 3}}), Malformed);
    EXPECT_THROW(verse_from(fixture("malformed.json")), Malformed);
}

TEST(ReminderParsers, Chapter) {
    const auto c = chapter_from(fixture("quran_1.json"));
    ASSERT_TRUE(c);
    EXPECT_EQ((*c)["name"], "Al-Fatihah");
    EXPECT_EQ((*c)["english"], "The Opening");
    EXPECT_EQ((*c)["reference"], "Quran 1");
    ASSERT_EQ((*c)["verses"].size(), 7u);
    EXPECT_EQ((*c)["verses"][6]["reference"], "Quran 1:7");
    const auto one = chapter_from(fixture("quran_112.json"), 3);
    ASSERT_TRUE(one);
    EXPECT_EQ((*one)["text"], "He begets not, nor was He begotten.");
    EXPECT_FALSE(chapter_from(fixture("quran_112.json"), 5));
    // A chapter without verses is empty, not malformed.
    EXPECT_EQ(
        (*chapter_from(json{{"name", "X"}, {"number", 9}, {"verses", json::array()}}))["verses"]
            .size(),
        0u);
    EXPECT_THROW(chapter_from(fixture("malformed.json")), Malformed);
    EXPECT_THROW(chapter_from(json::array()), Malformed);
}

TEST(ReminderParsers, BooksAndHadith) {
    const json books = books_from(fixture("hadith_books.json"));
    ASSERT_EQ(books.size(), 2u);
    EXPECT_EQ(books[1], (json{{"number", 2}, {"name", "Belief"}}));
    EXPECT_THROW(books_from(json::array()), Malformed);
    EXPECT_THROW(books_from(fixture("malformed.json")), Malformed);

    const json book = book_from(fixture("hadith_1.json"), 1);
    EXPECT_EQ(book["book"], (json{{"number", 1}, {"name", "Revelation"}}));
    ASSERT_EQ(book["hadiths"].size(), 3u);
    EXPECT_EQ(book["hadiths"][2]["number"], 5);  // from "Number 5:" in its info
    EXPECT_EQ(book["hadiths"][0]["narrator"], "Narrated 'Umar bin Al-Khattab");
    EXPECT_EQ(book["hadiths"][0]["reference"], "Volume 1, Book 1, Number 1");
    const json e = hadith_excerpt(book, book["hadiths"][0]);
    EXPECT_EQ(e["reference"], "Sahih al-Bukhari Volume 1, Book 1, Number 1");
    EXPECT_EQ(e["path"], "/api/hadith/1#1");
    EXPECT_EQ(e["url"], "https://reminder.dev/hadith/1#1");
    EXPECT_EQ(e["source"], "Sahih al-Bukhari");
    EXPECT_EQ(book_from(json{{"name", "Empty"}, {"hadiths", json::array()}}, 4)["hadiths"].size(),
              0u);
    EXPECT_THROW(book_from(fixture("malformed.json"), 1), Malformed);
    EXPECT_THROW(book_from(json{{"name", "X"}, {"hadiths", {{{"info", "a"}}}}}, 1), Malformed);
}

TEST(ReminderParsers, Names) {
    const json n = name_from(fixture("name_1.json"), 1);
    EXPECT_EQ(n["name"], "Ar-Rahman");
    EXPECT_EQ(n["reference"], "Ar-Rahman — The Most Gracious");
    EXPECT_EQ(n["path"], "/api/names/1");
    const json all = names_from(fixture("names.json"));
    ASSERT_EQ(all.size(), 3u);
    EXPECT_EQ(all[2]["meaning"], "The King");
    EXPECT_EQ(names_from(json::array()).size(), 0u);
    EXPECT_THROW(names_from(json::object()), Malformed);
    EXPECT_THROW(name_from(json{{"number", 4}}, 4), Malformed);
}

TEST(ReminderParsers, Daily) {
    const json d = daily_from(fixture("daily.json"));
    EXPECT_EQ(d["date"], "2027-03-01");
    EXPECT_EQ(d["hijri"], "22 Sha'ban 1448");
    EXPECT_EQ(d["verse"]["heading"], "Al-Ikhlas - Sincerity - 112:1-4");
    EXPECT_EQ(d["verse"]["path"], "/quran/112#1");
    EXPECT_EQ(d["verse"]["url"], "https://reminder.dev/quran/112#1");
    EXPECT_EQ(d["saying"]["collection"], "hadith");
    EXPECT_EQ(d["name"]["heading"], "Ar-Rahman - الرحمن - The Most Gracious");
    EXPECT_EQ(d["name"]["text"],
              "The name Ar-Rahman emphasizes Allah's absolute mercy and generosity.");
    EXPECT_THROW(daily_from(json::object()), Malformed);
    EXPECT_THROW(daily_from(json{{"verse", ""}, {"hadith", "h"}, {"name", "n"}}), Malformed);
    EXPECT_THROW(daily_from(json::array()), Malformed);
}

TEST(ReminderParsers, SearchReferencesNeverTheAnswer) {
    const json refs = references_from(fixture("search.json"));
    ASSERT_EQ(refs.size(), 4u);
    EXPECT_EQ(refs[0]["collection"], "quran");
    EXPECT_EQ(refs[0]["reference"], "Quran 2:153 (Al-Baqarah)");
    EXPECT_EQ(refs[0]["path"], "/api/quran/2/153");
    EXPECT_DOUBLE_EQ(refs[0]["score"].get<double>(), 0.8123);
    EXPECT_EQ(refs[1]["collection"], "quran");
    EXPECT_EQ(refs[1]["source"], "Tafsir (commentary on the Quran)");
    EXPECT_EQ(refs[2]["collection"], "hadith");
    EXPECT_EQ(refs[2]["path"], "/api/hadith/2#9");
    EXPECT_EQ(refs[2]["narrator"], "Narrated Abu Huraira");
    EXPECT_EQ(refs[3]["collection"], "names");
    EXPECT_EQ(refs[3]["path"], "/api/names#As-Sabur");
    for (const json& r : refs)
        EXPECT_EQ(r.dump().find("Patience (sabr) is praised"), std::string::npos);
    // Lower-case members (a tagged Result) read the same.
    const json lower = references_from(
        json{{"references",
              {{{"text", "t"},
                {"score", 0.5},
                {"metadata", {{"source", "quran"}, {"chapter", "1"}, {"verse", "2"}}}}}}});
    EXPECT_EQ(lower[0]["path"], "/api/quran/1/2");
    EXPECT_EQ(references_from(fixture("search_empty.json")).size(), 0u);
    EXPECT_EQ(references_from(json{{"references", json::array()}}).size(), 0u);
    EXPECT_THROW(references_from(fixture("malformed.json")), Malformed);
    EXPECT_THROW(references_from(json{{"references", {{{"Score", 1}}}}}), Malformed);
    try {
        references_from(fixture("search_indexing.json"));
        ADD_FAILURE() << "no error";
    } catch (const platform::Error& e) {
        EXPECT_EQ(e.code(), platform::Code::unavailable);
    }
}

TEST(ReminderPaths, ResourcesAndUrls) {
    auto r = resource_of("/api/quran/2/255");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->kind, Resource::verse);
    EXPECT_EQ(r->a, 2);
    EXPECT_EQ(r->b, 255);
    r = resource_of("https://reminder.dev/quran/2#255");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->kind, Resource::chapter);
    EXPECT_EQ(r->api, "/api/quran/2");
    EXPECT_EQ(r->b, 255);
    r = resource_of("/api/hadith/2#9");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->kind, Resource::book);
    EXPECT_EQ(r->a, 2);
    EXPECT_EQ(r->b, 9);
    r = resource_of("https://reminder.dev/names/5");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->kind, Resource::name);
    EXPECT_EQ(r->api, "/api/names/5");
    r = resource_of("/api/names#As-Sabur");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->kind, Resource::names_list);
    EXPECT_EQ(r->key, "As-Sabur");
    for (const char* bad :
         {"", "quran/1", "/api/quran/115", "/api/quran/0", "/api/quran/x/1", "/api/search",
          "https://evil.example/quran/1", "https://reminder.dev.evil.example/quran/1",
          "/api/hadith/2#x", "/api/quran/1/2#3", "/api/../etc/passwd", "/api/names/0"})
        EXPECT_FALSE(resource_of(bad)) << bad;
}
