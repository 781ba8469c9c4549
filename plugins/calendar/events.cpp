#include <algorithm>
#include <atomic>
#include <cstdio>
#include <random>

#include "calendar.hpp"
#include "due.hpp"
#include "schedule.hpp"

namespace schema = platform::schema;

using platform::json;
using namespace calendar;

namespace {

// An event's length, or how long before it an advance report is prepared.
schema::Value minutes(std::string doc) {
    return schema::integer().range(1, Calendar::kMaxMinutes).doc(std::move(doc));
}

const schema::Object kCreateSchema =
    schema::object()
        .str("title")
        .max_len(200)
        .required()
        .doc("What the event is")
        .str("when")
        .date_time()
        .required()
        .doc("Start, RFC 3339 with a time-zone offset; in the future")
        .str("note")
        .max_len(10000)
        .doc("Free text kept with the event")
        .prop("minutes", minutes("Duration in minutes").def(Calendar::kDefaultMinutes))
        .str("repeat")
        .one_of({"hourly", "daily", "weekly", "monthly"})
        .doc("Recurrence; omit for a one-off")
        .str("prompt")
        .max_len(schema::kPromptMaxBytes)
        .max_bytes(schema::kPromptMaxBytes)
        .doc(
            "Run through the agent when the event fires; the answer lands in your inbox as a new "
            "conversation")
        .object("advance", schema::object()
                               .doc("A read-only report prepared `minutes` before and delivered "
                                    "at `when` to the recipient")
                               .prop("minutes", minutes("Minutes before the event"))
                               .required()
                               .str("recipient")
                               .one_of({"user", "agent"})
                               .required()
                               .doc("Who gets the report"));

const schema::Object kUpdateSchema =
    schema::object()
        .prop("id", schema::id("The event's id"))
        .required()
        .str("title")
        .min_len(1)
        .max_len(200)
        .doc("New title")
        .str("when")
        .date_time()
        .doc("New start, in the future (RFC 3339 with offset)")
        .str("note")
        .max_len(10000)
        .doc("New note; empty clears it")
        .prop("minutes", minutes("New duration in minutes"))
        .str("repeat")
        .one_of({"", "hourly", "daily", "weekly", "monthly"})
        .doc("New recurrence; empty makes it one-off")
        .str("prompt")
        .max_len(schema::kPromptMaxBytes)
        .max_bytes(schema::kPromptMaxBytes)
        .doc("New prompt; empty clears it")
        .object("advance", schema::object()
                               .doc("Fields given replace the advance report's; zero minutes with "
                                    "an empty recipient clears it")
                               .integer("minutes")
                               .range(0, Calendar::kMaxMinutes)
                               .str("recipient")
                               .one_of({"", "user", "agent"}));

const schema::Object kIdSchema = schema::id_object("The event's id");

const schema::Object kListSchema =
    schema::object()
        .prop("offset", schema::offset("Upcoming events skipped first"))
        .prop("limit", schema::limit(100, 20, "Page size"));

const schema::Object kFreeSchema =
    schema::object()
        .str("from")
        .date_time()
        .doc("Start of the search (RFC 3339); default now")
        .str("to")
        .date_time()
        .doc("End of the search (RFC 3339); default a week after from; at most 92 days after it")
        .integer("minutes")
        .min(1)
        .max(1440)
        .def(30)
        .doc("Shortest slot worth reporting")
        .integer("day_start")
        .min(0)
        .max(23)
        .def(9)
        .doc("Working day starts at this hour (owner's time zone)")
        .integer("day_end")
        .min(0)
        .max(23)
        .def(18)
        .doc("Working day ends at this hour (owner's time zone)");

const schema::Object kConfigSchema =
    schema::object()
        .open()
        .integer("poll_ms")
        .min(10)
        .max(60000)
        .doc("Real time between the scheduler's looks at the due index (default 200)")
        .integer("start_delay_ms")
        .min(0)
        .max(60000)
        .doc(
            "Real time after start before the first look, so the services it calls are loaded "
            "(default 1000)");

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
                            "advance: needs minutes (1-" + std::to_string(Calendar::kMaxMinutes) +
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
