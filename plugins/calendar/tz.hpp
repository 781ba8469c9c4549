// tz — time zones from the system tz database (/usr/share/zoneinfo), read by this plugin itself:
// the C library's TZ/localtime_r route changes process-wide state and is not thread-safe.
//
// A zone is its TZif file (RFC 8536, versions 1 to 4): the 64-bit transition table when the
// file has one, then the POSIX TZ string of its footer for instants after the last transition
// (Debian ships "slim" files whose tables stop early and rely on the footer), e.g.
// "GMT0BST,M3.5.0/1,M10.5.0". Leap-second records are skipped (the files under zoneinfo/ have
// none). Plain calendar arithmetic (days_from_civil and back) lives here too.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace calendar {

struct CivilDate {
    int year, month, day;  // month 1..12, day 1..31
};

// Days since 1970-01-01 of a proleptic Gregorian date, and back (Hinnant's algorithms).
int64_t days_from_civil(int year, int month, int day);
CivilDate civil_from_days(int64_t days);
int days_in_month(int year, int month);

// A POSIX TZ rule ("EST5EDT,M3.2.0,M11.1.0"): standard offset, optional daylight offset and
// the two yearly transitions. Offsets are seconds east of UTC (the string's sign is inverted).
class PosixRule {
public:
    // Nullopt-like: ok() false when the text is not a rule this reader understands.
    explicit PosixRule(const std::string& text);
    bool ok() const { return ok_; }
    int offset_at(int64_t utc_s) const;

private:
    struct When {
        char kind = 'M';  // 'J' (1..365, no Feb 29), 'D' (0..365), 'M' (month.week.weekday)
        int a = 0, b = 0, c = 0;
        int time = 7200;  // seconds after local midnight (may be negative or past 24 h)
    };
    // Seconds from the local year's start (Jan 1 00:00 local) to the transition.
    static int64_t local_seconds(const When& w, int year);
    bool ok_ = false, dst_ = false;
    int std_off_ = 0, dst_off_ = 0;
    When start_, end_;
};

class TimeZone {
public:
    // The zone named `name` (an IANA name such as "Europe/London"), cached; nullptr when there is
    // no readable TZif file by that name.
    static std::shared_ptr<const TimeZone> load(const std::string& name);
    static std::shared_ptr<const TimeZone> utc();

    const std::string& name() const { return name_; }
    // Seconds east of UTC in force at the instant.
    int offset_at(int64_t utc_s) const;
    // The instant whose wall clock here reads `local_s` (seconds since 1970 as if local were
    // UTC). A wall time skipped by a change (spring forward) is read with the offset before the
    // change, i.e. moved forward by the gap; a repeated one (fall back) gives the earlier instant.
    int64_t to_utc(int64_t local_s) const;

private:
    struct Type {
        int32_t offset;
        bool dst;
    };
    static std::shared_ptr<TimeZone> parse(const std::string& name, const std::string& bytes);

    std::string name_;
    std::vector<int64_t> times_;    // transitions, ascending
    std::vector<uint8_t> indices_;  // type after each transition
    std::vector<Type> types_;
    std::unique_ptr<PosixRule> footer_;
};

}  // namespace calendar
