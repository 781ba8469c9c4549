// times — the day's prayer times at a place by one of the calculation methods, as the adhan
// library (batoulapps/adhan, JavaScript 4.4) computes them with its defaults for that method:
// the Shafi'i asr (shadow factor 1), the "middle of the night" high-latitude rule, no polar-circle
// resolution, the method's own minute adjustments and rounding. The methods' table, our names for
// them and the adhan preset each one follows, and the next prayer after a moment.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace prayer {

// One calculation method: our name (the spec's), the adhan preset it follows, the sun's depression
// for fajr and isha (or isha a fixed interval after maghrib), the preset's minute adjustments and
// whether it rounds up (adhan's Rounding.Up) instead of to the nearest minute.
struct Method {
    std::string name;   // "isna"
    std::string adhan;  // "NorthAmerica"
    std::string title;  // "Islamic Society of North America"
    double fajr_angle;  // degrees below the horizon
    double isha_angle;  // degrees below the horizon; unused when isha_interval > 0
    int isha_interval;  // minutes after maghrib, 0: by the angle
    // Minutes added to fajr, sunrise, dhuhr, asr, maghrib, isha (adhan's methodAdjustments).
    std::array<int, 6> adjustments;
    bool round_up;
};

// Every method, in the spec's order: isna, mwl, egypt, karachi, gulf, diyanet, muis, jakim.
const std::vector<Method>& methods();
// The method named `name`, nullptr when there is none.
const Method* method_named(std::string_view name);
// The names, in order (the schema's enum).
std::vector<std::string> method_names();

// The six times, in order.
inline constexpr std::array<const char*, 6> kTimeNames = {"fajr", "sunrise", "dhuhr",
                                                          "asr",  "maghrib", "isha"};

// A day's six times as Unix milliseconds (as adhan's Dates hold them); NaN for a time that does
// not occur (inside the polar circle, where adhan leaves them unresolved by default).
using DayTimes = std::array<double, 6>;

// The times for the civil date year-month-day at (latitude, longitude).
DayTimes day_times(int year, int month, int day, double latitude, double longitude,
                   const Method& method);

// The next of the six times strictly after `now_ms` (adhan's nextPrayer: a time equal to now has
// begun), from `today`, then the first of `tomorrow` (its fajr) after today's isha.
struct Next {
    int index;       // into kTimeNames
    bool tomorrow;   // from `tomorrow`
    double time_ms;  // NaN when that time does not occur
};
Next next_after(double now_ms, const DayTimes& today, const DayTimes& tomorrow);

}  // namespace prayer
