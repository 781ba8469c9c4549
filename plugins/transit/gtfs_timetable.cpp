#include "gtfs_timetable.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>
#include <map>
#include <mutex>

#include "bods.hpp"
#include "common/time/civil.hpp"
#include "common/upstream/upstream.hpp"
#include "common/zip/zip_archive.hpp"
#include "gtfs_csv.hpp"

namespace transit {

using common::upstream::Malformed;
using nlohmann::json;

namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

template <class T>
bool number(std::string_view s, T& out) {
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && p == s.data() + s.size();
}

std::string iso_day(int64_t day) {
    auto c = common::time::civil_from_days(day);
    char b[16];
    std::snprintf(b, sizeof b, "%04d-%02d-%02d", c.year, c.month, c.day);
    return b;
}

// The country of each zone in the tz database's zone.tab ("GB<TAB>+513030-0000731<TAB>Europe/London").
std::string country_of_zone(const std::string& zone) {
    static std::once_flag once;
    static std::map<std::string, std::string> countries;
    std::call_once(once, [] {
        std::ifstream in("/usr/share/zoneinfo/zone.tab");
        for (std::string line; std::getline(in, line);) {
            if (line.empty() || line[0] == '#') continue;
            size_t a = line.find('\t'), b = a == std::string::npos ? a : line.find('\t', a + 1);
            if (b == std::string::npos) continue;
            size_t c = line.find('\t', b + 1);
            countries[line.substr(b + 1, c == std::string::npos ? c : c - b - 1)] =
                line.substr(0, a);
        }
    });
    auto it = countries.find(zone);
    return it == countries.end() ? "" : it->second;
}

}  // namespace

int32_t gtfs_seconds(std::string_view t) {
    while (!t.empty() && t.front() == ' ') t.remove_prefix(1);
    while (!t.empty() && t.back() == ' ') t.remove_suffix(1);
    size_t a = t.find(':'), b = a == std::string_view::npos ? a : t.find(':', a + 1);
    if (b == std::string_view::npos || b - a != 3 || t.size() - b != 3) return -1;
    int h = 0, m = 0, s = 0;
    if (!number(t.substr(0, a), h) || !number(t.substr(a + 1, 2), m) ||
        !number(t.substr(b + 1, 2), s) || h < 0 || h > 200 || m > 59 || s > 59 || m < 0 || s < 0)
        return -1;
    return h * 3600 + m * 60 + s;
}

int64_t gtfs_day(std::string_view t) {
    int y = 0, m = 0, d = 0;
    if (t.size() != 8 || !number(t.substr(0, 4), y) || !number(t.substr(4, 2), m) ||
        !number(t.substr(6, 2), d) || !common::time::valid_date(y, m, d))
        return -1;
    return common::time::days_from_civil(y, m, d);
}

// Fills a GtfsTimetable table by table (the order matters: each table names rows of earlier ones).
class GtfsReader {
public:
    GtfsReader(GtfsTimetable& t, const common::zip::Archive& zip) : t_(t), zip_(zip) {}

