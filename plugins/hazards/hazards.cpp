#include "hazards.hpp"

#include "parsers.hpp"

namespace schema = platform::schema;

using common::upstream::Query;
using platform::json;

namespace hazards {

// Cache lifetimes: USGS refreshes its summary feeds every minute (and says so in Cache-Control,
// which wins), GDACS its event list every few minutes, the Environment Agency its warnings every
// 15 minutes.
const common::upstream::Provider kUsgs{"usgs", "USGS", "https://earthquake.usgs.gov",
                                       2 * 60 * 1000};
const common::upstream::Provider kGdacs{"gdacs", "GDACS", "https://www.gdacs.org", 10 * 60 * 1000};
const common::upstream::Provider kEaFloods{"ea-floods", "The Environment Agency",
                                           "https://environment.data.gov.uk", 5 * 60 * 1000};

namespace {

constexpr int kHalfEarthKm = 20040;  // beyond it every point on Earth is within

double number(const platform::Request& r, const char* name, double fallback) {
    const auto it = r.args().find(name);
    return it != r.args().end() && it->is_number() ? it->get<double>() : fallback;
}

// lat, lon and within_km: the optional point every method takes.
schema::Object with_point(schema::Object o, const std::string& what, int default_km, int max_km) {
    return o.prop("lat", schema::latitude("Latitude of the point " + what + " (with lon)"))
        .prop("lon", schema::longitude("Longitude of the point (with lat)"))
        .number("within_km")
        .exclusive_min(0)
        .max(max_km)
        .doc("Only those within this many km of the point (needs lat and lon; default " +
             std::to_string(default_km) + ", at most " + std::to_string(max_km) + ")");
}

}  // namespace

std::optional<Near> near_of(const platform::Request& r, double default_km) {
    const auto has = [&](const char* n) {
        const auto it = r.args().find(n);
        return it != r.args().end() && !it->is_null();
    };
    if (has("lat") != has("lon"))
        throw platform::invalid_argument(std::string(has("lat") ? "lon" : "lat") +
                                         ": lat and lon go together; give both or neither");
    if (!has("lat")) {
        if (has("within_km"))
            throw platform::invalid_argument("within_km: needs a point (lat and lon)");
        return std::nullopt;
    }
    return Near{number(r, "lat", 0), number(r, "lon", 0), number(r, "within_km", default_km)};
}

}  // namespace hazards

void Hazards::describe(platform::ServiceSpec<Hazards>& s) {
    s.id("hazards")
        .version("1.0.0")
        .service("v1.hazards")
        .summary(
            "Natural hazards now: global disaster alerts (GDACS), flood warnings in England (the "
            "Environment Agency) and recent earthquakes (USGS)");
    s.get("alerts")
        .title("Current disaster alerts")
        .description(
            "Current disasters worldwide from GDACS (earthquakes, tropical cyclones, floods, "
            "volcanoes, droughts, wildfires), at `level` or above (green: all; orange: orange "
            "and red; red: red only), with a point only those within `within_km` (default "
            "1000). Red first, then nearest (with a point) or newest. Answers {alerts: [{id, "
            "type, type_code, level, name, description, country, from, to (RFC 3339), lat, lon, "
            "severity: {value, text, unit}, distance_km (with a point), url (GDACS's report)}], "
            "count (how many matched), listed (at most 200)}. Source: GDACS, European "
            "Commission / United Nations.")
        .schema(hazards::with_point(
            schema::object()
                .str("level")
                .one_of({"green", "orange", "red"})
                .def("green")
                .doc("The lowest alert level listed: green (default, all), orange, "
                     "red"),
            "to search around", 1000, hazards::kHalfEarthKm))
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&Hazards::alerts);
    s.get("floods")
        .title("Flood warnings in England")
        .description(
            "Flood warnings and alerts in force in England from the Environment Agency (England "
            "only: elsewhere answers none), with a point only those within `within_km` (default "
            "30) of it; `severe` lists only Severe Flood Warnings (danger to life, level 1). "
            "Most severe first (level 1 Severe Flood Warning, 2 Flood Warning, 3 Flood Alert, 4 "
            "Warning no Longer in Force: in_force false), then most recently changed. Answers "
            "{floods: [{id, area, region, county, river_or_sea, severity, severity_level, "
            "in_force, tidal, message, raised, severity_changed, message_changed (RFC 3339), "
            "url}], count}. Contains public sector information licensed under the Open "
            "Government Licence v3.0.")
        .schema(hazards::with_point(schema::object(), "to search around, in England", 30, 1000)
                    .boolean("severe")
                    .def(false)
                    .doc("Only Severe Flood Warnings (severity level 1); default false"))
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&Hazards::floods);
    s.get("quakes")
        .title("Recent earthquakes")
        .description(
            "Earthquakes of magnitude `min` (default 2.5) or more in the last hour, day "
            "(default), week or month from the USGS, with a point only those within `within_km` "
            "(default 500) of it. Nearest first with a point, else newest first. Answers "
            "{quakes: [{id, magnitude, magnitude_type, place, time (RFC 3339), lat, lon, "
            "depth_km, tsunami, distance_km (with a point), url}], count (how many matched), "
            "listed (at most 200)}. Source: U.S. Geological Survey.")
        .schema(hazards::with_point(schema::object()
                                        .number("min")
                                        .range(-2, 10)
                                        .def(2.5)
                                        .doc("The lowest magnitude listed (default 2.5)")
                                        .str("period")
                                        .one_of({"hour", "day", "week", "month"})
                                        .def("day")
                                        .doc("How far back: hour, day (default), week, month"),
                                    "to search around", 500, hazards::kHalfEarthKm))
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&Hazards::quakes);
}

json Hazards::alerts(platform::Request& r) {
    const auto near = hazards::near_of(r, 1000);
    const int level = hazards::alert_rank(r.str("level", "green"));
    const json list = gdacs_.get_json("/gdacsapi/api/events/geteventlist/EVENTS4APP");
    return gdacs_.parse(list, [&](const json& j) { return hazards::alerts_from(j, level, near); });
}

json Hazards::floods(platform::Request& r) {
    const auto near = hazards::near_of(r, 30);
    Query q;
    if (near) q.num("lat", near->lat).num("long", near->lon).num("dist", near->within_km);
    const json body = floods_.get_json("/flood-monitoring/id/floods" + q.text());
    const bool severe = r.args().value("severe", false);
    return floods_.parse(body, [&](const json& j) { return hazards::floods_from(j, severe); });
}

json Hazards::quakes(platform::Request& r) {
    const auto near = hazards::near_of(r, 500);
    const double min = hazards::number(r, "min", 2.5);
    const std::string period = r.str("period", "day");
    const json feed = usgs_.get_json("/earthquakes/feed/v1.0/summary/" +
                                     hazards::quake_feed_level(min) + "_" + period + ".geojson");
    return usgs_.parse(feed, [&](const json& j) { return hazards::quakes_from(j, min, near); });
}

PLATFORM_SERVICE(Hazards)
