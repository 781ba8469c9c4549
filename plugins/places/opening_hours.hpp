// opening_hours — the simple forms of OpenStreetMap's opening_hours tag
// (https://wiki.openstreetmap.org/wiki/Key:opening_hours/specification), and whether a week of
// them is open at a local time. No I/O.
//
// Read: "24/7"; rules separated by ';', each [days] (times | "off" | "closed"), where days are
// Mo Tu We Th Fr Sa Su, ranges (Mo-Fr, Fr-Mo wrapping) and lists (Mo,We,Fr-Su), and times are
// HH:MM-HH:MM spans separated by ',' (an end at or before the start runs past midnight into the
// next day; 24:00 ends the day). A rule without days is every day. A later rule replaces earlier
// ones on the days it names, as the specification says. "PH" (public holidays) in a day list is
// skipped and a rule naming only PH is ignored: the plugin knows no holiday calendar.
// Anything else (months, weeks, dates, sunrise, "+", comments, "||") is not understood: the whole
// value is unknown (nullopt), never a guess.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace places {

// The opening spans of each weekday (0 = Monday .. 6 = Sunday) in minutes from that day's
// midnight: [start, end), end up to 2 * 1440 when a span runs past midnight.
struct Week {
    std::array<std::vector<std::pair<int, int>>, 7> days;
};

std::optional<Week> parse_opening_hours(std::string_view text);

// Whether the week is open at `minute` (0..1439) of `weekday` (0 = Monday), counting spans of the
// day before that run past midnight.
bool open_at(const Week& week, int weekday, int minute);

// parse_opening_hours, then open_at for the local time `local_s` (seconds since 1970 on the local
// wall clock); nullopt when the value is not understood.
std::optional<bool> open_at_local(std::string_view text, int64_t local_s);

}  // namespace places
