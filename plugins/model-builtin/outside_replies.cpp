#include "outside_replies.hpp"

#include <cmath>
#include <cstdio>
#include <vector>

namespace builtin {

using nlohmann::json;

namespace {

std::string text_of(const json& o, const char* key) {
    return o.is_object() && o.contains(key) && o[key].is_string() ? o[key].get<std::string>() : "";
}

// A number as people write it: "8.4", "10", "-0.5"; "" when not a number.
std::string number(const json& o, const char* key) {
    if (!o.is_object() || !o.contains(key) || !o[key].is_number()) return "";
    char buf[32];
    const double v = o[key].get<double>();
    std::snprintf(buf, sizeof buf, v == std::floor(v) ? "%.0f" : "%.1f", v);
    return buf;
}

std::string day_line(const json& d) {
    std::string out = text_of(d, "conditions");
    if (!number(d, "low_c").empty() && !number(d, "high_c").empty())
        out +=
            (out.empty() ? "" : ", ") + number(d, "low_c") + " to " + number(d, "high_c") + " °C";
    if (!number(d, "precipitation_chance_pct").empty())
        out += ", " + number(d, "precipitation_chance_pct") + "% chance of rain";
    return out;
}

std::string capitalised(std::string s) {
    if (!s.empty() && s[0] >= 'a' && s[0] <= 'z') s[0] = static_cast<char>(s[0] - 'a' + 'A');
    return s;
}

}  // namespace

std::string weather_text(const json& d, const json& a, const LocalClock&) {
    const std::string where = text_of(d.value("place", json::object()), "name");
    std::string out;
    if (d.contains("day") && d["day"].is_object()) {
        out = where + " " + text_of(a, "day") + " (" + text_of(d["day"], "date") +
              "): " + day_line(d["day"]) + ".";
    } else if (d.contains("current") && d["current"].is_object()) {
        const json& c = d["current"];
        out = where + " now: " + text_of(c, "conditions");
        if (!number(c, "temperature_c").empty()) out += ", " + number(c, "temperature_c") + " °C";
        if (!number(c, "feels_like_c").empty())
            out += " (feels like " + number(c, "feels_like_c") + " °C)";
        out += ".";
        if (d.contains("days") && d["days"].is_array())
            for (size_t i = 1; i < d["days"].size() && i <= 3; ++i)
                out += "\n- " + text_of(d["days"][i], "date") + ": " + day_line(d["days"][i]);
    }
    if (d.contains("rain") && d["rain"].is_object()) {
        const json& r = d["rain"];
        if (r.value("likely", false)) {
            out += "\nRain is likely: " + number(r, "total_mm") + " mm";
            const json hours = r.value("wet_hours", json::array());
            const json* wettest = nullptr;
            for (const auto& h : hours)
                if (!wettest || h.value("chance_pct", 0) > wettest->value("chance_pct", 0))
                    wettest = &h;
            if (wettest)
                out += ", the likeliest hour " + text_of(*wettest, "time") + " (" +
                       number(*wettest, "chance_pct") + "%)";
            out += ".";
        } else {
            out += "\nRain is unlikely (" + number(r, "chance_pct") + "% at most).";
        }
    }
    return out.empty() ? "No weather came back." : out;
}

std::string prayer_text(const json& d, const json&, const LocalClock&) {
    std::string out;
    if (d.contains("next") && d["next"].is_object()) {
        const json& n = d["next"];
        std::string name = text_of(n, "name");
        if (name.empty()) name = text_of(n, "prayer");
        out = "Next prayer: " + capitalised(name) + " at " + text_of(n, "time") + ".";
    }
    if (d.contains("times") && d["times"].is_object()) {
        std::string today;
        for (const char* p : {"fajr", "sunrise", "dhuhr", "asr", "maghrib", "isha"})
            if (!text_of(d["times"], p).empty())
                today +=
                    (today.empty() ? "" : ", ") + capitalised(p) + " " + text_of(d["times"], p);
        out += (out.empty() ? "" : "\n") + std::string("Today: ") + today + ".";
    }
    return out.empty() ? "No prayer times came back." : out;
}

std::string quakes_text(const json& d, const json&, const LocalClock&) {
    json list = d.value("quakes", json::array());
    if (!list.is_array()) list = json::array();
    if (list.empty()) return "No earthquakes were reported.";
    std::string out =
        std::to_string(list.size()) + (list.size() == 1 ? " earthquake:" : " earthquakes:");
    for (size_t i = 0; i < list.size() && i < 10; ++i) {
        const json& q = list[i];
        std::string mag = number(q, "magnitude");
        if (mag.empty()) mag = number(q, "mag");
        out += "\n- M" + mag + ", " + text_of(q, "place") + ", " + text_of(q, "time");
        if (!number(q, "distance_km").empty()) out += " (" + number(q, "distance_km") + " km away)";
    }
    return out;
}

std::string geocode_text(const json& d, const json& a, const LocalClock&) {
    return "Done (places_geocode " + text_of(a, "address") + "): " + d.dump().substr(0, 300);
}

}  // namespace builtin