    void read() {
        table("agency.txt", true, [&](const GtfsRow& r) { agency(r); });
        table("stops.txt", true, [&](const GtfsRow& r) { stop(r); });
        link_stations();
        table("routes.txt", true, [&](const GtfsRow& r) { route(r); });
        const bool weekly = table("calendar.txt", false, [&](const GtfsRow& r) { calendar(r); });
        const bool dated =
            table("calendar_dates.txt", false, [&](const GtfsRow& r) { calendar_date(r); });
        if (!weekly && !dated)
            throw Malformed("the feed has neither calendar.txt nor calendar_dates.txt");
        table("trips.txt", true, [&](const GtfsRow& r) { trip(r); });
        table("frequencies.txt", false, [&](const GtfsRow& r) { frequency(r); });
        t_.calls_.resize(t_.stops_.size());
        t_.freq_calls_.resize(t_.stops_.size());
        table("stop_times.txt", true, [&](const GtfsRow& r) { stop_time(r); });
        for (auto& calls : t_.calls_) std::sort(calls.begin(), calls.end()), calls.shrink_to_fit();
        for (auto& s : t_.services_)
            std::sort(s.added.begin(), s.added.end()),
                std::sort(s.removed.begin(), s.removed.end());
        table("feed_info.txt", false, [&](const GtfsRow& r) { feed_info(r); });
        if (t_.valid_to_ < t_.valid_from_) calendar_range();
    }

private:
    // Streams one table through `row`; false when the feed has no such file (and it may lack it).
    template <class F>
    bool table(const char* name, bool required, F row) {
        const common::zip::Entry* e = zip_.find(name);
        if (!e) {
            if (required) throw Malformed(std::string("the feed has no ") + name);
            return false;
        }
        GtfsTable csv(name, [&](const GtfsRow& r) { row(r); });
        try {
            zip_.read(*e, [&](std::string_view chunk) { csv.feed(chunk); });
        } catch (const common::zip::Error& err) {
            throw Malformed(err.what());
        }
        csv.finish();
        return true;
    }

    void agency(const GtfsRow& r) {
        std::string zone(r.get("agency_timezone"));
        if (!t_.zone_) {
            t_.zone_ = common::time::TimeZone::load(zone);
            if (!t_.zone_)
                throw Malformed("agency.txt: agency_timezone '" + zone +
                                "' is not a time zone the tz database knows");
            t_.country_ = country_of_zone(zone);
        }
        if (!r.get("agency_id").empty())
            agency_names_[std::string(r.get("agency_id"))] = r.get("agency_name");
        first_agency_ = first_agency_.empty() ? std::string(r.get("agency_name")) : first_agency_;
        t_.agencies_.emplace_back(r.get("agency_name"));
    }

    void stop(const GtfsRow& r) {
        int type = 0;
        number(r.get("location_type"), type);
        if (type != 0 && type != 1) return;  // entrances, nodes, boarding areas
        GtfsTimetable::Stop s;
        s.id = r.get("stop_id");
        if (s.id.empty() || !number(r.get("stop_lat"), s.lat) || !number(r.get("stop_lon"), s.lon))
            return;
        s.code = r.get("stop_code");
        s.name = r.get("stop_name");
        s.platform = r.get("platform_code");
        s.station = type == 1;
        const auto i = static_cast<uint32_t>(t_.stops_.size());
        if (!t_.stop_by_id_.emplace(s.id, i).second) return;
        if (!s.code.empty()) t_.stop_by_code_.emplace(s.code, i);
        parents_.emplace_back(r.get("parent_station"));
        t_.stops_.push_back(std::move(s));
    }

    void link_stations() {
        for (size_t i = 0; i < parents_.size(); ++i)
            if (auto it = t_.stop_by_id_.find(parents_[i]);
                !parents_[i].empty() && it != t_.stop_by_id_.end())
                t_.stops_[i].parent = static_cast<int32_t>(it->second);
        parents_.clear();
    }

    void route(const GtfsRow& r) {
        GtfsTimetable::Route out;
        out.short_name = r.get("route_short_name");
        out.long_name = r.get("route_long_name");
        number(r.get("route_type"), out.type);
        auto a = agency_names_.find(std::string(r.get("agency_id")));
        out.agency = a != agency_names_.end() ? a->second : first_agency_;
        route_by_id_.emplace(r.get("route_id"), static_cast<uint32_t>(t_.routes_.size()));
        t_.routes_.push_back(std::move(out));
    }

    uint32_t service(std::string_view id) {
        auto [it, added] =
            service_by_id_.emplace(std::string(id), static_cast<uint32_t>(t_.services_.size()));
        if (added) t_.services_.emplace_back();
        return it->second;
    }

    void calendar(const GtfsRow& r) {
        auto& s = t_.services_[service(r.get("service_id"))];
        static const char* const kDays[7] = {"sunday",   "monday", "tuesday", "wednesday",
                                             "thursday", "friday", "saturday"};
        for (int d = 0; d < 7; ++d)
            if (r.get(kDays[d]) == "1") s.weekdays |= static_cast<uint8_t>(1u << d);
        s.from = gtfs_day(r.get("start_date"));
        s.to = gtfs_day(r.get("end_date"));
        if (s.from < 0 || s.to < 0) s.weekdays = 0, s.from = 0, s.to = -1;  // unreadable: never
    }

