#include "tasks.hpp"

#include <atomic>

#include "common/time/time.hpp"
#include "due.hpp"

namespace schema = platform::schema;

using platform::json;

namespace {

const schema::Object kIdSchema = schema::id_object("The task's id").min_len(1);

}  // namespace

void Tasks::describe(platform::ServiceSpec<Tasks>& s) {
    s.id("tasks")
        .version("1.0.0")
        .service("v1.tasks")
        .summary("To-do items for yourself or for the agent");
    s.post("create")
        .title("Create a task")
        .description(
            "A new task (status todo). Assigned to the agent, it can pick the task up "
            "(tasks/next). `due` is "
            "RFC 3339 or `YYYY-MM-DD HH:MM` in your account's time zone (UTC when none is set).")
        .schema(schema::object()
                    .str("title")
                    .min_len(1)
                    .max_len(200)
                    .required()
                    .doc("What is to be done")
                    .str("detail")
                    .max_len(10000)
                    .doc("More about it")
                    .str("assignee")
                    .one_of({"me", "agent"})
                    .def("me")
                    .doc("Who does it: me (default) or agent")
                    .str("due")
                    .max_len(64)
                    .doc("When it is due: RFC 3339, or YYYY-MM-DD HH:MM in your time zone"))
        .access(platform::Access::owner)
        .handler(&Tasks::create);
    s.post("delete")
        .title("Delete a task")
        .description("Deletes the task with this id; 404 when you have none.")
        .schema(kIdSchema)
        .access(platform::Access::owner)
        .destructive()
        .action()
        .handler(&Tasks::remove);
    s.get("list")
        .title("List tasks")
        .description(
            "Your tasks, open ones first (by due, then oldest), then done and failed ones (most "
            "recently "
            "updated first); `status` keeps one state. `total` counts the matches before paging.")
        .schema(schema::object()
                    .prop("offset", schema::offset("Tasks skipped first"))
                    .prop("limit", schema::limit(100, 20, "At most this many (1-100, default 20)"))
                    .str("status")
                    .one_of({"todo", "doing", "done", "failed", "blocked"})
                    .doc("Only tasks in this state"))
        .access(platform::Access::owner)
        .read_only()
        .handler(&Tasks::list);
    s.get("next")
        .title("Next task for the agent")
        .description(
            "The open task (not done or failed) assigned to the agent with the earliest due, then "
            "the "
            "oldest: {\"task\": ...}, or {\"task\": null} when there is none.")
        .access(platform::Access::owner)
        .read_only()
        .handler(&Tasks::next);
    s.get("read")
        .title("Read a task")
        .description("The task with this id; 404 when you have none.")
        .schema(kIdSchema)
        .access(platform::Access::owner)
        .read_only()
        .handler(&Tasks::read);
    s.post("update")
        .title("Update a task")
        .description(
            "Changes the given fields of a task; `status` may be set to any of todo, doing, done, "
            "failed, "
            "blocked, with its `result` in the same call. Omitted fields keep their value.")
        .schema(schema::object()
                    .prop("id", schema::id("The task's id"))
                    .min_len(1)
                    .required()
                    .str("title")
                    .min_len(1)
                    .max_len(200)
                    .doc("A new title")
                    .str("detail")
                    .max_len(10000)
                    .doc("A new detail")
                    .str("status")
                    .one_of({"todo", "doing", "done", "failed", "blocked"})
                    .doc("The new state")
                    .str("result")
                    .max_len(10000)
                    .doc("What came of it"))
        .access(platform::Access::owner)
        .idempotent()
        .handler(&Tasks::update);
}

json Tasks::visible(json task) {
    task.erase("due_ms");
    task.erase("seq");
    return task;
}

bool Tasks::open(const json& task) {
    const std::string status = task.value("status", "todo");
    return status != "done" && status != "failed";
}

std::string Tasks::time_zone(platform::Request& r) const {
    try {
        auto me = host_.call("auth", "me", json::object(), r.call());
        if (!me.ok()) return "UTC";
        const json body = json::parse(me.body, nullptr, false);
        const json* md = nullptr;
        if (body.contains("account") && body["account"].is_object())
            md = &body["account"];
        else
            md = &body;
        if (md->contains("metadata") && (*md)["metadata"].is_object())
            return (*md)["metadata"].value("timezone", "UTC");
    } catch (const std::exception&) {
    }
    return "UTC";
}

