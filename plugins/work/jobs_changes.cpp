// The queue's changes of state (jobs.hpp): create, claim, finish, cleaned, requeue, recover and
// sweep, and the runners' leases.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>

#include "jobs.hpp"
#include "record.hpp"

namespace work {

using namespace record;
using platform::StoreWrite;

json Jobs::create(const NewJob& j, bool* created) {
    std::lock_guard<std::mutex> g(mutex_);
    if (created) *created = true;
    if (!j.task.empty())
        if (auto open = open_for_task(j.owner, j.task)) {
            if (created) *created = false;
            return *open;
        }
    const int64_t now = host_.now_ms();
    // "wk-<12 hex ms>-<6 hex of what was asked>", moved on while the owner has it: time-ordered,
    // and the same call answers the same id for two fresh accounts (MCP/HTTP parity).
    char stamp[16];
    std::snprintf(stamp, sizeof stamp, "%012llx", static_cast<unsigned long long>(now));
    const std::string seed = j.prompt + "\n" + j.agent + "\n" + j.thread + "\n" + j.task +
                             (j.call.is_object() ? "\n" + dump(j.call) : std::string());
    std::string id;
    for (int attempt = 0;; ++attempt) {
        id = "wk-" + std::string(stamp) + "-" + platform::hash_id(seed, attempt).substr(0, 6);
        if (!store_.get(record_key(j.owner, id))) break;
    }
    const int64_t seq = next_seq();
    json r = {{"id", id},
              {"status", "todo"},
              {"prompt", j.prompt},
              {"agent", j.agent},
              {"thread", j.thread},
              {"task", j.task},
              {"channel", j.channel},
              {"call", j.call.is_object() ? j.call : json()},
              {"result", nullptr},
              {"error", nullptr},
              {"steps", json::array()},
              {"created", platform::rfc3339(now)},
              {"started", nullptr},
              {"finished", nullptr},
              {"attempts", 1},
              {"owner", j.owner},
              {"grant", j.grant},
              {"seq", seq},
              {"done_seq", 0},
              {"created_ms", now},
              {"started_ms", 0},
              {"finished_ms", 0}};
    std::vector<StoreWrite> writes = {StoreWrite::put(record_key(j.owner, id), dump(r)),
                                      StoreWrite::put(queue_key(seq, id), dump(ref(r)))};
    if (!j.task.empty())
        writes.push_back(StoreWrite::put(task_key(j.owner, j.task), dump(json{{"work", id}})));
    store_.batch(writes);
    changed_.bump();
    return r;
}

std::optional<json> Jobs::claim() {
    std::lock_guard<std::mutex> g(mutex_);
    for (;;) {
        auto entries = store_.scan({"queue/", false, 16, 0});
        if (entries.empty()) return std::nullopt;
        for (auto& e : entries) {
            const json at = parse(e.value);
            const std::string owner = text(at, "owner"), id = text(at, "id");
            const auto raw = store_.get(record_key(owner, id));
            const json r = parse(raw);
            if (!r.is_object() || text(r, "status") != "todo") {  // stale: ran, or gone
                store_.compare_and_set(e.key, e.value, std::nullopt);
                continue;
            }
            const int64_t now = host_.now_ms();
            json next = r;
            next["status"] = "doing";
            next["started"] = platform::rfc3339(now);
            next["started_ms"] = now;
            next["runner"] = node_;
            if (!swap(r, *raw, next)) continue;  // changed meanwhile: the next scan sees it
            store_.batch({StoreWrite::erase(e.key),
                          StoreWrite::erase(queue_key(number(r, "seq"), id)),
                          StoreWrite::put(running_key(owner, id), dump(ref(next)))});
            changed_.bump();
            return next;
        }
    }
}

std::optional<json> Jobs::finish(const json& job, const std::string& status, const json& result,
                                 const std::string& error, const json& steps,
                                 const std::string& thread) {
    const std::string key = record_key(text(job, "owner"), text(job, "id"));
    for (int attempt = 0; attempt < 16; ++attempt) {
        const auto raw = store_.get(key);
        const json r = parse(raw);
        if (!r.is_object() || text(r, "status") != "doing" ||
            number(r, "seq") != number(job, "seq"))
            return std::nullopt;
        const int64_t now = host_.now_ms();
        json next = r;
        next["status"] = status;
        next["result"] = result;
        next["error"] = error.empty() ? json() : json(error);
        next["steps"] = steps.is_array() ? steps : json::array();
        if (!thread.empty()) next["thread"] = thread;
        next["finished"] = platform::rfc3339(now);
        next["finished_ms"] = now;
        next["done_seq"] = next_seq();
        if (swap(r, *raw, next)) {
            changed_.bump();
            return next;
        }
    }
    throw platform::conflict("work " + text(job, "id") + ": the record kept changing");
}

void Jobs::cleaned(const json& r) {
    const std::string key = running_key(text(r, "owner"), text(r, "id"));
    store_.compare_and_set(key, dump(ref(r)), std::nullopt);  // only this run's entry
}

json Jobs::requeue(const std::string& owner, const std::string& id, const std::string& grant) {
    std::lock_guard<std::mutex> g(mutex_);
    const json r = parse(store_.get(record_key(owner, id)));
    if (!r.is_object()) throw platform::not_found("id: no such work");
    const std::string status = text(r, "status");
    if (status != "failed" && status != "blocked")
        throw platform::conflict("id: work is " + status +
                                 "; only failed or blocked work can be retried");
    const int64_t seq = next_seq();
    json next = r;
    next["status"] = "todo";
    next["attempts"] = number(r, "attempts") + 1;
    next["grant"] = grant;
    next["seq"] = seq;
    next["done_seq"] = 0;
    for (const char* k : {"result", "error", "started", "finished"}) next[k] = nullptr;
    next["steps"] = json::array();
    next["started_ms"] = 0;
    next["finished_ms"] = 0;
    store_.batch({StoreWrite::put(record_key(owner, id), dump(next)),
                  StoreWrite::put(queue_key(seq, id), dump(ref(next)))});
    changed_.bump();
    return next;
}

std::vector<json> Jobs::recover() {
    {
        std::lock_guard<std::mutex> g(mutex_);
        // The queue needs compare-and-set and batches: refuse to start rather than fail each
        // submit.
        store_.compare_and_set("meta/probe", std::nullopt, std::nullopt);
        store_.batch({StoreWrite::erase("meta/probe")});
        for (auto& e : store_.scan({"queue/", true, 1, 0})) {  // later seqs than any queued one
            std::lock_guard<std::mutex> s(seq_m_);
            last_seq_ = std::max<int64_t>(last_seq_, std::atoll(e.key.c_str() + 6));
        }
    }
    return repair(true);
}

std::vector<json> Jobs::sweep() {
    return repair(false);
}

void Jobs::renew(int64_t lease_ms) {
    store_.put(runner_key(node_),
               dump(json{{"node", node_}, {"alive_until", wall_ms() + lease_ms}}));
}

void Jobs::retire() {
    store_.put(runner_key(node_), dump(json{{"node", node_}, {"alive_until", 0}}));
}

std::vector<json> Jobs::repair(bool at_start) {
    std::lock_guard<std::mutex> g(mutex_);
    const int64_t wall = wall_ms();
    std::map<std::string, bool> gone;  // runner -> its lease lapsed (read once per pass)
    // Whether the work of `runner` is this process's to take over.
    auto ours = [&](const json& r) {
        const std::string runner = text(r, "runner");
        if (runner.empty() || runner == node_) return at_start;  // this node's previous process
        auto it = gone.find(runner);
        if (it == gone.end()) {
            const json lease = parse(store_.get(runner_key(runner)));
            it = gone.emplace(runner, number(lease, "alive_until") <= wall).first;
        }
        return it->second;
    };
    std::vector<json> cleanup;
    for (auto& e : store_.scan({"running/", false, 0, 0})) {
        const json at = parse(e.value);
        const auto raw = store_.get(record_key(text(at, "owner"), text(at, "id")));
        const json r = parse(raw);
        const std::string status = r.is_object() ? text(r, "status") : "";
        if (!r.is_object() || number(r, "seq") != number(at, "seq") || status == "todo") {
            store_.compare_and_set(e.key, e.value, std::nullopt);  // gone, or queued again since
            continue;
        }
        if (!ours(r)) continue;  // its runner is alive: running, or cleaning up
        json next = status == "doing" ? interrupted(r) : r;  // its runner died
        if (text(r, "runner") == node_ && status != "doing") {
            cleanup.push_back(r);  // this node's: no other process takes it
            continue;
        }
        next["runner"] = node_;
        if (swap(r, *raw, next)) cleanup.push_back(next);  // else another process took it
    }
    // A claim takes one of the oldest entries, so a claim cut short is near the head: a sweep
    // reads the first ones only (a long queue costs it nothing), the start-up repair all.
    for (auto& e : store_.scan({"queue/", false, at_start ? 0u : 64u, 0})) {
        const json at = parse(e.value);
        const std::string owner = text(at, "owner"), id = text(at, "id");
        const auto raw = store_.get(record_key(owner, id));
        const json r = parse(raw);
        const std::string status = r.is_object() ? text(r, "status") : "";
        if (status == "todo") continue;
        if (status != "doing") {
            store_.compare_and_set(e.key, e.value, std::nullopt);
            continue;
        }
        // Claimed, and the queue entry not gone yet: the claim is under way in a live runner,
        // or its process died in between.
        if (!ours(r)) continue;
        const json next = interrupted(r);
        if (!swap(r, *raw, next)) continue;
        store_.batch(
            {StoreWrite::erase(e.key), StoreWrite::put(running_key(owner, id), dump(ref(next)))});
        cleanup.push_back(next);
    }
    if (!cleanup.empty()) changed_.bump();
    return cleanup;
}

}  // namespace work
