#include "calendar.hpp"

#include "rfc3339.hpp"
#include "schedule.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <random>

using platform::json;
using namespace calendar;

namespace {

const std::string kMinutes = std::to_string(Calendar::kMaxMinutes);

const std::string kCreateSchema = R"json({
  "type": "object",
  "properties": {
    "title": {"type": "string", "maxLength": 200, "description": "What the event is"},
    "when": {"type": "string", "format": "date-time", "description": "Start, RFC 3339 with a time-zone offset; in the future"},
    "note": {"type": "string", "maxLength": 10000, "description": "Free text kept with the event"},
    "minutes": {"type": "integer", "minimum": 1, "maximum": )json" + kMinutes + R"json(, "default": )json" +
                                  std::to_string(Calendar::kDefaultMinutes) + R"json(, "description": "Duration in minutes"},
    "repeat": {"type": "string", "enum": ["hourly", "daily", "weekly", "monthly"], "description": "Recurrence; omit for a one-off"},
    "prompt": {"type": "string", "maxLength": 8000, "description": "Run through the agent when the event fires; the answer is mailed to you"},
    "advance": {"type": "object", "description": "A read-only report prepared `minutes` before and delivered at `when` to the recipient",
      "properties": {
        "minutes": {"type": "integer", "minimum": 1, "maximum": )json" + kMinutes + R"json(, "description": "Minutes before the event"},
        "recipient": {"type": "string", "enum": ["user", "agent"], "description": "Who gets the report"}},
      "required": ["minutes", "recipient"], "additionalProperties": false}
  },
  "required": ["title", "when"],
  "additionalProperties": false
})json";

const std::string kUpdateSchema = R"json({
  "type": "object",
  "properties": {
    "id": {"type": "string", "maxLength": 64, "description": "The event's id"},
    "title": {"type": "string", "minLength": 1, "maxLength": 200, "description": "New title"},
    "when": {"type": "string", "format": "date-time", "description": "New start, in the future (RFC 3339 with offset)"},
    "note": {"type": "string", "maxLength": 10000, "description": "New note; empty clears it"},
    "minutes": {"type": "integer", "minimum": 1, "maximum": )json" + kMinutes + R"json(, "description": "New duration in minutes"},
    "repeat": {"type": "string", "enum": ["", "hourly", "daily", "weekly", "monthly"], "description": "New recurrence; empty makes it one-off"},
    "prompt": {"type": "string", "maxLength": 8000, "description": "New prompt; empty clears it"},
    "advance": {"type": "object", "description": "Fields given replace the advance report's; zero minutes with an empty recipient clears it",
      "properties": {
        "minutes": {"type": "integer", "minimum": 0, "maximum": )json" + kMinutes + R"json(},
        "recipient": {"type": "string", "enum": ["", "user", "agent"]}},
      "additionalProperties": false}
  },
  "required": ["id"],
  "additionalProperties": false
})json";

constexpr const char* kIdSchema = R"json({
  "type": "object",
  "properties": {"id": {"type": "string", "maxLength": 64, "description": "The event's id"}},
  "required": ["id"],
  "additionalProperties": false
})json";

constexpr const char* kListSchema = R"json({
  "type": "object",
  "properties": {
    "offset": {"type": "integer", "minimum": 0, "default": 0, "description": "Upcoming events skipped first"},
    "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20, "description": "Page size"}
  },
  "additionalProperties": false
})json";

constexpr const char* kFreeSchema = R"json({
  "type": "object",
  "properties": {
    "from": {"type": "string", "format": "date-time", "description": "Start of the search (RFC 3339); default now"},
    "to": {"type": "string", "format": "date-time", "description": "End of the search (RFC 3339); default a week after from; at most 92 days after it"},
    "minutes": {"type": "integer", "minimum": 1, "maximum": 1440, "default": 30, "description": "Shortest slot worth reporting"},
    "day_start": {"type": "integer", "minimum": 0, "maximum": 23, "default": 9, "description": "Working day starts at this hour (owner's time zone)"},
    "day_end": {"type": "integer", "minimum": 0, "maximum": 23, "default": 18, "description": "Working day ends at this hour (owner's time zone)"}
  },
  "additionalProperties": false
})json";

std::string new_id(int64_t now_ms) { return platform::time_ordered_id("ev", now_ms); }

[[noreturn]] void missing(const std::string& id) { throw platform::not_found("id: no event '" + id + "'"); }

Instant future_when(const std::string& when, int64_t now_ms) {
    auto at = parse_rfc3339(when);
    if (!at) throw platform::invalid_argument("when: must be RFC 3339 with a time-zone offset, e.g. 2027-03-28T09:30:00+01:00");
    if (at->utc_s * 1000 <= now_ms) throw platform::invalid_argument("when: must be in the future");
    return *at;
}

Timing timing(const json& event) {
    return {parse_rfc3339(event.at("when").get<std::string>())->utc_s, event.at("minutes").get<int64_t>(),
            event.value("repeat", "")};
}

}  // namespace

