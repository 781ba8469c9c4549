#include "scheduler.hpp"

#include <algorithm>

using platform::json;

namespace calendar {

namespace {

std::atomic<uint64_t> g_passes{0};

int config_ms(const platform::Host& host, const char* key, int fallback) {
    const json v = host.config(key);
    return v.is_number_integer() ? std::clamp(v.get<int>(), 0, 60000) : fallback;
}

bool names(const std::optional<json>& e, const std::string& key) {
    return e && e->contains(kHidden) && (*e)[kHidden].contains("due") &&
           (*e)[kHidden]["due"] == key;
}

}  // namespace

Scheduler::Scheduler(const platform::Host& host)
    : host_(host),
      firing_(host),
      poll_ms_(std::max(10, config_ms(host, "poll_ms", 200))),
      start_delay_ms_(config_ms(host, "start_delay_ms", 1000)) {}

uint64_t Scheduler::passes() {
    return g_passes.load();
}

void Scheduler::start() {
    if (thread_.joinable()) return;
    stopping_ = false;
    thread_ = std::thread([this] { run(); });
}

void Scheduler::stop() {
    {
        std::lock_guard<std::mutex> g(m_);
        stopping_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void Scheduler::wake() {
    {
        std::lock_guard<std::mutex> g(m_);
        woken_ = true;
    }
    cv_.notify_all();
}

void Scheduler::run() {
    std::unique_lock<std::mutex> lock(m_);
    cv_.wait_for(lock, std::chrono::milliseconds(start_delay_ms_),
                 [&] { return stopping_.load(); });
    if (stopping_) return;
    lock.unlock();
    try {
        if (const size_t n = repair(host_.store()))
            host_.warn("calendar: put back " + std::to_string(n) + " due entries");
    } catch (const std::exception& e) {
        host_.warn(std::string("calendar: due index repair failed: ") + e.what());
    }
    lock.lock();
    while (!stopping_) {
        woken_ = false;
        lock.unlock();
        try {
            pass();
        } catch (const std::exception& e) {
            host_.warn(std::string("calendar: scheduler pass failed: ") + e.what());
        }
        ++g_passes;
        lock.lock();
        cv_.wait_for(lock, std::chrono::milliseconds(poll_ms_),
                     [&] { return stopping_.load() || woken_; });
    }
}

void Scheduler::pass() {
    const platform::Store store = host_.store();
    const int64_t now = host_.now_ms();
    platform::ScanOptions o;
    o.prefix = kDuePrefix;
    o.limit = kPerPass;
    for (const auto& r : store.scan(o)) {
        if (stopping_) return;
        const auto d = parse_due(r);
        if (!d) {
            host_.warn("calendar: dropped an unreadable due entry " + r.key);
            store.erase(r.key);
            continue;
        }
        if (d->fire_ms > now) return;
        try {
            step(*d);
        } catch (const json::exception& e) {  // a record this plugin cannot read: never retried
            host_.warn("calendar: dropped due entry " + d->key + ": " + e.what());
            store.compare_and_set(d->key, d->raw, std::nullopt);
        } catch (const std::exception& e) {  // the store failed: the entry stays for the next pass
            host_.warn("calendar: step " + d->key + " failed: " + e.what());
        }
    }
}

void Scheduler::step(const Due& d) {
    const platform::Store store = host_.store();
    const int64_t now = host_.now_ms();
    bool stale = false;
    // 1. Claim.
    const auto claimed =
        commit(store, d.owner, d.id, [&](const std::optional<json>& cur) -> std::optional<json> {
            stale = !names(cur, d.key);
            if (stale) return cur;
            json e = *cur;
            json& s = e[kHidden];
            if (d.stage != "recover" || !s.contains("firing"))
                s["firing"] = {{"stage", d.stage == "recover" ? "fire" : d.stage},
                               {"occurrence", d.occurrence}};
            set_step(e, d.owner, "recover", d.occurrence, now + kLeaseMs);
            return e;
        });
    if (stale) {
        store.compare_and_set(d.key, d.raw, std::nullopt);
        return;
    }
    const json& s = (*claimed)[kHidden];
    const std::string recover = s["due"], stage = s["firing"]["stage"],
                      grant = s.value("grant", "");
    const int64_t occ = s["firing"]["occurrence"];

    // 2. Run.
    const auto zone = firing_.zone(grant);
    Outcome out;
    if (d.stage == "recover")
        out.error = "interrupted: the host stopped while this event's " + stage + " step for " +
                    format_rfc3339(occ, zone->offset_at(occ)) + " ran; it is not run again";
    else if (stage == "prepare")
        out = firing_.prepare(*claimed, grant);
    else
        out = firing_.fire(*claimed, grant, occ, *zone);

    // 3. Finish.
    std::string revoke;
    commit(store, d.owner, d.id, [&](const std::optional<json>& cur) -> std::optional<json> {
        revoke.clear();
        if (!cur) return cur;  // deleted meanwhile
        json e = *cur;
        json& h = e[kHidden];
        const bool ours = names(cur, recover) || !h.contains("due") || h["due"].is_null();
        h.erase("firing");
        if (stage == "prepare") {
            if (out.ok)
                e["briefing"] = {{"text", out.text},
                                 {"prepared", platform::rfc3339(now)},
                                 {"for", format_rfc3339(occ, zone->offset_at(occ))}};
            else
                e["briefing"] = nullptr, e["last_error"] = "prepare: " + out.error;
            if (ours) set_step(e, d.owner, "fire", occ, occ * 1000);
            return e;
        }
        e["last_fired"] = platform::rfc3339(now);
        e["last_error"] = out.ok ? json(nullptr) : json(out.error);
        h["done"] = occ;
        if (ours && !plan(e, d.owner, *zone, std::max(occ, now / 1000))) {
            if (e.value("repeat", "").empty()) e["fired"] = true;
            revoke = h.value("grant", "");
            h["grant"] = "";
        }
        return e;
    });
    if (!revoke.empty()) host_.revoke_grant(revoke);
}

}  // namespace calendar
