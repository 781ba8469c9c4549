// platform/host/core/payment.hpp — the payment step of admission (docs/identity.md "Payment").
//
// For an endpoint flagged PLATFORM_FLAG_METERED with a price, the gate either answers the call
// itself (402 challenge, 403 for a payment on an endpoint that needs an account) or runs it
// through `run` with a completion that charges credits or settles the x402 payment only when the
// call succeeded, adding the receipt headers to the outcome.
//
// Pieces, one file each under host/src/payment/:
//   x402.cpp        PaymentRequired (v2, and v1 for X-PAYMENT callers), base64, payload decoding,
//                   matching a payload to a requirement, the replay key
//   facilitator.cpp POST {x402Version, paymentPayload, paymentRequirements} to <url>/verify, /settle
//   replay.cpp      the ledger of used payments (store compare-and-set, else a process lock)
//   payment_gate.cpp the decisions: who pays how, and when (settings and env overrides too)
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <platform/host/core/calls.hpp>
#include <platform/host/core/profile.hpp>
#include <platform/sdk/text.hpp>
#include <set>
#include <string>
#include <string_view>

namespace platform::host {

class Runtime;
class Outbound;
struct Identity;
struct Invocation;
struct ServiceEntry;
struct Endpoint;

// ---- x402 encoding (x402.cpp) -----------------------------------------------------------------
namespace x402 {

// The CAIP-2 id for the v1 names `base` and `base-sepolia`; anything else as given.
std::string caip2(const std::string& network);
// The v1 name (`base`, `base-sepolia`) for a CAIP-2 id the v1 protocol names; else as given.
std::string v1_network(const std::string& network);
// `price` credits in atomic units of the asset, as a decimal string: price × 10^(decimals−2)
// (1 credit = $0.01), so 2 credits of a 6-decimal asset are "20000". decimals < 2 rounds down.
std::string amount(uint64_t price, int decimals);

// What is paid for (the v2 ResourceInfo).
struct Resource {
    std::string url, description, mime_type = "application/json";
};

// One v2 accepts[] entry: {scheme:"exact", network, amount, asset, payTo, maxTimeoutSeconds, extra}.
nlohmann::json requirement(const PaymentSettings& s, uint64_t price);
// One v1 accepts[] entry: maxAmountRequired, resource, description, mimeType, v1 network name.
nlohmann::json requirement_v1(const PaymentSettings& s, uint64_t price, const Resource& r);
// The v2 PaymentRequired: {x402Version:2, error, resource, accepts:[requirement]}.
nlohmann::json payment_required(const PaymentSettings& s, uint64_t price, const Resource& r,
                                const std::string& error);
// The v1 PaymentRequirementsResponse: {x402Version:1, error, accepts:[requirement_v1]}.
nlohmann::json payment_required_v1(const PaymentSettings& s, uint64_t price, const Resource& r,
                                   const std::string& error);

// Standard base64 with padding; decoding takes the standard or URL-safe alphabet, padded or not
// (whitespace ignored), nullopt when malformed (platform/sdk/text.hpp).
using platform::base64_decode;
using platform::base64_encode;

// A PAYMENT-SIGNATURE / X-PAYMENT value (base64 of a JSON PaymentPayload) as JSON; nullopt with
// *error saying what is wrong.
std::optional<nlohmann::json> decode_payment(std::string_view header, std::string* error);
// The payload's x402Version, or `fallback` when absent.
int payload_version(const nlohmann::json& payload, int fallback);
// The entry of `accepts` this payload pays for: same scheme, network (CAIP-2 normalised) and
// asset (case-insensitive; a v1 payload names no asset). nullopt with *why.
std::optional<nlohmann::json> match(const nlohmann::json& payload, const nlohmann::json& accepts,
                                    std::string* why);
// The ledger key of a payment: "nonce:<authorization.nonce, lower case>", or, for a payload
// without one, "sha256:<hex of its canonical JSON>" (so re-encoding the header does not dodge it).
std::string replay_key(const nlohmann::json& payload);
// payload.authorization.from in lower case, or "".
std::string payer_of(const nlohmann::json& payload);
std::string sha256_hex(std::string_view bytes);

}  // namespace x402

// The profile's settings with PLATFORM_X402_PAY_TO, PLATFORM_X402_FACILITATOR_URL and
// PLATFORM_X402_NETWORK applied (a variable set to a non-empty value wins); the network is
// normalised to CAIP-2. `env` is getenv unless given.
PaymentSettings effective_payment_settings(
    PaymentSettings s, const std::function<const char*(const char*)>& env = nullptr);

// ---- the facilitator (facilitator.cpp) -------------------------------------------------------
// A facilitator's answer: `reached` false when there is none to be had (not configured,
// refused by the outbound rules, down, timed out, a 5xx or not JSON) — `error` says why.
struct FacilitatorAnswer {
    bool reached = false;
    nlohmann::json
        body;  // {isValid, invalidReason?, payer} or {success, errorReason?, payer, transaction, network}
    std::string error;
};

class Facilitator {
public:
    Facilitator(const Outbound& outbound, const PaymentSettings& settings);
    FacilitatorAnswer verify(int version, const nlohmann::json& payload,
                             const nlohmann::json& requirements) const;
    FacilitatorAnswer settle(int version, const nlohmann::json& payload,
                             const nlohmann::json& requirements) const;

private:
    FacilitatorAnswer post(const std::string& path, const char* field, int version,
                           const nlohmann::json& payload, const nlohmann::json& requirements) const;
    const Outbound& outbound_;
    const PaymentSettings& settings_;
};

// ---- the replay ledger (replay.cpp) ----------------------------------------------------------
// Used payments, by x402::replay_key, in the store provider's table `_x402` (a name no plugin
// can have). With a provider declaring PLATFORM_STORE_CAS the claim is the store's atomic
// insert-if-absent, so replicas sharing the store refuse each other's replays. Without CAS the
// claim is a get then put under a process-local mutex (atomic on this host only); without any
// store, a process-local set (forgotten at restart).
class ReplayLedger {
public:
    enum class Claim { claimed, used, failed };
    explicit ReplayLedger(Runtime& runtime);
    // Records `key` with `value` unless it is there already; `error` says why on `failed`.
    Claim claim(const std::string& key, const std::string& value, std::string& error);
    // Forgets a claim (the payment was refused or the call failed: nothing was settled).
    void release(const std::string& key, const std::string& value);

private:
    Runtime& runtime_;
    std::mutex m_;
    std::set<std::string> local_;
};

// ---- the gate (payment_gate.cpp) -------------------------------------------------------------
class PaymentGate {
public:
    using Run =
        std::function<void(const Identity& as, Invocation inv, std::function<void(Outcome)> done)>;

