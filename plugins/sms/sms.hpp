// sms — text messages to telephone numbers over SMS and WhatsApp, through a Twilio-compatible
// provider (the catalogue's `sms` service; README.md):
//
//   send     POST {to*, text*, channel = sms|whatsapp}  -> the stored message; charged
//   verify   POST {number*, code}                        -> texts a code; with it, claims the number
//   source   GET  {id*}                                  -> one of the caller's messages (owner)
//   sources  GET  {offset, limit 1-100 = 20}             -> {sources: [ids], total} (owner)
//   inbound  POST the provider's form (public; also POST /sms/inbound): a message from a number,
//            its X-Twilio-Signature checked; STOP/START; the WhatsApp window; kept for the
//            account that claimed the number
//
// Sending, in order (sending.cpp): 409 to a number that sent STOP; WhatsApp only to a number that
// wrote in over WhatsApp in the last 24 hours (409); 503 naming a missing provider setting; the
// daily cap (429); the price checked with billing (402); the provider (provider.hpp); the message
// kept; the price charged. SMS costs billing's `prices.sms_segment` (default 1) per segment
// (segments.hpp), WhatsApp `prices.sms_conversation` (default 2) per 24-hour conversation with a
// number; both asked of billing (billing/prices) at each send.
//
// Files: segments (parts and encodings), e164 (numbers), provider (the HTTP API and settings),
// signature (the webhook's), verification (codes), numbers (STOP, the window, claims), messages
// (per-account storage and counters). Charging goes through common/billing.
//
// Plugin config: daily_cap (1-10000, default 50 messages per account per business day); provider
// settings in provider.hpp.
#pragma once

#include <platform/sdk.hpp>
#include <string>

#include "messages.hpp"
#include "numbers.hpp"
#include "verification.hpp"

namespace sms {

inline constexpr int64_t kDefaultPricePerSegment = 1;
inline constexpr int64_t kDefaultPricePerConversation = 2;
inline constexpr int64_t kDefaultDailyCap = 50;
// Characters of a text (at most 10 concatenated GSM-7 parts, as the provider takes).
inline constexpr std::size_t kMaxText = 1600;

}  // namespace sms

class Sms {
public:
    static void describe(platform::ServiceSpec<Sms>& s);
    explicit Sms(const platform::Host& host);

    platform::json send(platform::Request& r);
    platform::json verify(platform::Request& r);
    platform::json source(platform::Request& r);
    platform::json sources(platform::Request& r);
    // inbound.cpp
    void inbound(platform::Request& r, platform::Responder out);

private:
    // The caller's account; 401 for an anonymous caller.
    static const std::string& caller(platform::Request& r);
    // Texts `text` to `number` on `channel` for `account` (sending.cpp: the order above) and keeps
    // the message with `shown` as its text; returns the kept message.
    platform::json deliver(const std::string& account, const std::string& number,
                           const std::string& channel, const std::string& text,
                           const std::string& shown, const char* kind);
    // The price of `text` on `channel` to `number` for `account` (0 inside a charged WhatsApp
    // conversation), and what it is for ("3 SMS segments").
    int64_t price(const std::string& account, const std::string& number, const std::string& channel,
                  const std::string& text, std::string& what) const;

    platform::Host host_;
    sms::Messages messages_;
    sms::Numbers numbers_;
    sms::Verification codes_;
    int64_t daily_cap_;
};
