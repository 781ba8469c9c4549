#include <spdlog/spdlog.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <platform/host/core/activity_record.hpp>
#include <platform/host/core/runtime.hpp>

namespace platform::host {

using nlohmann::json;

void ActivityRecord::merge(std::map<std::string, Seen>& into, Seen s) {
    auto [it, fresh] = into.try_emplace(s.id, s);
    if (fresh) return;
    Seen& kept = it->second;
    kept.first_ms = std::min(kept.first_ms, s.first_ms);
    if (s.last_ms >= kept.last_ms) {
        kept.last_ms = s.last_ms;
        kept.name = std::move(s.name);
        kept.type = std::move(s.type);
    }
}

void ActivityRecord::seen(const std::string& id, const std::string& name, const std::string& type,
                          int64_t now_ms) {
    const ThreadSeen& mine = seen_.local();
    {
        std::lock_guard<std::mutex> g(mine.m);
        if (auto it = mine.pending.find(id); it != mine.pending.end()) {  // the common case
            it->second.first_ms = std::min(it->second.first_ms, now_ms);
            it->second.last_ms = std::max(it->second.last_ms, now_ms);
            if (it->second.name != name) it->second.name = name;
            if (it->second.type != type) it->second.type = type;
        } else {
            mine.pending.emplace(id, Seen{id, name, type, now_ms, now_ms});
        }
    }
    if (!armed_.load() && !armed_.exchange(true)) schedule_([this] { flush(); });
}

void ActivityRecord::flush() {
    std::lock_guard<std::mutex> serial(flush_m_);
    armed_.store(false);
    std::map<std::string, Seen> batch;
    seen_.for_each([&](const ThreadSeen& t) {
        std::map<std::string, Seen> taken;
        {
            std::lock_guard<std::mutex> g(t.m);
            taken.swap(t.pending);
        }
        for (auto& [id, s] : taken) merge(batch, std::move(s));
    });
    if (batch.empty()) return;
    std::vector<Seen> out;
    out.reserve(batch.size());
    for (auto& [id, s] : batch) out.push_back(std::move(s));
    if (write_(out)) return;
    {
        const ThreadSeen& mine =
            seen_.local();  // kept for the next flush, merged with anything newer
        std::lock_guard<std::mutex> g(mine.m);
        for (auto& s : out) merge(mine.pending, std::move(s));
    }
    if (!armed_.exchange(true)) schedule_([this] { flush(); });
}

size_t ActivityRecord::pending() const {
    std::map<std::string, bool> ids;
    seen_.for_each([&](const ThreadSeen& t) {
        std::lock_guard<std::mutex> g(t.m);
        for (const auto& [id, s] : t.pending) ids[id] = true;
    });
    return ids.size();
}

namespace {
void append(void* user, platform_str_t b) {
    static_cast<std::string*>(user)->append(b.ptr ? b.ptr : "", b.len);
}
platform_str_t view(const std::string& s) {
    return {s.data(), s.size()};
}
}  // namespace

ActivityRecord::Writer activity_store_writer(Runtime& runtime) {
    return [&runtime](const std::vector<Seen>& entries) {
        Plugin* p = runtime.provider("store");
        if (!p) return false;
        const auto* store = static_cast<const platform_store_provider_t*>(p->desc->provider);
        const std::string table = ActivityRecord::kTable;
        const int64_t now = runtime.clock().now_ms();
        bool ok = true;
        for (const auto& s : entries) {
            const std::string key = ActivityRecord::kKeyPrefix + s.id;
            int64_t first = s.first_ms, last = s.last_ms;
            std::string stored;
            if (store->get(p->instance, view(table), view(key), now, append, &stored) ==
                PLATFORM_OK) {
                const json old = json::parse(stored, nullptr, false);
                if (old.is_object()) {
                    first = std::min(first, old.value("first_seen", first));
                    last = std::max(last, old.value("last_seen", last));
                }
            }
            const std::string value = json{
                {"id", s.id},
                {"name", s.name},
                {"type", s.type},
                {"first_seen", first},
                {"last_seen", last}}.dump(-1, ' ', false, json::error_handler_t::replace);
            if (store->put(p->instance, view(table), view(key), view(value), 0) != PLATFORM_OK) {
                spdlog::warn("activity: writing {} to the store failed", key);
                ok = false;
            }
        }
        return ok;
    };
}

}  // namespace platform::host