int64_t Tasks::due_ms(platform::Request& r, const std::string& due) const {
    if (auto at = common::time::parse_rfc3339(due)) return at->utc_ms();
    auto local = tasks::parse_local_layout(due);
    if (!local)
        throw platform::invalid_argument("due: '" + due +
                                         "' is neither RFC 3339 (2026-03-01T09:30:00Z) nor "
                                         "YYYY-MM-DD HH:MM");
    return tasks::local_due_ms(*local, time_zone(r));
}

void Tasks::hand_to_agent(platform::Request& r, const json& task) const {
    std::string prompt = task.value("title", "");
    if (!task.value("detail", "").empty()) prompt += "\n\n" + task.value("detail", "");
    if (prompt.size() > schema::kPromptMaxBytes) {  // work's prompt limit, cut on a UTF-8 boundary
        size_t end = schema::kPromptMaxBytes;
        while (end > 0 && (static_cast<unsigned char>(prompt[end]) & 0xC0) == 0x80) --end;
        prompt.resize(end);
    }
    try {
        auto res =
            host_.call("work", "from_task", {{"task", task["id"]}, {"prompt", prompt}}, r.call());
        if (!res.ok())
            host_.warn("task " + task.value("id", "") + " not handed to the agent: " + res.body);
    } catch (const platform::Error& e) {
        if (e.code() != platform::Code::not_found)  // NOT_FOUND: no work service loaded
            host_.warn("task " + task.value("id", "") + " not handed to the agent: " + e.what());
    } catch (const std::exception& e) {
        host_.warn("task " + task.value("id", "") + " not handed to the agent: " + e.what());
    }
}

json Tasks::find(platform::Request& r, const std::string& id) const {
    auto task = r.owned(kCollection).get(id);
    if (!task) throw platform::not_found("id: no task " + id);
    return *task;
}

json Tasks::create(platform::Request& r) {
    const int64_t now = host_.now_ms();
    json due = nullptr, due_at = nullptr;
    if (r.args().contains("due")) {
        due_at = due_ms(r, r.str("due"));
        due = tasks::rfc3339(due_at.get<int64_t>());
    }
    json task = {{"id", ""},
                 {"title", r.str("title")},
                 {"detail", r.str("detail")},
                 {"assignee", r.str("assignee", "me")},
                 {"due", due},
                 {"status", "todo"},
                 {"result", ""},
                 {"created", tasks::rfc3339(now)},
                 {"updated", tasks::rfc3339(now)},
                 {"due_ms", due_at},
                 {"seq", platform::next_sequence(now)}};
    const std::string seed = std::to_string(now) + "\n" + r.args().dump();
    auto owned = r.owned(kCollection);
    for (int attempt = 0;; ++attempt) {  // the first of the seed's ids this owner does not have
        const std::string id = platform::hash_id(seed, attempt);
        task["id"] = id;
        if (owned.insert_if_absent(id, task)) break;
    }
    if (task["assignee"] == "agent") hand_to_agent(r, task);
    return visible(task);
}

json Tasks::read(platform::Request& r) {
    return visible(find(r, r.str("id")));
}

json Tasks::update(platform::Request& r) {
    const std::string id = r.str("id"), now = tasks::rfc3339(host_.now_ms());
    std::string before;
    auto written =
        r.owned(kCollection).update(id, [&](const std::optional<json>& old) -> std::optional<json> {
            if (!old) throw platform::not_found("id: no task " + id);
            json task = *old;
            before = task.value("status", "todo");
            for (const char* field : {"title", "detail", "status", "result"})
                if (r.args().contains(field)) task[field] = r.str(field);
            task["updated"] = now;
            return task;
        });
    // Set back to todo while assigned to the agent: its work is queued again (never by other edits).
    if (before != "todo" && written->value("status", "") == "todo" &&
        written->value("assignee", "") == "agent")
        hand_to_agent(r, *written);
    return visible(*written);
}

json Tasks::remove(platform::Request& r) {
    const std::string id = r.str("id");
    if (!r.owned(kCollection).erase(id)) throw platform::not_found("id: no task " + id);
    return {{"deleted", id}};
}

PLATFORM_SERVICE(Tasks)
