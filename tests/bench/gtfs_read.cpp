// bench-gtfs-read: how fast transit reads a GTFS feed and how much memory the timetable takes,
// beside the floor — inflating the same ZIP and doing nothing with the bytes (zlib alone). The
// feed is made here (tests/support/zip_writer.hpp): a city-sized network by default, 4,000
// stops, 40,000 trips of 30 calls each (1.2 million stop times, about 60 MB of CSV). Then the
// questions a call asks: arrivals at a stop, a name search, stops near a point.
//
//   build/bench-gtfs-read [--stops N] [--trips N] [--calls N]
#include <malloc.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "../../plugins/transit/gtfs_timetable.hpp"
#include "common/zip/zip_archive.hpp"
#include "zip_writer.hpp"

using clock_type = std::chrono::steady_clock;

namespace {

double seconds_since(clock_type::time_point t) {
    return std::chrono::duration<double>(clock_type::now() - t).count();
}

size_t heap_in_use() {  // bytes malloc has handed out and not had back (glibc)
    return mallinfo2().uordblks;
}

std::string make_feed(int stops, int trips, int calls) {
    std::string s = "stop_id,stop_code,stop_name,stop_lat,stop_lon\n";
    for (int i = 0; i < stops; ++i)
        s += "S" + std::to_string(i) + ",c" + std::to_string(i) + ",Street " +
             std::to_string(i / 2) + "," + std::to_string(53.7 + (i % 200) * 0.001) + "," +
             std::to_string(-1.6 + (i / 200) * 0.001) + "\n";
    std::string r = "route_id,route_short_name,route_type\n";
    for (int i = 0; i < 200; ++i) r += "R" + std::to_string(i) + "," + std::to_string(i) + ",3\n";
    std::string t = "route_id,service_id,trip_id,trip_headsign\n";
    std::string st = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n";
    char time[16];
    for (int i = 0; i < trips; ++i) {
        t += "R" + std::to_string(i % 200) + ",WK,T" + std::to_string(i) + ",Town\n";
        int at = 5 * 3600 + (i * 37) % (18 * 3600);
        for (int k = 0; k < calls; ++k, at += 90) {
            std::snprintf(time, sizeof time, "%02d:%02d:%02d", at / 3600, at / 60 % 60, at % 60);
            const std::string stop = "S" + std::to_string((i * 13 + k * 7) % stops);
            st += "T" + std::to_string(i) + "," + time + "," + time + "," + stop + "," +
                  std::to_string(k + 1) + "\n";
        }
    }
    platform::test::ZipWriter z;
    z.add("agency.txt",
          "agency_name,agency_url,agency_timezone\nBench,https://x.test,Europe/London\n");
    z.add("stops.txt", s);
    z.add("routes.txt", r);
    z.add(
        "calendar.txt",
        "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n"
        "WK,1,1,1,1,1,0,0,20260101,20271231\n");
    z.add("trips.txt", t);
    z.add("stop_times.txt", st);
    return z.finish();
}

}  // namespace

int main(int argc, char** argv) {
    int stops = 4000, trips = 40000, calls = 30;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--stops")) stops = std::atoi(argv[i + 1]);
        if (!std::strcmp(argv[i], "--trips")) trips = std::atoi(argv[i + 1]);
        if (!std::strcmp(argv[i], "--calls")) calls = std::atoi(argv[i + 1]);
    }
    const std::string zip = make_feed(stops, trips, calls);
    uint64_t unzipped = 0;
    auto t0 = clock_type::now();
    common::zip::Archive archive(zip);
    for (const auto& e : archive.entries())
        archive.read(e, [&](std::string_view c) { unzipped += c.size(); });
    const double inflate_s = seconds_since(t0);

    const size_t heap_before = heap_in_use();
    t0 = clock_type::now();
    auto table = transit::GtfsTimetable::read(zip);
    const double read_s = seconds_since(t0);
    const size_t heap_after = heap_in_use();

    const auto busy = table->find("S0");
    const int64_t monday_8am = 1780988400;  // 2026-06-08T07:00:00Z, 08:00 in London
    constexpr int kAsks = 2000;
    t0 = clock_type::now();
    size_t got = 0;
    for (int i = 0; i < kAsks; ++i)
        got += table->next(busy, monday_8am + i * 60, 20, 24 * 3600).size();
    const double next_us = seconds_since(t0) / kAsks * 1e6;
    t0 = clock_type::now();
    for (int i = 0; i < 50; ++i) got += table->find("street 1999").size();
    const double find_ms = seconds_since(t0) / 50 * 1e3;
    t0 = clock_type::now();
    for (int i = 0; i < 50; ++i) got += table->near(53.75, -1.59, 400).size();
    const double near_ms = seconds_since(t0) / 50 * 1e3;

    const double calls_total = double(trips) * calls;
    std::printf("feed: %d stops, %d trips, %.0f stop times; %.1f MB zipped, %.1f MB unzipped\n\n",
                stops, trips, calls_total, zip.size() / 1e6, unzipped / 1e6);
    std::printf("| step | time | rate |\n|---|---|---|\n");
    std::printf("| inflate only (zlib, the floor) | %.3f s | %.0f MB/s |\n", inflate_s,
                unzipped / 1e6 / inflate_s);
    std::printf("| read into a timetable | %.3f s | %.2f M stop times/s |\n", read_s,
                calls_total / 1e6 / read_s);
    std::printf("| read ÷ inflate | %.1f× | |\n", read_s / inflate_s);
    std::printf("| next 20 at a stop | %.1f µs | |\n", next_us);
    std::printf("| find a name (scan) | %.2f ms | |\n", find_ms);
    std::printf("| stops within 400 m (scan) | %.2f ms | |\n", near_ms);
    const double held = double(heap_after) - double(heap_before);
    std::printf(
        "\nmemory: the timetable holds %.1f MB of heap (%.1f bytes per stop time; the ZIP "
        "itself, %.1f MB, is the caller's and freed after reading)\n",
        held / 1e6, held / calls_total, zip.size() / 1e6);
    return got == 0;  // something was found, or the figures mean nothing
}
