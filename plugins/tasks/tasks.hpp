// tasks — to-do items of the caller, for themself or for the agent (the catalogue's `tasks`
// service: create, read, update, delete, list, next).
//
// A task is {id, title, detail, assignee: "me"|"agent", due, status, result, created, updated}.
// Ids derive from the arguments and the time (the first such id the owner does not have), so one
// call answers the same for any fresh account. `due` is RFC 3339 in UTC or null; status is todo,
// doing, done, failed or blocked (any may be set by update; new tasks are todo). `due` is given as RFC 3339 (any offset) or as
// `YYYY-MM-DD HH:MM`, read in the owner's time zone: the `timezone` of the caller's account
// metadata, asked of the `auth` service's `me`; UTC when the host has no such service or the
// account no zone. Another account's ids answer 404.
//
// list: open tasks (todo, doing, blocked) first, by due (earliest first, undated last) then
// oldest; then closed ones (done, failed), most recently updated first. next: the open task
// assigned to the agent with the earliest due, then the oldest; {"task": null} when none.
//
// A task for the agent becomes background work: created with assignee `agent` (or updated back to
// status todo while assigned to it), it is handed to the work service (work/from_task, internal, as
// the caller), which runs its title and detail through the agent and writes the outcome back with
// tasks/update {status: doing, then done|failed|blocked, result}. Without a work service (NOT_FOUND)
// or when it refuses (a token without "Allow actions"), the task is kept as it is: tasks/next still
// offers it to the agent.
//
// CRUD is in tasks.cpp, list and next (the orders) in tasks_list.cpp, `due` parsing in due.cpp.
#pragma once

#include <platform/sdk.hpp>
#include <string>
#include <vector>

class Tasks {
public:
    static void describe(platform::ServiceSpec<Tasks>& s);
    explicit Tasks(const platform::Host& host) : host_(host) {}

    platform::json create(platform::Request& r);
    platform::json read(platform::Request& r);
    platform::json update(platform::Request& r);
    platform::json remove(platform::Request& r);
    platform::json list(platform::Request& r);
    platform::json next(platform::Request& r);

    // A stored record as callers see it: without the internal `due_ms` and `seq`.
    static platform::json visible(platform::json task);
    // todo, doing and blocked are open; done and failed are closed.
    static bool open(const platform::json& task);

    // The owner-scoped collection of tasks by id. Each record also holds `due_ms` (Unix ms, or
    // null) and `seq` (grows with every create, for "oldest").
    static constexpr const char* kCollection = "tasks";

private:
    // Unix ms of a `due` argument: RFC 3339, or the local layout in the caller's time zone.
    int64_t due_ms(platform::Request& r, const std::string& due) const;
    // The caller's IANA time zone, "UTC" when unknown.
    std::string time_zone(platform::Request& r) const;
    // The caller's task, or 404 naming the id.
    platform::json find(platform::Request& r, const std::string& id) const;
    // Queues the task's work (work/from_task as the caller); failures are logged, never thrown.
    void hand_to_agent(platform::Request& r, const platform::json& task) const;

    platform::Host host_;
};
