// common/billing/credits — a plugin charging its callers credits for what only it can price (a
// letter to an outside address, an SMS by its segments, a day's use of an app), and crediting
// another account (an app's owner), through the billing service. A library linked by mail, sms
// and apps; not a plugin. Stateless; any thread; blocking (it calls the billing service), so call
// it from a handler.
//
// The order is the payment gate's: check() before the costly step (402 when short), charge() only
// once it succeeded; credit() adds to an account's prepaid credit. They call billing's admin
// methods `check`, `charge` and `addCredit` with {account, amount} as the plugin's own service
// account (the host lets service accounts use built-ins' admin methods). Without a billing service
// (a profile that loads none) everything is free: check() answers nullopt, charge() and credit()
// false, as metered calls are free there. An amount of 0 or less asks nothing.
#pragma once

#include <cstdint>
#include <optional>
#include <platform/sdk/host.hpp>
#include <string>

namespace common::billing {

// billing/check's answer: whether `account` can pay, and what it has (allowance and credit).
struct Balance {
    bool enough = true;
    int64_t available = 0;
};

// Whether `account` can pay `amount` now; nullopt without a billing service (or for amount <= 0).
// Throws Error(unavailable) when the billing service fails.
std::optional<Balance> check(const platform::Host& host, const std::string& account,
                             int64_t amount);

// check(), and Error(payment_required) "<what> costs N credit(s); you have M" when short, e.g.
// what = "to: mail to an outside address".
void require(const platform::Host& host, const std::string& account, int64_t amount,
             const std::string& what);

// What the operator set `item` to cost (billing's config `prices.<item>`, read through
// billing/prices), else `fallback`: also without a billing service or when it cannot answer.
int64_t price(const platform::Host& host, const std::string& item, int64_t fallback);

// Takes `amount` credits from `account`; false without a billing service (or for amount <= 0).
// Throws Error(unavailable) when the billing service fails.
bool charge(const platform::Host& host, const std::string& account, int64_t amount);

// Adds `amount` credits to `account`'s prepaid credit (billing/addCredit), e.g. an app's owner
// paid for a use of it; false without a billing service (or for amount <= 0). Throws
// Error(unavailable) when the billing service fails.
bool credit(const platform::Host& host, const std::string& account, int64_t amount);

}  // namespace common::billing
