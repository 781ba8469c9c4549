#include "agent.hpp"

#include <algorithm>

#include "agent_loop.hpp"
#include "local_time.hpp"
#include "threads.hpp"

using platform::Access;
using platform::json;

namespace {

constexpr const char* kAgentsConfigSchema = R"json({
  "type": "object",
  "properties": {
    "agents": {"type": "array", "description": "Operator agents every account can ask", "items": {
      "type": "object",
      "properties": {
        "name": {"type": "string", "pattern": "^[a-z0-9-]{1,40}$"},
        "description": {"type": "string"},
        "instructions": {"type": "string", "maxLength": 4000},
        "services": {"type": "array", "items": {"type": "string"}}},
      "required": ["name"]}},
    "max_steps": {"type": "integer", "minimum": 1, "maximum": 20, "description": "Model completions per reply (default 6)"},
    "max_tokens": {"type": "integer", "minimum": 16, "maximum": 100000, "description": "Per completion (default 1024)"},
    "history": {"type": "integer", "minimum": 0, "maximum": 200, "description": "Earlier messages of the thread sent to the model (default 20)"}
  }
})json";

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

void Agent::describe(platform::ServiceSpec<Agent>& s) {
    s.id("agent")
        .version("1.0.0")
        .service("v1.agent")
        .summary("The hosted assistant: ask an agent, list agents");
    s.config_schema(kAgentsConfigSchema);
    s.post("ask")
        .title("Ask an agent")
        .description(
            "Sends a prompt (at most 8000 bytes) to an agent — the default one unless `agent` "
            "names "
            "another (agent/list) — which may use your tools to act on your data, and answers its "
            "reply `text` and the saved conversation's id `thread`. Send `thread` back to continue "
            "that conversation; omit it to start a new one. Costs 1 credit (allowance first).")
        .schema(R"json({
          "type": "object",
          "properties": {
            "prompt": {"type": "string", "minLength": 1, "description": "What to ask, at most 8000 bytes"},
            "agent": {"type": "string", "maxLength": 100, "description": "The agent to ask (agent/list); default: the default agent"},
            "thread": {"type": "string", "maxLength": 100, "description": "An owned conversation id (an earlier answer's `thread`) to continue"}
          },
          "required": ["prompt"],
          "additionalProperties": false
        })json")
        .access(Access::account)
        .metered(kPrice)
        .max_body(64 * 1024)
        .http_path("/agent/{agent=**}")
        .handler(&Agent::ask);
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
        .schema(R"json({
          "type": "object",
          "properties": {
            "name": {"type": "string", "pattern": "^[a-z0-9-]{1,40}$", "description": "The agent's name"},
            "description": {"type": "string", "maxLength": 200, "description": "One line about it"},
            "instructions": {"type": "string", "maxLength": 4000, "description": "What it is for and how it works"},
            "services": {"type": "array", "maxItems": 50, "uniqueItems": true, "description": "Short service names (notes, tasks...)",
                         "items": {"type": "string", "pattern": "^[a-z0-9-]{1,40}$"}}
          },
          "required": ["name", "instructions"],
          "additionalProperties": false
        })json")
        .access(Access::account)
        .handler(&Agent::create);
    s.post("update")
        .title("Change an agent")
        .description("Extension: changes one of your own agents; omitted fields keep their value.")
        .schema(R"json({
          "type": "object",
          "properties": {
            "name": {"type": "string", "pattern": "^[a-z0-9-]{1,40}$", "description": "The agent's name"},
            "description": {"type": "string", "maxLength": 200, "description": "One line about it"},
            "instructions": {"type": "string", "maxLength": 4000, "description": "What it is for and how it works"},
            "services": {"type": "array", "maxItems": 50, "uniqueItems": true, "description": "Short service names (notes, tasks...)",
                         "items": {"type": "string", "pattern": "^[a-z0-9-]{1,40}$"}}
          },
          "required": ["name"],
          "additionalProperties": false
        })json")
        .access(Access::account)
        .idempotent()
        .handler(&Agent::update);
    s.post("delete")
        .title("Delete an agent")
        .description("Extension: deletes one of your own agents; its conversations stay.")
        .schema(R"json({"type": "object", "properties": {
          "name": {"type": "string", "pattern": "^[a-z0-9-]{1,40}$", "description": "The agent's name"}},
          "required": ["name"], "additionalProperties": false})json")
        .access(Access::account)
        .destructive()
        .action()
        .idempotent()
        .handler(&Agent::remove);
    s.get("prompts")
        .title("List agents as MCP prompts")
        .description("MCP prompts/list: one prompt agent_<name> per agent you can ask.")
        .schema(R"json({"type": "object", "properties": {
          "cursor": {"type": "string", "description": "Pagination cursor (one page: ignored)"}}})json")
        .access(Access::account)
        .read_only()
        .mcp_prompts()
        .handler(&Agent::prompts);
    s.post("prompt")
        .title("Get an agent as an MCP prompt")
        .description(
            "MCP prompts/get of agent_<name>: its instructions as a user message, followed by "
            "`request` when given; 404 for another name.")
        .schema(R"json({"type": "object", "properties": {
          "name": {"type": "string", "description": "agent_<name>"},
          "arguments": {"type": "object", "additionalProperties": {"type": "string"}}},
          "required": ["name"]})json")
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

json Agent::ask(platform::Request& r) {
    Turn turn;
    turn.prompt = r.str("prompt");
    turn.agent = r.str("agent");
    turn.thread = r.str("thread");
    turn.channel = channel(r);
    const Answer a = reply(r, turn);
    return {{"text", a.text}, {"thread", a.thread}};
}

Agent::Answer Agent::reply(platform::Request& r, const Turn& turn) {
    const std::string& prompt = turn.prompt;
    if (prompt.size() > kMaxPromptBytes)
        throw platform::invalid_argument("prompt: at most 8000 bytes");
    if (prompt.empty()) throw platform::invalid_argument("prompt: must not be empty");
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
