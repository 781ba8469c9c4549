// send and verify: the order of checks in sms.hpp, and the charge.
#include "common/billing/credits.hpp"
#include "e164.hpp"
#include "provider.hpp"
#include "segments.hpp"
#include "sms.hpp"

using platform::json;

int64_t Sms::price(const std::string& account, const std::string& number,
                   const std::string& channel, const std::string& text, std::string& what) const {
    if (channel == "whatsapp") {
        what = "to: a WhatsApp conversation with " + number;
        return messages_.conversation_open(account, number)
                   ? 0
                   : common::billing::price(host_, "sms_conversation",
                                            sms::kDefaultPricePerConversation);
    }
    const size_t parts = sms::count_segments(text).parts;
    what = "text: an SMS of " + std::to_string(parts) + " segment(s)";
    return static_cast<int64_t>(parts) *
           common::billing::price(host_, "sms_segment", sms::kDefaultPricePerSegment);
}

json Sms::deliver(const std::string& account, const std::string& number, const std::string& channel,
                  const std::string& text, const std::string& shown, const char* kind) {
    const sms::NumberState state = numbers_.state(number);
    if (state.stopped)
        throw platform::conflict("to: " + number +
                                 " replied STOP and gets no messages from this instance until it "
                                 "sends START");
    if (channel == "whatsapp" && host_.now_ms() - state.last_whatsapp >= sms::kDayMs)
        throw platform::conflict(
            "to: WhatsApp reaches only numbers that wrote in over WhatsApp within the last 24 "
            "hours, and " +
            number + " has not; send it an SMS instead");
    const sms::ProviderSettings settings = sms::provider_settings(host_);
    sms::require_sending(settings);
    if (!messages_.reserve_daily(account, daily_cap_))
        throw platform::Error(platform::Code::rate_limited,
                              "daily_cap: you sent " + std::to_string(daily_cap_) +
                                  " messages today, the most a day; try again after midnight UTC");
    std::string what;
    const int64_t credits = price(account, number, channel, text, what);
    sms::Accepted accepted;
    try {
        common::billing::require(host_, account, credits, what);
        accepted = sms::send_message(host_, settings, number, channel, text);
    } catch (...) {
        messages_.release_daily(account);
        throw;
    }
    if (channel == "whatsapp" && credits > 0) messages_.open_conversation(account, number);
    const sms::Segments seg = sms::count_segments(text);
    json kept = messages_.keep(account, {{"direction", "out"},
                                         {"channel", channel},
                                         {"number", number},
                                         {"text", shown},
                                         {"encoding", sms::encoding_name(seg.encoding)},
                                         {"segments", seg.parts},
                                         {"credits", credits},
                                         {"provider_sid", accepted.sid},
                                         {"status", accepted.status},
                                         {"kind", kind}});
    try {
        common::billing::charge(host_, account, credits);
    } catch (const platform::Error& e) {  // the message left: keep it, say so in the log
        host_.error("sms: charging " + account + " " + std::to_string(credits) +
                    " credit(s) for message " + kept.value("id", "") + " failed: " + e.what());
    }
    return kept;
}

json Sms::send(platform::Request& r) {
    const std::string& me = caller(r);
    const std::string text = r.str("text");
    return deliver(me, r.str("to"), r.str("channel", "sms"), text, text, "text");
}

json Sms::verify(platform::Request& r) {
    const std::string& me = caller(r);
    const std::string number = r.str("number"), code = r.str("code");
    if (!code.empty()) {
        codes_.check(me, number, code);
        numbers_.claim(number, me);
        return {{"number", number}, {"verified", true}};
    }
    const std::string fresh = codes_.start(me, number);
    const std::string text = "Your verification code is " + fresh + ". It expires in 10 minutes.";
    json kept;
    try {
        kept = deliver(me, number, "sms", text,
                       "Your verification code is ******. It expires in "
                       "10 minutes.",
                       "verification");
    } catch (...) {
        codes_.forget(me, number);
        throw;
    }
    return {{"number", number},
            {"sent", true},
            {"message_id", kept.value("id", "")},
            {"expires_at", platform::rfc3339(host_.now_ms() + sms::kCodeLifetimeMs)},
            {"tries", sms::kCodeTries}};
}
