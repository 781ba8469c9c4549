// agent_reply — answers "@agent ..." and "@<agent name> ..." messages in their room.
//
// send() hands each message to consider(): when it starts with a mention (rooms.hpp mention_of)
// of an agent the sender may ask (agent/list, asked as the sender; "@agent" is the default
// agent), it takes a grant to act for the sender (Request::grant) and queues a job; send answers
// at once. One thread per plugin instance, started by start() and joined by stop(), runs the jobs
// in order: agent/run through the grant (the sender's identity, limits and credit; read_only, so
// the agent uses no tool that changes anything, and deliver false, so nothing goes to the
// sender's conversations), then posts the reply in the room as a message from the agent's name
// with `agent: true` — or, when the agent failed, a message saying why. The grant is revoked
// after its job, and for jobs still queued at stop() (those are not answered).
#pragma once

#include <cstdint>
#include <optional>
#include <platform/sdk.hpp>
#include <string>

#include "common/work_queue/work_queue.hpp"
#include "history.hpp"

namespace chat {

class AgentReply {
public:
    AgentReply(const platform::Host& host, History& history);
    ~AgentReply() { stop(); }
    AgentReply(const AgentReply&) = delete;
    AgentReply& operator=(const AgentReply&) = delete;

    void start();
    void stop();

    // Queues an answer to `text`, sent by the caller of `r` to `room`, when it mentions an agent
    // the caller may ask; returns that agent's name, or "" (no mention, no such agent, no grant,
    // or kMaxQueued jobs waiting).
    std::string consider(platform::Request& r, const std::string& room, const std::string& text);

    static constexpr size_t kMaxQueued = 64;
    static constexpr int64_t kRunTimeoutMs = 120000;
    static constexpr size_t kMaxAnswerBytes = 16000;  // a longer reply is cut

private:
    struct Job {
        std::string grant, agent, room, prompt;
    };
    // The agent `word` names for the caller (the default agent for "agent"), or nullopt.
    std::optional<std::string> agent_named(platform::Request& r, const std::string& word) const;
    void answer(const Job& job);

    platform::Host host_;
    History& history_;
    common::WorkQueue work_;
};

}  // namespace chat
