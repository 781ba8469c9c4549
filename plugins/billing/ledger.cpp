#include "ledger.hpp"

namespace billing {

using platform::json;

int64_t business_day(int64_t unix_ms) {
    constexpr int64_t kDay = 86400000;
    return unix_ms >= 0 ? unix_ms / kDay : (unix_ms - kDay + 1) / kDay;
}

Balance Ledger::decode(const std::optional<std::string>& raw) const {
    Balance b;
    const int64_t today = business_day(host_.now_ms());
    b.day = today;
    if (!raw) return b;
    json j = json::parse(*raw, nullptr, false);
    if (!j.is_object()) throw platform::internal("billing: a balance record is not JSON");
    b.credit = j.value("credit", int64_t{0});
    if (j.contains("per_day") && j["per_day"].is_number_integer())
        b.per_day = j["per_day"].get<int64_t>();
    // A record from an earlier business day has used none of today's allowance.
    if (j.value("day", int64_t{0}) == today) b.used = j.value("used", int64_t{0});
    return b;
}

std::string Ledger::encode(const Balance& b) {
    json j = {{"credit", b.credit}, {"used", b.used}, {"day", b.day}};
    j["per_day"] = b.per_day ? json(*b.per_day) : json(nullptr);
    return j.dump();
}

Balance Ledger::read(const std::string& account) const {
    return decode(host_.store().get(key(account)));
}

Balance Ledger::update(const std::string& account, const std::function<void(Balance&)>& change) {
    std::lock_guard<std::mutex> g(stripe(account));
    const auto store = host_.store();
    const std::string k = key(account);
    for (int attempt = 0; attempt < 32; ++attempt) {
        const auto raw = store.get(k);
        Balance b = decode(raw);
        change(b);
        const std::string next = encode(b);
        if (cas_.load()) {
            try {
                if (store.compare_and_set(
                        k, raw ? std::optional<std::string_view>(*raw) : std::nullopt, next))
                    return b;
                continue;  // another host sharing the store wrote it: read again
            } catch (const platform::Error& e) {
                if (e.code() != platform::Code::unsupported) throw;
                cas_.store(false);
                host_.info(
                    "billing: the store has no compare-and-set; balances are atomic on this host "
                    "only");
            }
        }
        store.put(k, next);
        return b;
    }
    throw platform::conflict("billing: the balance of " + account + " kept changing; try again");
}

}  // namespace billing
