// when — dates and times written in a request ("tomorrow at 9", "on Friday at 10", "at 9pm",
// "today at 5pm", "at 14:30", "in 2 hours", "on 3 December", "this week"), read in the account's
// zone (clock.hpp) and cut out of the text, so "remind me tomorrow at 9 to call the dentist"
// leaves "to call the dentist".
//
// Recognised, case-insensitively, anywhere in the text:
//   day        today, tonight (evening: a bare hour is pm), tomorrow, the day after tomorrow,
//              [on|next|this|coming|by] <weekday> (also mon, tue...; a bare weekday counts at the
//              start of the text or next to a time), [on] 2026-12-03, [on] 3(rd) [of] December,
//              [on] December 3(rd)
//   time       at 9, at 9:30, at 14:30, at 9pm, at 9 pm, 9am, 14:30, at noon, at midnight; a bare
//              hour from 1 to 6 ("at 5") is read as pm, any other as 24-hour
//   relative   in 2 hours, in 45 minutes, in an hour, in half an hour, in three days, in a week
//   span       this week (today and six more days), next week (Monday to Sunday), this weekend
// A weekday is the next such day, today included; whether today still fits is the caller's call
// (reminder_instant moves a past time on a named weekday to the next week).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "clock.hpp"

namespace builtin {

struct WhenFound {
    std::optional<int64_t> day;      // local day number named
    bool weekday = false;            // the day was named by its weekday
    int days = 1;                    // how many days from `day` (a span: this week = 7)
    std::optional<int> minute;       // minute of the day named (9:30 = 570)
    std::optional<int64_t> instant;  // an instant named relatively ("in 2 hours"), Unix seconds
    std::string rest;                // the text without the expressions, original case, trimmed

    bool any() const { return day || minute || instant; }
};

// Every expression above found in `text` (the first of each kind), cut out of it.
WhenFound find_when(const std::string& text, const LocalClock& clock);

// The instant a reminder (or a task's due) means: a relative one as it is; a day and a time; a
// time alone today, or tomorrow when that is past; a day alone at 09:00. A named weekday whose
// time today is past moves to the next week. nullopt when nothing was found.
std::optional<int64_t> reminder_instant(const WhenFound& found, const LocalClock& clock);

}  // namespace builtin
