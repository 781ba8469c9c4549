#include "due.hpp"

#include "common/time/time.hpp"

namespace tasks {

std::optional<int64_t> parse_local_layout(const std::string& text) {
    if (text.size() != 16 || text[10] != ' ') return std::nullopt;
    const auto at = common::time::parse_rfc3339(text + ":00Z");
    if (!at) return std::nullopt;
    return at->utc_s;
}

int64_t local_due_ms(int64_t local, const std::string& zone) {
    auto tz = common::time::TimeZone::load(zone);
    if (!tz) tz = common::time::TimeZone::utc();
    return tz->to_utc(local) * 1000;
}

}  // namespace tasks
