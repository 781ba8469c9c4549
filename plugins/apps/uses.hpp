// An app's price, charged per use (README "Prices"). A use is the first opening of a priced app's
// page (`/ui/apps/<slug>`) by a signed-in viewer other than its owner on one business day (the
// UTC day of the host's clock, as billing counts its allowance): it takes the app's `price` from
// the viewer's credits (common/billing require, then charge) and adds the same to the owner's
// (common/billing credit). Later openings that day are free, and the frame
// (`/ui/apps/<slug>/frame`) opens only for a viewer with today's use, so it cannot be opened
// directly to go round the price. The owner never pays; a free app (price 0) charges nothing;
// without a billing service every app is free.
//
// A use is the record `uses/<slug>/<viewer>/<YYYY-MM-DD>` in the plugin-wide store, claimed with
// an insert-if-absent before the charge (so concurrent openings charge once) and removed again
// when the charge fails. It expires after kUseTtlMs.
#pragma once

#include <cstdint>
#include <platform/sdk.hpp>
#include <string>

namespace apps_uses {

// The business day of a Unix-ms time as "YYYY-MM-DD" (UTC).
std::string use_day(int64_t unix_ms);
// The store key of `viewer`'s use of the app `slug` on `day` (use_day()).
std::string use_key(const std::string& slug, const std::string& viewer, const std::string& day);

// How long a use record is kept: longer than its day, so it never goes before the day is over.
constexpr int64_t kUseTtlMs = 8LL * 24 * 3600 * 1000;

// Whether opening the app's page costs `viewer` (empty: anonymous) something: a price > 0 and an
// account other than the owner (anonymous viewers too).
bool priced_for(const std::string& viewer, const std::string& owner, const platform::json& app);

// Whether `viewer` may open the app today without paying: it is free for them, or today's use is
// paid. Reads the store only.
bool paid_today(const platform::Host& host, const std::string& viewer, const std::string& owner,
                const platform::json& app);

// Opening the wrapper page: charges today's use when it is priced for `viewer` and not paid yet,
// and credits the owner. Throws 401 for an anonymous viewer of a priced app (unless there is no
// billing service), 402 naming the price and balance when the viewer cannot pay (nothing charged,
// credited or recorded), 503 when billing fails (the use's record removed again).
void open_page(const platform::Host& host, const std::string& viewer, const std::string& owner,
               const platform::json& app);

// Opening the frame: nothing when paid_today() or without a billing service; otherwise 401 for an
// anonymous viewer and 402 naming the price. Charges nothing.
void open_frame(const platform::Host& host, const std::string& viewer, const std::string& owner,
                const platform::json& app);

}  // namespace apps_uses
