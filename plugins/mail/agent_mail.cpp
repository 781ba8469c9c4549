#include "agent_mail.hpp"

#include <platform/sdk/random.hpp>

using platform::json;

namespace mail {

namespace {

// `text` cut to at most `n` bytes on a UTF-8 character boundary.
std::string cut(std::string text, size_t n) {
    if (text.size() <= n) return text;
    while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
    text.resize(n);
    return text;
}

bool starts_re(const std::string& s) {
    return s.size() >= 3 && platform::lower(s.substr(0, 3)) == "re:";
}

}  // namespace

std::optional<std::string> agent_named(const std::string& to, const std::string& domain) {
    std::string local = to;
    if (const size_t at = to.rfind('@'); at != std::string::npos) {
        if (domain.empty() || platform::lower(to.substr(at + 1)) != domain) return std::nullopt;
        local = to.substr(0, at);
    }
    local = platform::lower(local);
    if (local == "agent") return std::string();
    if (local.rfind("agent+", 0) == 0 && local.size() > 6) return local.substr(6);
    return std::nullopt;
}

AgentMail::AgentMail(const platform::Host& host, const Mailbox& box, const Outside& outside,
                     const Links& links)
    : host_(host),
      box_(box),
      outside_(outside),
      links_(links),
      work_(kMaxQueued, [h = host](const std::string& why) {
          h.warn("mail: the agent's answer failed: " + why);
      }) {}

void AgentMail::start() {
    work_.start();
}

void AgentMail::stop() {
    work_.stop();
}

void AgentMail::enqueue(Job job) {
    auto shared = std::make_shared<const Job>(std::move(job));
    auto revoke = [this, shared] {
        if (shared->revoke) host_.revoke_grant(shared->grant);
    };
    if (work_.push({[this, shared, revoke] {
                        try {
                            answer(*shared);
                        } catch (const std::exception& e) {
                            host_.warn("mail: the agent's answer to " + shared->account +
                                       " failed: " + e.what());
                        }
                        revoke();
                    },
                    revoke}))
        return;
    revoke();
    throw platform::unavailable("to: the agent has too many letters waiting; try again later");
}

void AgentMail::from_account(platform::Request& r, const std::string& agent,
                             const std::string& subject, const std::string& body,
                             const std::string& message_id, const std::string& thread) {
    if (!work_.has_room())
        throw platform::unavailable("to: the agent has too many letters waiting; try again later");
    std::string grant;
    try {
        grant = r.grant();
    } catch (const platform::Error& e) {
        throw platform::unavailable(std::string("to: the agent cannot act for you: ") + e.what());
    }
    enqueue({grant, r.account(), agent, subject, body, message_id, thread, "", true});
}

bool dkim_aligned(const std::string& result, const std::string& signer, const std::string& sender) {
    if (result != "pass" || signer.empty()) return false;
    const std::size_t at = sender.rfind('@');
    if (at == std::string::npos) return false;
    const std::string domain = platform::lower(sender.substr(at + 1)), d = platform::lower(signer);
    return domain == d || (domain.size() > d.size() &&
                           domain.compare(domain.size() - d.size(), d.size(), d) == 0 &&
                           domain[domain.size() - d.size() - 1] == '.');
}

void AgentMail::from_outside(const std::string& agent, const Incoming& in) {
    const std::string sender = in.from.empty() ? in.mail_from : in.from;
    const auto link = links_.find(sender);
    if (!link)
        throw platform::permission_denied(
            "Sorry: the agent answers mail only from an address an account of this instance "
            "has linked (mail/link)");
    if (in.via == "smtp" && !dkim_aligned(in.dkim, in.dkim_domain, sender))
        throw platform::permission_denied(
            "Sorry: the agent answers mail from a linked address only when it carries a DKIM "
            "signature of the address's own domain that verifies (this letter's: " +
            (in.dkim.empty() ? std::string("none") : in.dkim) +
            (in.dkim_domain.empty() ? std::string() : " for " + in.dkim_domain) + ")");
    std::string thread;
    if (!in.in_reply_to.empty()) thread = thread_of(link->account, in.in_reply_to).value_or("");
    enqueue({link->grant, link->account, agent, in.subject, in.body, in.message_id, thread,
             platform::lower(sender), false});
}

std::optional<std::string> AgentMail::thread_of(const std::string& account,
                                                const std::string& message_id) const {
    const auto rec = answers(account).get(message_id);
    if (!rec || !rec->is_object()) return std::nullopt;
    return rec->value("thread", "");
}

void AgentMail::answer(const Job& job) {
    const std::string prompt = job.body.empty() ? job.subject : job.subject + "\n\n" + job.body;
    json args = {{"prompt", cut(prompt, kMaxPromptBytes)},
                 {"channel", "mail"},
                 {"title", cut(job.subject, 200)}};
    if (!job.agent.empty()) args["agent"] = job.agent;
    if (!job.thread.empty()) args["thread"] = job.thread;
    std::string text, thread = job.thread;
    try {
        const auto r = host_.call_granted(job.grant, "agent", "run", args, kRunTimeoutMs);
        const json body = r.ok() ? json::parse(r.body, nullptr, false) : json();
        if (r.ok() && body.is_object() && body.contains("text") && body["text"].is_string()) {
            text = body["text"];
            thread = body.value("thread", thread);
        } else {
            text =
                "I could not answer: " + (r.ok() ? std::string("the reply had no text") : r.body);
        }
    } catch (const platform::Error& e) {
        text = std::string("I could not answer: ") + e.what();
    }
    if (text.empty()) text = "(no answer)";
    const std::string handle = job.agent.empty() ? "agent" : "agent+" + job.agent;
    const std::string subject =
        cut(starts_re(job.subject) ? job.subject : "Re: " + job.subject, 200);
    std::string message_id;
    if (job.reply_to.empty()) {
        const std::string domain = facts(host_).domain;
        message_id = platform::random_hex(16) + "@" + (domain.empty() ? "localhost" : domain);
        Incoming in;
        in.from = handle;
        in.to = job.account;
        in.subject = subject;
        in.body = text;
        in.via = "agent";
        in.message_id = message_id;
        in.in_reply_to = job.message_id;
        in.thread = thread;
        box_.deliver(job.account, in);
    } else {
        Letter letter;
        letter.to = job.reply_to;
        letter.subject = subject;
        letter.body = text;
        letter.date_ms = host_.now_ms();
        letter.in_reply_to = job.message_id;
        message_id = outside_.send(job.account, letter, handle);
    }
    if (!thread.empty()) answers(job.account).put(message_id, {{"thread", thread}});
}

}  // namespace mail
