// numbers — what the instance knows about a telephone number, whoever texts it: whether it asked
// to receive nothing more (STOP), when it last wrote in over WhatsApp (the 24-hour window in which
// WhatsApp may be sent to it), and which account proved it holds it (verify).
//
// Storage (this plugin's store): numbers/instance/<number> {stopped, stopped_at, last_whatsapp,
// last_inbound, claimed_by, claimed_at}; times are business-clock Unix milliseconds. These records
// belong to no account: no handler opens them as the caller's.
//
// STOP words (case-insensitive, the whole message trimmed): STOP, STOPALL, UNSUBSCRIBE, CANCEL,
// END, QUIT. START words: START, UNSTOP, YES. As the carriers' and Twilio's opt-out rules have it.
//
// Thread-safe: everything goes through the host's store (Collection::update).
#pragma once

#include <cstdint>
#include <platform/sdk.hpp>
#include <string>
#include <string_view>

namespace sms {

// What an inbound message's text asks of the sending: stop, start, or nothing.
enum class OptOut { none, stop, start };
OptOut opt_out_keyword(std::string_view text);

struct NumberState {
    bool stopped = false;
    int64_t last_whatsapp = 0;  // 0: never wrote in over WhatsApp
    std::string claimed_by;     // "": no account holds it
};

class Numbers {
public:
    explicit Numbers(const platform::Host& host) : host_(host) {}

    NumberState state(const std::string& number) const;

    // Records a message from `number` on `channel` ("sms" or "whatsapp") now, with its STOP or
    // START; returns the state after it.
    NumberState wrote_in(const std::string& number, const std::string& channel,
                         OptOut opt_out) const;

    // `account` proved it holds `number` (it replaces an earlier holder).
    void claim(const std::string& number, const std::string& account) const;

private:
    platform::Collection records() const {
        return platform::Collection(host_.store(), "numbers", "instance");
    }
    static NumberState state_of(const platform::json& record);

    platform::Host host_;
};

}  // namespace sms
