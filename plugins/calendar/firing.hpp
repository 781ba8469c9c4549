// firing — what one due step does, acting for the event's owner through its grant
// (Host::call_granted: the owner's identity, token restrictions and payment). The answers land
// in the owner's inbox (agent threads are the inbox); a prompt's answer is also mailed to the
// owner when a mail service is loaded.
// Contracts relied on (plugins/agent):
//
//   agent/run  {prompt, title, channel, read_only, deliver} → {text, thread, steps, model};
//              metered (1 credit), 402 / 404 / 502 / 503 on failure
//   agent/post {text, title, channel} → {thread}: an assistant message in a new unread thread
//   auth/me    → {account: {metadata: {timezone}}}; absent on auth-noop (then UTC)
//   notify/devices → {notifiable}; notify/send {title, body}: a reminder or briefing that
//              reached the inbox is also pushed to the owner's devices when there are any
//   mail/post  {subject, body, from, thread} (internal): a letter into the owner's own mailbox
//
// The steps:
//   prepare  (advance set, at when − advance minutes) agent/run with read_only true and
//            deliver false: the prompt, else "Prepare a short briefing for: <title> <note>";
//            the text is kept on the event as `briefing`, nothing is delivered yet.
//   fire     (at when) with advance: agent/post {title "Briefing: <title>", text: the briefing}
//            — for recipient `user` and `agent` alike (see README); without a briefing for this
//            occurrence (its preparation failed) the plain reminder below instead.
//            With a prompt: agent/run {prompt, title: <title>, channel: "mail"} (a new unread
//            conversation holding the prompt and the answer), then the answer mailed to the owner:
//            mail/post {subject: <title>, body: the answer, from: "agent", thread: the
//            conversation} — free, into the owner's own mailbox, so a reply to that letter
//            (mail/send in_reply_to) continues the conversation. Without a mail service (404) the
//            inbox alone has it; a failed mail/post is logged and changes no outcome.
//            Otherwise a reminder: agent/post {title "Reminder: <title>", text "<title> — <the
//            occurrence in the owner's zone>\n<note>"}.
// A failure is the outcome's error ("agent/run: 402 <the host's message>"), recorded on the
// event; no text is ever made up in place of an answer.
#pragma once

#include <memory>
#include <platform/sdk.hpp>
#include <string>

#include "schedule.hpp"

namespace calendar {

struct Outcome {
    bool ok = false;
    std::string text;    // prepare: the report
    std::string error;   // when !ok: "<service>/<method>: <HTTP status> <message>"
    std::string thread;  // agent/run and agent/post: the conversation
};

// The zone in an auth/me answer (metadata.timezone), else UTC.
std::shared_ptr<const TimeZone> zone_from_me(const platform::Host::CallResult& me);

// "Monday 1 March 2027, 09:00 (Europe/London)": an instant on the zone's wall clock.
std::string local_time(int64_t utc_s, const TimeZone& zone);

class Firing {
public:
    explicit Firing(const platform::Host& host) : host_(host) {}

    // The owner's zone, asked of auth/me through the grant; UTC without an auth service.
    std::shared_ptr<const TimeZone> zone(const std::string& grant) const;
    Outcome prepare(const platform::json& event, const std::string& grant) const;
    Outcome fire(const platform::json& event, const std::string& grant, int64_t occurrence,
                 const TimeZone& zone) const;

    static constexpr int64_t kRunTimeoutMs = 120000;  // capped by the profile's max call timeout

private:
    Outcome call(const std::string& grant, const std::string& method,
                 const platform::json& body) const;
    Outcome remind(const platform::json& event, const std::string& grant, int64_t occurrence,
                   const TimeZone& zone) const;
    // agent/post {title, text}, then, when it worked, push().
    Outcome deliver(const std::string& grant, const std::string& title,
                    const std::string& text) const;
    // A prompt's step: agent/run on channel mail, then mail().
    Outcome answer(const platform::json& event, const std::string& grant) const;
    // mail/post of the answer into the owner's mailbox, best effort (see above).
    void mail(const std::string& grant, const std::string& title, const std::string& text,
              const std::string& thread) const;
    // The same reminder to the owner's devices: notify/devices, and notify/send {title (100
    // characters at most), body (300)} when it says `notifiable`. Best effort: the inbox already
    // has it, so a missing notify service or a failed push changes no outcome (a failure is logged).
    void push(const std::string& grant, const std::string& title, const std::string& text) const;
    platform::Host host_;
};

}  // namespace calendar
