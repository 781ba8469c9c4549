#include <algorithm>
#include <atomic>
#include <cstdio>
#include <random>

#include "calendar.hpp"
#include "due.hpp"
#include "schedule.hpp"

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
    "minutes": {"type": "integer", "minimum": 1, "maximum": )json" +
                                  kMinutes + R"json(, "default": )json" +
                                  std::to_string(Calendar::kDefaultMinutes) +
                                  R"json(, "description": "Duration in minutes"},
    "repeat": {"type": "string", "enum": ["hourly", "daily", "weekly", "monthly"], "description": "Recurrence; omit for a one-off"},
    "prompt": {"type": "string", "maxLength": 8000, "description": "Run through the agent when the event fires; the answer lands in your inbox as a new conversation"},
    "advance": {"type": "object", "description": "A read-only report prepared `minutes` before and delivered at `when` to the recipient",
      "properties": {
        "minutes": {"type": "integer", "minimum": 1, "maximum": )json" +
                                  kMinutes + R"json(, "description": "Minutes before the event"},
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
    "minutes": {"type": "integer", "minimum": 1, "maximum": )json" +
                                  kMinutes + R"json(, "description": "New duration in minutes"},
    "repeat": {"type": "string", "enum": ["", "hourly", "daily", "weekly", "monthly"], "description": "New recurrence; empty makes it one-off"},
    "prompt": {"type": "string", "maxLength": 8000, "description": "New prompt; empty clears it"},
    "advance": {"type": "object", "description": "Fields given replace the advance report's; zero minutes with an empty recipient clears it",
      "properties": {
        "minutes": {"type": "integer", "minimum": 0, "maximum": )json" +
                                  kMinutes + R"json(},
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

constexpr const char* kConfigSchema = R"json({
  "type": "object",
  "properties": {
    "poll_ms": {"type": "integer", "minimum": 10, "maximum": 60000, "description": "Real time between the scheduler's looks at the due index (default 200)"},
    "start_delay_ms": {"type": "integer", "minimum": 0, "maximum": 60000, "description": "Real time after start before the first look, so the services it calls are loaded (default 1000)"}
  }
})json";

std::string new_id(int64_t now_ms) {
    return platform::time_ordered_id("ev", now_ms);
}

[[noreturn]] void missing(const std::string& id) {
    throw platform::not_found("id: no event '" + id + "'");
}

Instant future_when(const std::string& when, int64_t now_ms) {
    auto at = parse_rfc3339(when);
    if (!at)
        throw platform::invalid_argument(
            "when: must be RFC 3339 with a time-zone offset, e.g. 2027-03-28T09:30:00+01:00");
    if (at->utc_s * 1000 <= now_ms) throw platform::invalid_argument("when: must be in the future");
    return *at;
}

// A grant to act for the caller when the event fires; "" on a host without grants (the event
// is kept and its steps record that they could not run).
std::string take_grant(platform::Request& r) {
    try {
        return r.grant();
    } catch (const platform::Error& e) {
        if (e.code() != platform::Code::unsupported) throw;
        return "";
    }
}

// Plans an updated event's next step (due.hpp); false when nothing is left to fire (a one-off
// already fired). A new `when` starts the series afresh; otherwise the pending occurrence stays
// the next one (its step is re-planned, e.g. for a changed advance), and an event with none
// pending (fired, or firing right now) takes the first occurrence after now and after the last
// one fired. A prepared briefing is kept only when title, note, prompt and advance are unchanged.
bool replan(json& e, const json& before, const std::string& owner, const TimeZone& zone,
            const std::optional<Instant>& at, int64_t now_s) {
    json s = before.contains(kHidden) ? before[kHidden] : json::object();
    int64_t after = now_s - 1;
    if (at) {
        s["anchor"] = at->utc_s;
        s.erase("done");
        after = at->utc_s - 1;
    } else {
        if (!s.contains("anchor")) s["anchor"] = parse_rfc3339(before.value("when", ""))->utc_s;
        const std::string stage =
            s.contains("stage") && s["stage"].is_string() ? s["stage"].get<std::string>() : "";
        if ((stage == "prepare" || stage == "fire") && s.contains("occurrence")) {
            after = s["occurrence"].get<int64_t>() - 1;
        } else {
            if (s.contains("done")) after = std::max(after, s["done"].get<int64_t>());
            if (s.contains("firing"))
                after = std::max(after, s["firing"]["occurrence"].get<int64_t>());
        }
    }
    e[kHidden] = s;
    for (const char* k : {"title", "note", "prompt", "advance"})
        if (e.value(k, json()) != before.value(k, json())) e["briefing"] = nullptr;
    const bool armed = plan(e, owner, zone, after);
    if (armed) e["fired"] = false;
    return armed;
}

// Runs fn; on an exception gives the grant back first.
template <class F>
auto keeping_grant(const platform::Host& host, const std::string& grant, F&& fn) {
    try {
        return fn();
    } catch (...) {
        if (!grant.empty()) host.revoke_grant(grant);
        throw;
    }
}

}  // namespace

void Calendar::describe(platform::ServiceSpec<Calendar>& s) {
    s.id("calendar")
        .version("1.0.0")
        .service("v1.events")
        .summary("Reminders and scheduled events of their owner");
    s.config_schema(kConfigSchema);
    s.post("create")
        .title("Create an event")
        .description(
            "Schedules an event (a reminder) at `when`, optionally repeating; returns it with its "
            "id. When "
            "it fires, its `prompt` runs through the agent (else a reminder is sent); the answer "
            "lands in "
            "your inbox. `advance` prepares a read-only briefing `minutes` before, delivered at "
            "`when`.")
        .schema(kCreateSchema)
        .access(platform::Access::owner)
        .handler(&Calendar::create);
    s.get("read")
        .title("Read an event")
        .description("One event of the caller; 404 when there is none.")
        .schema(kIdSchema)
        .access(platform::Access::owner)
        .read_only()
        .handler(&Calendar::read);
    s.get("list")
        .title("List upcoming events")
        .description(
            "The caller's events that have not ended, soonest first, each with `next` (its next "
            "start).")
        .schema(kListSchema)
        .access(platform::Access::owner)
        .read_only()
        .handler(&Calendar::list);
    s.post("update")
        .title("Update an event")
        .description(
            "Changes the given fields; the id stays. Empty note, prompt or repeat clears it; zero "
            "advance "
            "minutes with an empty recipient clears advance.")
        .schema(kUpdateSchema)
        .access(platform::Access::owner)
        .idempotent()
        .handler(&Calendar::update);
    s.post("delete")
        .title("Delete an event")
        .description("Cancels the event; 404 when there is none. Not for the agent.")
        .schema(kIdSchema)
        .access(platform::Access::owner)
        .destructive()
        .action()
        .idempotent()
        .withheld_from_agent()
        .handler(&Calendar::remove);
    s.get("free")
        .title("Find free time")
        .description(
            "Open slots of at least `minutes` within working hours (day_start to day_end, in your "
            "time "
            "zone) between `from` and `to`, around your events.")
        .schema(kFreeSchema)
        .access(platform::Access::owner)
        .read_only()
        .handler(&Calendar::free);
}

json Calendar::create(platform::Request& r) {
    const auto& a = r.args();
    r.owned(kCollection);  // 401 for an anonymous caller
    const int64_t now = host_.now_ms();
    const Instant at = future_when(r.str("when"), now);
    const auto zone = owner_zone(r);
    const std::string stamp = format_rfc3339(now / 1000, 0), grant = take_grant(r);
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
    event = shown(std::move(event));
    event[kHidden] = {{"grant", grant}, {"anchor", at.utc_s}};
    plan(event, r.account(), *zone, at.utc_s - 1);
    keeping_grant(host_, grant, [&] {
        return commit(host_.store(), r.account(), event["id"],
                      [&](const std::optional<json>&) { return event; });
    });
    scheduler_.wake();
    return shown(event);
}

json Calendar::read(platform::Request& r) {
    const std::string id = r.str("id");
    auto event = r.owned(kCollection).get(id);
    if (!event) missing(id);
    return shown(*event);
}

json Calendar::list(platform::Request& r) {
    const int64_t now_s = host_.now_ms() / 1000;
    const auto zone = owner_zone(r);
    std::vector<std::pair<int64_t, json>> upcoming;
    for (auto& [id, event] : r.owned(kCollection).list()) {
        auto next = next_occurrence(timing_of(event), *zone, now_s);
        if (!next) continue;
        event = shown(std::move(event));
        event["next"] = format_rfc3339(*next, zone->offset_at(*next));
        upcoming.emplace_back(*next, std::move(event));
    }
    std::stable_sort(upcoming.begin(), upcoming.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
    const size_t offset = r.args().value("offset", int64_t{0}), limit = r.args().value("limit", 20);
    json out = json::array();
    for (size_t i = offset; i < upcoming.size() && out.size() < limit; ++i)
        out.push_back(std::move(upcoming[i].second));
    return {{"events", out}, {"total", upcoming.size()}, {"offset", offset}};
}

json Calendar::update(platform::Request& r) {
    const auto& a = r.args();
    const std::string id = r.str("id");
    r.owned(kCollection);  // 401 for an anonymous caller
    const int64_t now = host_.now_ms();
    std::optional<Instant> at;
    if (a.contains("when")) at = future_when(r.str("when"), now);
    const auto zone = owner_zone(r);
    const std::string grant = take_grant(r);
    std::string old_grant;
    bool armed = false;
    auto written = keeping_grant(host_, grant, [&] {
        return commit(
            host_.store(), r.account(), id,
            [&](const std::optional<json>& cur) -> std::optional<json> {
                if (!cur) missing(id);
                json e = *cur;
                if (at) e["when"] = format_rfc3339(at->utc_s, at->offset_s);
                for (const char* k : {"title", "note", "repeat", "prompt"})
                    if (a.contains(k)) e[k] = a[k];
                if (a.contains("minutes")) e["minutes"] = a["minutes"];
                if (a.contains("advance")) {
                    json adv = e["advance"].is_object() ? e["advance"]
                                                        : json{{"minutes", 0}, {"recipient", ""}};
                    adv.update(a["advance"]);
                    const int64_t minutes = adv.value("minutes", 0);
                    const std::string who = adv.value("recipient", "");
                    if (minutes == 0 && who.empty())
                        e["advance"] = nullptr;
                    else if (minutes < 1 || who.empty())
                        throw platform::invalid_argument(
                            "advance: needs minutes (1-" + kMinutes +
                            ") and a recipient (user or agent); zero minutes with an empty "
                            "recipient clears it");
                    else
                        e["advance"] = adv;
                }
                e["updated"] = format_rfc3339(now / 1000, 0);
                armed = replan(e, *cur, r.account(), *zone, at, now / 1000);
                json& s = e[kHidden];
                old_grant = (*cur).contains(kHidden) ? (*cur)[kHidden].value("grant", "") : "";
                s["grant"] = armed ? grant : "";
                return e;
            });
    });
    if (!old_grant.empty() && old_grant != grant) host_.revoke_grant(old_grant);
    if (!armed && !grant.empty()) host_.revoke_grant(grant);
    scheduler_.wake();
    return shown(*written);
}

json Calendar::remove(platform::Request& r) {
    const std::string id = r.str("id");
    r.owned(kCollection);  // 401 for an anonymous caller
    std::string grant;
    commit(host_.store(), r.account(), id,
           [&](const std::optional<json>& cur) -> std::optional<json> {
               if (!cur) missing(id);
               grant = cur->contains(kHidden) ? (*cur)[kHidden].value("grant", "") : "";
               return std::nullopt;
           });
    if (!grant.empty()) host_.revoke_grant(grant);
    return {{"deleted", id}};
}

PLATFORM_SERVICE(Calendar)
