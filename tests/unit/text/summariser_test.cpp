// The extractive summariser: sentences cut where they end (not after Dr. or e.g.), list items and
// headings as units, the most central sentences kept word for word and in text order, `lines` of
// them, bullets or prose.
#include <gtest/gtest.h>

#include "extractive.hpp"

using namespace text_extractive;

namespace {

std::vector<std::string> texts(const std::vector<Sentence>& s) {
    std::vector<std::string> out;
    for (const auto& x : s) out.push_back(x.text);
    return out;
}

const std::string kArticle =
    "The city council approved a new budget for public transport on Monday. "
    "The budget adds forty buses and extends night service on six routes. "
    "Council members debated for three hours. "
    "Critics said the transport budget ignores cycling. "
    "The weather was mild.\n\n"
    "Public transport ridership has grown every year since 2019, and the new buses "
    "will serve the routes where ridership grew most.";

}  // namespace

TEST(Sentences, EndsAbbreviationsInitialsAndDecimals) {
    EXPECT_EQ(texts(split_sentences("Dr. Smith met J. R. Jones at 3.5 km. They talked, e.g. about "
                                    "rain! Did it help? Yes…  It did.")),
              (std::vector<std::string>{"Dr. Smith met J. R. Jones at 3.5 km.",
                                        "They talked, e.g. about rain!", "Did it help?", "Yes…",
                                        "It did."}));
    EXPECT_EQ(
        texts(split_sentences("He said \"stop.\" Then he left. It cost approx. three pounds.")),
        (std::vector<std::string>{"He said \"stop.\"", "Then he left.",
                                  "It cost approx. three pounds."}));
}

TEST(Sentences, LinesListsAndHeadings) {
    const auto s = split_sentences(
        "# Plan\n\nWe start early\nand finish late. Then rest.\n- buy milk\n- call Sam. "
        "Twice.\n1) pay rent\n\n---\n");
    EXPECT_EQ(texts(s),
              (std::vector<std::string>{"Plan", "We start early and finish late.", "Then rest.",
                                        "buy milk", "call Sam.", "Twice.", "pay rent", "---"}));
    EXPECT_FALSE(s[0].pickable);  // a heading
    EXPECT_TRUE(s[1].pickable);
    EXPECT_FALSE(s.back().pickable);  // no word
}

TEST(Words, LowerCasedWithoutStopWordsOrSingleLetters) {
    EXPECT_EQ(words("The Budget adds 40 buses, a café and I/O."),
              (std::vector<std::string>{"budget", "adds", "40", "buses", "café"}));
}

TEST(Summarise, KeepsTheCentralSentencesInTextOrder) {
    const auto two = summarise(kArticle, 2);
    ASSERT_EQ(two.size(), 2u);
    // The opening sentence and the one about ridership carry most of the text's frequent words
    // (budget, transport, public, new, buses, routes) for their length.
    EXPECT_EQ(two[0], "The city council approved a new budget for public transport on Monday.");
    EXPECT_EQ(two[1],
              "Public transport ridership has grown every year since 2019, and the new buses "
              "will serve the routes where ridership grew most.");
    const auto three = summarise(kArticle, 3);
    ASSERT_EQ(three.size(), 3u);
    for (const auto& s : three) EXPECT_NE(s, "The weather was mild.");
    // Text order, whatever the scores.
    for (size_t i = 1; i < three.size(); ++i)
        EXPECT_LT(kArticle.find(three[i - 1]), kArticle.find(three[i]));
    // Every sentence is the text's own, word for word.
    for (const auto& s : summarise(kArticle, 10))
        EXPECT_NE(kArticle.find(s), std::string::npos) << s;
}

TEST(Summarise, FewerSentencesThanLinesGivesThemAll) {
    EXPECT_EQ(summarise("One short text. Two sentences.", 5),
              (std::vector<std::string>{"One short text.", "Two sentences."}));
    EXPECT_TRUE(summarise("# Only a heading\n\n...", 3).empty());
    EXPECT_TRUE(summarise("", 3).empty());
}

TEST(Summarise, TiesGoToTheEarlierSentence) {
    EXPECT_EQ(summarise("Apples grow. Pears grow. Plums grow.", 1),
              std::vector<std::string>{"Apples grow."});
}

TEST(Render, BulletsOrProse) {
    EXPECT_EQ(render({"A b.", "C d."}, true), "- A b.\n- C d.");
    EXPECT_EQ(render({"A b.", "C d."}, false), "A b. C d.");
    EXPECT_EQ(render({}, true), "");
}
