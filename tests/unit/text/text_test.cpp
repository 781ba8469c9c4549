// The text service's handlers in the SDK's fake host, the model answering from a scripted queue:
// the 30,000-character limit (characters, not bytes), the one retry of an unusable answer and the
// 502 after it, what model-builtin gets (an extractive summary; 503 naming the settings for the
// rest), and the answers' shapes.
#include <gtest/gtest.h>

#include "../support/plugin_under_test.hpp"

namespace {

using namespace plugin_test;

json said(const std::string& text, const std::string& model = "gpt-test",
          const std::string& stop = "end") {
    return {{"text", text},
            {"tool_calls", json::array()},
            {"stop", stop},
            {"model", model},
            {"usage", {{"input_tokens", 1}, {"output_tokens", 1}}}};
}

json builtin() {
    return said("I can help with notes, tasks, events and contacts.", "builtin");
}

std::string repeat(const std::string& s, size_t n) {
    std::string out;
    for (size_t i = 0; i < n; ++i) out += s;
    return out;
}

class TextHandlers : public ::testing::Test {
protected:
    TextHandlers() : plugin(host.load(platform_plugin_entry)) {}
    FakeHost host;
    FakePlugin plugin;
};

TEST_F(TextHandlers, TextIsCappedAt30000CharactersNotBytes) {
    // 30,000 two-byte characters (60,000 bytes) pass; one more does not, for every method.
    const std::string at_limit = repeat("é", 30000);
    host.push_model_answer(builtin());
    EXPECT_EQ(plugin.call("summarise", {{"text", at_limit}}, "ann").code, PLATFORM_OK);
    const std::string over = repeat("é", 30001);
    for (const auto& [method, args] :
         std::vector<std::pair<std::string, json>>{{"classify", {{"labels", "a,b"}}},
                                                   {"extract", {{"schema", "names"}}},
                                                   {"summarise", json::object()},
                                                   {"translate", {{"to", "fr"}}}}) {
        json a = args;
        a["text"] = over;
        const Reply r = plugin.call(method, a, "ann");
        EXPECT_EQ(r.code, PLATFORM_INVALID_ARGUMENT) << method;
        EXPECT_EQ(r.body, "text: must be at most 30000 characters") << method;
    }
    EXPECT_EQ(host.model_requests.size(), 1u);  // refused before the model
    const Reply empty = plugin.call("translate", {{"text", ""}, {"to", "fr"}}, "ann");
    EXPECT_EQ(empty.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(empty.body, "text: must not be empty");
    EXPECT_EQ(plugin.call("summarise", {{"text", "a"}, {"lines", 21}}, "ann").body,
              "lines: must be at most 20");
    EXPECT_EQ(plugin.call("summarise", {{"text", "a"}, {"style", "list"}}, "ann").body,
              "style: must be one of prose, bullets");
    EXPECT_EQ(plugin.call("classify", {{"text", "a"}, {"labels", ","}}, "ann").body,
              "labels: must name at least one label");
    EXPECT_EQ(plugin.call("translate", {{"text", "a"}, {"to", "fr\nignore"}}, "ann").body,
              "to: must be a language name or code on one line");
}

TEST_F(TextHandlers, ClassifyAnswersOneOfTheLabels) {
    host.push_model_answer(said(R"({"label": "urgent", "confidence": 0.8})"));
    const json c = ok_json(plugin.call(
        "classify", {{"text", "The server room is on fire"}, {"labels", "Urgent, later"}}, "ann"));
    EXPECT_EQ(c["label"], "Urgent");
    EXPECT_EQ(c["confidence"], 0.8);
    EXPECT_EQ(c["labels"], json({"Urgent", "later"}));
    EXPECT_EQ(c["model"], "gpt-test");
    ASSERT_EQ(host.model_requests.size(), 1u);
    EXPECT_NE(host.model_requests[0]["messages"][0]["content"].get<std::string>().find(
                  "The server room is on fire"),
              std::string::npos);
}

TEST_F(TextHandlers, AnUnusableAnswerIsAskedForOnceMoreThen502) {
    host.push_model_answer(said(R"({"label": "soon", "confidence": 0.8})"));
    host.push_model_answer(said(R"({"label": "later", "confidence": 0.6})"));
    EXPECT_EQ(ok_json(plugin.call("classify", {{"text", "x"}, {"labels", "urgent,later"}},
                                  "ann"))["label"],
              "later");
    ASSERT_EQ(host.model_requests.size(), 2u);
    EXPECT_NE(host.model_requests[1]["messages"][2]["content"].get<std::string>().find(
                  "the label \"soon\" is not one of the labels"),
              std::string::npos);

    host.push_model_answer(said("Sure! Here is the JSON: {"));
    host.push_model_answer(said("{\"name\": "));
    const Reply r =
        plugin.call("extract", {{"text", "Ada, 36"}, {"schema", "name and age"}}, "ann");
    EXPECT_EQ(r.code, PLATFORM_BAD_GATEWAY);
    EXPECT_EQ(r.body,
              "the model's answer could not be used, twice: the answer is not valid JSON; nothing "
              "is passed on");
}

TEST_F(TextHandlers, ExtractChecksTheAnswerAgainstTheSchema) {
    const std::string schema =
        R"({"type": "object", "properties": {"name": {"type": "string"},
            "age": {"type": "integer"}}, "required": ["name", "age"], "additionalProperties": false})";
    host.push_model_answer(said(R"({"name": "Ada"})"));  // age missing
    host.push_model_answer(said("```json\n{\"name\": \"Ada\", \"age\": 36}\n```"));
    const json e =
        ok_json(plugin.call("extract", {{"text", "Ada Lovelace, 36."}, {"schema", schema}}, "ann"));
    EXPECT_EQ(e["json"], json({{"name", "Ada"}, {"age", 36}}));
    EXPECT_EQ(e["checked"], "schema");
    EXPECT_NE(host.model_requests[1]["messages"][2]["content"].get<std::string>().find(
                  "does not match the schema: age: is required"),
              std::string::npos);

    host.push_model_answer(said(R"({"name": "Ada", "age": "36"})"));
    host.push_model_answer(said(R"({"name": "Ada", "age": 36, "born": 1815})"));
    const Reply r = plugin.call("extract", {{"text", "Ada"}, {"schema", schema}}, "ann");
    EXPECT_EQ(r.code, PLATFORM_BAD_GATEWAY);
    EXPECT_NE(r.body.find("does not match the schema"), std::string::npos) << r.body;

    // A description: any valid JSON.
    host.push_model_answer(said(R"(["Ada", "Charles"])"));
    const json d = ok_json(
        plugin.call("extract", {{"text", "Ada met Charles."}, {"schema", "the names"}}, "ann"));
    EXPECT_EQ(d["json"], json({"Ada", "Charles"}));
    EXPECT_EQ(d["checked"], "json");

    // A schema the validator does not take, or broken JSON: 400 naming schema, no model call.
    const size_t asked = host.model_requests.size();
    Reply bad = plugin.call("extract", {{"text", "x"}, {"schema", R"({"$ref": "#/x"})"}}, "ann");
    EXPECT_EQ(bad.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(bad.body.rfind("schema: ", 0), 0u) << bad.body;
    bad = plugin.call("extract", {{"text", "x"}, {"schema", "{name"}}, "ann");
    EXPECT_EQ(bad.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(bad.body.rfind("schema: ", 0), 0u) << bad.body;
    EXPECT_EQ(host.model_requests.size(), asked);
}

TEST_F(TextHandlers, SummariseAndTranslateWithAModel) {
    host.push_model_answer(said("- Budget up\n- More buses"));
    const json s = ok_json(plugin.call(
        "summarise", {{"text", "Long text."}, {"style", "bullets"}, {"lines", 2}}, "ann"));
    EXPECT_EQ(s["summary"], "- Budget up\n- More buses");
    EXPECT_EQ(s["method"], "model");
    EXPECT_EQ(s["style"], "bullets");

    host.push_model_answer(said("# Titre\n\n- un\n- deux\n"));
    const json t = ok_json(
        plugin.call("translate", {{"text", "# Title\n\n- one\n- two\n"}, {"to", "French"}}, "ann"));
    EXPECT_EQ(t["translation"], "# Titre\n\n- un\n- deux\n");
    EXPECT_EQ(t["to"], "French");
    EXPECT_NE(host.model_requests.back()["system"].get<std::string>().find("into French"),
              std::string::npos);

    host.push_model_answer(said("# Titre\n\n- un", "gpt-test", "max_tokens"));
    const Reply cut = plugin.call("translate", {{"text", "# Title\n\n- one"}, {"to", "fr"}}, "ann");
    EXPECT_EQ(cut.code, PLATFORM_BAD_GATEWAY);
    EXPECT_NE(cut.body.find("token limit"), std::string::npos);
}

TEST_F(TextHandlers, ModelBuiltinSummarisesExtractivelyAndRefusesTheRest) {
    host.push_model_answer(builtin());
    const json s =
        ok_json(plugin.call("summarise",
                            {{"text", "Buses are late. Buses are full. The sky is blue."},
                             {"lines", 1},
                             {"style", "bullets"}},
                            "ann"));
    EXPECT_EQ(s["summary"], "- Buses are late.");
    EXPECT_EQ(s["method"], "extractive");
    EXPECT_EQ(s["model"], "builtin");
    EXPECT_EQ(s["lines"], 1);
    EXPECT_EQ(s["sentences"], 1);

    for (const auto& [method, args] : std::vector<std::pair<std::string, json>>{
             {"classify", {{"text", "x"}, {"labels", "a,b"}}},
             {"extract", {{"text", "x"}, {"schema", "names"}}},
             {"translate", {{"text", "x"}, {"to", "fr"}}}}) {
        host.push_model_answer(builtin());
        const Reply r = plugin.call(method, args, "ann");
        EXPECT_EQ(r.code, PLATFORM_UNAVAILABLE) << method;
        EXPECT_NE(r.body.find("text/" + method + " needs a language model"), std::string::npos)
            << r.body;
        EXPECT_NE(r.body.find("model.provider"), std::string::npos) << r.body;
        EXPECT_NE(r.body.find("OPENAI_API_KEY"), std::string::npos) << r.body;
    }
    // The model's own failure passes through with its code.
    host.push_model_failure(PLATFORM_UNAVAILABLE, "model.openai.api_key is not set");
    const Reply r = plugin.call("translate", {{"text", "x"}, {"to", "fr"}}, "ann");
    EXPECT_EQ(r.code, PLATFORM_UNAVAILABLE);
    EXPECT_EQ(r.body, "model.openai.api_key is not set");
}

}  // namespace
