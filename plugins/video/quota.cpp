#include "quota.hpp"

#include <algorithm>
#include <cstdlib>
#include <platform/sdk/text.hpp>

namespace video {

namespace {

constexpr int64_t kHourMs = 3600 * 1000;
constexpr int64_t kDayMs = 24 * kHourMs;

std::string hour_key(int64_t now) {
    return "quota:hour:" + std::to_string(now / kHourMs);
}
std::string day_key(int64_t now) {
    return "quota:day:" + std::to_string(now / kDayMs);
}

}  // namespace

int64_t Quota::used(const std::string& key) const {
    const auto v = host_.store().get(key);
    return v ? std::strtoll(v->c_str(), nullptr, 10) : 0;
}

void Quota::add(const std::string& key, int64_t by, int64_t ttl_ms) const {
    const platform::Store store = host_.store();
    for (int attempt = 0; attempt < 100; ++attempt) {
        const auto cur = store.get(key);
        const int64_t n = cur ? std::strtoll(cur->c_str(), nullptr, 10) : 0;
        if (store.compare_and_set(key, cur ? std::optional<std::string_view>(*cur) : std::nullopt,
                                  std::to_string(std::max<int64_t>(0, n + by)), ttl_ms))
            return;
    }
    throw platform::Error(platform::Code::conflict, "video: the search count is too contended");
}

void Quota::take() const {
    const int64_t now = host_.now_ms();
    if (used(hour_key(now)) >= limits_.per_hour)
        throw platform::Error(
            platform::Code::rate_limited,
            "video/search: this instance's search quota is spent: " +
                std::to_string(limits_.per_hour) +
                " searches an hour (plugin_config.video.searches_per_hour); it renews at " +
                platform::rfc3339((now / kHourMs + 1) * kHourMs));
    if (used(day_key(now)) >= limits_.per_day)
        throw platform::Error(
            platform::Code::rate_limited,
            "video/search: this instance's search quota is spent: " +
                std::to_string(limits_.per_day) +
                " searches a day (plugin_config.video.searches_per_day); it renews at " +
                platform::rfc3339((now / kDayMs + 1) * kDayMs));
    add(hour_key(now), 1, 2 * kHourMs);
    add(day_key(now), 1, 2 * kDayMs);
}

void Quota::give_back() const {
    const int64_t now = host_.now_ms();
    add(hour_key(now), -1, 2 * kHourMs);
    add(day_key(now), -1, 2 * kDayMs);
}

platform::json Quota::left() const {
    const int64_t now = host_.now_ms();
    return {{"hour_left", std::max<int64_t>(0, limits_.per_hour - used(hour_key(now)))},
            {"day_left", std::max<int64_t>(0, limits_.per_day - used(day_key(now)))}};
}

}  // namespace video