    void calendar_date(const GtfsRow& r) {
        const int64_t day = gtfs_day(r.get("date"));
        if (day < 0) return;
        auto& s = t_.services_[service(r.get("service_id"))];
        (r.get("exception_type") == "1" ? s.added : s.removed).push_back(day);
    }

    void trip(const GtfsRow& r) {
        auto route = route_by_id_.find(std::string(r.get("route_id")));
        auto svc = service_by_id_.find(std::string(r.get("service_id")));
        if (route == route_by_id_.end() || svc == service_by_id_.end()) return;
        GtfsTimetable::Trip t;
        t.id = r.get("trip_id");
        t.headsign = r.get("trip_headsign");
        t.route = route->second;
        t.service = svc->second;
        if (auto d = r.get("direction_id"); d == "0" || d == "1") t.direction = d == "1";
        trip_by_id_.emplace(t.id, static_cast<uint32_t>(t_.trips_.size()));
        t_.trips_.push_back(std::move(t));
    }

    void frequency(const GtfsRow& r) {
        auto it = trip_by_id_.find(std::string(r.get("trip_id")));
        int32_t start = gtfs_seconds(r.get("start_time")), end = gtfs_seconds(r.get("end_time"));
        int32_t headway = 0;
        if (it == trip_by_id_.end() || start < 0 || end <= start ||
            !number(r.get("headway_secs"), headway) || headway <= 0)
            return;
        t_.frequencies_[it->second].push_back({start, end, headway});
    }

    void stop_time(const GtfsRow& r) {
        const std::string_view trip_id = r.get("trip_id");
        if (trip_id != last_trip_id_) {
            auto it = trip_by_id_.find(std::string(trip_id));
            last_trip_ = it == trip_by_id_.end() ? -1 : static_cast<int64_t>(it->second);
            last_trip_id_ = trip_id;
        }
        if (last_trip_ < 0) return;
        auto stop = t_.stop_by_id_.find(std::string(r.get("stop_id")));
        if (stop == t_.stop_by_id_.end()) return;
        int32_t time = gtfs_seconds(r.get("departure_time"));
        if (time < 0) time = gtfs_seconds(r.get("arrival_time"));
        uint32_t seq = 0;
        if (time < 0 || !number(r.get("stop_sequence"), seq)) return;
        const auto ti = static_cast<uint32_t>(last_trip_);
        GtfsTimetable::Trip& trip = t_.trips_[ti];
        if (seq < trip.first_seq) trip.first_seq = seq, trip.first_time = time;
        if (seq >= trip.last_seq)
            trip.last_seq = seq, trip.last_stop = static_cast<int32_t>(stop->second);
        (t_.frequencies_.count(ti) ? t_.freq_calls_ : t_.calls_)[stop->second].push_back(
            {time, ti});
        ++t_.calls_count_;
    }

    void feed_info(const GtfsRow& r) {
        t_.publisher_ = r.get("feed_publisher_name");
        t_.version_ = r.get("feed_version");
        const int64_t from = gtfs_day(r.get("feed_start_date")),
                      to = gtfs_day(r.get("feed_end_date"));
        if (from >= 0 && to >= from) t_.valid_from_ = from, t_.valid_to_ = to;
    }

    void calendar_range() {
        int64_t from = INT64_MAX, to = INT64_MIN;
        for (const auto& s : t_.services_) {
            if (s.weekdays && s.to >= s.from)
                from = std::min(from, s.from), to = std::max(to, s.to);
            for (int64_t d : s.added) from = std::min(from, d), to = std::max(to, d);
        }
        if (from <= to) t_.valid_from_ = from, t_.valid_to_ = to;
    }

