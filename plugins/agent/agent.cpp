#include "agent.hpp"

#include <algorithm>

#include "agent_loop.hpp"
#include "local_time.hpp"
#include "threads.hpp"

namespace schema = platform::schema;

using platform::Access;
using platform::json;

namespace {

const schema::Object kAgentsConfigSchema =
    schema::object()
        .open()
        .array("agents", schema::object()
                             .open()
                             .str("name")
                             .pattern("^[a-z0-9-]{1,40}$")
                             .required()
                             .str("description")
                             .str("instructions")
                             .max_len(4000)
                             .array("services", schema::string()))
        .doc("Operator agents every account can ask")
        .integer("max_steps")
        .min(1)
        .max(20)
        .doc("Model completions per reply (default 6)")
        .integer("max_tokens")
        .min(16)
        .max(100000)
        .doc("Per completion (default 1024)")
        .integer("history")
        .min(0)
        .max(200)
        .doc("Earlier messages of the thread sent to the model (default 20)");

int config_int(const platform::Host& host, const char* key, int fallback, int lo, int hi) {
    const json v = host.config(key);
    return v.is_number_integer() ? std::clamp(v.get<int>(), lo, hi) : fallback;
}

}  // namespace

Agent::Agent(const platform::Host& host)
    : host_(host),
      agents_(host),
      max_steps_(config_int(host, "max_steps", 6, 1, 20)),
      max_tokens_(config_int(host, "max_tokens", 1024, 16, 100000)),
      history_(config_int(host, "history", 20, 0, 200)) {}

namespace {

// What create and update take; create needs the instructions too.
schema::Object agent_fields(bool creating) {
    const auto name = schema::string().pattern("^[a-z0-9-]{1,40}$");
    auto fields = schema::object()
                      .prop("name", name)
                      .required()
                      .doc("The agent's name")
                      .str("description")
                      .max_len(200)
                      .doc("One line about it")
                      .str("instructions")
                      .max_len(4000);
    if (creating) fields.required();
    return fields.doc("What it is for and how it works")
        .array("services", name)
        .max_items(50)
        .unique()
        .doc("Short service names (notes, tasks...)");
}

// What ask and stream take.
schema::Object ask_arguments() {
    return schema::object()
        .prop("prompt", schema::prompt("What to ask"))
        .required()
        .str("agent")
        .max_len(100)
        .doc("The agent to ask (agent/list); default: the default agent")
        .str("thread")
        .max_len(100)
        .doc("An owned conversation id (an earlier answer's `thread`) to continue");
}

}  // namespace

void Agent::describe(platform::ServiceSpec<Agent>& s) {
    s.id("agent")
        .version("1.0.0")
        .service("v1.agent")
        .summary("The hosted assistant: ask an agent, list agents");
    s.config_schema(kAgentsConfigSchema);
    s.post("ask")
        .title("Ask an agent")
        .description(
            "Sends a prompt (at most " + std::to_string(schema::kPromptMaxBytes) +
            " bytes) to an agent — the default one unless `agent` names "
            "another (agent/list) — which may use your tools to act on your data, and answers its "
            "reply `text` and the saved conversation's id `thread`. Send `thread` back to continue "
            "that conversation; omit it to start a new one. Costs 1 credit (allowance first).")
        .schema(ask_arguments())
        .access(Access::account)
        .metered(kPrice)
        .max_body(64 * 1024)
        .http_path("/agent/{agent=**}")
        .handler(&Agent::ask);
    s.post("stream")
        .title("Ask an agent, step by step")
        .description(
            "Ask as a stream (Server-Sent Events over HTTP with Accept: text/event-stream): the "
            "same "
            "arguments, checks, errors and price as agent/ask. One chunk "
            "{\"type\":\"step\",\"tool\",\"arguments\",\"outcome\":\"ok\"|\"error\","
            "\"seconds\",\"error\"?} as each tool call of the agent finishes, then "
            "{\"type\":\"reply\",\"text\",\"thread\"}. Errors found before the first chunk "
            "(400, 402, 404, 503) are ordinary errors; a failure after it is the stream's error "
            "event, and nothing is saved or charged.")
        .schema(ask_arguments())
        .access(Access::account)
        .metered(kPrice)
        .max_body(64 * 1024)
        .streaming()
        .withheld_from_agent()  // a model gets the whole answer from agent/ask
        .async(&Agent::stream);
    s.get("list")
        .title("List agents")
        .description(
            "The agents you can ask: the default agent, the operator's and your own, each with its "
            "name, description, the services it may use (empty: all of yours) and its kind.")
        .access(Access::account)
        .read_only()
        .http_path("/agents")
        .handler(&Agent::list);
    s.post("create")
        .title("Create an agent")
        .description(
            "Extension: creates an agent of your own — a name (lowercase letters, digits, '-', at "
            "most "
            "40), instructions (at most 4000 characters) that open its system prompt, and the "
            "services whose tools it may use (empty: all of yours). A name in use is 409.")
        .schema(agent_fields(true))
        .access(Access::account)
        .handler(&Agent::create);
    s.post("update")
        .title("Change an agent")
        .description("Extension: changes one of your own agents; omitted fields keep their value.")
        .schema(agent_fields(false))
        .access(Access::account)
        .idempotent()
        .handler(&Agent::update);
    s.post("delete")
        .title("Delete an agent")
        .description("Extension: deletes one of your own agents; its conversations stay.")
        .schema(schema::object()
                    .str("name")
                    .pattern("^[a-z0-9-]{1,40}$")
                    .required()
                    .doc("The agent's name"))
        .access(Access::account)
        .destructive()
        .action()
        .idempotent()
        .handler(&Agent::remove);
    s.get("prompts")
        .title("List agents as MCP prompts")
        .description("MCP prompts/list: one prompt agent_<name> per agent you can ask.")
        .schema(schema::object().open().prop("cursor", schema::cursor()))
        .access(Access::account)
        .read_only()
        .mcp_prompts()
        .handler(&Agent::prompts);
    s.post("prompt")
        .title("Get an agent as an MCP prompt")
        .description(
            "MCP prompts/get of agent_<name>: its instructions as a user message, followed by "
            "`request` when given; 404 for another name.")
        .schema(schema::object()
                    .open()
                    .str("name")
                    .required()
                    .doc("agent_<name>")
                    .prop("arguments", schema::map_of(schema::string())))
        .access(Access::account)
        .read_only()
        .mcp_prompt_get()
        .handler(&Agent::prompt);
    describe_internal(s);
}

