#include "outside_rules.hpp"

#include "phrasing.hpp"
#include "router.hpp"

namespace builtin {

using nlohmann::json;

namespace {

// `text` without the word `word` (whole word, any case); `found` says whether it was there.
std::string without_word(std::string text, const std::string& word, bool& found) {
    const std::string low = lower(text);
    for (size_t at = low.find(word); at != std::string::npos; at = low.find(word, at + 1)) {
        const bool starts = at == 0 || low[at - 1] == ' ';
        const size_t end = at + word.size();
        const bool ends = end == low.size() || low[end] == ' ' || low[end] == ',';
        if (starts && ends) {
            found = true;
            return text.erase(at, end - at);
        }
    }
    return text;
}

// A request's place and day: "in London tomorrow" -> {London, tomorrow}; "" when absent.
struct PlaceDay {
    std::string place, day;
};
PlaceDay place_and_day(const std::string& capture) {
    std::string rest = capture;
    PlaceDay out;
    bool found = false;
    for (const char* d : {"tomorrow", "today", "tonight", "right now", "now", "this morning",
                          "this afternoon", "this evening"}) {
        found = false;
        rest = without_word(rest, d, found);
        if (found && out.day.empty()) out.day = std::string(d) == "tomorrow" ? "tomorrow" : "today";
    }
    rest = strip_leading(rest, {"be like", "going to be like", "look like", "looks like", "like",
                                "be", "is", "for", "in", "at", "near", "around", "close to", "of"});
    while (!rest.empty() && (rest.back() == ' ' || rest.back() == ',')) rest.pop_back();
    for (const char* tail : {" be like", " like", " going to be", " be"})
        if (const std::string t = tail;
            rest.size() > t.size() && lower(rest.substr(rest.size() - t.size())) == t)
            rest.erase(rest.size() - t.size());
    out.place = unquoted(strip_leading(rest, {"in", "at", "for", "near", "around", "the"}));
    return out;
}

// The first object within `j` (itself, or nested up to three levels) with lat and lon.
std::optional<std::pair<double, double>> point_in(const json& j, int depth = 0) {
    auto number = [](const json& v) -> std::optional<double> {
        if (v.is_number()) return v.get<double>();
        if (v.is_string()) try {
                return std::stod(v.get<std::string>());
            } catch (...) {
            }
        return std::nullopt;
    };
    if (j.is_object() && j.contains("lat") && j.contains("lon"))
        if (auto lat = number(j["lat"]), lon = number(j["lon"]); lat && lon)
            return std::make_pair(*lat, *lon);
    if (depth >= 3 || !(j.is_object() || j.is_array())) return std::nullopt;
    for (const auto& v : j)
        if (auto p = point_in(v, depth + 1)) return p;
    return std::nullopt;
}

}  // namespace

std::vector<ToolCall> weather_call(const std::string& capture, const LocalClock&) {
    const PlaceDay pd = place_and_day(capture);
    json args = json::object();
    if (!pd.place.empty()) args["place"] = pd.place;
    if (!pd.day.empty()) args["day"] = pd.day;
    return {{"weather_lookup", args}};
}

std::vector<ToolCall> rain_call(const std::string& capture, const LocalClock& clock) {
    auto calls = weather_call(capture, clock);
    calls[0].arguments["focus"] = "rain";
    if (!calls[0].arguments.contains("day")) calls[0].arguments["day"] = "today";
    return calls;
}

std::vector<ToolCall> prayer_call(const std::string& capture, const LocalClock&) {
    const PlaceDay pd = place_and_day(capture);
    if (pd.place.empty()) return {};
    return {{"places_geocode", {{"address", pd.place}}}};
}

std::vector<ToolCall> quakes_call(const std::string& capture, const LocalClock&) {
    const PlaceDay pd = place_and_day(strip_leading(capture, {"today", "recently", "lately"}));
    if (pd.place.empty()) return {{"hazards_quakes", json::object()}};
    return {{"places_geocode", {{"address", pd.place}}}};
}

std::optional<ToolCall> after_place(const std::string& then, const json& geocoded,
                                    const LocalClock& clock) {
    const auto p = point_in(geocoded);
    if (!p) return std::nullopt;
    json args = {{"lat", p->first}, {"lon", p->second}};
    if (then == "prayer_times") {
        const std::string zone = clock.zone_name();
        if (zone.find('/') != std::string::npos || zone == "UTC") args["tz"] = zone;
    }
    return ToolCall{then, args};
}

}  // namespace builtin
