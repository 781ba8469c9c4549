#include "prayer.hpp"

#include <cmath>
#include <cstdio>

#include "astronomy.hpp"
#include "common/time/time.hpp"
#include "times.hpp"

namespace schema = platform::schema;

using platform::json;

namespace {

// "HH:MM" of the instant on the zone's wall clock, and its date; null for a time that does not
// occur.
json clock_time(double ms, const common::time::TimeZone& zone) {
    if (std::isnan(ms)) return nullptr;
    const int64_t local = zone.to_local(static_cast<int64_t>(std::floor(ms / 1000)));
    const int s = common::time::seconds_into_day(local);
    char buf[16];
    std::snprintf(buf, sizeof buf, "%02d:%02d", s / 3600, s / 60 % 60);
    return buf;
}
std::string date_text(int64_t day) {
    const auto d = common::time::civil_from_days(day);
    char buf[16];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", d.year, d.month, d.day);
    return buf;
}

schema::Object place() {
    return schema::object()
        .prop("lat", schema::latitude("Latitude in degrees, north positive"))
        .required()
        .prop("lon", schema::longitude("Longitude in degrees, east positive"))
        .required();
}

}  // namespace

void Prayer::describe(platform::ServiceSpec<Prayer>& s) {
    s.id("prayer")
        .version("1.0.0")
        .service("v1.prayer")
        .summary(
            "Prayer times and the qibla computed locally; a verse, a saying, a reflection and a "
            "search from the Reminder knowledge base (reminder.dev)");
    s.get("qibla")
        .title("Qibla bearing")
        .description(
            "The compass bearing to the Kaaba in Makkah from a place: degrees clockwise from true "
            "north along the great circle, {\"bearing\": 118.99} from London.")
        .schema(place())
        .access(platform::Access::public_)
        .read_only()
        .handler(&Prayer::qibla);
    s.get("times")
        .title("Prayer times")
        .description(
            "Today's fajr, sunrise, dhuhr, asr, maghrib and isha at a place as HH:MM in the time "
            "zone `tz` (today is the date there now), and the next of them after now (after isha, "
            "tomorrow's fajr). Computed here with the adhan library's algorithms and each "
            "method's defaults: Shafi'i asr, the middle-of-the-night rule at high latitudes, the "
            "method's minute adjustments. isna: ISNA 15°/15°; mwl: Muslim World League 18°/17°; "
            "egypt: Egyptian 19.5°/17.5°; karachi: 18°/18°; gulf: fajr 18°, isha 90 minutes after "
            "maghrib (adhan's Qatar); diyanet: Turkey 18°/17°; muis: Singapore 20°/18°; jakim: "
            "20°/18°. A time that does not occur (polar day or night) is null.")
        .schema(place()
                    .str("tz")
                    .min_len(1)
                    .max_len(64)
                    .def("UTC")
                    .doc("IANA time zone of the answer's times and of `today`, e.g. Europe/London")
                    .str("method")
                    .one_of([] {
                        std::vector<schema::ojson> v;
                        for (const auto& n : prayer::method_names()) v.push_back(n);
                        return v;
                    }())
                    .def("isna")
                    .doc("Calculation method"))
        .access(platform::Access::public_)
        .read_only()
        .handler(&Prayer::times);
    s.get("reflection")
        .title("Reflection for the day")
        .description(
            "A verse of the Quran, a saying (hadith) and a name of Allah for the day, from "
            "Reminder's daily reminder: each the text with its heading and a link to the source.")
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&Prayer::reflection);
    s.get("saying")
        .title("A saying of the Prophet")
        .description(
            "A hadith from Sahih al-Bukhari (Reminder's collection) for the day, from one book "
            "when `book` is given (404 past the last book): its text, narrator and reference.")
        .schema(schema::object().integer("book").min(1).max(1000).doc(
            "Book of Sahih al-Bukhari (1 = Revelation); any book when absent"))
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&Prayer::saying);
    s.get("search")
        .title("Search the texts by meaning")
        .description(
            "Passages of the Quran, the hadith and the names of Allah closest in meaning to the "
            "query (Reminder's semantic index), best first: excerpts with source and reference, "
            "never a generated answer.")
        .schema(schema::object().str("query").min_len(1).max_len(500).required().doc(
            "What to look for, in English"))
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&Prayer::search);
    s.get("verse")
        .title("A verse or chapter of the Quran")
        .description(
            "A verse of the Quran in English and Arabic, or the whole chapter when `verse` is "
            "absent; 404 when the chapter has no such verse.")
        .schema(schema::object()
                    .integer("chapter")
                    .range(1, 114)
                    .required()
                    .doc("Chapter (surah), 1 to 114")
                    .integer("verse")
                    .min(1)
                    .max(286)
                    .doc("Verse (ayah); the whole chapter when absent"))
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&Prayer::verse);
}

json Prayer::qibla(platform::Request& r) {
    const double bearing = prayer::qibla(r["lat"].get<double>(), r["lon"].get<double>());
    return {{"bearing", std::round(bearing * 100) / 100}};
}

json Prayer::times(platform::Request& r) {
    const double lat = r["lat"].get<double>(), lon = r["lon"].get<double>();
    const std::string tz = r.str("tz", "UTC"), method_name = r.str("method", "isna");
    const auto zone = common::time::TimeZone::load(tz);
    if (!zone)
        throw platform::invalid_argument("tz: '" + tz +
                                         "' is not a time zone of the tz database (an IANA name "
                                         "such as Europe/London, or UTC)");
    const prayer::Method* method = prayer::method_named(method_name);
    if (!method) throw platform::invalid_argument("method: unknown method '" + method_name + "'");

    const double now_ms = static_cast<double>(host_.now_ms());
    const int64_t local = zone->to_local(static_cast<int64_t>(std::floor(now_ms / 1000)));
    const int64_t day = common::time::day_of(local);
    const auto d = common::time::civil_from_days(day), n = common::time::civil_from_days(day + 1);
    const auto today = prayer::day_times(d.year, d.month, d.day, lat, lon, *method);
    const auto tomorrow = prayer::day_times(n.year, n.month, n.day, lat, lon, *method);

    json times = json::object();
    for (size_t i = 0; i < today.size(); ++i)
        times[prayer::kTimeNames[i]] = clock_time(today[i], *zone);
    const prayer::Next next = prayer::next_after(now_ms, today, tomorrow);
    json next_json = {{"name", prayer::kTimeNames[next.index]},
                      {"time", clock_time(next.time_ms, *zone)}};
    if (!std::isnan(next.time_ms))
        next_json["date"] = date_text(common::time::day_of(
            zone->to_local(static_cast<int64_t>(std::floor(next.time_ms / 1000)))));
    return {{"times", times}, {"next", next_json},      {"date", date_text(day)},
            {"tz", tz},       {"method", method->name}, {"method_title", method->title}};
}

PLATFORM_SERVICE(Prayer)
