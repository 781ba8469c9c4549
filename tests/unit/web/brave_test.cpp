// The web plugin's Brave Search parsers (plugins/web/brave.hpp) on the fixtures in Brave's format
// (tests/fixtures/brave/), offline: the fields copied, HTML in snippets read as text, results
// without a URL skipped, the limit, and bodies that are not Brave's answer.
#include "brave.hpp"

#include <gtest/gtest.h>

#include "fixtures.hpp"

using nlohmann::json;
using platform::test::fixture_text;
using namespace web;

namespace {

json fixture(const std::string& file) {
    return json::parse(fixture_text("brave", file));
}

TEST(Brave, RequestsAskForTheQueryAndTheCount) {
    EXPECT_EQ(search_path("rust borrow checker", 10),
              "/res/v1/web/search?q=rust%20borrow%20checker&count=10");
    EXPECT_EQ(images_path("a&b=c", 24), "/res/v1/images/search?q=a%26b%3Dc&count=24");
}

TEST(Brave, WebResultsAreCopiedWithTheirSnippetsAsText) {
    const json a = search_from(fixture("web_search.json"), "rust borrow checker", 10);
    EXPECT_EQ(a["query"], "rust borrow checker");
    EXPECT_EQ(a["source"], "Brave Search");
    EXPECT_EQ(a["more"], true);
    ASSERT_EQ(a["results"].size(), 3u);
    const json& first = a["results"][0];
    EXPECT_EQ(first["title"], "References and Borrowing - The Rust Programming Language");
    EXPECT_EQ(first["url"], "https://doc.rust-lang.org/book/ch04-02-references-and-borrowing.html");
    EXPECT_EQ(first["description"],
              "The borrow checker enforces the rules of references: at any given time, you can "
              "have either one mutable reference or any number of immutable references.");
    EXPECT_EQ(first["site"], "Rust-lang");
    EXPECT_EQ(first["age"], "October 2, 2025");
    const json& second = a["results"][1];
    EXPECT_EQ(second["title"], "Understanding the Borrow Checker & Lifetimes");
    EXPECT_EQ(second["site"], "blog.example.org") << "no profile: the hostname";
    EXPECT_TRUE(second["age"].is_null());
}

TEST(Brave, TheLimitCutsTheResults) {
    const json a = search_from(fixture("web_search.json"), "q", 2);
    EXPECT_EQ(a["results"].size(), 2u);
}

TEST(Brave, NoWebMemberIsNoResults) {
    const json a = search_from(fixture("empty_search.json"), "qwxzv", 10);
    EXPECT_TRUE(a["results"].empty());
    EXPECT_EQ(a["more"], false);
}

TEST(Brave, ImageResultsGiveTheImageItsThumbnailAndItsPage) {
    const json a = images_from(fixture("images_search.json"), "lighthouse", 24);
    ASSERT_EQ(a["results"].size(), 2u) << "the result without properties.url is skipped";
    const json& first = a["results"][0];
    EXPECT_EQ(first["title"], "Lighthouse at dusk on a rocky coast");
    EXPECT_EQ(first["image"], "https://photos.example.com/images/lighthouse-dusk.jpg");
    EXPECT_EQ(first["thumbnail"],
              "https://imgs.search.brave.com/example/thumb/lighthouse-dusk.jpg");
    EXPECT_EQ(first["page"], "https://photos.example.com/lighthouse-dusk");
    EXPECT_EQ(first["site"], "photos.example.com");
    EXPECT_EQ(first["width"], 3000);
    EXPECT_EQ(first["height"], 2000);
    EXPECT_TRUE(a["results"][1]["width"].is_null());
    EXPECT_EQ(images_from(fixture("images_search.json"), "lighthouse", 1)["results"].size(), 1u);
}

TEST(Brave, BodiesThatAreNotBravesAnswerAreMalformed) {
    EXPECT_THROW(search_from(json::array(), "q", 10), common::upstream::Malformed);
    EXPECT_THROW(search_from({{"web", {{"results", "no"}}}}, "q", 10), common::upstream::Malformed);
    EXPECT_THROW(images_from(json("text"), "q", 10), common::upstream::Malformed);
    EXPECT_TRUE(images_from(json::object(), "q", 10)["results"].empty());
}

}  // namespace
