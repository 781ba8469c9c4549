#include <cmath>
#include <cstdio>
#include <ctime>
#include <nlohmann/json.hpp>
#include <platform/host/http/access_log.hpp>

namespace platform::host {

namespace {
std::string utc(std::chrono::system_clock::time_point t) {
    const auto ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
    const std::time_t secs = static_cast<std::time_t>(ms / 1000);
    std::tm tm{};
    gmtime_r(&secs, &tm);
    char buf[96];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
                  tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                  static_cast<int>(ms % 1000));
    return buf;
}
}  // namespace

std::string access_log_line(const AccessRecord& r) {
    nlohmann::json j{
        {"time", utc(r.time)},
        {"request_id", r.request_id},
        {"method", r.method.empty() ? "-" : r.method},
        {"path", r.path.empty() ? "-" : r.path},
        {"status", r.status},
        {"bytes", r.bytes},
        {"duration_ms", std::round(r.duration_ms * 1000) / 1000},
        {"remote", r.remote},
        {"user_agent", r.user_agent},
    };
    if (!r.trace_id.empty()) j["trace_id"] = r.trace_id;
    if (!r.port.empty()) j["port"] = r.port;
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace platform::host
