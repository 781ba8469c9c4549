// app_templates.hpp and the app builds of conversation.hpp: each template is one small document
// that passes the apps plugin's static check (plugins/apps/static_check.hpp, compiled in here); the
// sample requests of each template pick it, and nothing else builds; a request listing the
// app_html tool is answered with one app_html call or with the text naming the model settings,
// and a request without that tool is routed as before.
#include "app_templates.hpp"

#include <gtest/gtest.h>

#include "../../../plugins/apps/static_check.hpp"
#include "conversation.hpp"

namespace {

using builtin::AppTemplate;
using builtin::match_app;
using nlohmann::json;

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

std::string problems_of(const std::vector<apps_check::Problem>& problems) {
    std::string out;
    for (const auto& p : problems)
        out += p.rule + " (line " + std::to_string(p.line) + "): " + p.message + "\n";
    return out;
}

// ---- the documents ----------------------------------------------------------------------------

TEST(ModelBuiltinAppTemplates, EachIsASmallCompleteDocumentThatPassesTheStaticCheck) {
    ASSERT_EQ(builtin::app_templates().size(), 4u);
    // The checklist keeps its items in one note; nothing else calls a service.
    const std::set<std::string> callable = {"notes/get", "notes/add"};
    for (const AppTemplate& t : builtin::app_templates()) {
        SCOPED_TRACE(t.key);
        const std::string html = t.html;
        EXPECT_LT(html.size(), 16u * 1024);
        EXPECT_EQ(html.rfind("<!doctype html>\n<html lang=\"en\">", 0), 0u);
        EXPECT_TRUE(has(html, "<meta charset=\"utf-8\">"));
        EXPECT_TRUE(has(html, std::string("<title>") + t.name + "</title>"));
        EXPECT_TRUE(has(html, std::string("<h1>") + t.name + "</h1>"));
        EXPECT_TRUE(has(html, "</html>\n"));
        const auto problems = apps_check::check(html, 256 * 1024, callable);
        EXPECT_TRUE(problems.empty()) << problems_of(problems);
        const auto unchecked = apps_check::check(html, 256 * 1024, {}, false);
        EXPECT_TRUE(unchecked.empty()) << problems_of(unchecked);
        // Nothing outside the document, even where the check would not look (text, comments).
        for (const char* outside :
             {"http:", "https:", "//cdn", "src=", "url(", "@import", "<link", "<iframe", "<form",
              "innerHTML", "eval(", "localStorage", "sessionStorage", "cookie", "indexedDB"})
            EXPECT_FALSE(has(html, outside)) << outside;
        EXPECT_FALSE(std::string(t.description).empty());
    }
}

TEST(ModelBuiltinAppTemplates, EveryControlHasALabel) {
    for (const AppTemplate& t : builtin::app_templates()) {
        SCOPED_TRACE(t.key);
        const std::string html = t.html;
        // Each <input>/<select> with an id has a <label for> naming it.
        for (size_t at = html.find("<input"); at != std::string::npos;
             at = html.find("<input", at + 1)) {
            const size_t id = html.find("id=\"", at);
            ASSERT_NE(id, std::string::npos);
            const std::string name = html.substr(id + 4, html.find('"', id + 4) - id - 4);
            EXPECT_TRUE(has(html, "for=\"" + name + "\"")) << name;
        }
        for (size_t at = html.find("<select"); at != std::string::npos;
             at = html.find("<select", at + 1)) {
            const size_t id = html.find("id=\"", at);
            const std::string name = html.substr(id + 4, html.find('"', id + 4) - id - 4);
            EXPECT_TRUE(has(html, "for=\"" + name + "\"")) << name;
        }
        EXPECT_TRUE(has(html, "<button type=\"button\""));
    }
}

TEST(ModelBuiltinAppTemplates, TheChecklistCallsOnlyNotesGetAndAdd) {
    const AppTemplate* checklist = match_app("a checklist");
    ASSERT_NE(checklist, nullptr);
    // A caller who may not use notes: the check names exactly those two calls.
    const auto problems = apps_check::check(checklist->html, 256 * 1024, {});
    ASSERT_EQ(problems.size(), 2u) << problems_of(problems);
    EXPECT_EQ(problems[0].rule, "sdk");
    EXPECT_EQ(problems[1].rule, "sdk");
    EXPECT_TRUE(has(problems_of(problems), "notes/add is not a method this app may call"));
    EXPECT_TRUE(has(problems_of(problems), "notes/get is not a method this app may call"));
    // The others call nothing.
    for (const char* other : {"a timer", "a counter", "a unit converter"})
        EXPECT_TRUE(apps_check::check(match_app(other)->html, 256 * 1024, {}).empty()) << other;
}

// ---- matching ---------------------------------------------------------------------------------

std::string key_of(const std::string& request) {
    const AppTemplate* t = match_app(request);
    return t ? t->key : "";
}

TEST(ModelBuiltinAppTemplates, SampleRequestsPickTheirTemplate) {
    const std::pair<const char*, const char*> samples[] = {
        {"checklist", "a checklist"},
        {"checklist", "Build me a check list app"},
        {"checklist", "Could you please make a to-do list, thanks!"},
        {"checklist", "a todo list"},
        {"checklist", "simple to do list"},
        {"checklist", "a packing list for my trip to Spain"},
        {"checklist", "a shopping list I can tick off"},
        {"checklist", "A Grocery List"},
        {"timer", "a countdown timer"},
        {"timer", "a kitchen timer"},
        {"timer", "make a timer to time my workouts"},
        {"timer", "a count-down for my tea"},
        {"timer", "a pomodoro app"},
        {"counter", "a counter"},
        {"counter", "a tally counter for people coming in"},
        {"counter", "an app to tally the birds I see"},
        {"counter", "a clicker"},
        {"converter", "a unit converter"},
        {"converter", "convert units"},
        {"converter", "an app that converts between units"},
        {"converter", "a temperature converter"},
        {"converter", "Length conversion tool"},
        {"converter", "celsius to fahrenheit"},
        {"converter", "km to miles"},
        {"converter", "a kg and pounds calculator"},
    };
    for (const auto& [key, request] : samples) EXPECT_EQ(key_of(request), key) << request;
}

TEST(ModelBuiltinAppTemplates, OtherRequestsBuildNothing) {
    for (const char* request : {
             "", "a weather dashboard", "a tic tac toe game",
             "a stopwatch",                      // counts up: not the countdown timer
             "a timer with a stopwatch",         // the stopwatch part is not there
             "a countdown to Christmas",         // a date, not a duration
             "how many days until my birthday",  // no template word
             "a word counter",                   // counts text, not taps
             "a calorie counter", "a currency converter", "a unit converter with currencies",
             "a checklist with a timer for each item",  // two templates: neither is it
             "a counter and a unit converter", "note that the boiler code is 4512",
             "the counterpart of my encounter",  // words containing "counter" are not it
         })
        EXPECT_EQ(key_of(request), "") << request;
    // Over kLongestAppRequest bytes: more than a template can honestly give.
    std::string longer = "a checklist";
    while (longer.size() <= builtin::kLongestAppRequest) longer += " with more details";
    EXPECT_EQ(key_of(longer), "");
    EXPECT_EQ(key_of(longer.substr(0, builtin::kLongestAppRequest)), "checklist");
}

// ---- through respond ----------------------------------------------------------------------------

json app_tool() {
    return {{"name", "app_html"},
            {"description", "Return the finished app."},
            {"input_schema",
             {{"type", "object"},
              {"properties",
               {{"name", {{"type", "string"}}},
                {"description", {{"type", "string"}}},
                {"html", {{"type", "string"}}}}},
              {"required", {"name", "html"}}}}};
}

json build_request(const std::string& prompt, json tools = json::array({app_tool()})) {
    return {{"system", "You build one small self-contained HTML app."},
            {"messages", {{{"role", "user"}, {"content", prompt}}}},
            {"tools", std::move(tools)},
            {"max_tokens", 16000}};
}

TEST(ModelBuiltinAppBuilds, AMatchingPromptIsAnsweredWithOneAppHtmlCall) {
    for (const AppTemplate& t : builtin::app_templates()) {
        SCOPED_TRACE(t.key);
        const std::string prompt = std::string("Please build a ") +
                                   (std::string(t.key) == "converter" ? "unit converter" : t.key);
        const json answer = builtin::respond(build_request(prompt), 0);
        const json call = {
            {"id", "call_1"},
            {"name", "app_html"},
            {"arguments", {{"name", t.name}, {"description", t.description}, {"html", t.html}}}};
        EXPECT_EQ(answer, (json{{"text", ""},
                                {"tool_calls", {call}},
                                {"stop", "tool_calls"},
                                {"model", "builtin"},
                                {"usage", {{"input_tokens", 0}, {"output_tokens", 0}}}}));
    }
    // Content as blocks is read as its text.
    json blocks = build_request("");
    blocks["messages"][0]["content"] = {{{"type", "text"}, {"text", "a tally counter"}}};
    const json answer = builtin::respond(blocks, 0);
    ASSERT_EQ(answer["tool_calls"].size(), 1u);
    EXPECT_EQ(answer["tool_calls"][0]["arguments"]["name"], "Counter");
}

TEST(ModelBuiltinAppBuilds, AnyOtherPromptNamesTheModelSettingsAndBuildsNothing) {
    const json answer = builtin::respond(build_request("a budget planner with charts"), 0);
    EXPECT_EQ(answer, (json{{"text", builtin::kAppsNeedAModel},
                            {"tool_calls", json::array()},
                            {"stop", "end"},
                            {"model", "builtin"},
                            {"usage", {{"input_tokens", 0}, {"output_tokens", 0}}}}));
    const std::string text = builtin::kAppsNeedAModel;
    EXPECT_TRUE(has(text, "checklist, timer, counter and unit converter")) << text;
    for (const char* setting : {"model.provider", "openai", "anthropic", "model.openai.api_key",
                                "OPENAI_API_KEY", "model.anthropic.api_key", "ANTHROPIC_API_KEY"})
        EXPECT_TRUE(has(text, setting)) << setting;
}

TEST(ModelBuiltinAppBuilds, TheAppToolComesBeforeTheRules) {
    // A phrasing a rule knows, with its tool listed too: still an app build, which fails.
    json tools = json::array(
        {app_tool(),
         {{"name", "notes_add"}, {"description", "..."}, {"input_schema", {{"type", "object"}}}}});
    const json answer = builtin::respond(build_request("note that the code is 4512", tools), 0);
    EXPECT_EQ(answer["text"], builtin::kAppsNeedAModel);
    EXPECT_TRUE(answer["tool_calls"].empty());
}

TEST(ModelBuiltinAppBuilds, WithoutTheAppToolARequestIsRoutedAsBefore) {
    const json notes = json::array(
        {{{"name", "notes_add"}, {"description", "..."}, {"input_schema", {{"type", "object"}}}}});
    // "a checklist" is no rule's: the help text, no app.
    const json help = builtin::respond(build_request("a checklist", notes), 0);
    EXPECT_EQ(help["text"], builtin::help_text({"notes_add"}));
    EXPECT_EQ(help["stop"], "end");
    EXPECT_TRUE(help["tool_calls"].empty());
    // A rule's phrasing: its call, as ever.
    const json noted = builtin::respond(build_request("note that the code is 4512", notes), 0);
    ASSERT_EQ(noted["tool_calls"].size(), 1u);
    EXPECT_EQ(noted["tool_calls"][0]["name"], "notes_add");
    EXPECT_EQ(noted["stop"], "tool_calls");
}

TEST(ModelBuiltinAppBuilds, AConversationEndingWithTheAppResultIsNotBuiltAgain) {
    json request = build_request("a counter");
    const json first = builtin::respond(request, 0);
    request["messages"].push_back(
        {{"role", "assistant"}, {"content", ""}, {"tool_calls", first["tool_calls"]}});
    request["messages"].push_back(
        {{"role", "tool"}, {"tool_call_id", "call_1"}, {"content", R"({"slug": "counter"})"}});
    const json second = builtin::respond(request, 0);
    EXPECT_EQ(second["stop"], "end");
    EXPECT_TRUE(second["tool_calls"].empty());
}

}  // namespace
