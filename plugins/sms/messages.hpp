// messages — what each account sent and received, and what limits its sending: the sms service's
// per-account storage (this plugin's store, through platform::Collection; the owner is always the
// account the records belong to):
//
//   messages/<account>/<id>        a message: {id, direction: "out"|"in", channel, number, text,
//                                  encoding, segments, credits, provider_sid, status, kind, date}
//                                  (`number` is the other side; kind "text" or "verification")
//   counts/<account>/messages      {total}: how many messages the account has (sources)
//   daily/<account>/<day>          {sent}: messages sent on that business day (UTC), kept 2 days
//   conversations/<account>/<num>  {opened}: the WhatsApp conversation with <num> that was charged,
//                                  kept 24 hours
//
// Ids are "s" + 16 hex digits of a growing sequence (platform::next_sequence) + 8 random hex
// digits (platform/sdk/random.hpp): a descending scan is newest first.
//
// Thread-safe: everything goes through the host's store; counters are read-modify-write with
// compare-and-set (Collection::update).
#pragma once

#include <cstdint>
#include <platform/sdk.hpp>
#include <string>

namespace sms {

inline constexpr int64_t kDayMs = 24 * 60 * 60 * 1000;

class Messages {
public:
    explicit Messages(const platform::Host& host) : host_(host) {}

    // Stores `message` (without id and date: they are added) for `account`; returns it.
    platform::json keep(const std::string& account, platform::json message) const;

    // The account's messages: the collection (source) and how many there are (sources).
    platform::Collection of(const std::string& account) const {
        return platform::Collection(host_.store(), "messages", account);
    }
    uint64_t total(const std::string& account) const;

    // Counts one more message sent today by `account` when fewer than `cap` were; false (nothing
    // counted) when the cap is reached. release() takes one back (a send that failed).
    bool reserve_daily(const std::string& account, int64_t cap) const;
    void release_daily(const std::string& account) const;
    // Messages `account` sent today.
    int64_t sent_today(const std::string& account) const;

    // Whether `account` has a WhatsApp conversation with `number` opened in the last 24 hours;
    // open_conversation() starts one now.
    bool conversation_open(const std::string& account, const std::string& number) const;
    void open_conversation(const std::string& account, const std::string& number) const;

private:
    platform::Collection collection(const char* name, const std::string& account) const {
        return platform::Collection(host_.store(), name, account);
    }
    // The business day of now, "YYYY-MM-DD" (UTC).
    std::string today() const;

    platform::Host host_;
};

}  // namespace sms
