// Reading the model's answers (JSON whole or in one fence, never dug out of prose), labels, and the
// caller's schema compiled by the host's validator (object roots as they are, others wrapped).
#include "tasks.hpp"

#include <gtest/gtest.h>

using namespace text_tasks;
using nlohmann::json;

TEST(Labels, TrimmedDeduplicatedAndLimited) {
    EXPECT_EQ(parse_labels(" spam , ham,,Spam, other "),
              (std::vector<std::string>{"spam", "ham", "other"}));
    try {
        parse_labels(" , ,");
        FAIL();
    } catch (const platform::Error& e) {
        EXPECT_EQ(std::string(e.what()), "labels: must name at least one label");
        EXPECT_EQ(e.code(), platform::Code::invalid_argument);
    }
    std::string many;
    for (int i = 0; i < 51; ++i) many += "l" + std::to_string(i) + ",";
    EXPECT_THROW(parse_labels(many), platform::Error);
    EXPECT_THROW(parse_labels(std::string(101, 'x')), platform::Error);
}

TEST(AnswerJson, WholeOrOneFenceNeverFromProse) {
    std::string problem;
    EXPECT_EQ(*answer_json(" {\"a\": 1}\n", &problem), json({{"a", 1}}));
    EXPECT_EQ(*answer_json("```json\n[1, 2]\n```", &problem), json({1, 2}));
    EXPECT_EQ(*answer_json("```\n\"x\"\n```", &problem), json("x"));
    EXPECT_FALSE(answer_json("Here it is: {\"a\": 1}", &problem));
    EXPECT_EQ(problem, "the answer is not valid JSON");
    EXPECT_FALSE(answer_json("{\"a\": 1", &problem));
    EXPECT_FALSE(answer_json("", &problem));
    EXPECT_EQ(problem, "the answer is empty, not JSON");
}

TEST(Classification, TheLabelMustBeOneOfTheGivenOnesAndConfidenceInRange) {
    const std::vector<std::string> labels = {"Spam", "Ham"};
    std::string problem;
    auto c = read_classification(R"({"label": "spam", "confidence": 0.93})", labels, &problem);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->label, "Spam");  // as given
    EXPECT_DOUBLE_EQ(c->confidence, 0.93);
    EXPECT_FALSE(read_classification(R"({"label": "eggs", "confidence": 0.5})", labels, &problem));
    EXPECT_EQ(problem, "the label \"eggs\" is not one of the labels");
    EXPECT_FALSE(read_classification(R"({"label": "Ham", "confidence": 1.5})", labels, &problem));
    EXPECT_EQ(problem, "\"confidence\" is not a number from 0 to 1");
    EXPECT_FALSE(read_classification(R"({"label": "Ham"})", labels, &problem));
    EXPECT_FALSE(read_classification(R"(["Ham"])", labels, &problem));
}

TEST(OutputSchemaTest, ObjectRootsAndOthersAreCheckedByTheValidator) {
    const auto person = OutputSchema::compile(json::parse(
        R"({"type": "object", "properties": {"name": {"type": "string"},
            "age": {"type": "integer", "minimum": 0}}, "required": ["name"]})"));
    EXPECT_FALSE(person.check({{"name", "Ada"}, {"age", 36}}));
    EXPECT_EQ(*person.check({{"age", 36}}), "name: is required");
    EXPECT_EQ(*person.check({{"name", "Ada"}, {"age", -1}}), "age: must be at least 0");
    EXPECT_TRUE(person.check(json::array()));  // not an object

    const auto list = OutputSchema::compile(
        json::parse(R"({"$schema": "https://json-schema.org/draft/2020-12/schema",
                        "type": "array", "items": {"type": "string"}, "minItems": 1})"));
    EXPECT_FALSE(list.check({"a", "b"}));
    ASSERT_TRUE(list.check({1}));
    EXPECT_NE(list.check({1})->find("must be a string"), std::string::npos);
    EXPECT_TRUE(list.check(json::array()));

    try {
        OutputSchema::compile(json::parse(R"({"type": "object", "oneOf": []})"));
        FAIL();
    } catch (const platform::Error& e) {
        EXPECT_EQ(e.code(), platform::Code::invalid_argument);
        EXPECT_EQ(std::string(e.what()).rfind("schema: not a JSON Schema the validator takes", 0),
                  0u)
            << e.what();
    }
}

TEST(SchemaArgument, JsonObjectOrPlainDescription) {
    EXPECT_FALSE(schema_argument("the person's name and age"));
    EXPECT_EQ(*schema_argument(" {\"type\": \"object\"}"), json({{"type", "object"}}));
    EXPECT_THROW(schema_argument("{name, age}"), platform::Error);
}

TEST(Requests, TheTextIsMaterialAndTheTaskIsInTheSystemText) {
    const json r = classify_request("Win money now", {"spam", "ham"});
    EXPECT_NE(r["system"].get<std::string>().find("\"spam\", \"ham\""), std::string::npos);
    EXPECT_NE(r["system"].get<std::string>().find("never instructions"), std::string::npos);
    EXPECT_EQ(r["messages"][0]["content"], "<text>\nWin money now\n</text>");
    const json again = retry_request(r, "not json", "the answer is not valid JSON");
    ASSERT_EQ(again["messages"].size(), 3u);
    EXPECT_EQ(again["messages"][1], json({{"role", "assistant"}, {"content", "not json"}}));
    EXPECT_NE(again["messages"][2]["content"].get<std::string>().find("not valid JSON"),
              std::string::npos);
    EXPECT_NE(translate_request("x", "fr")["system"].get<std::string>().find("line breaks"),
              std::string::npos);
    EXPECT_NE(summarise_request("x", true, 4)["system"].get<std::string>().find("at most 4 bullet"),
              std::string::npos);
}

TEST(Unfenced, AFenceAroundTheWholeAnswerGoesUnlessTheSourceHadOne) {
    EXPECT_EQ(unfenced("```\nBonjour\n```", "Hello"), "Bonjour\n");
    EXPECT_EQ(unfenced("```\nx = 1\n```", "```\nx = 1\n```"), "```\nx = 1\n```");
    EXPECT_EQ(unfenced("Bonjour", "Hello"), "Bonjour");
}
