// The payment step of admission (payment.hpp; docs/identity.md "Payment").
//
// A metered endpoint (PLATFORM_FLAG_METERED, price > 0):
//   - service identities (the host's own accounts for plugins) are never charged;
//   - a public endpoint with a PAYMENT-SIGNATURE / X-PAYMENT header and x402 on: match, replay
//     check, facilitator /verify, run (the payer in the call header x-payment-payer), /settle
//     only when the call succeeded, receipt in PAYMENT-RESPONSE and X-PAYMENT-RESPONSE;
//   - an anonymous caller: 402 with the x402 challenge (x402 on), else 401 (sign in);
//   - an account: billing.check, run, billing.charge after success; not enough credits → 402.
//     Without a `billing` service accounts run free (logged once).
// A payment header on an endpoint needing an account from an anonymous caller → 403. A call that
// fails is never charged nor settled.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <platform/host/core/names.hpp>
#include <platform/host/core/payment.hpp>
#include <platform/host/core/runtime.hpp>
#include <platform/sdk/text.hpp>

namespace platform::host {

using nlohmann::json;

namespace {
constexpr const char* kPayerHeader = "x-payment-payer";

bool metered(const Endpoint& ep) {
    return (ep.flags & PLATFORM_FLAG_METERED) && ep.price > 0;
}

// The payment header and the version it implies: PAYMENT-SIGNATURE (v2) first, else X-PAYMENT (v1).
std::pair<std::string, int> payment_header(const Invocation& inv) {
    for (const auto& [name, version] :
         {std::pair<const char*, int>{"payment-signature", 2}, {"x-payment", 1}}) {
        auto it = inv.headers.find(name);
        if (it != inv.headers.end() && !it->second.empty()) return {it->second, version};
    }
    return {"", 0};
}

std::string credit_text(uint64_t n) {
    return std::to_string(n) + (n == 1 ? " credit" : " credits");
}

int64_t number(const json& j, const char* key) {
    auto it = j.find(key);
    return it != j.end() && it->is_number() ? it->get<int64_t>() : 0;
}
}  // namespace

PaymentGate::PaymentGate(Runtime& runtime)
    : runtime_(runtime), settings_(effective_payment_settings(runtime.profile().payment)) {
    facilitator_ = std::make_unique<Facilitator>(runtime_.outbound(), settings_);
    ledger_ = std::make_unique<ReplayLedger>(runtime_);
    if (!settings_.enabled()) return;
    std::string error;
    if (settings_.facilitator_url.empty())
        spdlog::warn(
            "x402: payment.pay_to is set but no facilitator: payments will answer 503 until "
            "payment.facilitator_url or PLATFORM_X402_FACILITATOR_URL is set");
    else if (!parse_url(settings_.facilitator_url, &error))
        spdlog::error(
            "x402: payment.facilitator_url / PLATFORM_X402_FACILITATOR_URL '{}' is not usable: {}",
            settings_.facilitator_url, error);
    spdlog::info("x402 payments on: pay to {} on {} in {}, facilitator {}", settings_.pay_to,
                 settings_.network, settings_.asset,
                 settings_.facilitator_url.empty() ? "(none)" : settings_.facilitator_url);
}

PaymentGate::~PaymentGate() = default;

bool PaymentGate::applies(const Identity& who, const Invocation& inv, const Endpoint& ep) const {
    if (metered(ep)) return true;
    if (inv.headers.count(kPayerHeader)) return true;  // only the gate may set it: strip a caller's
    return ep.access != PLATFORM_ACCESS_PUBLIC && who.anonymous() &&
           !payment_header(inv).first.empty();
}

void PaymentGate::admit(const Identity& who, Invocation inv, const ServiceEntry& svc,
                        const Endpoint& ep, std::function<void(Outcome)> done, const Run& run) {
    inv.headers.erase(kPayerHeader);
    const bool has_payment = !payment_header(inv).first.empty();
    if (ep.access != PLATFORM_ACCESS_PUBLIC && who.anonymous()) {
        if (has_payment)
            return done(Outcome{PLATFORM_PERMISSION_DENIED,
                                "Forbidden call made to " + svc.name + ":" + ep.method +
                                    ": pay-per-call (x402) is for public methods; this one needs "
                                    "an account (sign in)"});
        return run(who, std::move(inv), std::move(done));  // the dispatcher answers 401
    }
    const bool service_account = who.type == "service" && who.has_scope("service");
    if (!metered(ep) || service_account) return run(who, std::move(inv), std::move(done));
    if (ep.access == PLATFORM_ACCESS_PUBLIC && has_payment && settings_.enabled())
        return pay_x402(who, std::move(inv), svc, ep, std::move(done), run);
    if (who.anonymous()) {
        if (!settings_.enabled())
            return done(Outcome{PLATFORM_UNAUTHENTICATED,
                                "Unauthorized call made to " + svc.name + ":" + ep.method +
                                    ": it costs " + credit_text(ep.price) +
                                    "; sign in (this server takes no x402 payments)"});
        return done(challenge(inv, svc, ep,
                              "This method costs " + credit_text(ep.price) +
                                  ". Sign in (Authorization: Bearer), or pay per call: retry with "
                                  "a PAYMENT-SIGNATURE "
                                  "header carrying a payment for one of `accepts`.",
                              2));
    }
    credits(who, std::move(inv), svc, ep, std::move(done), run);
}

x402::Resource PaymentGate::resource(const Invocation& inv, const ServiceEntry& svc,
                                     const Endpoint& ep) const {
    auto header = [&](const char* name) {
        auto it = inv.headers.find(name);
        return it == inv.headers.end() ? std::string() : it->second;
    };
    std::string scheme = header("x-forwarded-proto");
    if (scheme != "http" && scheme != "https")
        scheme = runtime_.settings().enable_tls ? "https" : "http";
    std::string host = header("host");
    if (host.empty() || host.find_first_of("/ \t\r\n") != std::string::npos) host = "localhost";
    std::string path = svc.relative.rfind("v1.", 0) == 0 ? "/api/v1/" + svc.relative.substr(3)
                                                         : "/" + svc.relative;
    for (size_t i = 1; i < path.size(); ++i)
        if (path[i] == '.' && path.rfind("/api/v1/", 0) != 0) path[i] = '/';
    x402::Resource r;
    r.url = scheme + "://" + host + path + "/" + ep.name;
    r.description = "Access to " + svc.relative + " " + ep.name +
                    (ep.title.empty() ? "" : " (" + ep.title + ")");
    return r;
}

Outcome PaymentGate::challenge(const Invocation& inv, const ServiceEntry& svc, const Endpoint& ep,
                               const std::string& error, int version) const {
    const auto res = resource(inv, svc, ep);
    const json body = version == 1 ? x402::payment_required_v1(settings_, ep.price, res, error)
                                   : x402::payment_required(settings_, ep.price, res, error);
    const std::string text = body.dump(-1, ' ', false, json::error_handler_t::replace);
    Outcome o{PLATFORM_PAYMENT_REQUIRED, text, "application/json", true};
    if (version != 1) o.headers.emplace_back("PAYMENT-REQUIRED", x402::base64_encode(text));
    return o;
}

// ---- credits ---------------------------------------------------------------------------------

void PaymentGate::credits(const Identity& who, Invocation inv, const ServiceEntry& svc,
                          const Endpoint& ep, std::function<void(Outcome)> done, const Run& run) {
    const ServiceEntry* billing =
        runtime_.registry().find_exact(qualify(runtime_.settings().ns, "billing"));
    const Endpoint* check = billing ? billing->plugin->endpoint("check") : nullptr;
    const Endpoint* charge = billing ? billing->plugin->endpoint("charge") : nullptr;
    if (!check || !charge) {
        if (!warned_no_billing_.exchange(true))
            spdlog::warn(
                "no billing service (billing/check, billing/charge): metered calls by accounts run "
                "free");
        return run(who, std::move(inv), std::move(done));
    }
    Identity host;  // the host acting as a service account, like a plugin calling as itself
    host.id = qualify(runtime_.settings().ns, "payment");
    host.type = "service";
    host.issuer = runtime_.settings().ns;
    host.name = host.id;
    host.scopes = {"service"};
    auto billing_call = [billing, host, request_id = inv.request_id](
                            const Endpoint* e, const std::string& account, uint64_t amount) {
        Invocation c;
        c.service = billing;
        c.endpoint = e;
        c.args = {{"account", account}, {"amount", amount}};
        c.request_id = request_id;
        c.admitted = true;
        return c;
    };
    const bool can_pay = ep.access == PLATFORM_ACCESS_PUBLIC && settings_.enabled();
    Outcome offer =
        can_pay ? challenge(inv, svc, ep,
                            "Not enough credits; pay per call with PAYMENT-SIGNATURE instead.", 2)
                : Outcome{};
    auto after_check = [this, who, inv = std::move(inv), done = std::move(done), run, charge, host,
                        billing_call, price = ep.price, can_pay, offer](Outcome o) mutable {
        if (o.code != PLATFORM_OK)
            return done(Outcome{PLATFORM_UNAVAILABLE, "billing: could not check the balance of " +
                                                          who.id + ": " + o.body});
        json r = json::parse(o.body, nullptr, false);
        if (!r.is_object())
            return done(Outcome{PLATFORM_INTERNAL, "billing: check answered nonsense"});
        if (!r.value("enough", false)) {
            Outcome refused{PLATFORM_PAYMENT_REQUIRED,
                            "needs " + credit_text(price) + "; you have " +
                                std::to_string(number(r, "available")) + " (allowance " +
                                std::to_string(number(r, "allowance")) + ", credit " +
                                std::to_string(number(r, "credit")) + ")"};
            if (can_pay)
                refused.headers =
                    offer.headers;  // PAYMENT-REQUIRED: an account may pay per call too
            return done(std::move(refused));
        }
        Invocation next = std::move(inv);
        run(who, std::move(next),
            [this, who, done, charge, host, billing_call, price](Outcome result) {
                if (result.code != PLATFORM_OK) return done(std::move(result));  // never charged
                auto shared = std::make_shared<Outcome>(std::move(result));
                runtime_.dispatch_as(
                    host, billing_call(charge, who.id, price),
                    [done, shared, who, price](Outcome c) {
                        if (c.code != PLATFORM_OK)
                            spdlog::error(
                                "billing: charging {} {} after a successful call failed: {}",
                                who.id, price, c.body);
                        done(std::move(*shared));
                    });
            });
    };
    runtime_.dispatch_as(host, billing_call(check, who.id, ep.price), std::move(after_check));
}

// ---- x402 ------------------------------------------------------------------------------------

void PaymentGate::pay_x402(const Identity& who, Invocation inv, const ServiceEntry& svc,
                           const Endpoint& ep, std::function<void(Outcome)> done, const Run& run) {
    // Off the HTTP thread: the facilitator is a blocking HTTP request.
    auto state = std::make_shared<Invocation>(std::move(inv));
    runtime_.pool().submit([this, who, state, svc = &svc, ep = &ep, done = std::move(done),
                            run]() mutable {
        Invocation& inv = *state;
        const auto [header, header_version] = payment_header(inv);
        const char* header_name = header_version == 1 ? "X-PAYMENT" : "PAYMENT-SIGNATURE";
        std::string why;
        auto payload = x402::decode_payment(header, &why);
        if (!payload)
            return done(
                challenge(inv, *svc, *ep, std::string(header_name) + ": " + why, header_version));
        const int version = x402::payload_version(*payload, header_version);
        const auto res = resource(inv, *svc, *ep);
        const json accepts =
            json::array({version == 1 ? x402::requirement_v1(settings_, ep->price, res)
                                      : x402::requirement(settings_, ep->price)});
        auto requirement = x402::match(*payload, accepts, &why);
        if (!requirement)
            return done(challenge(inv, *svc, *ep, std::string(header_name) + ": " + why, version));

        const std::string key = x402::replay_key(*payload);
        const std::string record = json{{"payer", x402::payer_of(*payload)},
                                        {"service", svc->name},
                                        {"method", ep->method},
                                        {"at_ms", runtime_.clock().now_ms()}}
                                       .dump();
        switch (ledger_->claim(key, record, why)) {
            case ReplayLedger::Claim::claimed:
                break;
            case ReplayLedger::Claim::used:
                return done(challenge(
                    inv, *svc, *ep,
                    "This payment was already used (replay refused): sign a new authorization for "
                    "each call.",
                    version));
            case ReplayLedger::Claim::failed:
                return done(Outcome{PLATFORM_UNAVAILABLE, "x402: " + why});
        }
        auto verified = facilitator_->verify(version, *payload, *requirement);
        if (!verified.reached) {
            ledger_->release(key, record);
            spdlog::error("x402: facilitator unavailable: {}", verified.error);
            return done(
                Outcome{PLATFORM_UNAVAILABLE,
                        "the x402 payment facilitator is unavailable (" + verified.error +
                            "); check payment.facilitator_url / PLATFORM_X402_FACILITATOR_URL"});
        }
        if (!verified.body.value("isValid", false)) {
            ledger_->release(key, record);
            std::string reason = verified.body.value("invalidReason", "");
            return done(challenge(inv, *svc, *ep,
                                  "The payment was refused by the facilitator: " +
                                      (reason.empty() ? "invalid" : reason),
                                  version));
        }
        std::string payer = verified.body.value("payer", "");
        if (payer.empty()) payer = x402::payer_of(*payload);
        inv.headers[kPayerHeader] = platform::lower(payer);
        auto paid =
            std::make_shared<std::pair<json, json>>(std::move(*payload), std::move(*requirement));
        run(who, std::move(inv), [this, done, paid, key, record, version, payer](Outcome o) {
            if (o.code != PLATFORM_OK) {
                ledger_->release(key, record);  // nothing settled: the payer may retry
                return done(std::move(o));
            }
            auto result = std::make_shared<Outcome>(std::move(o));
            runtime_.pool().submit([this, done, paid, version, payer, result] {
                auto settled = facilitator_->settle(version, paid->first, paid->second);
                json receipt = settled.reached
                                   ? settled.body
                                   : json{{"success", false}, {"errorReason", settled.error}};
                if (!receipt.contains("network"))
                    receipt["network"] = paid->second.value("network", settings_.network);
                if (!receipt.contains("payer")) receipt["payer"] = payer;
                if (!receipt.contains("transaction")) receipt["transaction"] = "";
                if (!receipt.value("success", false))
                    spdlog::error("x402: settling a served call for {} failed: {}", payer,
                                  settled.reached ? receipt.value("errorReason", "no reason given")
                                                  : settled.error);
                const std::string header = x402::base64_encode(
                    receipt.dump(-1, ' ', false, json::error_handler_t::replace));
                result->headers.emplace_back("PAYMENT-RESPONSE", header);
                result->headers.emplace_back("X-PAYMENT-RESPONSE", header);
                done(std::move(*result));
            });
        });
    });
}

}  // namespace platform::host
