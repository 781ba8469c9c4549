// outside — mail to addresses outside the instance: the host's mail settings as the plugin sees
// them, the charge, and the relay.
//
// The host tells every plugin its mail facts under "platform." (config_get):
//   platform.mail_domain     PLATFORM_MAIL_DOMAIN ("" = no outside mail)
//   platform.smtp_relay      PLATFORM_SMTP_RELAY without user and password ("" = none)
//   platform.smtp_listening  whether the host's SMTP listener takes mail from outside
// The relay's credentials stay in the host: the plugin never holds them.
//
// Sending to an outside address, in order: 503 naming PLATFORM_MAIL_DOMAIN without a domain,
// 503 naming PLATFORM_SMTP_RELAY without a relay; the letter composed (message.hpp) from
// handle@domain; the sender's balance checked for `outside_price` credits (common/billing: 402
// when short; no billing service: free); the relay; the charge only once the relay took the
// letter. The relay needs a path through the host
// that it does not offer yet (plugins make no network calls of their own and the host's
// http_fetch takes http and https only), so today that step answers 503 and nothing is charged.
#pragma once

#include <cstdint>
#include <platform/sdk.hpp>
#include <string>

#include "message.hpp"

namespace mail {

struct MailFacts {
    std::string domain, relay;
    bool listening = false;
    bool outside_mail() const { return !domain.empty() && listening; }
};

// The host's mail facts (empty and false when the host gives none).
MailFacts facts(const platform::Host& host);

// The default price of one letter to an outside address, in credits (config `outside_price`).
inline constexpr int64_t kDefaultOutsidePrice = 1;

class Outside {
public:
    explicit Outside(const platform::Host& host);

    // Sends `letter` (from handle@domain, to an outside address) for `account`; throws as above.
    // Returns the Message-ID the letter left with.
    std::string send(const std::string& account, Letter letter) const;

    int64_t price() const { return price_; }

private:
    // Hands the composed message to the relay; throws unavailable (no host path yet).
    void relay(const MailFacts& f, const Letter& letter, const std::string& message) const;

    platform::Host host_;
    int64_t price_;
};

}  // namespace mail
