// billing — credits for metered calls (docs/identity.md "Payment"). Built-in service `billing`.
// An account has a daily allowance (reset each business day) and prepaid credit; the host's
// payment gate asks `check` before a metered call and `charge`s after it succeeded (allowance
// first, then credit). See README.md.
#include <algorithm>
#include <memory>

#include "ledger.hpp"

namespace schema = platform::schema;

using platform::json;

namespace {

const schema::Object kAccountAmount = schema::object()
                                          .str("account")
                                          .min_len(1)
                                          .max_len(256)
                                          .required()
                                          .doc("The account id")
                                          .integer("amount")
                                          .min(0)
                                          .max(1000000000000)
                                          .required()
                                          .doc("Credits");

bool has_scope(const std::string& csv, const std::string& scope) {
    for (size_t i = 0, j; i <= csv.size(); i = j + 1) {
        j = csv.find(',', i);
        if (j == std::string::npos) j = csv.size();
        if (csv.compare(i, j - i, scope) == 0) return true;
    }
    return false;
}

int64_t configured_allowance(const platform::Host& host) {
    json v = host.config("allowance_per_day");
    if (v.is_number_integer() && v.get<int64_t>() >= 0) return v.get<int64_t>();
    if (!v.is_null())
        host.warn("billing: config allowance_per_day must be an integer >= 0; using 0");
    return 0;
}

constexpr int64_t kMaxPrice = 100000;

// Config `prices`: item -> credits; items that are not a whole number 0..kMaxPrice are left out
// with a warning (the host checks config_schema at load, so this is belt and braces).
json configured_prices(const platform::Host& host) {
    json out = json::object();
    const json v = host.config("prices");
    if (!v.is_object()) return out;
    for (const auto& [item, price] : v.items()) {
        if (price.is_number_integer() && price.get<int64_t>() >= 0 &&
            price.get<int64_t>() <= kMaxPrice)
            out[item] = price;
        else
            host.warn("billing: config prices." + item + " must be an integer 0-100000; ignored");
    }
    return out;
}

}  // namespace

class Billing {
public:
    static void describe(platform::ServiceSpec<Billing>& s) {
        s.id("billing")
            .version("1.0.0")
            .service("billing")
            .summary(
                "Credits for metered methods: a daily allowance and prepaid credit per account")
            .config_schema(
                schema::object()
                    .integer("allowance_per_day")
                    .min(0)
                    .doc("Credits included each business day, unless set per account")
                    .prop("prices", schema::map_of(schema::integer().min(0).max(kMaxPrice))
                                        .doc("Credits per item that services price themselves "
                                             "(mail_outside, sms_segment, sms_conversation); an "
                                             "item not listed costs its service's default")));
        s.get("balance")
            .title("Credit balance")
            .description(
                "Your allowance left today, your prepaid credit and your daily allowance. Admins "
                "may "
                "name another account.")
            .schema(schema::object().str("account").min_len(1).max_len(256).doc(
                "Another account (admins only); default: yours"))
            .access(platform::Access::account)
            .read_only()
            .handler(&Billing::balance);
        s.get("prices")
            .title("Prices")
            .description(
                "The prices the operator set for what services price themselves, in credits per "
                "item: {prices: {item: credits}}. An item not listed costs its service's default "
                "(its README says which).")
            .schema(schema::object())
            .access(platform::Access::account)
            .read_only()
            .handler(&Billing::prices);
        s.post("addCredit")
            .title("Add credit")
            .description("Adds prepaid credit to an account (1 credit = $0.01).")
            .schema(schema::object()
                        .str("account")
                        .min_len(1)
                        .max_len(256)
                        .required()
                        .integer("amount")
                        .min(1)
                        .max(1000000000000)
                        .required())
            .access(platform::Access::admin)
            .handler(&Billing::add_credit);
        s.post("setAllowance")
            .title("Set the daily allowance")
            .description("Sets an account's daily allowance; what it used today still counts.")
            .schema(schema::object()
                        .str("account")
                        .min_len(1)
                        .max_len(256)
                        .required()
                        .integer("allowance_per_day")
                        .min(0)
                        .max(1000000000000)
                        .required())
            .access(platform::Access::admin)
            .idempotent()
            .handler(&Billing::set_allowance);
        s.post("check")
            .title("Check a balance (host)")
            .description(
                "Whether an account can pay `amount` credits now: {enough, needed, available, "
                "allowance, "
                "credit}. Used by the host's payment gate before a metered call.")
            .schema(kAccountAmount)
            .access(platform::Access::admin)
            .read_only()
            .withheld_from_agent()
            .handler(&Billing::check);
        s.post("charge")
            .title("Charge credits (host)")
            .description(
                "Takes `amount` credits, allowance first, then credit (which may go below zero "
                "when the "
                "balance fell after the check). Used by the host after a metered call succeeded.")
            .schema(kAccountAmount)
            .access(platform::Access::admin)
            .withheld_from_agent()
            .handler(&Billing::charge);
    }

    explicit Billing(const platform::Host& host)
        : ledger_(std::make_unique<billing::Ledger>(host, configured_allowance(host))),
          prices_(configured_prices(host)) {}

    json prices(platform::Request&) { return {{"prices", prices_}}; }

    json balance(platform::Request& r) {
        std::string account = r.str("account", r.account());
        if (account != r.account() && !has_scope(r.scopes(), "admin") &&
            !has_scope(r.scopes(), "service"))
            throw platform::permission_denied(
                "account: only admins may read another account's balance");
        return view(account, ledger_->read(account));
    }

    json add_credit(platform::Request& r) {
        const int64_t amount = r["amount"].get<int64_t>();
        const std::string account = r.str("account");
        return view(account,
                    ledger_->update(account, [&](billing::Balance& b) { b.credit += amount; }));
    }

    json set_allowance(platform::Request& r) {
        const int64_t per_day = r["allowance_per_day"].get<int64_t>();
        const std::string account = r.str("account");
        return view(account,
                    ledger_->update(account, [&](billing::Balance& b) { b.per_day = per_day; }));
    }

    json check(platform::Request& r) {
        const std::string account = r.str("account");
        const int64_t amount = r["amount"].get<int64_t>();
        billing::Balance b = ledger_->read(account);
        json out = view(account, b);
        out["needed"] = amount;
        out["available"] = b.available(ledger_->default_per_day());
        out["enough"] = b.available(ledger_->default_per_day()) >= amount;
        return out;
    }

    json charge(platform::Request& r) {
        const std::string account = r.str("account");
        const int64_t amount = r["amount"].get<int64_t>();
        int64_t from_allowance = 0, from_credit = 0;
        const int64_t fallback = ledger_->default_per_day();
        billing::Balance b = ledger_->update(account, [&](billing::Balance& bal) {
            from_allowance = std::min(amount, bal.allowance(fallback));
            from_credit = amount - from_allowance;
            bal.used += from_allowance;
            bal.credit -= from_credit;
        });
        json out = view(account, b);
        out["charged"] = amount;
        out["from_allowance"] = from_allowance;
        out["from_credit"] = from_credit;
        return out;
    }

private:
    json view(const std::string& account, const billing::Balance& b) const {
        const int64_t fallback = ledger_->default_per_day();
        return {{"account", account},
                {"allowance", b.allowance(fallback)},
                {"credit", b.credit},
                {"allowance_per_day", b.allowance_per_day(fallback)}};
    }

    std::unique_ptr<billing::Ledger> ledger_;
    json prices_;
};

PLATFORM_SERVICE(Billing)
