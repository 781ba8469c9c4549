#include "work.hpp"

#include <algorithm>

namespace schema = platform::schema;

using platform::Access;
using platform::json;

namespace {

const schema::Object kConfigSchema = schema::object()
                                         .open()
                                         .integer("workers")
                                         .min(1)
                                         .max(16)
                                         .doc("Threads running queued work (default 2)")
                                         .integer("timeout_ms")
                                         .min(1000)
                                         .max(3600000)
                                         .doc("Longest agent run of one job (default 600000)")
                                         .integer("lease_ms")
                                         .min(2000)
                                         .max(600000)
                                         .doc(
                                             "A runner's lease: replicas sharing the store take "
                                             "over the work of a process silent this long "
                                             "(default 30000)")
                                         .integer("poll_ms")
                                         .min(100)
                                         .max(60000)
                                         .doc(
                                             "Idle workers look at the queue this often, besides "
                                             "the broker's wake-up (default 2000)");

const schema::Object kIdSchema =
    schema::id_object("The work's id (work/submit's answer)", 100).min_len(1);

const schema::Object kGetSchema =
    schema::object()
        .prop("id", schema::id("The work's id (work/submit's answer)", 100))
        .min_len(1)
        .required()
        .integer("wait")
        .min(0)
        .max(Work::kMaxWaitSeconds)
        .def(0)
        .doc("Seconds to wait for the work to finish before answering (0-60, default 0)");

int64_t config_int(const platform::Host& host, const char* key, int64_t fallback, int64_t lo,
                   int64_t hi) {
    const json v = host.config(key);
    return v.is_number_integer() ? std::clamp(v.get<int64_t>(), lo, hi) : fallback;
}

}  // namespace

Work::Work(const platform::Host& host)
    : host_(host), jobs_(host, work::Jobs::node_of(host)), workers_(host, jobs_) {
    settings_.workers = static_cast<int>(config_int(host, "workers", 2, 1, 16));
    settings_.timeout_ms = config_int(host, "timeout_ms", 600000, 1000, 3600000);
    settings_.lease_ms = config_int(host, "lease_ms", 30000, 2000, 600000);
    settings_.poll_ms = config_int(host, "poll_ms", 2000, 100, 60000);
}

void Work::start() {
    jobs_.changed().reopen();
    workers_.start(settings_);
}

void Work::stop() {
    jobs_.changed().close();  // work/get waits answer now
    workers_.stop();
}

void Work::describe(platform::ServiceSpec<Work>& s) {
    s.id("work").version("1.0.0").service("v1.work").summary(
        "Background work: prompts the agent runs later, durably");
    s.config_schema(kConfigSchema);
    s.post("submit")
        .title("Submit work")
        .description(
            "Queues a prompt (at most " + std::to_string(schema::kPromptMaxBytes) +
            " bytes) as durable background work that an agent — the default "
            "one unless `agent` names another — runs for you later with your tools; `thread` (an "
            "owned "
            "conversation) gives it context and receives the result, else a new conversation does. "
            "Answers the work's `id` at once: poll work/get until done, failed or blocked. Do not "
            "resubmit after a lost answer: the work could run twice.")
        .schema(schema::object()
                    .prop("prompt", schema::prompt("What to do"))
                    .required()
                    .str("agent")
                    .min_len(1)
                    .max_len(100)
                    .doc("The agent to run it (agent/list); default: the default agent")
                    .str("thread")
                    .min_len(1)
                    .max_len(100)
                    .doc("An owned conversation id for context and result delivery"))
        .access(Access::account)
        .action()
        .max_body(64 * 1024)
        .http_path("/work")
        .handler(&Work::submit);
    s.get("list")
        .title("List work")
        .description(
            "Your work: open jobs first (todo and doing, oldest first), then finished ones (done, "
            "failed, "
            "blocked; most recently finished first). `status` keeps one state; `total` counts the "
            "matches before offset and limit. Steps are left out (work/get has them).")
        .schema(schema::object()
                    .str("status")
                    .one_of({"todo", "doing", "done", "failed", "blocked"})
                    .doc("Only work in this state")
                    .prop("offset", schema::offset("Jobs skipped first"))
                    .prop("limit", schema::limit(100, 20, "At most this many (1-100, default 20)")))
        .access(Access::account)
        .read_only()
        .http_path("/work")
        .handler(&Work::list);
    s.get("get")
        .title("Get work")
        .description(
            "One of your jobs: status (todo, doing, done, failed, blocked), result, error, "
            "execution "
            "steps, times, attempts and progress. Poll it until done, failed or blocked; `wait` "
            "(extension, 0-60 seconds) answers as soon as it is, or when the wait ends.")
        .schema(kGetSchema)
        .access(Access::account)
        .read_only()
        .handler(&Work::get);
    s.get("read")
        .title("Get work (surface A)")
        .description("GET /work/<id>: what work/get answers, as {\"work\": {...}}.")
        .schema(kGetSchema)
        .access(Access::account)
        .read_only()
        .http_path("/work/{id}")
        .mcp_hidden()
        .handler(&Work::read);
    s.post("retry")
        .title("Retry work")
        .description(
            "Queues failed or blocked work again, after you reviewed it (earlier side effects may "
            "be "
            "repeated); it runs once more. Other states answer 409.")
        .schema(kIdSchema)
        .access(Access::account)
        .action()
        .handler(&Work::retry);
    s.post("from_task")
        .title("Work from a task")
        .description(
            "Internal (the tasks service): queues the prompt of a task assigned to the agent; the "
            "outcome "
            "is written back to the task. A task with open work gets that work's id again.")
        .schema(schema::object()
                    .str("task")
                    .min_len(1)
                    .max_len(64)
                    .required()
                    .doc("The task's id")
                    .prop("prompt", schema::prompt("What to do"))
                    .required())
        .access(Access::account)
        .action()
        .internal()
        .max_body(64 * 1024)
        .handler(&Work::from_task);
    s.post("from_call")
        .title("A service's own job")
        .description(
            "Internal (services with durable jobs of their own, such as apps/build): queues a "
            "call of `service`/`method` with `args`, made later through a grant as the caller. "
            "The job's result is the call's answer; it runs once per time it is queued.")
        .schema(schema::object()
                    .str("service")
                    .pattern("^[a-z0-9][a-z0-9-]*$")
                    .max_len(64)
                    .required()
                    .doc("The service to call, e.g. apps")
                    .str("method")
                    .pattern("^[a-z0-9_]+$")
                    .max_len(64)
                    .required()
                    .doc("Its method, e.g. build_run")
                    .prop("args", schema::any_object())
                    .doc("The call's arguments ({} when omitted)")
                    .str("title")
                    .min_len(1)
                    .max_len(200)
                    .required()
                    .doc("What the job is, as work/list shows it"))
        .access(Access::account)
        .internal()
        .max_body(64 * 1024)
        .handler(&Work::from_call);
}

