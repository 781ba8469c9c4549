// Reading work: list (the orders), get and its `wait`, and surface A's read.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <limits>

#include "record.hpp"
#include "work.hpp"

using platform::json;
using work::record::number;

namespace {

int64_t steady_ms() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

}  // namespace

json Work::list(platform::Request& r) {
    const std::string who = owner(r), status = r.str("status");
    if (r.args().contains("status") && !work::Jobs::valid_status(status))
        throw platform::invalid_argument(
            "status: must be one of todo, doing, done, failed, blocked");
    const int64_t offset = r.integer("offset", 0, 0, std::numeric_limits<int32_t>::max());
    const int64_t limit = r.integer("limit");

    std::vector<json> open, finished;
    for (auto& job : jobs_.all(who)) {
        const std::string s = job.value("status", "");
        if (!status.empty() && s != status) continue;
        (work::Jobs::final_status(s) ? finished : open).push_back(std::move(job));
    }
    std::sort(open.begin(), open.end(),
              [](const json& a, const json& b) { return number(a, "seq") < number(b, "seq"); });
    std::sort(finished.begin(), finished.end(), [](const json& a, const json& b) {
        return number(a, "done_seq") > number(b, "done_seq");
    });
    const size_t total = open.size() + finished.size();
    json page = json::array();
    for (size_t i = static_cast<size_t>(offset);
         i < total && page.size() < static_cast<size_t>(limit); ++i) {
        json item = jobs_.view(i < open.size() ? open[i] : finished[i - open.size()]);
        item.erase("steps");
        page.push_back(std::move(item));
    }
    return {{"work", page}, {"total", total}};
}

json Work::get(platform::Request& r) {
    const std::string who = owner(r), id = r.str("id");
    const int64_t wait = r.integer("wait");
    auto job = jobs_.get(who, id);
    if (!job) throw platform::not_found("id: no such work");
    return jobs_.view(wait > 0 ? wait_for(r, *job, wait) : *job);
}

json Work::read(platform::Request& r) {
    return {{"work", get(r)}};
}

json Work::wait_for(platform::Request& r, json job, int64_t seconds) {
    using clock = std::chrono::steady_clock;
    auto until = clock::now() + std::chrono::seconds(seconds);
    // The host answers 504 at the call's deadline: answer a second before it.
    platform_call_info_t info{};
    info.struct_size = sizeof info;
    host_.api()->call_info(r.call(), &info);
    if (PLATFORM_HAS_FIELD(platform_call_info_t, &info, deadline_ms) && info.deadline_ms > 0) {
        const int64_t left = std::max<int64_t>(0, info.deadline_ms - steady_ms() - 1000);
        until = std::min(until, clock::now() + std::chrono::milliseconds(left));
    }
    const std::string who = r.account(), id = job.value("id", "");
    std::string told;
    double sent = 0;
    for (;;) {
        const std::string status = job.value("status", "");
        if (status != told) {  // MCP notifications/progress at each change (a no-op over HTTP)
            r.progress(++sent, 0, "work " + id + " is " + status);
            told = status;
        }
        if (work::Jobs::final_status(status) || clock::now() >= until) return job;
        const uint64_t seen = jobs_.changed().current();
        auto fresh = jobs_.get(who, id);
        if (!fresh) return job;
        if (fresh->value("status", "") != status) {
            job = *fresh;
            continue;
        }
        // Changes in this process wake the wait; a slice of a second also sees other writers.
        const bool open =
            jobs_.changed().wait(seen, std::min(until, clock::now() + std::chrono::seconds(1)));
        if (auto again = jobs_.get(who, id)) job = *again;
        if (!open) return job;  // stopping
    }
}
