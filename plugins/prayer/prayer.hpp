// prayer — prayer times and the qibla computed here (times.hpp, astronomy.hpp: the adhan
// library's algorithms and method presets), and scripture read from the Reminder knowledge base
// (reminder.dev, through common/reminder and common/upstream): a verse, a saying (hadith), a
// reflection for the day and a search by meaning, each an excerpt with its source and reference.
// prayer.cpp: the description and the computed methods; scripture.cpp: the upstream ones.
#pragma once

#include <platform/sdk.hpp>

class Prayer {
public:
    static void describe(platform::ServiceSpec<Prayer>& s);
    explicit Prayer(const platform::Host& host) : host_(host) {}

    platform::json qibla(platform::Request& r);
    platform::json times(platform::Request& r);

    platform::json reflection(platform::Request& r);
    platform::json saying(platform::Request& r);
    platform::json search(platform::Request& r);
    platform::json verse(platform::Request& r);

private:
    platform::Host host_;
};
