// quota.hpp — the instance's search quota: how many video/search calls may reach YouTube per hour
// and per day (business clock, UTC hours and days). YouTube charges 100 units of a key's daily
// 10,000 for one search.list and 1 for a videos.list, so searches are what spend a key.
//
// Counted in the plugin's store, shared by every host on it: "quota:hour:<hours since 1970>" and
// "quota:day:<days since 1970>", each a decimal count raised by compare-and-set and expiring soon
// after its hour or day. A search answered from the cache spends nothing, nor does one that fails
// before YouTube answers (no provider configured, unreachable). Two searches made at the same
// moment may both pass the check of the last one left.
#pragma once

#include <cstdint>
#include <platform/sdk.hpp>
#include <string>

namespace video {

struct QuotaLimits {
    int64_t per_hour = 10;
    int64_t per_day = 90;
};

class Quota {
public:
    Quota(const platform::Host& host, QuotaLimits limits) : host_(host), limits_(limits) {}

    // Takes one search from both counts, or throws 429 (rate_limited) saying which is spent and
    // when it renews, taking nothing.
    void take() const;
    // Gives back the search take() took (the search failed before YouTube answered it).
    void give_back() const;
    // {hour_left, day_left} now.
    platform::json left() const;

private:
    int64_t used(const std::string& key) const;
    void add(const std::string& key, int64_t by, int64_t ttl_ms) const;

    platform::Host host_;
    QuotaLimits limits_;
};

}  // namespace video
