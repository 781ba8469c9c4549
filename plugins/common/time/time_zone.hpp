// time_zone — IANA time zones ("Europe/London") from the system's tz database, through date/tz
// (which reads the TZif files under /usr/share/zoneinfo). Part of common/time/time.hpp.
//
// The files' transition tables run to 2037 (Debian ships them "fat"); later instants follow the
// POSIX TZ rule in each file's footer ("GMT0BST,M3.5.0/1,M10.5.0"), read by date/tz's
// Posix::time_zone. A footer it cannot read (America/Nuuk's negative transition hour) leaves the
// table's last offset in force after 2037.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace common::time {

class TimeZone {
public:
    // The zone named `name` (an IANA name such as "Europe/London", or a link such as
    // "US/Eastern"), loaded once per process and plugin and kept; nullptr when the tz database
    // has no zone by that name (paths such as "../etc/passwd" included). "UTC" is utc().
    static std::shared_ptr<const TimeZone> load(const std::string& name);
    static std::shared_ptr<const TimeZone> utc();

    // The name it was loaded by.
    const std::string& name() const { return name_; }
    // Seconds east of UTC in force at the instant.
    int offset_at(int64_t utc_s) const;
    // The wall clock here at the instant, as local seconds.
    int64_t to_local(int64_t utc_s) const { return utc_s + offset_at(utc_s); }
    // The instant whose wall clock here reads `local_s`. A wall time skipped by a change (spring
    // forward) is read with the offset before the change, i.e. moved forward by the gap; a
    // repeated one (fall back) gives the earlier instant.
    int64_t to_utc(int64_t local_s) const;

    ~TimeZone();
    TimeZone(const TimeZone&) = delete;
    TimeZone& operator=(const TimeZone&) = delete;

private:
    struct Source;  // date/tz's zone and the footer rule
    TimeZone(std::string name, std::unique_ptr<Source> source);

    std::string name_;
    std::unique_ptr<Source> source_;  // null: UTC
};

}  // namespace common::time
