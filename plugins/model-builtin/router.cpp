#include "router.hpp"

#include <regex>

#include "outside_rules.hpp"
#include "phrasing.hpp"
#include "when.hpp"

namespace builtin {

using nlohmann::json;

namespace {

using Calls = std::vector<ToolCall>;
using Build = Calls (*)(const std::string& capture, const LocalClock& clock);

// ---- builders: a capture to tool calls, most preferred first; none = the rule does not apply --

std::string what_to_do(const std::string& text) {
    return unquoted(strip_leading(
        text, {"to", "about", "that", "of", "for", "i have to", "i need to", "i must", "me to"}));
}

Calls note_add(const std::string& cap, const LocalClock&) {
    const std::string text = unquoted(strip_leading(cap, {"that"}));
    if (text.empty()) return {};
    return {{"notes_add", {{"title", short_title(text)}, {"text", text}}}};
}

std::string note_title(const std::string& cap) {
    return unquoted(strip_leading(cap, {"called", "titled", "named", "about", "on"}));
}
Calls note_get(const std::string& cap, const LocalClock&) {
    return {{"notes_get", {{"title", note_title(cap)}}}};
}
Calls note_delete(const std::string& cap, const LocalClock&) {
    return {{"notes_delete", {{"title", note_title(cap)}}}};
}
Calls note_list(const std::string&, const LocalClock&) {
    return {{"notes_list", json::object()}};
}
Calls task_list(const std::string&, const LocalClock&) {
    return {{"tasks_list", json::object()}};
}
Calls event_list(const std::string&, const LocalClock&) {
    return {{"events_list", json::object()}};
}

// "remind me ...": with a time an event (or, without events, a task due then); without, a task.
Calls remind(const std::string& cap, const LocalClock& clock) {
    const WhenFound w = find_when(cap, clock);
    const auto at = reminder_instant(w, clock);
    if (!at) {
        const std::string title = what_to_do(cap);
        if (title.empty()) return {};
        return {{"tasks_create", {{"title", title}}}};
    }
    std::string title = what_to_do(w.rest);
    if (title.empty()) title = "Reminder";
    const std::string when = clock.rfc3339(*at);
    return {{"events_create", {{"title", title}, {"when", when}}},
            {"tasks_create", {{"title", title}, {"due", when}}}};
}

Calls task_create(const std::string& cap, const LocalClock& clock) {
    const WhenFound w = find_when(cap, clock);
    const auto due = reminder_instant(w, clock);
    const std::string title = what_to_do(due ? w.rest : cap);
    if (title.empty()) return {};
    json args = {{"title", title}};
    if (due) args["due"] = clock.rfc3339(*due);
    return {{"tasks_create", args}};
}

Calls event_create(const std::string& cap, const LocalClock& clock) {
    const WhenFound w = find_when(cap, clock);
    const auto at = reminder_instant(w, clock);
    if (!at) return {};
    std::string title =
        unquoted(strip_leading(w.rest, {"a", "an", "the", "event", "calendar entry", "entry",
                                        "called", "titled", "named", "for", ":"}));
    if (title.empty()) title = "Event";
    return {{"events_create", {{"title", title}, {"when", clock.rfc3339(*at)}}}};
}

Calls free_time(const std::string& cap, const LocalClock& clock) {
    const WhenFound w = find_when(cap, clock);
    if (!w.day) return {{"events_free", json::object()}};
    const int64_t from = *w.day <= clock.today() ? clock.now() : clock.midnight(*w.day);
    const int64_t to = clock.midnight(*w.day + w.days);
    if (to <= from) return {{"events_free", json::object()}};
    return {{"events_free", {{"from", clock.rfc3339(from)}, {"to", clock.rfc3339(to)}}}};
}

Calls contact_find(const std::string& cap, const LocalClock&) {
    std::string q =
        unquoted(strip_leading(cap, {"my", "the", "contact details for", "details for",
                                     "contact for", "contacts for", "contact", "info for"}));
    for (const char* tail :
         {" in my contacts", " in contacts", " in my address book", " in the address book"})
        if (const std::string t = tail;
            q.size() > t.size() && lower(q.substr(q.size() - t.size())) == t)
            q.erase(q.size() - t.size());
    if (q.empty()) return {};
    return {{"contacts_find", {{"query", q}}}};
}

// ---- the table --------------------------------------------------------------------------------

struct Rule {
    const char* pattern;
    Build build;
    const char* then = nullptr;  // after places_geocode answers: this tool at the place
};

#define VIEW                                                                    \
    "(?:what are|what're|what's|whats|show|show me|list|get|give me|read|read " \
    "me|display|see|check|open|find) "
const Rule kRules[] = {
    {R"((?:delete|remove|erase|forget|drop|trash|get rid of) (?:the |my |that )?note(?: called| titled| named|:)? (.+))",
     note_delete},
    {R"((?:what's|what is|whats|read|read me|show|show me|open|get|display|give me|find) (?:the |my )?note(?: called| titled| named| about|:)? (.+?))",
     note_get},
    {R"(what does (?:the |my )?note (.+?) say)", note_get},
    {"(?:" VIEW ")?(?:all )?(?:of )?(?:my |the )?notes(?: i have)?", note_list},
    {R"(what notes (?:do i have|have i got|are there))", note_list},
    {R"((?:do i have|have i got|are there) (?:any )?notes)", note_list},
    {R"((?:(?:what's|what is|whats|when am i|when are we|am i|is there|is there any|find|find me|show|show me|check|do i have|have i got|get|any) )?(?:some |any |my )?(?:free time|free slots?|open slots?|availability|free|available)(?: (.*))?)",
     free_time},
    {R"((?:what|which) (?:time|times|slots|hours) (?:is|are|am i) (?:free|available|open)(?: (.*))?)",
     free_time},
    {R"((?:remind me|set (?:a |an )?reminder|create (?:a |an )?reminder|add (?:a |an )?reminder|new reminder|reminder|remember(?= to ))[:,]? (.+))",
     remind},
    {R"((?:add|create|make|new|set up|put|start)(?: me)? (?:a |an |one )?(?:new )?(?:task|todo|to-do|to do)(?: item)?(?: to| for| about| called| titled|:|,)? (.+))",
     task_create},
    {R"((?:add|put) (.+?) (?:to|on) (?:my |the )?(?:task|todo|to-do|to do) ?list)", task_create},
    {R"((?:todo|to-do|task): (.+))", task_create},
    {R"(i (?:need to|have to|must|should|gotta|got to) (.+))", task_create},
    {R"((?:schedule|book|plan|pencil in) (.+))", event_create},
    {R"((?:add|create|make|set up|new|put) (?:an? |the )?((?:event|appointment|meeting|call|calendar entry|entry)\b.*))",
     event_create},
    {R"((?:add|put) (.+?) (?:to|on|in|into) (?:my |the )?calendar)", event_create},
    {R"((?:note|note down|make a note|make note|take a note|take note|write down|jot down|remember|save a note|add a note|new note|create a note)(?: that| of| saying)?[:,]? (.+))",
     note_add},
    {"(?:" VIEW ")?(?:all )?(?:of )?(?:my |the )?(?:open |pending |current |outstanding |remaining "
     ")?(?:tasks|todos|to-dos|to dos|todo list|to-do list|to do list|task list)(?: i have)?",
     task_list},
    {R"(what(?:'s| is) (?:on|in) my (?:todo|to-do|to do|task) list)", task_list},
    {R"(what do i (?:have|need|still have) to do(?: .*)?)", task_list},
    {R"((?:do i have|have i got|are there) (?:any )?(?:open |pending )?(?:tasks|todos|to-dos))",
     task_list},
    {"(?:" VIEW ")?(?:all )?(?:of )?(?:my |the )?(?:upcoming |next |future |scheduled "
     ")?(?:events|reminders|appointments|meetings|calendar|schedule|agenda)",
     event_list},
    {R"(what(?:'s| is) (?:on|in) my (?:calendar|schedule|agenda)(?: .*)?)", event_list},
    {R"(what(?:'s| is) (?:coming up|next|planned|scheduled)(?: .*)?)", event_list},
    {R"((?:do i have|have i got|are there) (?:any )?(?:upcoming )?(?:events|appointments|meetings|reminders)(?: .*)?)",
     event_list},
    {R"(what do i have (?:on|planned|scheduled|coming up)(?: .*)?)", event_list},
    {R"((?:find|get|show|show me|give me|tell me|look up|lookup|search for|what's|what is|whats|what are|i need|send me|do you have|do you know|do i have) (.+?)(?:'s|') (?:phone number|phone|number|mobile number|mobile|cell|email address|email|e-mail|mail|address|contact details|contact info|contact information|contact|details|info|card|numbers|emails))",
     contact_find},
    {R"((.+?)'s (?:phone number|phone|number|mobile|email address|email|e-mail|address|contact details|contact info|contact))",
     contact_find},
    {R"((?:what's|what is|whats|find|get) the (?:phone number|number|email address|email|e-mail|address|contact details) (?:of|for) (.+))",
     contact_find},
    {R"((?:how do i|how can i) (?:reach|contact|call|email|phone|text) (.+))", contact_find},
    {R"((?:(?:what's|what is|whats|how's|how is|hows|what will|what'll|show me|show|tell me|get|check|give me|and) )?(?:the )?(?:weather|weather forecast|forecast)(?: (.*))?)",
     weather_call},
    {R"((?:will|is|does) it (?:going to |look like it(?:'ll| will) )?rain(?: (.*))?)", rain_call},
    {R"((?:do i need|should i take|should i bring) (?:an |my |a )?umbrella(?: (.*))?)", rain_call},
    {R"((?:(?:when is|when's|whens|what time is|what's|what is|whats) )?(?:the )?next prayer(?: time)?(?: (.*))?)",
     prayer_call, "prayer_times"},
    {R"((?:(?:what are|what're|show me|show|get|give me|list) )?(?:the |today's )?prayer times?(?: (.*))?)",
     prayer_call, "prayer_times"},
    {R"((?:(?:any|show me|show|list|are there any|were there any|have there been any|find) )?(?:recent |latest |big )?(?:earthquakes?|quakes)(?: (.*))?)",
     quakes_call, "hazards_quakes"},
    {R"((?:find|look up|lookup|search for|search contacts for|search my contacts for|who is|who's|whos) (.+))",
     contact_find},
};
#undef VIEW

const std::vector<std::regex>& compiled() {
    static const std::vector<std::regex> all = [] {
        std::vector<std::regex> out;
        for (const Rule& r : kRules)
            out.emplace_back(r.pattern, std::regex::ECMAScript | std::regex::icase);
        return out;
    }();
    return all;
}

struct Example {
    const char* tool;
    const char* phrase;
};
const Example kExamples[] = {
    {"notes_add", "note that the boiler code is 4512"},
    {"notes_list", "what are my notes"},
    {"notes_get", "read the note boiler code"},
    {"notes_delete", "delete the note boiler code"},
    {"tasks_create", "add a task to renew the passport"},
    {"tasks_list", "what are my tasks"},
    {"events_create", "remind me tomorrow at 9 to call the dentist"},
    {"events_list", "what's on my calendar"},
    {"events_free", "what's free on Friday"},
    {"contacts_find", "find Ann's number"},
    {"weather_lookup", "weather in London tomorrow"},
    {"prayer_times", "next prayer in Leeds"},
    {"hazards_quakes", "earthquakes near Tokyo"},
};

constexpr size_t kLongest = 500;

}  // namespace

std::string service_of(const std::string& tool) {
    return tool.substr(0, tool.find('_'));
}

Routed route(const std::string& request, const std::set<std::string>& tools,
             const LocalClock& clock) {
    const std::string text = normalise(request);
    Routed out;
    if (text.empty() || text.size() > kLongest) return out;
    const auto& res = compiled();
    for (size_t i = 0; i < res.size(); ++i) {
        std::smatch m;
        if (!std::regex_match(text, m, res[i])) continue;
        const std::string capture = m.size() > 1 && m[1].matched ? m[1].str() : "";
        Calls calls = kRules[i].build(capture, clock);
        if (calls.empty()) continue;
        if (kRules[i].then && calls.front().name == "places_geocode") {
            // Two steps: both tools must be listed, or the request is refused naming the one
            // that is not.
            const std::string then = kRules[i].then;
            if (!tools.count(then)) {
                out.refused = service_of(then);
                return out;
            }
            out.then = then;
        }
        for (auto& c : calls)
            if (tools.count(c.name)) {
                out.calls.push_back(std::move(c));
                return out;
            }
        out.refused = service_of(calls.front().name);
        return out;
    }
    return out;
}

std::optional<ToolCall> follow_up(const std::string& request, const json& geocoded,
                                  const std::set<std::string>& tools, const LocalClock& clock) {
    const Routed r = route(request, tools, clock);
    if (r.then.empty()) return std::nullopt;
    return after_place(r.then, geocoded, clock);
}

std::vector<std::string> examples(const std::set<std::string>& tools) {
    std::vector<std::string> out;
    for (const Example& e : kExamples)
        if (tools.count(e.tool)) out.emplace_back(e.phrase);
    return out;
}

}  // namespace builtin
