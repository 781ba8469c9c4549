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

bool charge(const platform::Host& host, const std::string& account, int64_t amount) {
    return amount > 0 && ask(host, "charge", account, amount).has_value();
}

}  // namespace common::billing