std::string Work::owner(const platform::Request& r) {
    if (r.anonymous()) throw platform::unauthenticated("this method needs an account");
    return r.account();
}

std::string Work::prompt(const platform::Request& r) {
    return r.str("prompt");  // not empty, at most schema::kPromptMaxBytes: the schema says so
}

void Work::check_thread(platform::Request& r, const std::string& thread) const {
    platform::Host::CallResult res;
    try {
        res = host_.call("agent", "messages", {{"id", thread}, {"limit", 1}}, r.call());
    } catch (const platform::Error& e) {
        throw platform::unavailable(
            std::string("thread: cannot be checked: the agent service is not available (") +
            e.what() + ")");
    }
    if (!res.ok())
        throw platform::Error(res.code,
                              res.body.empty() ? "thread: no such conversation" : res.body);
}

void Work::check_agent(platform::Request& r, const std::string& agent) const {
    try {
        auto res = host_.call("agent", "list", json::object(), r.call());
        if (!res.ok()) return;  // the run reports it
        const json body = json::parse(res.body, nullptr, false);
        if (!body.is_object() || !body.contains("agents") || !body["agents"].is_array()) return;
        for (const auto& a : body["agents"])
            if (a.is_object() && a.value("name", "") == agent) return;
    } catch (const std::exception&) {
        return;
    }
    throw platform::not_found("agent: no such agent '" + agent + "' (agent/list names them)");
}

json Work::submit(platform::Request& r) {
    const std::string who = owner(r), text = prompt(r), agent = r.str("agent"),
                      thread = r.str("thread");
    if (!thread.empty()) check_thread(r, thread);
    if (!agent.empty()) check_agent(r, agent);
    const std::string grant = r.grant();
    json job;
    try {
        // X-Platform-Client names the channel the conversation is filed under (the CLI: cli).
        const std::string client = platform::lower(r.header("X-Platform-Client"));
        job = jobs_.create({who, text, agent, thread, "", grant,
                            client == "cli" || client == "mail" ? client : "web"});
    } catch (...) {
        host_.revoke_grant(grant);
        throw;
    }
    workers_.wake();
    return {{"id", job["id"]}, {"status", "todo"}};
}

json Work::retry(platform::Request& r) {
    const std::string who = owner(r), id = r.str("id");
    auto job = jobs_.get(who, id);
    if (!job) throw platform::not_found("id: no such work");
    const std::string status = job->value("status", "");
    if (status != "failed" && status != "blocked")  // before taking a grant; requeue checks again
        throw platform::conflict("id: work is " + status +
                                 "; only failed or blocked work can be retried");
    const std::string grant = r.grant();
    json next;
    try {
        next = jobs_.requeue(who, id, grant);
    } catch (...) {
        host_.revoke_grant(grant);
        throw;
    }
    workers_.wake();
    return {{"id", id}, {"status", "todo"}, {"attempts", next["attempts"]}};
}

json Work::from_task(platform::Request& r) {
    const std::string who = owner(r), task = r.str("task"), text = prompt(r);
    if (task.empty()) throw platform::invalid_argument("task: must not be empty");
    if (auto open = jobs_.open_for_task(who, task))
        return {{"id", (*open)["id"]}, {"status", (*open)["status"]}};
    const std::string grant = r.grant();
    bool created = false;
    json job;
    try {
        job = jobs_.create({who, text, "", "", task, grant}, &created);
    } catch (...) {
        host_.revoke_grant(grant);
        throw;
    }
    if (!created)
        host_.revoke_grant(grant);  // open work appeared meanwhile
    else
        workers_.wake();
    return {{"id", job["id"]}, {"status", job["status"]}};
}

json Work::from_call(platform::Request& r) {
    const std::string who = owner(r);
    const json call = {{"service", r.str("service")},
                       {"method", r.str("method")},
                       {"args", r.args().value("args", json::object())}};
    const std::string grant = r.grant();
    json job;
    try {
        job = jobs_.create({who, r.str("title"), "", "", "", grant, "web", call});
    } catch (...) {
        host_.revoke_grant(grant);
        throw;
    }
    workers_.wake();
    return {{"id", job["id"]}, {"status", job["status"]}};
}

PLATFORM_SERVICE(Work)
