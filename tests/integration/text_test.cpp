// The text service (plugins/text/) in the real host. With model-openai pointed at the scripted
// fake model server (support/fake_model_server.hpp): classify answers one of the labels; extract
// asks once more when the model's answer is not valid JSON, and answers 502 when the second is not
// either (never passing it on); summarise and translate answer the model's text; 30,001
// characters are refused before the model is asked. With the offline model-builtin (the test
// profile's default): an extractive summary, and 503 naming the settings for the rest.
#include <gtest/gtest.h>

#include <memory>

#include "fake_model_server.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "profiles.hpp"
#include "shared_host_test.hpp"

using nlohmann::json;
using namespace platform::test;
using M = FakeModelServer;

namespace {

std::string repeat(const std::string& s, size_t n) {
    std::string out;
    for (size_t i = 0; i < n; ++i) out += s;
    return out;
}

// The error message of an /api/v1 answer.
std::string message(const HttpResult& r) {
    auto j = json::parse(r.body, nullptr, false);
    return j.is_object() && j.contains("error") ? j["error"].value("message", r.body) : r.body;
}

// The text of the user message the model was sent (model-openai's request).
std::string sent_text(const M::Request& r) {
    for (const auto& m : r.body["messages"])
        if (m["role"] == "user") return m["content"].get<std::string>();
    return "";
}

class TextWithModel : public SharedHostTest {
protected:
    static void SetUpTestSuite() {
        model = new FakeModelServer();
        start_host(model_server_host(*model, suite_dir() + "/text.yaml", test_profile_text()));
    }
    static void TearDownTestSuite() {
        stop_host();
        delete model;
        model = nullptr;
    }
    void SetUp() override { model->reset(); }

    HttpResult call(const std::string& method, const json& args) {
        return api.post_json("/api/v1/text/" + method, args, as("tx-ann"));
    }
    json ok(const std::string& method, const json& args) {
        const HttpResult r = call(method, args);
        EXPECT_EQ(r.status, 200) << method << ": " << r.body;
        return r.status == 200 ? r.json()["data"] : json();
    }

