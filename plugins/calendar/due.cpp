#include "due.hpp"

#include <algorithm>
#include <cstdio>

using platform::json;

namespace calendar {

namespace {

std::string encode(const json& v) {
    return v.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string record_key(const std::string& owner, const std::string& id) {
    return std::string(kEvents) + "/" + platform::Collection::escape(owner) + "/" + id;
}

// The entry a record's step stands for; nullopt when it names none.
std::optional<std::pair<std::string, std::string>> entry_of(const std::optional<json>& e,
                                                            const std::string& owner,
                                                            const std::string& id) {
    if (!e || !e->contains(kHidden)) return std::nullopt;
    const json& s = (*e)[kHidden];
    if (!s.contains("due") || !s["due"].is_string()) return std::nullopt;
    json value = {{"owner", owner},
                  {"id", id},
                  {"stage", s.value("stage", "")},
                  {"occurrence", s.value("occurrence", 0)}};
    return std::make_pair(s["due"].get<std::string>(), encode(value));
}

std::string unescape(const std::string& owner) {  // Collection::escape, undone
    std::string out;
    for (size_t i = 0; i < owner.size(); ++i) {
        if (owner.compare(i, 3, "%2F") == 0)
            out += '/', i += 2;
        else if (owner.compare(i, 3, "%25") == 0)
            out += '%', i += 2;
        else
            out += owner[i];
    }
    return out;
}

}  // namespace

std::string due_key(int64_t fire_ms, const std::string& owner, const std::string& id,
                    const std::string& stage) {
    char ms[32];
    std::snprintf(ms, sizeof ms, "%015lld", static_cast<long long>(std::max<int64_t>(0, fire_ms)));
    return kDuePrefix + std::string(ms) + "/" + platform::Collection::escape(owner) + "/" + id +
           "/" + stage;
}

std::optional<Due> parse_due(const platform::Record& r) {
    const std::string& k = r.key;
    const size_t p = std::char_traits<char>::length(kDuePrefix);
    if (k.size() < p + 16 || k.compare(0, p, kDuePrefix) != 0 || k[p + 15] != '/')
        return std::nullopt;
    const json v = json::parse(r.value, nullptr, false);
    if (!v.is_object() || !v["owner"].is_string() || !v["id"].is_string() ||
        !v["stage"].is_string() || !v["occurrence"].is_number_integer())
        return std::nullopt;
    Due d;
    d.key = k;
    d.raw = r.value;
    for (size_t i = p; i < p + 15; ++i) {
        if (k[i] < '0' || k[i] > '9') return std::nullopt;
        d.fire_ms = d.fire_ms * 10 + (k[i] - '0');
    }
    d.owner = v["owner"];
    d.id = v["id"];
    d.stage = v["stage"];
    d.occurrence = v["occurrence"];
    return d;
}

json shown(json event) {
    event.erase(kHidden);
    if (!event.contains("fired")) event["fired"] = false;
    for (const char* k : {"last_fired", "last_error", "briefing"})
        if (!event.contains(k)) event[k] = nullptr;
    return event;
}

Timing timing_of(const json& event) {
    int64_t start = 0;
    if (event.contains(kHidden) && event[kHidden].contains("anchor"))
        start = event[kHidden]["anchor"].get<int64_t>();
    else if (auto when = parse_rfc3339(event.value("when", "")))
        start = when->utc_s;
    return {start, event.value("minutes", int64_t{30}), event.value("repeat", "")};
}

void set_step(json& event, const std::string& owner, const std::string& stage, int64_t occurrence,
              int64_t fire_ms) {
    json& s = event[kHidden];
    s["due"] = due_key(fire_ms, owner, event.at("id").get<std::string>(), stage);
    s["stage"] = stage;
    s["occurrence"] = occurrence;
}

bool plan(json& event, const std::string& owner, const TimeZone& zone, int64_t after_s) {
    json& s = event[kHidden];
    const auto o = start_after(timing_of(event), zone, after_s);
    if (!o) {
        s["due"] = nullptr;
        s["stage"] = nullptr;
        return false;
    }
    if (!event.value("repeat", "").empty()) {
        const auto when = parse_rfc3339(event.value("when", ""));
        if (!when || when->utc_s != *o) event["when"] = format_rfc3339(*o, zone.offset_at(*o));
    }
    const json& adv = event.contains("advance") ? event["advance"] : json(nullptr);
    const json& brief = event.contains("briefing") ? event["briefing"] : json(nullptr);
    const bool prepared = brief.is_object() && parse_rfc3339(brief.value("for", "")) &&
                          parse_rfc3339(brief.value("for", ""))->utc_s == *o;
    if (adv.is_object() && adv.value("minutes", 0) > 0 && !prepared)
        set_step(event, owner, "prepare", *o, (*o - adv.value("minutes", int64_t{0}) * 60) * 1000);
    else
        set_step(event, owner, "fire", *o, *o * 1000);
    return true;
}

std::optional<json> commit(
    const platform::Store& store, const std::string& owner, const std::string& id,
    const std::function<std::optional<json>(const std::optional<json>&)>& fn) {
    const std::string key = record_key(owner, id);
    for (int attempt = 0; attempt < 16; ++attempt) {
        const auto raw = store.get(key);
        std::optional<json> cur;
        if (raw) cur = json::parse(*raw);
        auto next = fn(cur);
        if (next == cur) return cur;
        const auto old_entry = entry_of(cur, owner, id), new_entry = entry_of(next, owner, id);
        const bool moved = old_entry != new_entry;
        if (moved && new_entry) store.put(new_entry->first, new_entry->second);
        std::optional<std::string> value;
        if (next) value = encode(*next);
        if (store.compare_and_set(key, raw ? std::optional<std::string_view>(*raw) : std::nullopt,
                                  value ? std::optional<std::string_view>(*value) : std::nullopt)) {
            if (moved && old_entry && (!new_entry || old_entry->first != new_entry->first))
                store.erase(old_entry->first);
            return next;
        }
        // Lost the race: the entry just written may be the winner's too, so it stays (stale
        // at worst, dropped when due).
    }
    throw platform::conflict("event " + id +
                             ": the record kept changing; gave up after 16 attempts");
}

size_t repair(const platform::Store& store) {
    size_t missing = 0;
    const std::string prefix = std::string(kEvents) + "/";
    for (const auto& r : store.scan({prefix})) {
        const size_t slash = r.key.find('/', prefix.size());
        if (slash == std::string::npos) continue;
        const json e = json::parse(r.value, nullptr, false);
        if (!e.is_object()) continue;
        const auto entry = entry_of(e, unescape(r.key.substr(prefix.size(), slash - prefix.size())),
                                    r.key.substr(slash + 1));
        if (entry && !store.get(entry->first)) {
            store.put(entry->first, entry->second);
            ++missing;
        }
    }
    return missing;
}

}  // namespace calendar
