// billing ledger — one balance record per account in the plugin's store table, changed atomically.
//
// Record `balance/<account>`: {"credit": n, "per_day": n|null, "used": n, "day": d}, where `day`
// is the business day (UTC days since 1970 on the host clock) that `used` counts. A record from an
// earlier day reads as used 0: the allowance resets each business day. `per_day` null means the
// plugin's configured allowance_per_day.
//
// Changes are a read-modify-write under a per-account lock (one of 64 stripes) and, when the store
// provider declares compare-and-set, written with it (retrying when another host sharing the store
// changed the record meanwhile); without CAS the lock makes it atomic on this host only.
#pragma once

#include <array>
#include <atomic>
#include <functional>
#include <mutex>
#include <optional>
#include <platform/sdk.hpp>
#include <string>

namespace billing {

struct Balance {
    int64_t credit = 0;
    std::optional<int64_t> per_day;  // nullopt: the configured default
    int64_t used = 0;                // allowance used on `day`
    int64_t day = 0;

    int64_t allowance_per_day(int64_t fallback) const { return per_day.value_or(fallback); }
    int64_t allowance(int64_t fallback) const {
        int64_t left = allowance_per_day(fallback) - used;
        return left > 0 ? left : 0;
    }
    int64_t available(int64_t fallback) const {
        return allowance(fallback) + (credit > 0 ? credit : 0);
    }
};

// The business day of a Unix-ms time (UTC).
int64_t business_day(int64_t unix_ms);

class Ledger {
public:
    Ledger(const platform::Host& host, int64_t default_per_day)
        : host_(host), default_per_day_(default_per_day) {}

    int64_t default_per_day() const { return default_per_day_; }
    // The account's balance as of today (absent: a fresh one).
    Balance read(const std::string& account) const;
    // Applies `change` to today's balance and stores it atomically; returns what was stored.
    // `change` may throw (nothing is written) and may run more than once (CAS retries).
    Balance update(const std::string& account, const std::function<void(Balance&)>& change);

private:
    static std::string key(const std::string& account) { return "balance/" + account; }
    Balance decode(const std::optional<std::string>& raw) const;
    static std::string encode(const Balance& b);
    std::mutex& stripe(const std::string& account) {
        return stripes_[std::hash<std::string>{}(account) % stripes_.size()];
    }

    platform::Host host_;
    int64_t default_per_day_;
    std::array<std::mutex, 64> stripes_;
    std::atomic<bool> cas_{true};  // false once the store said it has no compare-and-set
};

}  // namespace billing
