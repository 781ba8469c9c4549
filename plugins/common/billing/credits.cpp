#include "common/billing/credits.hpp"

namespace common::billing {

using platform::json;

namespace {

// billing/<method> for {account, amount}; nullopt without a billing service.
std::optional<json> ask(const platform::Host& host, const char* method, const std::string& account,
                        int64_t amount) {
    platform::Host::CallResult r;
    try {
        r = host.call("billing", method, {{"account", account}, {"amount", amount}});
    } catch (const platform::Error& e) {
        if (e.code() == platform::Code::not_found) return std::nullopt;  // no billing: free
        throw;
    }
    if (!r.ok())
        throw platform::unavailable("billing/" + std::string(method) + " failed: " + r.body);
    return json::parse(r.body, nullptr, false);
}

}  // namespace

std::optional<Balance> check(const platform::Host& host, const std::string& account,
                             int64_t amount) {
    if (amount <= 0) return std::nullopt;
    const auto answer = ask(host, "check", account, amount);
    if (!answer || !answer->is_object()) return std::nullopt;
    return Balance{answer->value("enough", false), answer->value("available", int64_t{0})};
}

void require(const platform::Host& host, const std::string& account, int64_t amount,
             const std::string& what) {
    const auto balance = check(host, account, amount);
    if (balance && !balance->enough)
        throw platform::Error(platform::Code::payment_required,
                              what + " costs " + std::to_string(amount) + " credit(s); you have " +
                                  std::to_string(balance->available));
}

int64_t price(const platform::Host& host, const std::string& item, int64_t fallback) {
    try {
        const auto r = host.call("billing", "prices", json::object());
        if (!r.ok()) return fallback;
        const json answer = json::parse(r.body, nullptr, false);
        const json* p =
            answer.is_object() && answer.contains("prices") ? &answer["prices"] : nullptr;
        if (p && p->is_object() && p->contains(item) && (*p)[item].is_number_integer() &&
            (*p)[item].get<int64_t>() >= 0)
            return (*p)[item].get<int64_t>();
    } catch (const platform::Error&) {  // no billing service: everything is free anyway
    }
    return fallback;
}

bool charge(const platform::Host& host, const std::string& account, int64_t amount) {
    return amount > 0 && ask(host, "charge", account, amount).has_value();
}

bool credit(const platform::Host& host, const std::string& account, int64_t amount) {
    return amount > 0 && ask(host, "addCredit", account, amount).has_value();
}

}  // namespace common::billing
