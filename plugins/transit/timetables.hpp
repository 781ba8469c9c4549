// timetables — the published GTFS timetable this host carries, fetched from the profile's
// `outbound.providers.gtfs.base_url` (the URL of the feed's ZIP, e.g. a region's file from the
// Bus Open Data Service) and held in memory as a GtfsTimetable.
//
// When. Nothing is fetched until a caller needs the timetable (arrivals at a stop that is not
// TfL's, nearby, feeds). The first such call starts a load on the plugin's own thread and waits
// for it up to `wait_ms`; a call that outwaits it is a 503 "still loading" (the load goes on, and
// the next call finds it done). A timetable older than a day (business clock) is fetched again in
// the background while the old one keeps answering. A failed load is not kept: the next call
// tries again.
//
// Failures as callers see them: the provider unset -> 503 naming providers.gtfs.base_url; the
// download refused, too slow or not a readable feed -> common/upstream's 503/502/504, the 502
// naming the file and the fault (gtfs_timetable.hpp). A feed may be up to kMaxFeedBytes zipped.
//
// Threads: get() from any handler thread; start() and stop() from the plugin's hooks.
// stop() waits for a load in progress (its download is bounded by the provider's timeout).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <platform/sdk.hpp>

#include "common/upstream/upstream.hpp"
#include "common/work_queue/work_queue.hpp"
#include "gtfs_timetable.hpp"

namespace transit {

// A GTFS feed's ZIP: keyless (an optional key as api_key_header says), not cached in the store
// (tens of MB: the parsed timetable is kept in memory instead), up to five minutes to download
// (the profile's providers.gtfs.timeout_ms replaces that).
inline const common::upstream::Provider kGtfs{
    "gtfs", "the GTFS timetable", "", common::upstream::kNoCache, false, 5 * 60 * 1000};
inline constexpr uint64_t kMaxFeedBytes = 1024ull << 20;  // 1 GiB zipped
inline constexpr int64_t kFeedLifetimeMs = 24 * 60 * 60 * 1000;

class Timetables {
public:
    explicit Timetables(const platform::Host& host);
    void start();
    void stop();

    // The timetable, loaded first when none is held (see above). Throws platform::Error.
    std::shared_ptr<const GtfsTimetable> get(int64_t wait_ms);
    // Whether `e` is get()'s 503 for a profile that names no timetable (providers.gtfs.base_url
    // unset): callers that can answer without one go on.
    static bool unset(const platform::Error& e);

private:
    struct Held {
        std::shared_ptr<const GtfsTimetable> table;
        int64_t loaded_at_ms = 0;
        bool loading = false;
    };
    void load();

    platform::Host host_;
    common::WorkQueue queue_;
    mutable std::mutex m_;
    std::condition_variable done_;
    Held held_;
    uint64_t loads_ = 0;                     // loads finished (either way)
    std::optional<platform::Error> failed_;  // the last load's failure, until the next starts
};

}  // namespace transit
