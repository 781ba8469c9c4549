// What an app build asks the model (plugins/apps/build_model.hpp) and how an answer becomes an
// app: the app_html call (arguments as an object or a JSON string), an HTML document in a text
// answer, and answers that are no app (the model's own words kept as the reason).
#include "../../../plugins/apps/build_model.hpp"

#include <gtest/gtest.h>

namespace {

using platform::json;

TEST(AppBuildModel, TheRequestOffersOnlyTheReturnToolAndListsTheMethods) {
    const json req = apps_build::model_request("a timer", {"notes/list", "notes/add"});
    ASSERT_EQ(req["messages"].size(), 1u);
    EXPECT_EQ(req["messages"][0]["role"], "user");
    EXPECT_EQ(req["messages"][0]["content"], "a timer");
    ASSERT_EQ(req["tools"].size(), 1u);
    EXPECT_EQ(req["tools"][0]["name"], "app_html");
    EXPECT_EQ(req["tools"][0]["input_schema"]["required"], json({"name", "html"}));
    const std::string system = req["system"];
    EXPECT_NE(system.find("notes/list, notes/add"), std::string::npos) << system;
    EXPECT_NE(system.find("platform.call"), std::string::npos);
    EXPECT_NE(apps_build::model_request("x", {})["system"].get<std::string>().find(
                  "(service/method): none"),
              std::string::npos);
}

TEST(AppBuildModel, TheToolCallIsTheApp) {
    std::string why;
    const json reply = {
        {"text", ""},
        {"tool_calls",
         {{{"id", "call_1"},
           {"name", "app_html"},
           {"arguments", {{"name", "Timer"}, {"description", "Counts down"}, {"html", "<p>t"}}}}}},
        {"stop", "tool_calls"}};
    auto built = apps_build::read_reply(reply, &why);
    ASSERT_TRUE(built) << why;
    EXPECT_EQ(built->name, "Timer");
    EXPECT_EQ(built->description, "Counts down");
    EXPECT_EQ(built->html, "<p>t");

    json as_string = reply;
    as_string["tool_calls"][0]["arguments"] = R"({"name": "N", "html": "<b>x</b>"})";
    built = apps_build::read_reply(as_string, &why);
    ASSERT_TRUE(built) << why;
    EXPECT_EQ(built->html, "<b>x</b>");
    EXPECT_EQ(built->description, "");
}

TEST(AppBuildModel, ACallWithoutHtmlIsNoApp) {
    std::string why;
    const json reply = {
        {"tool_calls", {{{"id", "c"}, {"name", "app_html"}, {"arguments", {{"name", "x"}}}}}}};
    EXPECT_FALSE(apps_build::read_reply(reply, &why));
    EXPECT_NE(why.find("without an `html`"), std::string::npos) << why;
}

TEST(AppBuildModel, AnHtmlDocumentInTextIsReadWithItsTitle) {
    std::string why;
    auto built = apps_build::read_reply(
        {{"text", "Here it is:\n```html\n<!doctype html><title> Tally </title><p>1\n```\nEnjoy"}},
        &why);
    ASSERT_TRUE(built) << why;
    EXPECT_EQ(built->html, "<!doctype html><title> Tally </title><p>1\n");
    EXPECT_EQ(built->name, "Tally");

    built = apps_build::read_reply(
        {{"text", "Sure. <!DOCTYPE html><html><body>x</body></html> Done."}}, &why);
    ASSERT_TRUE(built) << why;
    EXPECT_EQ(built->html, "<!DOCTYPE html><html><body>x</body></html>");
    EXPECT_EQ(built->name, "");
}

TEST(AppBuildModel, TextWithoutADocumentIsTheReason) {
    std::string why;
    const std::string says =
        "The offline model builds only checklist apps; set model.provider to build others.";
    EXPECT_FALSE(apps_build::read_reply({{"text", says}, {"stop", "end"}}, &why));
    EXPECT_EQ(why, "the model did not build an app: " + says);
    EXPECT_FALSE(apps_build::read_reply({{"text", std::string(1000, 'x')}}, &why));
    EXPECT_EQ(why.size(), std::string("the model did not build an app: ").size() + 400 + 3);
    EXPECT_FALSE(apps_build::read_reply(json::array(), &why));
    EXPECT_EQ(why, "the model's answer is not a JSON object");
    EXPECT_FALSE(apps_build::read_reply(json::object(), &why));
    EXPECT_EQ(why, "the model answered neither app_html nor an HTML document");
}

}  // namespace
