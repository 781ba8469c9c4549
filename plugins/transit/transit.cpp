#include "transit.hpp"

namespace schema = platform::schema;

using namespace transit;

void Transit::describe(platform::ServiceSpec<Transit>& s) {
    s.id("transit")
        .version("1.0.0")
        .service("v1.transit")
        .summary(
            "Public transport: London's live arrivals, stops and line status (TfL), arrivals and "
            "stops elsewhere from a published GTFS timetable, bus positions in England (BODS), "
            "British station boards and the published timetables of a country");
    s.get("arrivals")
        .title("Arrivals at a stop")
        .description(
            "The next arrivals at a stop, by name (\"Oxford Circus\") or id (940GZZLUOXC, "
            "490008660N). London stops answer live from TfL: {source: \"live\", provider: "
            "\"TfL\", stop: {id, name}, arrivals: [{line, destination, platform, direction, mode, "
            "expected, in_seconds, vehicle, stop_name}] soonest first}. Other stops answer from "
            "the published GTFS timetable the host carries (providers.gtfs.base_url), matched by "
            "stop id, stop code or name: {source: \"timetable\", provider, stop: {id, name, "
            "ids}, also: [other names that matched], arrivals: [the same fields, plus scheduled "
            "(HH:MM local), operator and trip], timetable: {publisher, timezone, valid_from, "
            "valid_to, ...}}, the next 20 within a day. 503 naming providers.gtfs.base_url when "
            "no timetable is set; 404 for a stop neither knows.")
        .schema(schema::object().str("stop").min_len(2).max_len(100).required().doc(
            "Stop name or id (NaPTAN / TfL StopPoint id)"))
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&Transit::arrivals);
    s.get("buses")
        .title("Buses near a point")
        .description(
            "Live bus positions in England from the Bus Open Data Service (SIRI-VM) within "
            "`within_km` of `lat`, `lon` (both needed), nearest first, at most `limit`. Answer: "
            "{buses: [{vehicle, line, direction, operator, destination, lat, lon, bearing, "
            "distance_km, recorded_at}], in_range (how many were within the distance), source: "
            "\"BODS\"}.")
        .schema(schema::object()
                    .prop("lat", schema::latitude("Latitude of the point"))
                    .prop("lon", schema::longitude("Longitude of the point"))
                    .number("within_km")
                    .range(0.1, 25)
                    .def(2)
                    .doc("Kilometres around the point, at most 25")
                    .prop("limit", schema::limit(100, 10, "How many buses, 1 to 100")))
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&Transit::buses);
    s.get("feeds")
        .title("Published timetables of a country")
        .description(
            "The GTFS timetable this host carries (providers.gtfs.base_url) when its agencies' "
            "time zone is in the country, and those available for the country from the Mobility "
            "Database catalogue, with their download sizes where the catalogue gives them. "
            "Answer: {country, carried: [{publisher, agencies, timezone, country, stops, routes, "
            "trips, calls, valid_from, valid_to, version, size_bytes, unzipped_bytes, setting}], "
            "timetable_setting: \"providers.gtfs.base_url\", available: [{id, provider, name, "
            "status, url, downloaded_at, hash, size_mb, unzipped_size_mb, locations: [text]}]}; "
            "a timetable that failed to load is listed as {setting, error}.")
        .schema(schema::object()
                    .str("country")
                    .pattern("^[A-Za-z]{2}$")
                    .def("GB")
                    .doc("ISO 3166-1 two-letter country code, GB by default"))
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&Transit::feeds);
    s.get("nearby")
        .title("Stops near a point")
        .description(
            "Stops within `radius` metres of a point, nearest first, with their ids for "
            "transit/arrivals: London's bus, tram, Underground, DLR, Overground, Elizabeth line "
            "and rail stops from TfL, and the stops of the GTFS timetable the host carries. "
            "Answer: {stops: [{id, name, indicator, distance_m, lat, lon, modes, lines}], "
            "radius_m, sources: [\"TfL\", \"timetable\"], failed: [{source, error}] when one "
            "of them could not answer}; 503 when none could.")
        .schema(schema::object()
                    .prop("lat", schema::latitude("Latitude of the point"))
                    .required()
                    .prop("lon", schema::longitude("Longitude of the point"))
                    .required()
                    .number("radius")
                    .range(1, 2000)
                    .def(400)
                    .doc("Metres around the point, at most 2000"))
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&Transit::nearby);
    s.get("status")
        .title("London line status")
        .description(
            "The status of London's lines from TfL for the modes asked (all five when none): "
            "{modes: [...], lines: [{id, name, mode, statuses: [{severity, description, "
            "reason}]}]}. An unknown mode is a 400 naming `modes`.")
        .schema(schema::object().str("modes").max_len(100).doc(
            "Comma-separated: tube, dlr, overground, elizabeth-line, tram"))
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&Transit::status);
    s.get("trains")
        .title("A British station board")
        .description(
            "The departures (or arrivals) board of a station in Great Britain from National "
            "Rail's Live Departure Board (Rail Data Marketplace). Answer: {station: {name, crs}, "
            "generated_at, board, services: [{scheduled, expected, platform, operator, origin, "
            "destination, cancelled, cancel_reason, delay_reason, id, bus}], messages: [text]}; "
            "times are the station's local HH:MM, expected \"On time\", \"Delayed\" or a time.")
        .schema(schema::object()
                    .str("station")
                    .pattern("^[A-Za-z]{3}$")
                    .doc("Three-letter station code (CRS), e.g. PAD")
                    .prop("rows", schema::limit(20, 10, "How many services, 1 to 20"))
                    .boolean("arrivals")
                    .def(false)
                    .doc("The arrivals board instead of departures"))
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&Transit::trains);
}

PLATFORM_SERVICE(Transit)
