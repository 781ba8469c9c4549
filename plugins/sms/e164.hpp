// e164 — telephone numbers in international format (ITU-T E.164), as `send`, `verify` and the
// provider's webhook carry them.
//
// A number is '+', a first digit 1-9 (the country code never starts with 0) and 6 to 14 more
// digits: 7 to 15 digits in all, nothing else (no spaces, dashes or brackets). The provider
// writes WhatsApp addresses as "whatsapp:+<number>".
//
// Pure functions, any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace sms {

// The schema pattern of a number, and the rule in words for messages.
inline constexpr const char* kNumberPattern = "^\\+[1-9][0-9]{6,14}$";
inline constexpr const char* kNumberRule =
    "international (E.164) format: '+', the country code and the number, 7 to 15 digits in all, "
    "without spaces (e.g. +447700900123)";

// Whether `number` is in the format above.
bool valid_number(std::string_view number);

// A number as the provider writes it on a channel: "+1..." for sms, "whatsapp:+1..." for
// whatsapp.
std::string provider_address(const std::string& number, const std::string& channel);

// A provider address split into its channel and number; nullopt when the number is not E.164.
struct Address {
    std::string channel;  // "sms" or "whatsapp"
    std::string number;
};
std::optional<Address> parse_provider_address(std::string_view address);

}  // namespace sms