    explicit PaymentGate(Runtime& runtime);
    ~PaymentGate();

    // True when the gate has something to do for this call (metered endpoint, or a payment
    // header on a call that needs an account).
    bool applies(const Identity& who, const Invocation& inv, const Endpoint& ep) const;
    // Admits the call: answers `done` itself, or calls `run` exactly once.
    void admit(const Identity& who, Invocation inv, const ServiceEntry& svc, const Endpoint& ep,
               std::function<void(Outcome)> done, const Run& run);

    const PaymentSettings& settings() const { return settings_; }

private:
    void credits(const Identity& who, Invocation inv, const ServiceEntry& svc, const Endpoint& ep,
                 std::function<void(Outcome)> done, const Run& run);
    void pay_x402(const Identity& who, Invocation inv, const ServiceEntry& svc, const Endpoint& ep,
                  std::function<void(Outcome)> done, const Run& run);
    Outcome challenge(const Invocation& inv, const ServiceEntry& svc, const Endpoint& ep,
                      const std::string& error, int version) const;
    x402::Resource resource(const Invocation& inv, const ServiceEntry& svc,
                            const Endpoint& ep) const;

    Runtime& runtime_;
    PaymentSettings settings_;
    std::unique_ptr<Facilitator> facilitator_;
    std::unique_ptr<ReplayLedger> ledger_;
    std::atomic<bool> warned_no_billing_{false};
};

}  // namespace platform::host
