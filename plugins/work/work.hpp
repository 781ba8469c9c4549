// work — the hosted assistant's background work `v1.work` (README.md): a prompt submitted as a
// durable job that the agent runs later for its owner; the owner polls it for status, result and
// steps.
//
//   submit     POST /api/v1/work/submit {prompt*, agent, thread} -> {id, status: "todo"};
//              surface A POST /work. Needs "Allow actions" (action flag). Takes a grant so the
//              job can run later as the caller; `thread` must be the caller's (agent/messages).
//   list       GET (or POST) /api/v1/work/list {status, offset, limit} -> {work: [...], total};
//              open work first (todo, doing: oldest first), then finished work (most recently
//              finished first); surface A GET /work.
//   get        GET /api/v1/work/get {id*, wait} -> the work with its steps and progress; `wait`
//              (0-60 s, extension) blocks until it is no longer todo/doing, with MCP progress
//              notifications at each change of status.
//   read       surface A GET /work/<id> -> {work: {...}} (not an MCP tool)
//   retry      POST /api/v1/work/retry {id*} -> failed or blocked work queued again (409 otherwise)
//   from_task  internal (tasks calls it as the caller): {task*, prompt*} -> {id}; one open job per
//   task
//   from_call  internal (a service's own durable job, e.g. apps/build): {service*, method*, args,
//              title*} -> {id}; the worker calls service/method with args through the grant
//
// The queue is jobs.hpp (store layout, states, recovery, runners' leases), the threads
// workers.hpp. Plugin config: `workers` (1-16, default 2), `timeout_ms` (per agent/run,
// 1000-3600000, default 600000), `lease_ms` (2000-600000, default 30000) and `poll_ms`
// (100-60000, default 2000) for replicas sharing the store (workers.hpp).
#pragma once

#include <platform/sdk.hpp>
#include <string>

#include "jobs.hpp"
#include "workers.hpp"

class Work {
public:
    static void describe(platform::ServiceSpec<Work>& s);
    explicit Work(const platform::Host& host);

    void start();
    void stop();

    platform::json submit(platform::Request& r);
    platform::json list(platform::Request& r);
    platform::json get(platform::Request& r);
    platform::json read(platform::Request& r);
    platform::json retry(platform::Request& r);
    platform::json from_task(platform::Request& r);
    platform::json from_call(platform::Request& r);

    static constexpr int64_t kMaxWaitSeconds = 60;

private:
    // The caller's account; 401 when anonymous.
    static std::string owner(const platform::Request& r);
    // The `prompt` argument (the schema refuses it empty or over schema::kPromptMaxBytes).
    static std::string prompt(const platform::Request& r);
    // 404 `thread: no such conversation` unless `thread` is the caller's (agent/messages as the
    // caller).
    void check_thread(platform::Request& r, const std::string& thread) const;
    // 404 naming the agent when agent/list (as the caller) answers and does not name it.
    void check_agent(platform::Request& r, const std::string& agent) const;
    // Blocks until the record is no longer todo/doing, `seconds` pass or the call's deadline nears.
    platform::json wait_for(platform::Request& r, platform::json record, int64_t seconds);

    platform::Host host_;
    work::Settings settings_;
    work::Jobs jobs_;
    work::Workers workers_;  // after jobs_: stopped and joined first
};
