// The agent's internal endpoints (PLATFORM_FLAG_INTERNAL: reached only by other plugins, as the
// caller through Host::call or for a grant through Host::call_granted; 404 from outside): run a
// prompt with delivery options, post a message, and read and mark the caller's conversations for
// work, inbox, recall and events. The contract is in agent.hpp and README.md.
#include "agent.hpp"
#include "threads.hpp"

namespace schema = platform::schema;

using platform::Access;
using platform::json;

namespace {

constexpr size_t kMaxPostBytes = 100000;
constexpr int64_t kMaxOffset = 100000;

bool flag(const platform::Request& r, const std::string& name, bool fallback) {
    const auto it = r.args().find(name);
    if (it == r.args().end() || it->is_null()) return fallback;
    if (!it->is_boolean()) throw platform::invalid_argument(name + ": must be true or false");
    return it->get<bool>();
}

// The `channel` argument: web, mail or cli; `fallback` when absent.
std::string channel_arg(const platform::Request& r, const std::string& fallback) {
    const std::string c = r.str("channel");
    if (c.empty()) return fallback;
    if (c != "web" && c != "mail" && c != "cli")
        throw platform::invalid_argument("channel: one of web, mail, cli");
    return c;
}

// A stored record without its millisecond fields (created_ms, updated_ms, at_ms).
json shown(json record) {
    for (const char* key : {"created_ms", "updated_ms", "at_ms"}) record.erase(key);
    return record;
}

schema::Value channel_schema() {
    return schema::string().one_of({"web", "mail", "cli"}).doc("web, mail or cli");
}

}  // namespace

void Agent::describe_internal(platform::ServiceSpec<Agent>& s) {
    s.post("run")
        .title("Run an agent (internal)")
        .description(
            "Internal: ask as the caller with delivery options; answers the reply, the thread and "
            "the steps.")
        .schema(schema::object()
                    .prop("prompt", schema::prompt("What to ask"))
                    .required()
                    .str("agent")
                    .max_len(100)
                    .doc("The agent to ask; default: the default agent")
                    .str("thread")
                    .max_len(100)
                    .doc("An owned conversation to continue")
                    .str("title")
                    .max_len(200)
                    .doc("A new thread's title")
                    .boolean("read_only")
                    .def(false)
                    .doc("Only read-only tools")
                    .boolean("deliver")
                    .def(true)
                    .doc("false: save nothing to any thread")
                    .prop("channel", channel_schema()))
        .access(Access::account)
        .metered(kPrice)
        .max_body(64 * 1024)
        .internal()
        .handler(&Agent::run);
    s.post("post")
        .title("Post to a conversation (internal)")
        .description(
            "Internal: appends an assistant message (no model) to a thread, or to a new one; "
            "unread + 1.")
        .schema(schema::object()
                    .str("text")
                    .min_len(1)
                    .max_bytes(kMaxPostBytes)
                    .required()
                    .doc("The message, at most 100000 bytes")
                    .str("title")
                    .max_len(200)
                    .doc("A new thread's title")
                    .str("thread")
                    .max_len(100)
                    .doc("An owned conversation")
                    .prop("channel", channel_schema()))
        .access(Access::account)
        .max_body(256 * 1024)
        .internal()
        .handler(&Agent::post);
    s.get("threads")
        .title("List conversations (internal)")
        .description("Internal: the caller's conversation headers, most recently active first.")
        .schema(schema::object()
                    .prop("limit", schema::limit(100, 20, "At most this many"))
                    .prop("offset", schema::offset("Skip this many"))
                    .max(kMaxOffset)
                    .prop("channel", channel_schema()))
        .access(Access::account)
        .read_only()
        .internal()
        .handler(&Agent::threads);
    s.get("messages")
        .title("Read a conversation (internal)")
        .description("Internal: a thread's header and its latest messages, oldest first.")
        .schema(schema::object()
                    .prop("id", schema::id("An owned conversation id", 100))
                    .min_len(1)
                    .required()
                    .integer("limit")
                    .min(0)
                    .max(1000)
                    .def(0)
                    .doc("The latest this many; 0: all"))
        .access(Access::account)
        .read_only()
        .internal()
        .handler(&Agent::messages);
    s.post("mark")
        .title("Mark a conversation (internal)")
        .description(
            "Internal: sets a thread's unread count to 1 (unread) or 0 (read); answers the header.")
        .schema(schema::object()
                    .prop("id", schema::id("An owned conversation id", 100))
                    .min_len(1)
                    .required()
                    .boolean("unread")
                    .required()
                    .doc("true: unread; false: read"))
        .access(Access::account)
        .idempotent()
        .internal()
        .handler(&Agent::mark);
}

json Agent::run(platform::Request& r) {
    Turn turn;
    turn.prompt = r.str("prompt");
    turn.agent = r.str("agent");
    turn.thread = r.str("thread");
    turn.channel = channel_arg(r, "web");
    turn.title = r.str("title");
    turn.read_only = flag(r, "read_only", false);
    turn.deliver = flag(r, "deliver", true);
    const Answer a = reply(r, turn);
    return {{"text", a.text}, {"thread", a.thread}, {"steps", a.steps}, {"model", a.model}};
}

json Agent::post(platform::Request& r) {
    const std::string text = r.str("text");
    // Not empty and at most kMaxPostBytes: the schema says so.
    const std::string via = channel_arg(r, "web"), title = r.str("title");
    agent::Threads threads(r);
    std::string id = r.str("thread"), name = agent::kDefaultAgent;
    if (!id.empty()) name = threads.open(id).value("agent", name);
    const int64_t now = host_.now_ms();
    if (id.empty()) id = threads.new_id(title.empty() ? text : title, now);
    json said = {{"role", "assistant"},
                 {"text", text},
                 {"channel", via},
                 {"agent", name},
                 {"steps", json::array()}};
    const json fresh = {{"title", agent::excerpt(title.empty() ? text : title, 80)},
                        {"channel", via},
                        {"agent", name}};
    threads.append(id, fresh, {said}, 1, now);
    return {{"thread", id}};
}

json Agent::threads(platform::Request& r) {
    const int64_t limit = r.integer("limit"), offset = r.integer("offset");
    const std::string via = channel_arg(r, "");
    auto headers = agent::Threads(r).recent(static_cast<size_t>(limit + offset), via);
    json out = json::array();
    for (size_t i = static_cast<size_t>(offset); i < headers.size(); ++i)
        out.push_back(shown(std::move(headers[i])));
    return {{"threads", out}};
}

json Agent::messages(platform::Request& r) {
    const int64_t limit = r.integer("limit");
    agent::Threads threads(r);
    const std::string id = r.str("id");
    json header = threads.open(id);
    json out = json::array();
    for (auto& m : threads.messages(id, static_cast<size_t>(limit)))
        out.push_back(shown(std::move(m)));
    return {{"thread", shown(std::move(header))}, {"messages", out}};
}

json Agent::mark(platform::Request& r) {
    const auto it = r.args().find("unread");
    if (it == r.args().end() || !it->is_boolean())
        throw platform::invalid_argument("unread: required, true or false");
    return shown(agent::Threads(r).set_unread(r.str("id"), it->get<bool>() ? 1 : 0));
}