std::string Agent::channel(const platform::Request& r) {
    const std::string c = platform::lower(r.header("X-Platform-Client"));
    return c == "mail" || c == "cli" ? c : "web";
}

Agent::Turn Agent::asked(const platform::Request& r) {
    Turn turn;
    turn.prompt = r.str("prompt");
    turn.agent = r.str("agent");
    turn.thread = r.str("thread");
    turn.channel = channel(r);
    return turn;
}

json Agent::ask(platform::Request& r) {
    const Answer a = reply(r, asked(r));
    return {{"text", a.text}, {"thread", a.thread}};
}

namespace {
struct ClientLeft {};  // a chunk was refused: the call is over, the host has abandoned it
}  // namespace

// ask, with each step sent as it finishes. Until the first chunk an error is the call's answer
// (the host sends it as a plain HTTP error); after it, the stream's error event. A client that
// leaves stops the reply at the next step (the host has abandoned the call, so its tool calls
// could not run as the caller any more): nothing is saved nor charged.
void Agent::stream(platform::Request& r, platform::Responder out) {
    try {
        const Answer a = reply(r, asked(r), [&out](const json& step) {
            json chunk = step;
            chunk["type"] = "step";
            if (!out.chunk(chunk)) throw ClientLeft{};
        });
        out.chunk(json{{"type", "reply"}, {"text", a.text}, {"thread", a.thread}});
    } catch (const ClientLeft&) {
        return;
    } catch (const platform::Error& e) {
        return out.end(e.code(), e.what());
    } catch (const std::exception& e) {
        return out.end(platform::Code::internal, e.what());
    }
    out.end();
}

Agent::Answer Agent::reply(platform::Request& r, const Turn& turn, const StepFn& on_step) {
    const std::string& prompt = turn.prompt;
    // Not empty and at most schema::kPromptMaxBytes: the ask and run schemas say so.
    if (r.anonymous()) throw platform::unauthenticated("this method needs an account");
    agent::Threads threads(r);
    std::string id = turn.thread, name = turn.agent;
    std::vector<json> history;
    if (!id.empty()) {
        const json header = threads.open(id);
        const std::string earlier =
            header.value("agent", "");  // the thread's agent, while it exists
        if (name.empty() && !earlier.empty() && agents_.find(r, earlier)) name = earlier;
        if (history_ > 0) history = threads.messages(id, static_cast<size_t>(history_));
    }
    if (name.empty()) name = agent::kDefaultAgent;
    auto chosen = agents_.find(r, name);
    if (!chosen)
        throw platform::not_found("agent: no such agent '" + name + "' (agent/list names them)");

    agent::LoopInput in;
    in.agent = *chosen;
    in.prompt = prompt;
    in.history = std::move(history);
    in.time = agent::local_time(agent::caller_zone(r), host_.now_ms());
    in.max_steps = max_steps_;
    in.max_tokens = max_tokens_;
    in.read_only = turn.read_only;
    in.on_step = on_step;
    agent::LoopResult out = agent::run_loop(r, in);
    Answer answer{out.text, id, out.model, out.steps};
    if (!turn.deliver) return answer;

    const std::string& via = turn.channel;
    if (id.empty()) id = threads.new_id(prompt, host_.now_ms());
    json user = {{"role", "user"}, {"text", prompt}, {"channel", via}, {"agent", chosen->name}};
    json said = {{"role", "assistant"},
                 {"text", out.text},
                 {"channel", via},
                 {"agent", chosen->name},
                 {"steps", out.steps}};
    if (!out.model.empty()) said["model"] = out.model;
    const std::string title = agent::excerpt(turn.title.empty() ? prompt : turn.title, 80);
    const json fresh = {{"title", title}, {"channel", via}, {"agent", chosen->name}};
    threads.append(id, fresh, {user, said}, 1, host_.now_ms());
    answer.thread = id;
    return answer;
}

json Agent::list(platform::Request& r) {
    json out = json::array();
    for (const auto& a : agents_.all(r)) out.push_back(a.to_json());
    return {{"agents", out}, {"default", agent::kDefaultAgent}};
}

PLATFORM_SERVICE(Agent)
