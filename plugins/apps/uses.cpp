#include "uses.hpp"

#include "common/billing/credits.hpp"

using platform::json;

namespace apps_uses {

namespace {

int64_t price_of(const json& app) {
    const json p = app.value("price", json(0));
    return p.is_number_integer() ? p.get<int64_t>() : 0;
}

std::string today_key(const platform::Host& host, const std::string& viewer, const json& app) {
    return use_key(app.value("slug", ""), viewer, use_day(host.now_ms()));
}

// Without a billing service priced apps are free, for anonymous viewers too; billing/check of the
// owner (never charged) says whether there is one.
void need_account(const platform::Host& host, const std::string& owner, const json& app) {
    if (!common::billing::check(host, owner, price_of(app))) return;
    throw platform::unauthenticated("slug: '" + app.value("slug", "") + "' is a priced app (" +
                                    std::to_string(price_of(app)) +
                                    " credit(s) a day); an account is needed to use a priced app: "
                                    "sign in to open it");
}

}  // namespace

std::string use_day(int64_t unix_ms) {
    return platform::rfc3339(unix_ms).substr(0, 10);
}

std::string use_key(const std::string& slug, const std::string& viewer, const std::string& day) {
    // Slugs hold no '/' and the day is last, so an account id with '/' cannot collide.
    return "uses/" + slug + "/" + viewer + "/" + day;
}

bool priced_for(const std::string& viewer, const std::string& owner, const json& app) {
    return price_of(app) > 0 && (viewer.empty() || viewer != owner);
}

bool paid_today(const platform::Host& host, const std::string& viewer, const std::string& owner,
                const json& app) {
    if (!priced_for(viewer, owner, app)) return true;
    if (viewer.empty()) return false;
    return host.store().get(today_key(host, viewer, app)).has_value();
}

void open_page(const platform::Host& host, const std::string& viewer, const std::string& owner,
               const json& app) {
    if (!priced_for(viewer, owner, app)) return;
    if (viewer.empty()) return need_account(host, owner, app);
    const auto store = host.store();
    const std::string key = today_key(host, viewer, app);
    if (store.get(key)) return;  // today's use is paid
    const std::string slug = app.value("slug", "");
    const int64_t price = price_of(app);
    common::billing::require(host, viewer, price, "slug: a day's use of the app '" + slug + "'");
    const json use = {{"slug", slug},
                      {"viewer", viewer},
                      {"owner", owner},
                      {"price", price},
                      {"at", platform::rfc3339(host.now_ms())}};
    // Lost: a concurrent opening claimed today's use and charges it.
    if (!store.insert_if_absent(key, use.dump(), kUseTtlMs)) return;
    bool charged = false;
    try {
        charged = common::billing::charge(host, viewer, price);
    } catch (...) {
        store.erase(key);
        throw;
    }
    if (!charged) {  // no billing service: free, and nothing to record
        store.erase(key);
        return;
    }
    try {
        common::billing::credit(host, owner, price);
    } catch (const platform::Error& e) {
        // The viewer paid and is served; the owner's share is logged for the operator to add.
        host.warn("apps: " + viewer + " paid " + std::to_string(price) + " credit(s) for '" + slug +
                  "' but crediting its owner " + owner + " failed: " + e.what());
    }
}

void open_frame(const platform::Host& host, const std::string& viewer, const std::string& owner,
                const json& app) {
    if (paid_today(host, viewer, owner, app)) return;
    if (viewer.empty()) return need_account(host, owner, app);
    const std::string slug = app.value("slug", "");
    const int64_t price = price_of(app);
    if (!common::billing::check(host, viewer, price)) return;  // no billing service: free
    throw platform::Error(platform::Code::payment_required,
                          "slug: '" + slug + "' is a priced app (" + std::to_string(price) +
                              " credit(s) a day) and today's use is not paid: open /ui/apps/" +
                              slug + " to pay it");
}

}  // namespace apps_uses
