// gtfs_timetable — a published GTFS timetable read from its ZIP into memory, and the questions
// transit asks of it: which stops are called this (by id, code or name), which are near a point,
// and what leaves them next.
//
// Read: agency.txt (the zone every time is in), stops.txt, routes.txt, trips.txt, stop_times.txt,
// calendar.txt and/or calendar_dates.txt, frequencies.txt and feed_info.txt when present. Every
// other file is ignored. stop_times.txt, the big one (hundreds of MB in a city's feed), streams
// out of the ZIP record by record into one list of (time, trip) per stop; nothing else of it is
// kept. Rows that name an unknown trip or stop are skipped, as are stops the feed leaves untimed
// (no arrival or departure time: GTFS lets riders' apps interpolate them; this does not guess).
//
// Times. A GTFS time is "H:MM:SS" counted from noon minus 12 hours of its service day, in the
// agency's zone, and may pass 24:00:00 for trips that run past midnight; a service runs on a day
// when calendar.txt's weekday and date range say so, unless calendar_dates.txt removes it (2), or
// when calendar_dates.txt adds it (1). next() looks at the services of yesterday, today and
// tomorrow, so late-night trips of yesterday and the early ones of tomorrow both count. A trip
// in frequencies.txt runs every headway_secs from start_time until end_time, its stop times
// giving the offsets from its first stop.
//
// Failures: a body that is not a ZIP, a feed without stops.txt, routes.txt, trips.txt,
// stop_times.txt or agency.txt, or without either calendar file, an agency_timezone the tz
// database does not know, or a table that cannot be read throw common::upstream::Malformed
// saying which file and what.
//
// Threads: read-only after read(); any number of threads may ask at once.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/time/time_zone.hpp"

namespace transit {

class GtfsTimetable {
public:
    struct Stop {
        std::string id, code, name, platform;
        double lat = 0, lon = 0;
        int32_t parent = -1;   // index of its station (parent_station), -1 when none
        bool station = false;  // location_type 1: a station whose platforms are its children
    };
    struct Route {
        std::string short_name, long_name, agency;
        int type = 3;
    };
    struct Trip {
        std::string id, headsign;
        uint32_t route = 0, service = 0;
        int8_t direction = -1;    // direction_id 0/1, -1 when not given
        int32_t first_time = -1;  // the time at its lowest stop_sequence (frequency offsets)
        uint32_t first_seq = UINT32_MAX, last_seq = 0;
        int32_t last_stop = -1;  // where it ends: destination when there is no headsign
    };
    // One call of a trip at a stop, seconds after its service day's noon minus 12 h.
    struct Call {
        int32_t time;
        uint32_t trip;
        bool operator<(const Call& o) const { return time < o.time; }
    };
    // A departure (or arrival, at a trip's end) at an instant.
    struct Next {
        int64_t at_s;  // UTC seconds
        uint32_t stop, trip;
    };

    // Reads the feed in `zip`; `bytes` is its size for summary(). Throws Malformed.
    static std::unique_ptr<GtfsTimetable> read(std::string_view zip);

    // {publisher, agencies: [name], timezone, country, stops, routes, trips, calls, valid_from,
    // valid_to (YYYY-MM-DD: feed_info's dates, else the calendar's range), version, size_bytes,
    // unzipped_bytes}.
    nlohmann::json summary() const;
    // The country of the agencies' zone, from the tz database's zone.tab ("Europe/London" ->
    // "GB"); "" when the zone has no single country.
    const std::string& country() const { return country_; }
    const common::time::TimeZone& zone() const { return *zone_; }

    // Stops that answer to `query`: a stop_id (exact, then ignoring case) or stop_code; else
    // every stop whose name equals it ignoring case, else those whose name contains it, keeping
    // the shortest name that matched (its platforms, all called that). A station brings its
    // platforms. Empty when nothing matches. `also` gets up to 5 other names that matched.
    std::vector<uint32_t> find(std::string_view query,
                               std::vector<std::string>* also = nullptr) const;
    // Up to `limit` calls at `stops` from `now_s` to `now_s + horizon_s`, soonest first.
    std::vector<Next> next(const std::vector<uint32_t>& stops, int64_t now_s, size_t limit,
                           int64_t horizon_s) const;
    // Stops (not stations) within `radius_m` of a point, nearest first, with their distances.
    std::vector<std::pair<uint32_t, double>> near(double lat, double lon, double radius_m) const;
    // The routes that call at a stop, in route order.
    std::vector<uint32_t> routes_at(uint32_t stop) const;

    const Stop& stop(uint32_t i) const { return stops_[i]; }
    const Trip& trip(uint32_t i) const { return trips_[i]; }
    const Route& route(uint32_t i) const { return routes_[i]; }
    // The name riders know a route by ("42", else its long name) and its mode ("bus", "tram",
    // "rail", "subway", "ferry"... from route_type, basic and extended types).
    std::string line_name(const Route& r) const;
    static std::string mode_name(int route_type);
    // Whether the service runs on a day (days since 1970-01-01).
    bool runs(uint32_t service, int64_t day) const;

private:
    struct Service {
        uint8_t weekdays = 0;  // bit weekday_of(day): 0 Sunday .. 6 Saturday
        int64_t from = 0, to = -1;
        std::vector<int64_t> added, removed;  // sorted
    };
    struct Frequency {
        int32_t start, end, headway;
    };

    std::shared_ptr<const common::time::TimeZone> zone_;
    std::string country_, publisher_, version_;
    std::vector<std::string> agencies_;
    std::vector<Stop> stops_;
    std::vector<Route> routes_;
    std::vector<Trip> trips_;
    std::vector<Service> services_;
    std::vector<std::vector<Call>> calls_;       // per stop, by time
    std::vector<std::vector<Call>> freq_calls_;  // per stop: calls of trips in frequencies.txt
    std::unordered_map<uint32_t, std::vector<Frequency>> frequencies_;  // by trip
    std::unordered_map<std::string, uint32_t> stop_by_id_, stop_by_code_;
    int64_t valid_from_ = 0, valid_to_ = -1;  // days
    uint64_t bytes_ = 0, unzipped_ = 0, calls_count_ = 0;

    friend class GtfsReader;
};

// "H:MM:SS" (hours may pass 24) as seconds; -1 when it is not one.
int32_t gtfs_seconds(std::string_view text);
// "YYYYMMDD" as days since 1970-01-01; -1 when it is not a valid date (timetables hold none
// before 1970).
int64_t gtfs_day(std::string_view text);

}  // namespace transit
