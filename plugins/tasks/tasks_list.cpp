#include <algorithm>
#include <limits>

#include "tasks.hpp"

using platform::json;

namespace {

// Open tasks: by due (undated last), then oldest. Closed: most recently updated first.
bool before(const json& a, const json& b) {
    const bool ao = Tasks::open(a), bo = Tasks::open(b);
    if (ao != bo) return ao;
    const int64_t as = a.value("seq", int64_t{0}), bs = b.value("seq", int64_t{0});
    if (!ao) {
        const std::string au = a.value("updated", ""), bu = b.value("updated", "");
        return au != bu ? au > bu : as > bs;
    }
    constexpr int64_t never = std::numeric_limits<int64_t>::max();
    const int64_t ad = a["due_ms"].is_number() ? a["due_ms"].get<int64_t>() : never;
    const int64_t bd = b["due_ms"].is_number() ? b["due_ms"].get<int64_t>() : never;
    return ad != bd ? ad < bd : as < bs;
}

std::vector<json> ordered(const platform::Collection& tasks) {
    std::vector<json> out;
    for (auto& [id, task] : tasks.list()) {
        if (!task.contains("due_ms")) task["due_ms"] = nullptr;
        out.push_back(std::move(task));
    }
    std::sort(out.begin(), out.end(), before);
    return out;
}

}  // namespace

json Tasks::list(platform::Request& r) {
    const std::string status = r.str("status");
    const size_t offset = r.args().value("offset", int64_t{0}), limit = r.args().value("limit", 20);
    json out = json::array();
    size_t total = 0;
    for (auto& task : ordered(r.owned(kCollection))) {
        if (!status.empty() && task.value("status", "") != status) continue;
        if (total++ >= offset && out.size() < limit) out.push_back(visible(std::move(task)));
    }
    return {{"tasks", out}, {"total", total}};
}

json Tasks::next(platform::Request& r) {
    for (auto& task : ordered(r.owned(kCollection)))
        if (Tasks::open(task) && task.value("assignee", "") == "agent")
            return {{"task", visible(std::move(task))}};
    return {{"task", nullptr}};
}
