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
// handle@domain; the sender's balance checked for the price (billing's `prices.mail_outside`, default 1) (common/billing: 402
// when short; no billing service: free); the relay; the charge only once the relay took the
// letter.
//
// The relay is the host's: Host::fetch with the reserved provider "smtp" (only this service may
// use it), the composed message as the body and the envelope in the headers `Mail-From` and
// `Rcpt-To`. The host answers 200 with the server's final reply, 502 with its refusal, 503 when
// PLATFORM_SMTP_RELAY is unset; a connection or TLS failure is an error. Here a refusal or a
// failure is 502 (504 on a timeout) naming the relay and its reply, and nothing is charged.
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

// The price of one letter to an outside address, in credits: billing's config
// `prices.mail_outside`, else this default.
inline constexpr const char* kPriceItem = "mail_outside";
inline constexpr int64_t kDefaultOutsidePrice = 1;

class Outside {
public:
    explicit Outside(const platform::Host& host);

    // Sends `letter` (from <from_handle>@domain, `account` when empty, to an outside address)
    // for `account`, who pays; throws as above. Returns the Message-ID the letter left with.
    std::string send(const std::string& account, Letter letter,
                     const std::string& from_handle = "") const;

    static constexpr int32_t kRelayTimeoutMs = 60000;

    int64_t price() const;  // asked at each letter (billing/prices)

private:
    // Hands the composed message to the relay (the host's provider "smtp"); throws as above.
    void relay(const MailFacts& f, const Letter& letter, const std::string& message) const;

    platform::Host host_;
};

}  // namespace mail