    static FakeModelServer* model;
};

FakeModelServer* TextWithModel::model = nullptr;

TEST_F(TextWithModel, ClassifyAnswersOneOfTheLabels) {
    model->enqueue(M::kOpenAiPath,
                   M::ok(M::openai_text(R"({"label": "billing", "confidence": 0.87})")));
    const json c = ok("classify", {{"text", "I was charged twice for my order."},
                                   {"labels", "Shipping, Billing, Other"}});
    EXPECT_EQ(c["label"], "Billing");
    EXPECT_EQ(c["confidence"], 0.87);
    EXPECT_EQ(c["model"], "gpt-test");
    const auto seen = model->requests(M::kOpenAiPath);
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_NE(sent_text(seen[0]).find("I was charged twice"), std::string::npos);
    EXPECT_NE(seen[0].text.find("\\\"Billing\\\""), std::string::npos) << seen[0].text;
    // GET with a query works the same.
    model->enqueue(M::kOpenAiPath,
                   M::ok(M::openai_text(R"({"label": "Other", "confidence": 0.4})")));
    const HttpResult g =
        api.get("/api/v1/text/classify?text=hello&labels=Shipping,Other", as("tx-ann"));
    ASSERT_EQ(g.status, 200) << g.body;
    EXPECT_EQ(g.json()["data"]["label"], "Other");
    // Anonymous callers are asked to identify themselves.
    EXPECT_EQ(api.get("/api/v1/text/classify?text=hello&labels=a,b").status, 401);
}

TEST_F(TextWithModel, ExtractRetriesInvalidJsonOnceThenAnswers) {
    const json schema = {
        {"type", "object"},
        {"properties",
         {{"name", {{"type", "string"}}}, {"year", {{"type", "integer"}, {"minimum", 1000}}}}},
        {"required", {"name", "year"}}};
    model->enqueue(M::kOpenAiPath, M::ok(M::openai_text("Sure! {\"name\": \"Ada\", \"year\":")));
    model->enqueue(M::kOpenAiPath,
                   M::ok(M::openai_text(R"({"name": "Ada Lovelace", "year": 1843})")));
    const json e = ok("extract", {{"text", "In 1843 Ada Lovelace published her notes."},
                                  {"schema", schema.dump()}});
    EXPECT_EQ(e["json"], json({{"name", "Ada Lovelace"}, {"year", 1843}}));
    EXPECT_EQ(e["checked"], "schema");
    const auto seen = model->requests(M::kOpenAiPath);
    ASSERT_EQ(seen.size(), 2u);
    // The retry carries the bad answer and says what was wrong.
    const json& msgs = seen[1].body["messages"];
    ASSERT_GE(msgs.size(), 3u);
    EXPECT_EQ(msgs[msgs.size() - 2]["role"], "assistant");
    EXPECT_NE(msgs.back()["content"].get<std::string>().find("not valid JSON"), std::string::npos);
}

TEST_F(TextWithModel, ExtractInvalidTwiceIs502AndNothingPassedOn) {
    model->enqueue(M::kOpenAiPath, M::ok(M::openai_text("{\"name\": \"Ada\"")));
    model->enqueue(M::kOpenAiPath, M::ok(M::openai_text("name: Ada")));
    const HttpResult r = call("extract", {{"text", "Ada"}, {"schema", "the person's name"}});
    EXPECT_EQ(r.status, 502) << r.body;
    EXPECT_EQ(message(r),
              "the model's answer could not be used, twice: the answer is not valid JSON; nothing "
              "is passed on");
    EXPECT_EQ(r.body.find("name: Ada"), std::string::npos);
    EXPECT_EQ(model->requests(M::kOpenAiPath).size(), 2u);

    // Valid JSON that does not match the schema counts the same.
    const json schema = {{"type", "object"},
                         {"properties", {{"year", {{"type", "integer"}}}}},
                         {"required", {"year"}}};
    model->enqueue(M::kOpenAiPath, M::ok(M::openai_text(R"({"year": "1843"})")));
    model->enqueue(M::kOpenAiPath, M::ok(M::openai_text(R"({"when": 1843})")));
    const HttpResult m = call("extract", {{"text", "1843"}, {"schema", schema.dump()}});
    EXPECT_EQ(m.status, 502) << m.body;
    EXPECT_NE(message(m).find("does not match the schema"), std::string::npos) << m.body;
}

TEST_F(TextWithModel, SummariseAndTranslateAnswerTheModelsText) {
    model->enqueue(M::kOpenAiPath, M::ok(M::openai_text("- Forty new buses\n- Night service")));
    const json s = ok("summarise", {{"text",
                                     "The council approved forty buses. Night service "
                                     "grows."},
                                    {"style", "bullets"},
                                    {"lines", 2}});
    EXPECT_EQ(s["summary"], "- Forty new buses\n- Night service");
    EXPECT_EQ(s["method"], "model");
    EXPECT_NE(model->requests(M::kOpenAiPath)[0].text.find("at most 2 bullet points"),
              std::string::npos);

    const std::string source =
        "# Shopping\n\n- milk\n- **bread**\n\nSee [the shop](https://x.test).\n";
    const std::string french =
        "# Courses\n\n- lait\n- **pain**\n\nVoir [la boutique](https://x.test).\n";
    model->enqueue(M::kOpenAiPath, M::ok(M::openai_text(french)));
    const json t = ok("translate", {{"text", source}, {"to", "fr"}});
    EXPECT_EQ(t["translation"], french);
    EXPECT_EQ(t["to"], "fr");
    const auto seen = model->requests(M::kOpenAiPath);
    EXPECT_NE(sent_text(seen[1]).find(source), std::string::npos);
}

TEST_F(TextWithModel, TextOver30000CharactersIs400BeforeTheModel) {
    const HttpResult r = call("summarise", {{"text", repeat("ü", 30001)}});
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(message(r), "text: must be at most 30000 characters");
    EXPECT_EQ(call("translate", {{"text", repeat("a", 30001)}, {"to", "de"}}).status, 400);
    EXPECT_EQ(model->requests(M::kOpenAiPath).size(), 0u);
    // 30,000 characters of two bytes each are within the limit.
    model->enqueue(M::kOpenAiPath, M::ok(M::openai_text("Viele ü.")));
    EXPECT_EQ(call("summarise", {{"text", repeat("ü", 30000)}}).status, 200);
}

// The test profile's own model: model-builtin.
class TextOffline : public SharedHostTest {};

TEST_F(TextOffline, SummariseIsExtractiveAndTheRestIs503NamingTheSettings) {
    const std::string text =
        "The library opens a new reading room on Monday. The reading room has forty desks. "
        "Parking is limited. Library members can book reading room desks online.";
    const HttpResult s =
        api.post_json("/api/v1/text/summarise",
                      {{"text", text}, {"lines", 2}, {"style", "bullets"}}, as("tx-ann"));
    ASSERT_EQ(s.status, 200) << s.body;
    const json d = s.json()["data"];
    EXPECT_EQ(d["method"], "extractive");
    EXPECT_EQ(d["model"], "builtin");
    EXPECT_EQ(d["summary"],
              "- The library opens a new reading room on Monday.\n"
              "- Library members can book reading room desks online.");
    for (const auto& [method, args] : std::vector<std::pair<std::string, json>>{
             {"classify", {{"text", "x"}, {"labels", "a,b"}}},
             {"extract", {{"text", "x"}, {"schema", "names"}}},
             {"translate", {{"text", "x"}, {"to", "fr"}}}}) {
        const HttpResult r = api.post_json("/api/v1/text/" + method, args, as("tx-ann"));
        EXPECT_EQ(r.status, 503) << method << ": " << r.body;
        EXPECT_NE(r.body.find("model.provider"), std::string::npos) << r.body;
        EXPECT_NE(r.body.find("OPENAI_API_KEY"), std::string::npos) << r.body;
        EXPECT_NE(r.body.find("offline model (model-builtin)"), std::string::npos) << r.body;
    }
}

}  // namespace