    GtfsTimetable& t_;
    const common::zip::Archive& zip_;
    std::vector<std::string> parents_;
    std::unordered_map<std::string, std::string> agency_names_;
    std::string first_agency_;
    std::unordered_map<std::string, uint32_t> route_by_id_, service_by_id_, trip_by_id_;
    std::string last_trip_id_;
    int64_t last_trip_ = -1;
};

std::unique_ptr<GtfsTimetable> GtfsTimetable::read(std::string_view bytes) {
    auto t = std::make_unique<GtfsTimetable>();
    try {
        common::zip::Archive zip(bytes);
        GtfsReader(*t, zip).read();
        for (const auto& e : zip.entries()) t->unzipped_ += e.size;
    } catch (const common::zip::Error& e) {
        throw Malformed(e.what());
    }
    t->bytes_ = bytes.size();
    return t;
}

json GtfsTimetable::summary() const {
    auto day = [](int64_t d) { return d >= 0 ? json(iso_day(d)) : json(nullptr); };
    const bool dated = valid_to_ >= valid_from_;
    return {{"publisher", publisher_.empty() ? json(nullptr) : json(publisher_)},
            {"agencies", agencies_},
            {"timezone", zone_->name()},
            {"country", country_.empty() ? json(nullptr) : json(country_)},
            {"stops", stops_.size()},
            {"routes", routes_.size()},
            {"trips", trips_.size()},
            {"calls", calls_count_},
            {"valid_from", dated ? day(valid_from_) : json(nullptr)},
            {"valid_to", dated ? day(valid_to_) : json(nullptr)},
            {"version", version_.empty() ? json(nullptr) : json(version_)},
            {"size_bytes", bytes_},
            {"unzipped_bytes", unzipped_}};
}

bool GtfsTimetable::runs(uint32_t service, int64_t day) const {
    const Service& s = services_[service];
    if (std::binary_search(s.removed.begin(), s.removed.end(), day)) return false;
    if (std::binary_search(s.added.begin(), s.added.end(), day)) return true;
    return day >= s.from && day <= s.to && (s.weekdays >> common::time::weekday_of(day) & 1);
}

