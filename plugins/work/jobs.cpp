// The queue's store layout and reads (jobs.hpp): keys, the public view, lookups; and Signal.
#include "jobs.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "record.hpp"

namespace work {

using namespace record;

// ---- Signal -------------------------------------------------------------------------------------

uint64_t Signal::current() {
    std::lock_guard<std::mutex> g(m_);
    return gen_;
}

void Signal::bump() {
    {
        std::lock_guard<std::mutex> g(m_);
        ++gen_;
    }
    cv_.notify_all();
}

bool Signal::wait(uint64_t seen, std::chrono::steady_clock::time_point until) {
    std::unique_lock<std::mutex> lock(m_);
    auto ready = [&] { return closed_ || gen_ != seen; };
    if (until == std::chrono::steady_clock::time_point::max())
        cv_.wait(lock, ready);
    else
        cv_.wait_until(lock, until, ready);
    return !closed_;
}

void Signal::close() {
    {
        std::lock_guard<std::mutex> g(m_);
        closed_ = true;
    }
    cv_.notify_all();
}

void Signal::reopen() {
    std::lock_guard<std::mutex> g(m_);
    closed_ = false;
}

// ---- keys and views -----------------------------------------------------------------------------

Jobs::Jobs(const platform::Host& host, std::string node)
    : host_(host), store_(host.store()), node_(std::move(node)) {}

std::string Jobs::node_of(const platform::Host& host) {
    const json node = host.config("platform.node");
    if (node.is_string() && !node.get<std::string>().empty()) return node.get<std::string>();
    // A host without node ids: the machine and its PLATFORM_HOME (what the host's id is kept
    // in), so a restart keeps the id; else an id for this process only.
    const char* home = std::getenv("PLATFORM_HOME");
    char name[256] = {0};
    if (home && *home && gethostname(name, sizeof name - 1) == 0)
        return "home-" + platform::hash_id(std::string(name) + "\n" + home);
    static const std::string process = "process-" + platform::random_hex(8);
    return process;
}

int64_t Jobs::wall_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::string Jobs::runner_key(const std::string& node) {
    return "runner/" + platform::Collection::escape(node);
}

bool Jobs::valid_status(const std::string& s) {
    return s == "todo" || s == "doing" || final_status(s);
}

bool Jobs::final_status(const std::string& s) {
    return s == "done" || s == "failed" || s == "blocked";
}

std::string Jobs::record_key(const std::string& owner, const std::string& id) {
    return "work/" + platform::Collection::escape(owner) + "/" + id;
}

std::string Jobs::queue_key(int64_t seq, const std::string& id) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "%020lld", static_cast<long long>(seq));
    return std::string("queue/") + buf + "-" + id;
}

std::string Jobs::running_key(const std::string& owner, const std::string& id) {
    return "running/" + platform::Collection::escape(owner) + "/" + id;
}

std::string Jobs::task_key(const std::string& owner, const std::string& task) {
    return "tasks/" + platform::Collection::escape(owner) + "/" + task;
}

json Jobs::ref(const json& r) {
    return {{"owner", text(r, "owner")}, {"id", text(r, "id")}, {"seq", number(r, "seq")}};
}

int64_t Jobs::next_seq() {
    std::lock_guard<std::mutex> g(seq_m_);
    last_seq_ = std::max(host_.now_ms() * 1000, last_seq_ + 1);
    return last_seq_;
}

bool Jobs::swap(const json& record, const std::string& raw, const json& next) const {
    return store_.compare_and_set(record_key(text(record, "owner"), text(record, "id")), raw,
                                  dump(next));
}

json Jobs::interrupted(json r) {
    const int64_t now = host_.now_ms();
    r["status"] = "failed";
    r["error"] = "interrupted";
    r["finished"] = platform::rfc3339(now);
    r["finished_ms"] = now;
    r["done_seq"] = next_seq();
    r["runner"] = node_;
    return r;
}

namespace {

// A service's job names what it calls, not the arguments (they are the service's business).
json call_view(const json& r) {
    auto it = r.find("call");
    if (it == r.end() || !it->is_object()) return nullptr;
    return {{"service", text(*it, "service")}, {"method", text(*it, "method")}};
}

}  // namespace

json Jobs::view(const json& r) const {
    const std::string status = text(r, "status");
    const json steps = r.value("steps", json::array());
    const int64_t started = number(r, "started_ms"), finished = number(r, "finished_ms");
    const int64_t end = finished ? finished : host_.now_ms();
    json progress = {{"steps", steps.size()},
                     {"seconds", started ? std::max<int64_t>(0, end - started) / 1000.0 : 0.0}};
    if (status == "todo") progress["ahead"] = ahead(r);
    return {{"id", text(r, "id")},
            {"status", status},
            {"prompt", text(r, "prompt")},
            {"agent", or_null(r, "agent")},
            {"thread", or_null(r, "thread")},
            {"task", or_null(r, "task")},
            {"call", call_view(r)},
            {"result", r.value("result", json())},
            {"error", r.value("error", json())},
            {"steps", steps},
            {"created", r.value("created", json())},
            {"started", r.value("started", json())},
            {"finished", r.value("finished", json())},
            {"attempts", number(r, "attempts")},
            {"progress", progress}};
}

// ---- reads --------------------------------------------------------------------------------------

std::optional<json> Jobs::get(const std::string& owner, const std::string& id) const {
    json r = parse(store_.get(record_key(owner, id)));
    if (r.is_null()) return std::nullopt;
    return r;
}

std::vector<json> Jobs::all(const std::string& owner) const {
    std::vector<json> out;
    for (auto& rec :
         store_.scan({"work/" + platform::Collection::escape(owner) + "/", false, 0, 0})) {
        json r = parse(rec.value);
        if (r.is_object()) out.push_back(std::move(r));
    }
    return out;
}

std::optional<json> Jobs::open_for_task(const std::string& owner, const std::string& task) const {
    const json index = parse(store_.get(task_key(owner, task)));
    if (index.is_null()) return std::nullopt;
    auto r = get(owner, text(index, "work"));
    if (!r || final_status(text(*r, "status"))) return std::nullopt;
    return r;
}

size_t Jobs::ahead(const json& r, size_t cap) const {
    const std::string mine = queue_key(number(r, "seq"), text(r, "id"));
    size_t n = 0;
    for (auto& e : store_.scan({"queue/", false, static_cast<uint32_t>(cap), 0})) {
        if (e.key >= mine) break;
        ++n;
    }
    return n;
}

}  // namespace work
