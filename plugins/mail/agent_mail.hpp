// agent_mail — letters to the agent: `agent` and `agent+<name>` (a named agent), as a handle or
// as agent[+name]@<domain>, run through the agent, and the answer comes back as a letter.
//
// Who the run acts for:
//   - a local sender (mail/send as an account): that account. send() takes a grant for the caller
//     (Request::grant) and queues the job; send answers at once with the sender's copy.
//   - a letter from outside (the SMTP listener's delivery, Incoming.via "smtp"): the account that
//     linked the sender's address (the From header's, else the envelope's; links.hpp), through
//     the grant kept with the link — and only when the letter's DKIM signature verified for the
//     sender's own domain (dkim_aligned: a forged From fails it, as does an unsigned letter). Otherwise
//     from_outside() throws permission_denied with a polite reason, which the listener gives back
//     as its SMTP refusal: no agent run, nothing charged, no letter sent back (no backscatter).
//
// A job, on the one worker thread (start()/stop(); at most kMaxQueued waiting, 503 beyond):
//   agent/run through the grant {prompt: subject + "\n\n" + body (the subject alone for an empty
//   body; cut to 8000 bytes), agent: the name (omitted for `agent`: the default), thread: the
//   conversation a reply continues, channel: "mail", title: the subject}; metered as any run
//   (1 credit, the account's). The conversation
//   is in the account's inbox with channel `mail`.
//   The answer — the agent's text, or "I could not answer: <why>" when the run failed — goes back
//   as a letter from agent[+name] with subject "Re: <subject>" (no second "Re:"), In-Reply-To the
//   letter's Message-ID, and the conversation's id as its `thread`:
//     local sender: filed in its mailbox (free; via "agent");
//     outside sender: relayed to the sender's address from agent[+name]@<domain> (outside.hpp;
//     charged to the linked account like any outside letter).
//   Its Message-ID is remembered (answers/<account>/<message-id> -> {thread}), so a letter
//   answering it — mail/send with `in_reply_to` naming the answer, or an outside letter whose
//   In-Reply-To names it — continues the same conversation.
// Grants taken per letter are revoked after the job (and for jobs still queued at stop(); those
// are not answered); a link's grant stays with the link.
#pragma once

#include <optional>
#include <platform/sdk.hpp>
#include <string>

#include "common/work_queue/work_queue.hpp"
#include "links.hpp"
#include "mailbox.hpp"
#include "outside.hpp"

namespace mail {

// Whether a DKIM `result` ("pass", "fail", "none") by `signer` (the signature's d= domain) vouches
// for `sender`: it passed, and the signer is the address's domain or a parent of it (DMARC's
// relaxed alignment: news.example.org is vouched for by example.org, never the other way).
bool dkim_aligned(const std::string& result, const std::string& signer, const std::string& sender);

// The agent `to` names — "" for the default agent (`agent`), the name for `agent+<name>` — when
// `to` is agent[+name] or agent[+name]@<domain>; nullopt otherwise. `domain` "" matches no address.
std::optional<std::string> agent_named(const std::string& to, const std::string& domain);

class AgentMail {
public:
    AgentMail(const platform::Host& host, const Mailbox& box, const Outside& outside,
              const Links& links);
    ~AgentMail() { stop(); }
    AgentMail(const AgentMail&) = delete;
    AgentMail& operator=(const AgentMail&) = delete;

    void start();
    void stop();

    // The caller's letter to `agent` ("" = default): queued to run as the caller. `thread`
    // continues a conversation ("" = a new one); `message_id` is the letter's. Throws
    // unavailable when the queue is full or the host gives no grant.
    void from_account(platform::Request& r, const std::string& agent, const std::string& subject,
                      const std::string& body, const std::string& message_id,
                      const std::string& thread);

    // A letter from outside to `agent` ("" = default), as the SMTP listener delivers it: queued
    // to run as the account that linked its sender, or permission_denied (see above).
    void from_outside(const std::string& agent, const Incoming& in);

    // The conversation the answer with Message-ID `message_id` (sent to `account`) belongs to.
    std::optional<std::string> thread_of(const std::string& account,
                                         const std::string& message_id) const;

    static constexpr size_t kMaxQueued = 64;
    static constexpr int64_t kRunTimeoutMs = 120000;
    static constexpr size_t kMaxPromptBytes = 8000;

private:
    struct Job {
        std::string grant, account, agent, subject, body, message_id, thread;
        std::string reply_to;  // outside: the sender's address; "" = the account's mailbox
        bool revoke = true;    // a per-letter grant (not a link's)
    };
    // Queues `job` on work_; throws unavailable (its grant revoked) when the queue is full.
    void enqueue(Job job);
    void answer(const Job& job);
    platform::Collection answers(const std::string& account) const {
        return platform::Collection(host_.store(), "answers", account);
    }

    platform::Host host_;
    const Mailbox& box_;
    const Outside& outside_;
    const Links& links_;
    common::WorkQueue work_;
};

}  // namespace mail
