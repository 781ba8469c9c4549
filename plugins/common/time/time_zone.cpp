#include "common/time/time_zone.hpp"

#include <date/ptz.h>
#include <date/tz.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <optional>

namespace common::time {

namespace {

// Instants are clamped to about ±28,000 years, inside what date/tz's year type holds.
constexpr int64_t kFar = 900'000'000'000;

date::sys_seconds sys(int64_t s) {
    return date::sys_seconds{std::chrono::seconds{std::clamp(s, -kFar, kFar)}};
}

date::local_seconds local(int64_t s) {
    return date::local_seconds{std::chrono::seconds{std::clamp(s, -kFar, kFar)}};
}

// The POSIX TZ rule in the footer of a TZif file of version 2 or later (RFC 8536: the file ends
// with "\n<rule>\n"); nullopt when there is none or date/tz cannot read it.
std::optional<Posix::time_zone> footer_rule(const std::string& name) {
    std::ifstream in("/usr/share/zoneinfo/" + name, std::ios::binary);
    const std::string b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (b.size() < 46 || b.compare(0, 4, "TZif") != 0 || b[4] < '2' || b.back() != '\n')
        return std::nullopt;
    const size_t open = b.rfind('\n', b.size() - 2);
    if (open == std::string::npos || open + 2 >= b.size()) return std::nullopt;
    try {
        return Posix::time_zone(b.substr(open + 1, b.size() - open - 2));
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

}  // namespace

struct TimeZone::Source {
    const date::time_zone* table;
    date::sys_seconds last;                // the table's last transition
    std::optional<Posix::time_zone> rule;  // in force from `last` on, when present
};

TimeZone::TimeZone(std::string name, std::unique_ptr<Source> source)
    : name_(std::move(name)), source_(std::move(source)) {}

TimeZone::~TimeZone() = default;

std::shared_ptr<const TimeZone> TimeZone::utc() {
    static const std::shared_ptr<const TimeZone> zone(new TimeZone("UTC", nullptr));
    return zone;
}

std::shared_ptr<const TimeZone> TimeZone::load(const std::string& name) {
    if (name == "UTC") return utc();
    static std::mutex m;
    static std::map<std::string, std::shared_ptr<const TimeZone>> cache;
    std::lock_guard<std::mutex> g(m);
    if (auto it = cache.find(name); it != cache.end()) return it->second;
    auto source = std::make_unique<Source>();
    try {
        source->table = date::locate_zone(name);
        // Reads the zone's file now (date/tz does it on first use): an unreadable one is unknown.
        source->last = source->table->get_info(sys(kFar)).begin;
    } catch (const std::exception&) {  // not in the database, or no database at all
        return nullptr;
    }
    source->rule = footer_rule(name);
    std::shared_ptr<const TimeZone> zone(new TimeZone(name, std::move(source)));
    cache.emplace(name, zone);
    return zone;
}

int TimeZone::offset_at(int64_t utc_s) const {
    if (!source_) return 0;
    const date::sys_seconds t = sys(utc_s);
    const date::sys_info info = source_->rule && t >= source_->last ? source_->rule->get_info(t)
                                                                    : source_->table->get_info(t);
    return static_cast<int>(info.offset.count());
}

int64_t TimeZone::to_utc(int64_t local_s) const {
    if (!source_) return local_s;
    date::local_info info = source_->table->get_info(local(local_s));
    // Past the table's last transition (and not in a gap or overlap it makes), the rule's clock.
    if (source_->rule && info.result == date::local_info::unique &&
        info.first.begin >= source_->last)
        info = source_->rule->get_info(local(local_s));
    // One offset, or the one before a gap or an overlap: see the header.
    return local_s - info.first.offset.count();
}

}  // namespace common::time
