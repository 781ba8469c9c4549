#include "times.hpp"

#include <cmath>
#include <limits>

#include "astronomy.hpp"
#include "common/time/civil.hpp"

namespace prayer {

namespace {

enum { kFajr, kSunrise, kDhuhr, kAsr, kMaghrib, kIsha };

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// adhan's TimeComponents(hours).utcDate(y, m, d): the hours cut to whole seconds (each of hours,
// minutes and seconds rounded down), from 0h UTC of the date, in milliseconds.
double utc_ms(double hours, int64_t day_number) {
    if (std::isnan(hours)) return kNaN;
    const double h = std::floor(hours);
    const double m = std::floor((hours - h) * 60);
    const double s = std::floor((hours - (h + m / 60)) * 60 * 60);
    return static_cast<double>(day_number) * 86400000.0 + ((h * 60 + m) * 60 + s) * 1000;
}

// JavaScript's new Date(ms + seconds * 1000): the time value cut toward zero to whole ms.
double add_seconds(double ms, double seconds) {
    return std::trunc(ms + seconds * 1000);
}
double add_minutes(double ms, double minutes) {
    return add_seconds(ms, minutes * 60);
}

// adhan's roundedMinute: to the nearest minute (30 s and more up), or up (adhan adds a whole
// minute even at :00), by the UTC seconds of the time.
double rounded_minute(double ms, bool up) {
    if (std::isnan(ms)) return kNaN;
    const double seconds = std::fmod(std::floor(ms / 1000), 60.0);
    const double s = seconds < 0 ? seconds + 60 : seconds;
    double offset = s >= 30 ? 60 - s : -1 * s;
    if (up) offset = 60 - s;
    return add_seconds(ms, offset);
}

}  // namespace

const std::vector<Method>& methods() {
    // adhan 4.4's CalculationMethod presets (src/CalculationMethod.ts); README.md and decision 52
    // say why gulf is Qatar and jakim is Other(20, 18).
    static const std::vector<Method> all = {
        {"isna",
         "NorthAmerica",
         "Islamic Society of North America",
         15,
         15,
         0,
         {0, 0, 1, 0, 0, 0},
         false},
        {"mwl", "MuslimWorldLeague", "Muslim World League", 18, 17, 0, {0, 0, 1, 0, 0, 0}, false},
        {"egypt",
         "Egyptian",
         "Egyptian General Authority of Survey",
         19.5,
         17.5,
         0,
         {0, 0, 1, 0, 0, 0},
         false},
        {"karachi",
         "Karachi",
         "University of Islamic Sciences, Karachi",
         18,
         18,
         0,
         {0, 0, 1, 0, 0, 0},
         false},
        {"gulf",
         "Qatar",
         "Gulf region (Qatar): isha 90 minutes after maghrib",
         18,
         0,
         90,
         {0, 0, 0, 0, 0, 0},
         false},
        {"diyanet",
         "Turkey",
         "Diyanet İşleri Başkanlığı, Turkey",
         18,
         17,
         0,
         {0, -7, 5, 4, 7, 0},
         false},
        {"muis", "Singapore", "Majlis Ugama Islam Singapura", 20, 18, 0, {0, 0, 1, 0, 0, 0}, true},
        {"jakim",
         "Other",
         "Jabatan Kemajuan Islam Malaysia (fajr 20°, isha 18°)",
         20,
         18,
         0,
         {0, 0, 0, 0, 0, 0},
         false},
    };
    return all;
}

const Method* method_named(std::string_view name) {
    for (const Method& m : methods())
        if (m.name == name) return &m;
    return nullptr;
}

std::vector<std::string> method_names() {
    std::vector<std::string> out;
    for (const Method& m : methods()) out.push_back(m.name);
    return out;
}

DayTimes day_times(int year, int month, int day, double latitude, double longitude,
                   const Method& method) {
    const int64_t today = common::time::days_from_civil(year, month, day);
    const common::time::CivilDate next = common::time::civil_from_days(today + 1);
    const SolarTime solar(year, month, day, latitude, longitude);
    const SolarTime tomorrow_solar(next.year, next.month, next.day, latitude, longitude);

    const double dhuhr = utc_ms(solar.transit, today);
    const double sunrise = utc_ms(solar.sunrise, today);
    const double sunset = utc_ms(solar.sunset, today);
    const double asr = utc_ms(solar.afternoon(1), today);  // Shafi'i
    const double tomorrow_sunrise = utc_ms(tomorrow_solar.sunrise, today + 1);
    const double night = (tomorrow_sunrise - sunset) / 1000;

    // The middle of the night: fajr no earlier than half the night before sunrise, isha no later
    // than half the night after sunset.
    double fajr = utc_ms(solar.hour_angle(-1 * method.fajr_angle, false), today);
    const double safe_fajr = add_seconds(sunrise, -(0.5 * night));
    if (std::isnan(fajr) || safe_fajr > fajr) fajr = safe_fajr;

    double isha;
    if (method.isha_interval > 0) {
        isha = add_minutes(sunset, method.isha_interval);
    } else {
        isha = utc_ms(solar.hour_angle(-1 * method.isha_angle, true), today);
        const double safe_isha = add_seconds(sunset, 0.5 * night);
        if (std::isnan(isha) || safe_isha < isha) isha = safe_isha;
    }
    const double maghrib = sunset;

    const auto& adj = method.adjustments;
    const bool up = method.round_up;
    return DayTimes{rounded_minute(add_minutes(fajr, adj[kFajr]), up),
                    rounded_minute(add_minutes(sunrise, adj[kSunrise]), up),
                    rounded_minute(add_minutes(dhuhr, adj[kDhuhr]), up),
                    rounded_minute(add_minutes(asr, adj[kAsr]), up),
                    rounded_minute(add_minutes(maghrib, adj[kMaghrib]), up),
                    rounded_minute(add_minutes(isha, adj[kIsha]), up)};
}

Next next_after(double now_ms, const DayTimes& today, const DayTimes& tomorrow) {
    // adhan's nextPrayer walks back from isha: the first time that has not begun.
    if (!(now_ms >= today[kIsha])) {
        for (int i = kIsha; i > kFajr; --i)
            if (now_ms >= today[i - 1]) return Next{i, false, today[i]};
        return Next{kFajr, false, today[kFajr]};
    }
    return Next{kFajr, true, tomorrow[kFajr]};
}

}  // namespace prayer
