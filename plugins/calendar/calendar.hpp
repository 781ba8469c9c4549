// calendar — the catalogue's `events` service (reminders and scheduled events; account required,
// delete withheld from the agent). The folder is not plugins/events because that is the
// platform's built-in event stream. CRUD in events.cpp, free slots in free.cpp, occurrences in
// schedule (on platform/common/time), firing in due/firing/scheduler.
#pragma once

#include <memory>
#include <platform/sdk.hpp>
#include <string>

#include "schedule.hpp"
#include "scheduler.hpp"

class Calendar {
public:
    static void describe(platform::ServiceSpec<Calendar>& s);
    explicit Calendar(const platform::Host& host) : host_(host), scheduler_(host) {}

    // The scheduler thread that fires due events (scheduler.hpp).
    void start() { scheduler_.start(); }
    void stop() { scheduler_.stop(); }

    platform::json create(platform::Request& r);
    platform::json read(platform::Request& r);
    platform::json list(platform::Request& r);
    platform::json update(platform::Request& r);
    platform::json remove(platform::Request& r);
    // Open slots of at least `minutes` within working hours (day_start..day_end in the owner's
    // time zone) between `from` and `to`, around the owner's events and their repeats.
    platform::json free(platform::Request& r);

    // The owner's time zone: metadata.timezone of the account, asked of the `auth` service as the
    // caller; UTC when there is no such service (auth-noop) or no valid setting.
    static std::shared_ptr<const calendar::TimeZone> owner_zone(platform::Request& r);

    static constexpr int kDefaultMinutes = 30;
    static constexpr int kMaxMinutes = 10080;  // one week

private:
    // The owner-scoped collection: {id, title, when, note, minutes, repeat, prompt, advance,
    // created, updated, fired, last_fired, last_error, briefing, _sched (hidden: due.hpp)} by id.
    static constexpr const char* kCollection = calendar::kEvents;
    platform::Host host_;
    calendar::Scheduler scheduler_;
};
