#include "agent_reply.hpp"

#include "rooms.hpp"

using platform::json;

namespace chat {

AgentReply::AgentReply(const platform::Host& host, History& history)
    : host_(host), history_(history), work_(kMaxQueued, [h = host](const std::string& why) {
          h.warn("chat: an agent's answer failed: " + why);
      }) {}

void AgentReply::start() {
    work_.start();
}

void AgentReply::stop() {
    work_.stop();
}

std::optional<std::string> AgentReply::agent_named(platform::Request& r,
                                                   const std::string& word) const {
    try {
        const auto listed = host_.call("agent", "list", json::object(), r.call());
        if (!listed.ok()) return std::nullopt;
        const json body = json::parse(listed.body, nullptr, false);
        if (!body.is_object()) return std::nullopt;
        if (word == "agent") return body.value("default", std::string("assistant"));
        for (const auto& a : body.value("agents", json::array()))
            if (a.is_object() && a.value("name", "") == word) return word;
    } catch (const platform::Error&) {  // no agent service
    }
    return std::nullopt;
}

std::string AgentReply::consider(platform::Request& r, const std::string& room,
                                 const std::string& text) {
    const auto mention = mention_of(text);
    if (!mention) return "";
    const auto agent = agent_named(r, mention->name);
    if (!agent) return "";
    if (!work_.has_room()) return "";
    std::string grant;
    try {
        grant = r.grant();
    } catch (const platform::Error& e) {
        host_.warn(std::string("chat: no grant to ask ") + *agent + ": " + e.what());
        return "";
    }
    auto job = std::make_shared<const Job>(Job{grant, *agent, room, mention->prompt});
    auto revoke = [this, job] { host_.revoke_grant(job->grant); };
    const bool queued =
        work_.push({[this, job, revoke] {
                        try {
                            answer(*job);
                        } catch (const std::exception& e) {
                            host_.warn(std::string("chat: the answer of ") + job->agent + " in " +
                                       job->room + " failed: " + e.what());
                        }
                        revoke();
                    },
                    revoke});
    if (!queued) revoke();  // stopped or filled meanwhile
    return *agent;
}

void AgentReply::answer(const Job& job) {
    std::string text;
    try {
        const auto r = host_.call_granted(job.grant, "agent", "run",
                                          {{"prompt", job.prompt},
                                           {"agent", job.agent},
                                           {"channel", "web"},
                                           {"read_only", true},
                                           {"deliver", false}},
                                          kRunTimeoutMs);
        const json body = r.ok() ? json::parse(r.body, nullptr, false) : json();
        if (r.ok() && body.is_object() && body.contains("text") && body["text"].is_string())
            text = body["text"];
        else
            text =
                "I could not answer: " + (r.ok() ? std::string("the reply had no text") : r.body);
    } catch (const platform::Error& e) {
        text = std::string("I could not answer: ") + e.what();
    }
    if (text.empty()) text = "(no answer)";
    if (text.size() > kMaxAnswerBytes) {  // cut on a UTF-8 character boundary
        size_t n = kMaxAnswerBytes;
        while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
        text.resize(n);
    }
    history_.post(job.room, job.agent, text, true, "");
}

}  // namespace chat
