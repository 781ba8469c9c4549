#include "timetables.hpp"

#include <chrono>

namespace transit {

using common::upstream::Options;
using common::upstream::Upstream;

Timetables::Timetables(const platform::Host& host)
    : host_(host), queue_(1, [h = host](const std::string& why) {
          h.log(PLATFORM_LOG_WARN, "transit: timetable load: " + why);
      }) {}

void Timetables::start() {
    queue_.start();
}
void Timetables::stop() {
    queue_.stop();
}

bool Timetables::unset(const platform::Error& e) {
    return e.code() == platform::Code::unavailable &&
           std::string(e.what()).find("providers.gtfs.base_url is not set") != std::string::npos;
}

void Timetables::load() {
    std::shared_ptr<const GtfsTimetable> table;
    std::optional<platform::Error> failed;
    try {
        Upstream feed(host_, kGtfs);
        Options o;
        o.max_bytes = kMaxFeedBytes;
        const std::string zip = feed.fetch("", o).body;
        try {
            table = GtfsTimetable::read(zip);
        } catch (const common::upstream::Malformed& e) {
            throw feed.malformed(e.what());
        }
    } catch (const platform::Error& e) {
        failed = e;
    } catch (const std::exception& e) {
        failed = platform::Error(platform::Code::internal, e.what());
    }
    std::lock_guard<std::mutex> lock(m_);
    if (table) held_.table = std::move(table), held_.loaded_at_ms = host_.now_ms();
    failed_ = std::move(failed);
    held_.loading = false;
    ++loads_;
    done_.notify_all();
}

std::shared_ptr<const GtfsTimetable> Timetables::get(int64_t wait_ms) {
    std::unique_lock<std::mutex> lock(m_);
    const bool stale = held_.table && host_.now_ms() - held_.loaded_at_ms > kFeedLifetimeMs;
    if (!held_.loading && (!held_.table || stale)) {
        held_.loading = true;
        failed_.reset();
        if (!queue_.push({[this] { load(); },
                          [this] {
                              std::lock_guard<std::mutex> l(m_);
                              held_.loading = false;
                              ++loads_;
                              done_.notify_all();
                          }})) {
            held_.loading = false;
            throw platform::unavailable("transit is stopping; the timetable cannot be loaded now");
        }
    }
    if (held_.table) return held_.table;  // a stale one answers while the next loads
    const uint64_t seen = loads_;
    done_.wait_for(lock, std::chrono::milliseconds(wait_ms),
                   [&] { return loads_ != seen || !held_.loading; });
    if (held_.table) return held_.table;
    if (failed_) throw *failed_;
    throw platform::unavailable(
        "the GTFS timetable (providers.gtfs.base_url) is still loading; try again in a minute");
}

}  // namespace transit
