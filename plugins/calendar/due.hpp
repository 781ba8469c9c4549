// due — what fires next and when: each event's hidden schedule state and the plugin-wide due
// index the scheduler (scheduler.hpp) reads.
//
// An event record (owner-scoped, `events/<owner>/<id>`) keeps, besides its shown fields, the
// object "_sched", never shown (shown() drops it):
//
//   grant       the owner's grant (Request::grant) the steps act with; "" once not needed (a
//               fired one-off: revoked) or on a host without grants
//   anchor      the series' first start, UTC seconds: `when` as the owner last gave it.
//               Occurrences count from it, so a monthly event on the 31st stays on the 31st and a
//               daily 09:00 stays 09:00 local; `when` itself shows the next occurrence
//   done        the last occurrence fired (UTC seconds); absent before the first
//   due         the due-index key of the next step, or null (nothing planned)
//   stage       the step `due` is for: "prepare" (the advance report, at occurrence − advance
//               minutes), "fire" (at the occurrence), "recover" (a lease on a running step)
//   occurrence  the occurrence (UTC seconds) the step is for
//   firing      {stage, occurrence} while a step runs
//
// The due index lives in the plugin's own table, across owners: `due/<fire_ms, 15 digits>/
// <owner, escaped as Collection does>/<id>/<stage>` → {owner, id, stage, occurrence}, so an
// ascending scan of `due/` is "soonest first" and stops at the first key after now. commit()
// writes a record and its entry in step: the new entry before the record, the old one erased
// after, so the index never lacks the step a record names; an entry whose record does not name
// it (left by a crash between the writes, or superseded) is stale and is dropped when it comes due.
#pragma once

#include <functional>
#include <optional>
#include <platform/sdk.hpp>
#include <string>

#include "schedule.hpp"

namespace calendar {

inline constexpr const char* kHidden = "_sched";
inline constexpr const char* kEvents = "events";  // the owner-scoped collection
inline constexpr const char* kDuePrefix = "due/";

// One entry of the due index.
struct Due {
    std::string key, raw;  // as stored
    int64_t fire_ms = 0;
    std::string owner, id, stage;
    int64_t occurrence = 0;
};

std::string due_key(int64_t fire_ms, const std::string& owner, const std::string& id,
                    const std::string& stage);
// Nullopt for a key or value this plugin did not write.
std::optional<Due> parse_due(const platform::Record& r);

// The record as the methods answer it: "_sched" dropped, the firing fields present
// (fired false, last_fired / last_error / briefing null until set).
platform::json shown(platform::json event);

// The event's occurrences: from its anchor (its `when` for records older than firing).
Timing timing_of(const platform::json& event);

// Sets the next step of `event` (owned by `owner`) after `after_s`: the first occurrence o
// starting later than after_s; "prepare" at o − advance minutes when advance is set and no
// briefing was prepared for o, else "fire" at o. A repeating event's `when` moves to o (shown
// with the zone's offset at o). False, with due and stage null, when no occurrence is left.
bool plan(platform::json& event, const std::string& owner, const TimeZone& zone, int64_t after_s);
// Sets the step exactly.
void set_step(platform::json& event, const std::string& owner, const std::string& stage,
              int64_t occurrence, int64_t fire_ms);

// Read-modify-write of one event with its due entry kept in step (see above). fn gets the
// current record (nullopt: absent) and returns the new one (nullopt: delete it; a value equal to
// the current one: nothing is written). Compare-and-set on the record; retried when another
// writer got there first (Error(conflict) after 16 attempts). Returns what the record now is.
std::optional<platform::json> commit(
    const platform::Store& store, const std::string& owner, const std::string& id,
    const std::function<std::optional<platform::json>(const std::optional<platform::json>&)>& fn);

// Puts back the entry of every record whose step has none (a safety net run when the scheduler
// starts); returns how many were missing.
size_t repair(const platform::Store& store);

}  // namespace calendar