void Calendar::describe(platform::ServiceSpec<Calendar>& s) {
    s.id("calendar").version("1.0.0").service("v1.events").summary("Reminders and scheduled events of their owner");
    s.post("create").title("Create an event")
        .description("Schedules an event (a reminder) at `when`, optionally repeating; returns it with its id.")
        .schema(kCreateSchema).access(platform::Access::owner).handler(&Calendar::create);
    s.get("read").title("Read an event").description("One event of the caller; 404 when there is none.")
        .schema(kIdSchema).access(platform::Access::owner).read_only().handler(&Calendar::read);
    s.get("list").title("List upcoming events")
        .description("The caller's events that have not ended, soonest first, each with `next` (its next start).")
        .schema(kListSchema).access(platform::Access::owner).read_only().handler(&Calendar::list);
    s.post("update").title("Update an event")
        .description("Changes the given fields; the id stays. Empty note, prompt or repeat clears it; zero advance "
                     "minutes with an empty recipient clears advance.")
        .schema(kUpdateSchema).access(platform::Access::owner).idempotent().handler(&Calendar::update);
    s.post("delete").title("Delete an event").description("Cancels the event; 404 when there is none. Not for the agent.")
        .schema(kIdSchema).access(platform::Access::owner).destructive().action().idempotent()
        .withheld_from_agent().handler(&Calendar::remove);
    s.get("free").title("Find free time")
        .description("Open slots of at least `minutes` within working hours (day_start to day_end, in your time "
                     "zone) between `from` and `to`, around your events.")
        .schema(kFreeSchema).access(platform::Access::owner).read_only().handler(&Calendar::free);
}

json Calendar::create(platform::Request& r) {
    const auto& a = r.args();
    const int64_t now = host_.now_ms();
    const Instant at = future_when(r.str("when"), now);
    const std::string stamp = format_rfc3339(now / 1000, 0);
    json event = {{"id", new_id(now)},
                  {"title", r.str("title")},
                  {"when", format_rfc3339(at.utc_s, at.offset_s)},
                  {"note", r.str("note")},
                  {"minutes", a.value("minutes", kDefaultMinutes)},
                  {"repeat", r.str("repeat")},
                  {"prompt", r.str("prompt")},
                  {"advance", a.contains("advance") ? a["advance"] : json(nullptr)},
                  {"created", stamp},
                  {"updated", stamp}};
    r.owned(kCollection).put(event["id"].get<std::string>(), event);
    return event;
}

json Calendar::read(platform::Request& r) {
    const std::string id = r.str("id");
    auto event = r.owned(kCollection).get(id);
    if (!event) missing(id);
    return *event;
}

json Calendar::list(platform::Request& r) {
    const int64_t now_s = host_.now_ms() / 1000;
    const auto zone = owner_zone(r);
    std::vector<std::pair<int64_t, json>> upcoming;
    for (auto& [id, event] : r.owned(kCollection).list()) {
        auto next = next_occurrence(timing(event), *zone, now_s);
        if (!next) continue;
        event["next"] = format_rfc3339(*next, zone->offset_at(*next));
        upcoming.emplace_back(*next, std::move(event));
    }
    std::stable_sort(upcoming.begin(), upcoming.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    const size_t offset = r.args().value("offset", 0), limit = r.args().value("limit", 20);
    json out = json::array();
    for (size_t i = offset; i < upcoming.size() && out.size() < limit; ++i) out.push_back(std::move(upcoming[i].second));
    return {{"events", out}, {"total", upcoming.size()}, {"offset", offset}};
}

json Calendar::update(platform::Request& r) {
    const auto& a = r.args();
    const std::string id = r.str("id");
    const int64_t now = host_.now_ms();
    std::optional<Instant> at;
    if (a.contains("when")) at = future_when(r.str("when"), now);
    auto written = r.owned(kCollection).update(id, [&](const std::optional<json>& cur) -> std::optional<json> {
        if (!cur) missing(id);
        json e = *cur;
        if (at) e["when"] = format_rfc3339(at->utc_s, at->offset_s);
        for (const char* k : {"title", "note", "repeat", "prompt"})
            if (a.contains(k)) e[k] = a[k];
        if (a.contains("minutes")) e["minutes"] = a["minutes"];
        if (a.contains("advance")) {
            json adv = e["advance"].is_object() ? e["advance"] : json{{"minutes", 0}, {"recipient", ""}};
            adv.update(a["advance"]);
            const int64_t minutes = adv.value("minutes", 0);
            const std::string who = adv.value("recipient", "");
            if (minutes == 0 && who.empty()) e["advance"] = nullptr;
            else if (minutes < 1 || who.empty())
                throw platform::invalid_argument("advance: needs minutes (1-" + kMinutes +
                                                 ") and a recipient (user or agent); zero minutes with an empty "
                                                 "recipient clears it");
            else e["advance"] = adv;
        }
        e["updated"] = format_rfc3339(now / 1000, 0);
        return e;
    });
    return *written;
}

json Calendar::remove(platform::Request& r) {
    const std::string id = r.str("id");
    if (!r.owned(kCollection).erase(id)) missing(id);
    return {{"deleted", id}};
}

PLATFORM_SERVICE(Calendar)
