// router.hpp and phrasing.hpp: each sample request of model-builtin routed to its tool call with the
// arguments the services' schemas take, courtesy around it ignored, tools that are not listed
// refused (never called), and the help text when no rule knows the request.
#include "router.hpp"

#include <gtest/gtest.h>

#include "clocks.hpp"
#include "conversation.hpp"
#include "phrasing.hpp"

namespace {

using builtin::route;
using builtin::Routed;
using builtin_test::clock_at;
using builtin_test::paris;
using nlohmann::json;

const std::set<std::string> kAll = {"notes_add",    "notes_list",   "notes_get",     "notes_delete",
                                    "tasks_create", "tasks_list",   "events_create", "events_list",
                                    "events_free",  "contacts_find"};

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// The one call `request` routes to with every tool listed, as {"name", "arguments"}.
json call_of(const std::string& request, const std::set<std::string>& tools = kAll,
             const builtin::LocalClock& clock = paris()) {
    const Routed r = route(request, tools, clock);
    EXPECT_TRUE(r.refused.empty()) << request << " refused " << r.refused;
    EXPECT_EQ(r.calls.size(), 1u) << request;
    if (r.calls.size() != 1) return nullptr;
    return {{"name", r.calls[0].name}, {"arguments", r.calls[0].arguments}};
}

// ---- the sample requests ----------------------------------------------------------------------

TEST(ModelBuiltinRouter, NoteThatAddsANoteTitledByItsSubject) {
    EXPECT_EQ(
        call_of("note that the boiler code is 4512"),
        (json{{"name", "notes_add"},
              {"arguments", {{"title", "boiler code"}, {"text", "the boiler code is 4512"}}}}));
    EXPECT_EQ(call_of("Note: wifi password = hunter2")["arguments"],
              (json{{"title", "wifi password"}, {"text", "wifi password = hunter2"}}));
}

TEST(ModelBuiltinRouter, WhatAreMyNotesListsThem) {
    EXPECT_EQ(call_of("what are my notes"),
              (json{{"name", "notes_list"}, {"arguments", json::object()}}));
    EXPECT_EQ(call_of("show me my notes")["name"], "notes_list");
    EXPECT_EQ(call_of("notes")["name"], "notes_list");
    EXPECT_EQ(call_of("read the note boiler code"),
              (json{{"name", "notes_get"}, {"arguments", {{"title", "boiler code"}}}}));
    EXPECT_EQ(call_of("delete the note called \"boiler code\""),
              (json{{"name", "notes_delete"}, {"arguments", {{"title", "boiler code"}}}}));
}

TEST(ModelBuiltinRouter, AddATaskCreatesIt) {
    EXPECT_EQ(call_of("add a task to renew the passport"),
              (json{{"name", "tasks_create"}, {"arguments", {{"title", "renew the passport"}}}}));
    // With a time the task is due then, in the zone's offset.
    EXPECT_EQ(call_of("add a task to renew the passport by Friday")["arguments"],
              (json{{"title", "renew the passport"}, {"due", "2026-11-27T09:00:00+01:00"}}));
    EXPECT_EQ(call_of("i need to water the plants")["arguments"],
              (json{{"title", "water the plants"}}));
    EXPECT_EQ(call_of("what are my tasks")["name"], "tasks_list");
}

TEST(ModelBuiltinRouter, RemindMeTomorrowAtNineCreatesAnEventInTheZonesOffset) {
    EXPECT_EQ(call_of("remind me tomorrow at 9 to call the dentist"),
              (json{{"name", "events_create"},
                    {"arguments",
                     {{"title", "call the dentist"}, {"when", "2026-11-26T09:00:00+01:00"}}}}));
    // The time may come after the errand.
    EXPECT_EQ(call_of("remind me to call the dentist tomorrow at 9")["arguments"],
              (json{{"title", "call the dentist"}, {"when", "2026-11-26T09:00:00+01:00"}}));
    // In another zone, the same words are that zone's 09:00.
    EXPECT_EQ(
        call_of("remind me tomorrow at 9 to call the dentist", kAll,
                clock_at("2026-11-25T10:00:00-05:00", "America/New_York"))["arguments"]["when"],
        "2026-11-26T09:00:00-05:00");
}

TEST(ModelBuiltinRouter, RemindMeFallsBackToATaskDueThenWithoutEvents) {
    std::set<std::string> tools = kAll;
    tools.erase("events_create");
    EXPECT_EQ(call_of("remind me tomorrow at 9 to call the dentist", tools),
              (json{{"name", "tasks_create"},
                    {"arguments",
                     {{"title", "call the dentist"}, {"due", "2026-11-26T09:00:00+01:00"}}}}));
    // Without a time, a reminder is a task.
    EXPECT_EQ(call_of("remind me to call the dentist"),
              (json{{"name", "tasks_create"}, {"arguments", {{"title", "call the dentist"}}}}));
    // Neither listed: refused naming the first choice's service.
    tools.erase("tasks_create");
    const Routed r = route("remind me tomorrow at 9 to call the dentist", tools, paris());
    EXPECT_TRUE(r.calls.empty());
    EXPECT_EQ(r.refused, "events");
}

TEST(ModelBuiltinRouter, WhatsFreeOnFridayCoversThatFridayInTheZone) {
    EXPECT_EQ(
        call_of("what's free on Friday"),
        (json{{"name", "events_free"},
              {"arguments",
               {{"from", "2026-11-27T00:00:00+01:00"}, {"to", "2026-11-28T00:00:00+01:00"}}}}));
    // Today's free time starts now; "this week" is now to the end of the sixth day after today.
    EXPECT_EQ(call_of("am i free today")["arguments"],
              (json{{"from", "2026-11-25T10:00:00+01:00"}, {"to", "2026-11-26T00:00:00+01:00"}}));
    EXPECT_EQ(call_of("when am i free this week")["arguments"],
              (json{{"from", "2026-11-25T10:00:00+01:00"}, {"to", "2026-12-02T00:00:00+01:00"}}));
    // Without a day the service's default span.
    EXPECT_EQ(call_of("what's free"),
              (json{{"name", "events_free"}, {"arguments", json::object()}}));
}

TEST(ModelBuiltinRouter, FreeTimeOnTheDayOfADstChangeIsTwentyThreeHours) {
    const auto c = clock_at("2026-03-28T10:00:00+01:00", "Europe/Paris");
    EXPECT_EQ(call_of("what's free tomorrow", kAll, c)["arguments"],
              (json{{"from", "2026-03-29T00:00:00+01:00"}, {"to", "2026-03-30T00:00:00+02:00"}}));
    EXPECT_EQ(call_of("remind me tomorrow at 9 to call the dentist", kAll, c)["arguments"]["when"],
              "2026-03-29T09:00:00+02:00");
}

TEST(ModelBuiltinRouter, FindAnnsNumberSearchesTheContacts) {
    EXPECT_EQ(call_of("find Ann's number"),
              (json{{"name", "contacts_find"}, {"arguments", {{"query", "Ann"}}}}));
    EXPECT_EQ(call_of("find Ann\xE2\x80\x99s number")["arguments"]["query"],
              "Ann");  // typographic apostrophe
    EXPECT_EQ(call_of("what's Ann Smith's email")["arguments"]["query"], "Ann Smith");
    EXPECT_EQ(call_of("who is Ann")["arguments"]["query"], "Ann");
    EXPECT_EQ(call_of("how do i reach Bob")["arguments"]["query"], "Bob");
}

TEST(ModelBuiltinRouter, CourtesyAroundARequestIsIgnored) {
    const json boiler = call_of("note that the boiler code is 4512");
    EXPECT_EQ(call_of("please note that the boiler code is 4512"), boiler);
    EXPECT_EQ(call_of("Could you please note that the boiler code is 4512?"), boiler);
    EXPECT_EQ(call_of("note that the boiler code is 4512, thanks!"), boiler);
    EXPECT_EQ(call_of("could you add a task to renew the passport"),
              call_of("add a task to renew the passport"));
    EXPECT_EQ(call_of("What are my notes, please?"), call_of("what are my notes"));
    EXPECT_EQ(call_of("Hey, remind me tomorrow at 9 to call the dentist. Thank you"),
              call_of("remind me tomorrow at 9 to call the dentist"));
    EXPECT_EQ(call_of("Could you check my availability on Friday for me?"),
              call_of("what's free on Friday"));
    EXPECT_EQ(call_of("Please find Ann's number, thanks"), call_of("find Ann's number"));
    EXPECT_EQ(builtin::normalise("  Please,  could you   note that x   thanks.  "), "note that x");
}

// ---- refusals and the help text ---------------------------------------------------------------

TEST(ModelBuiltinRouter, AToolThatIsNotListedIsRefusedNamingItsServiceAndNeverCalled) {
    const std::set<std::string> no_notes = {"tasks_create", "events_create", "contacts_find"};
    Routed r = route("note that the boiler code is 4512", no_notes, paris());
    EXPECT_TRUE(r.calls.empty());
    EXPECT_EQ(r.refused, "notes");
    EXPECT_TRUE(r.matched());
    r = route("find Ann's number", {"notes_add"}, paris());
    EXPECT_TRUE(r.calls.empty());
    EXPECT_EQ(r.refused, "contacts");
    r = route("what's free on Friday", {}, paris());
    EXPECT_TRUE(r.calls.empty());
    EXPECT_EQ(r.refused, "events");
}

TEST(ModelBuiltinRouter, NoRuleMatchesOtherRequests) {
    for (const char* text :
         {"tell me a joke", "what is the meaning of life", "", "   ", "thanks"}) {
        const Routed r = route(text, kAll, paris());
        EXPECT_FALSE(r.matched()) << text;
    }
    // Requests longer than 500 bytes match nothing.
    EXPECT_FALSE(route("note that " + std::string(600, 'x'), kAll, paris()).matched());
}

TEST(ModelBuiltinRouter, TheHelpTextListsExamplesOfTheListedToolsAndHowToConfigureAModel) {
    const std::string help = builtin::help_text({"notes_add", "contacts_find"});
    EXPECT_TRUE(has(help, "note that the boiler code is 4512")) << help;
    EXPECT_TRUE(has(help, "find Ann's number")) << help;
    EXPECT_FALSE(has(help, "add a task to renew the passport"))
        << help;  // tasks_create is not listed
    EXPECT_TRUE(has(help, "model.provider openai")) << help;
    EXPECT_TRUE(has(help, "model.provider anthropic")) << help;
    EXPECT_TRUE(has(help, "OPENAI_API_KEY")) << help;

    const std::string none = builtin::help_text({});
    EXPECT_TRUE(has(none, "may not use any of the services")) << none;
    EXPECT_TRUE(has(none, "model.provider")) << none;

    EXPECT_EQ(
        builtin::examples(kAll),
        (std::vector<std::string>{
            "note that the boiler code is 4512", "what are my notes", "read the note boiler code",
            "delete the note boiler code", "add a task to renew the passport", "what are my tasks",
            "remind me tomorrow at 9 to call the dentist", "what's on my calendar",
            "what's free on Friday", "find Ann's number"}));
    // Every example routes to its own tool.
    for (const auto& e : builtin::examples(kAll))
        EXPECT_TRUE(route(e, kAll, paris()).matched()) << e;
}

TEST(ModelBuiltinRouter, EveryExampleRoutesToTheToolItIllustrates) {
    for (const char* tool :
         {"notes_add", "notes_list", "notes_get", "notes_delete", "tasks_create", "tasks_list",
          "events_create", "events_list", "events_free", "contacts_find"}) {
        const auto ex = builtin::examples({tool});
        ASSERT_EQ(ex.size(), 1u) << tool;
        EXPECT_EQ(call_of(ex[0])["name"], tool) << ex[0];
    }
    EXPECT_EQ(builtin::service_of("notes_add"), "notes");
    EXPECT_EQ(builtin::service_of("contacts_find"), "contacts");
}

TEST(ModelBuiltinPhrasing, ShortTitles) {
    EXPECT_EQ(builtin::short_title("the boiler code is 4512"), "boiler code");
    EXPECT_EQ(builtin::short_title("My sister's birthday: 3 May"), "sister's birthday");
    EXPECT_EQ(builtin::short_title("buy milk"), "buy milk");
    EXPECT_EQ(builtin::short_title("one two three four five six seven eight"),
              "one two three four five six");
    const std::string long_word(100, 'a');
    EXPECT_EQ(builtin::short_title(long_word).size(), 80u);
    EXPECT_EQ(builtin::unquoted(" \"'x'\" "), "x");
    EXPECT_EQ(builtin::strip_leading("to call Bob", {"to"}), "call Bob");
}

}  // namespace