std::vector<uint32_t> GtfsTimetable::find(std::string_view query,
                                          std::vector<std::string>* also) const {
    std::vector<uint32_t> out;
    auto with_platforms = [&](uint32_t i) {
        out.push_back(i);
        if (stops_[i].station)
            for (uint32_t k = 0; k < stops_.size(); ++k)
                if (stops_[k].parent == static_cast<int32_t>(i)) out.push_back(k);
    };
    auto one = [&](uint32_t i) {
        with_platforms(i);
        return out;
    };
    const std::string q(query);
    if (auto it = stop_by_id_.find(q); it != stop_by_id_.end()) return one(it->second);
    if (auto it = stop_by_code_.find(q); it != stop_by_code_.end()) return one(it->second);
    const std::string lq = lower(q);
    for (uint32_t i = 0; i < stops_.size(); ++i)
        if (lower(stops_[i].id) == lq || (!stops_[i].code.empty() && lower(stops_[i].code) == lq))
            return one(i);

    std::map<std::string, std::vector<uint32_t>> exact, partial;  // by lower-case name
    for (uint32_t i = 0; i < stops_.size(); ++i) {
        std::string name = lower(stops_[i].name);
        if (name == lq)
            exact[name].push_back(i);
        else if (name.find(lq) != std::string::npos)
            partial[name].push_back(i);
    }
    auto& pool = exact.empty() ? partial : exact;
    if (pool.empty()) return out;
    auto best = pool.begin();
    for (auto it = pool.begin(); it != pool.end(); ++it)
        if (it->first.size() < best->first.size()) best = it;
    if (also)
        for (auto it = pool.begin(); it != pool.end() && also->size() < 5; ++it)
            if (it != best) also->push_back(stops_[it->second.front()].name);
    for (uint32_t i : best->second) with_platforms(i);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::vector<GtfsTimetable::Next> GtfsTimetable::next(const std::vector<uint32_t>& stops,
                                                     int64_t now_s, size_t limit,
                                                     int64_t horizon_s) const {
    std::vector<Next> out;
    const int64_t today = common::time::day_of(zone_->to_local(now_s));
    constexpr int64_t kMaxPerCall = 2000;  // frequency occurrences looked at per call and day
    for (int64_t day = today - 1; day <= today + 1; ++day) {
        const int64_t base = zone_->to_utc(day * 86400 + 43200) - 43200;
        const int64_t lo = now_s - base, hi = now_s + horizon_s - base;
        for (uint32_t s : stops) {
            const auto& calls = calls_[s];
            auto from =
                std::lower_bound(calls.begin(), calls.end(),
                                 Call{static_cast<int32_t>(std::max<int64_t>(lo, INT32_MIN)), 0});
            for (auto c = from; c != calls.end() && c->time <= hi; ++c)
                if (runs(trips_[c->trip].service, day)) out.push_back({base + c->time, s, c->trip});
            for (const Call& c : freq_calls_[s]) {
                const Trip& trip = trips_[c.trip];
                if (!runs(trip.service, day)) continue;
                const int64_t offset = c.time - trip.first_time;
                for (const Frequency& f : frequencies_.at(c.trip)) {
                    int64_t k =
                        std::max<int64_t>(0, (lo - offset - f.start + f.headway - 1) / f.headway);
                    for (int64_t n = 0; n < kMaxPerCall; ++n, ++k) {
                        const int64_t start = f.start + k * f.headway;
                        if (start >= f.end || start + offset > hi) break;
                        if (start + offset >= lo) out.push_back({base + start + offset, s, c.trip});
                    }
                }
            }
        }
    }
    auto soonest = [](const Next& a, const Next& b) {
        return a.at_s != b.at_s   ? a.at_s < b.at_s
               : a.stop != b.stop ? a.stop < b.stop
                                  : a.trip < b.trip;
    };
    if (out.size() > limit) {
        std::partial_sort(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(limit), out.end(),
                          soonest);
        out.resize(limit);
    } else {
        std::sort(out.begin(), out.end(), soonest);
    }
    return out;
}

std::vector<std::pair<uint32_t, double>> GtfsTimetable::near(double lat, double lon,
                                                             double radius_m) const {
    std::vector<std::pair<uint32_t, double>> out;
    for (uint32_t i = 0; i < stops_.size(); ++i) {
        if (stops_[i].station) continue;
        const double m = distance_km(lat, lon, stops_[i].lat, stops_[i].lon) * 1000;
        if (m <= radius_m) out.emplace_back(i, m);
    }
    std::stable_sort(out.begin(), out.end(), [](auto& a, auto& b) { return a.second < b.second; });
    return out;
}

std::vector<uint32_t> GtfsTimetable::routes_at(uint32_t stop) const {
    std::vector<uint32_t> out;
    for (const auto* list : {&calls_[stop], &freq_calls_[stop]})
        for (const Call& c : *list) out.push_back(trips_[c.trip].route);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::string GtfsTimetable::line_name(const Route& r) const {
    return r.short_name.empty() ? r.long_name : r.short_name;
}

std::string GtfsTimetable::mode_name(int t) {
    switch (t) {
        case 0:
            return "tram";
        case 1:
            return "subway";
        case 2:
            return "rail";
        case 3:
            return "bus";
        case 4:
            return "ferry";
        case 5:
            return "cable-tram";
        case 6:
            return "aerial-lift";
        case 7:
            return "funicular";
        case 11:
            return "trolleybus";
        case 12:
            return "monorail";
    }
    // Extended route types (Google's "Hierarchical Vehicle Type" list), by hundreds.
    switch (t / 100) {
        case 1:
            return "rail";
        case 2:
            return "coach";
        case 4:
            return "subway";
        case 7:
            return "bus";
        case 8:
            return "trolleybus";
        case 9:
            return "tram";
        case 10:
        case 12:
            return "ferry";
        case 13:
            return "aerial-lift";
        case 14:
            return "funicular";
        case 15:
            return "taxi";
    }
    return "other";
}

}  // namespace transit
