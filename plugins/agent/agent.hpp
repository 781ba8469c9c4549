// agent — the hosted assistant's agent service `v1.agent` (README.md; docs/decisions.md 28): ask
// an agent (a reply and the saved conversation), list the agents, and, beyond the hosted-assistant
// API, manage the caller's own agents; named agents are also MCP prompts.
//
//   ask     POST /api/v1/agent/ask {prompt*, agent, thread} -> {text, thread}; also surface A:
//           POST /agent and POST /agent/<name> (http_path /agent/{agent=**}: an empty match is
//           the default agent). Metered (kPrice credits): the host draws allowance then credit.
//   stream  POST /api/v1/agent/stream {prompt*, agent, thread}: ask as a stream, one
//           {"type":"step",...} chunk as each tool call finishes, then {"type":"reply",text,thread};
//           the same checks, errors (before the first chunk: plain HTTP errors) and metering.
//   list    GET (or POST) /api/v1/agent/list, GET /agents -> {agents: [...], default}
//   create, update, delete (extensions): the caller's own agents
//   prompts, prompt: MCP prompts/list and prompts/get (one prompt "agent_<name>" per agent)
//
// Internal endpoints (PLATFORM_FLAG_INTERNAL: only other plugins reach them, through Host::call
// as the caller or Host::call_granted; agent_internal.cpp) for work, inbox, recall and events:
//   run       POST {prompt*, agent, thread, channel, title, read_only, deliver} ->
//             {text, thread, steps, model}; metered like ask (ask is run with deliver and the
//             caller's X-Platform-Client channel)
//   post      POST {text*, title, thread, channel} -> {thread}: an assistant message, no model
//   threads   GET  {limit (1-100, 20), offset, channel} -> {threads: [header...]}
//   messages  GET  {id*, limit (0 = all)} -> {thread: header, messages: [...]}
//   mark      POST {id*, unread*} -> header
//
// The reply loop is agent_loop.hpp; conversations are threads.hpp; agents are agents.hpp.
// Plugin config: `agents` (operator agents), `max_steps` (1-20, default 6), `max_tokens`
// (default 1024), `history` (messages of the thread sent to the model, default 20).
#pragma once

#include <functional>
#include <platform/sdk.hpp>
#include <string>

#include "agents.hpp"

class Agent {
public:
    static void describe(platform::ServiceSpec<Agent>& s);
    explicit Agent(const platform::Host& host);

    platform::json ask(platform::Request& r);
    void stream(platform::Request& r, platform::Responder out);
    platform::json list(platform::Request& r);
    platform::json create(platform::Request& r);
    platform::json update(platform::Request& r);
    platform::json remove(platform::Request& r);
    platform::json prompts(platform::Request& r);
    platform::json prompt(platform::Request& r);
    // Internal (agent_internal.cpp).
    platform::json run(platform::Request& r);
    platform::json post(platform::Request& r);
    platform::json threads(platform::Request& r);
    platform::json messages(platform::Request& r);
    platform::json mark(platform::Request& r);

    static constexpr size_t kMaxInstructions = 4000;  // characters
    // Credits per ask (and run). Fixed in the descriptor: the host reads an endpoint's price when it loads
    // the plugin, before the plugin's config is known (abi.h, platform_plugin_entry_fn).
    static constexpr uint64_t kPrice = 1;

    // The channel of the call: header X-Platform-Client (web, mail, cli), else web.
    static std::string channel(const platform::Request& r);
    // Called with each step record as its tool call finishes (agent_loop.hpp, LoopInput::on_step).
    using StepFn = std::function<void(const platform::json& step)>;

    // One prompt to an agent: what ask and run share.
    struct Turn {
        std::string prompt, agent, thread;  // agent, thread: empty = default / a new thread
        std::string channel = "web";        // where the prompt came from (web, mail, cli)
        std::string title;                  // a new thread's title; empty = the prompt's first line
        bool read_only = false;             // only tools whose endpoints are read-only
        bool deliver = true;                // false: nothing is saved to any thread
    };
    struct Answer {
        std::string text, thread,
            model;  // thread: the saved one; when not delivered, the given one
        platform::json steps = platform::json::array();
    };
    // Checks the prompt (400), the thread (404 unless the caller's) and the agent (404), runs
    // the reply loop as the caller and, when delivering, appends the prompt and the reply to the
    // thread (created when absent; unread + 1). Nothing is saved when the loop fails.
    // `on_step`, when given, sees each step as it finishes (agent/stream).
    Answer reply(platform::Request& r, const Turn& turn, const StepFn& on_step = {});

private:
    static void describe_internal(platform::ServiceSpec<Agent>& s);
    // What ask and stream take from a call: prompt, agent, thread, the X-Platform-Client channel.
    static Turn asked(const platform::Request& r);

    platform::Host host_;
    agent::Agents agents_;
    int max_steps_ = 6, max_tokens_ = 1024, history_ = 20;
};
