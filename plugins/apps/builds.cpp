// apps/build, buildstatus, builds and the internal build_run (apps.hpp "Builds"): a build record
// in the owner's collection `builds`, its job in the work service's durable queue.
#include <algorithm>
#include <set>

#include "apps.hpp"
#include "build_model.hpp"
#include "fields.hpp"
#include "static_check.hpp"

namespace schema = platform::schema;

using platform::json;

namespace {

const char* const kBuilds = "builds";        // owner-scoped: build id -> record
const char* const kBuildKeys = "buildkeys";  // owner-scoped: hash of what was asked -> build id
constexpr int64_t kUnqueuedMs = 60000;       // a build without a job after this never ran

// The first non-empty line of `s`, at most `chars` characters and then "...".
std::string title_line(const std::string& s, size_t chars) {
    const size_t start = s.find_first_not_of(" \t\r\n");
    if (start == std::string::npos) return "";
    const std::string line = platform::first_line(s.substr(start));
    return platform::utf8_length(line) > chars ? platform::utf8_prefix(line, chars) + "..." : line;
}

// What dedupes a build: its request_key, else its prompt.
std::string seed_of(const std::string& prompt, const std::string& key) {
    return key.empty() ? "prompt\n" + prompt : "key\n" + key;
}

bool final_status(const std::string& s) {
    return s == "complete" || s == "failed";
}

[[noreturn]] void no_build(const std::string& id) {
    throw platform::not_found("id: no build '" + id + "'");
}

}  // namespace

void Apps::describe_builds(platform::ServiceSpec<Apps>& s) {
    s.post("build")
        .title("Build an app")
        .description(
            "Queues a durable build of an app from a description and answers its id and status URL "
            "at once; poll apps/buildstatus until it is complete (with the app) or failed. The "
            "same "
            "request_key answers the same build, so retry a lost answer with the same request_key; "
            "without one, an identical description answers the build already made from it.")
        .schema(schema::object()
                    .prop("prompt", schema::prompt("What the app should do"))
                    .required()
                    .str("request_key")
                    .min_len(1)
                    .max_len(200)
                    .doc("Your key for this build: a retry with it never builds twice"))
        .access(platform::Access::owner)
        .handler(&Apps::build);
    s.get("buildstatus")
        .title("A build's status")
        .description(
            "queued, building, complete (with the app) or failed (with the reason). `wait` (0-60 "
            "s) answers as soon as the build finishes.")
        .schema(schema::object()
                    .prop("id", build_id_value())
                    .required()
                    .integer("wait")
                    .range(0, 60)
                    .doc("Seconds to wait for the build to finish (default 0)"))
        .access(platform::Access::owner)
        .read_only()
        .handler(&Apps::buildstatus);
    s.get("builds")
        .title("Your builds")
        .description("Your builds, newest first, with their outcomes (at most 200).")
        .access(platform::Access::owner)
        .read_only()
        .handler(&Apps::builds);
    s.post("build_run")
        .title("Run a build")
        .description(
            "Internal (the work service's job for apps/build): asks the model for the app and "
            "saves it. Runs only a build still queued, so a job run twice never builds twice.")
        .schema(schema::object().prop("id", build_id_value()).required())
        .access(platform::Access::owner)
        .internal()
        .metered(kBuildPrice)
        .handler(&Apps::build_run);
}

platform::schema::Value Apps::build_id_value() {
    return schema::string()
        .pattern(kBuildIdPattern)
        .set("examples", schema::ojson::array({"build_0123456789abcdef0123"}))
        .doc("The build's id (apps/build answers it)");
}

bool Apps::is_build_id(const std::string& s) {
    return s.size() == 26 && s.rfind("build_", 0) == 0 &&
           s.find_first_not_of("0123456789abcdef", 6) == std::string::npos;
}

json Apps::build_view(const platform::Request& r, const json& rec) const {
    json out = {{"id", rec["id"]},
                {"status", rec["status"]},
                {"prompt", rec["prompt"]},
                {"request_key", rec.value("request_key", json())},
                {"status_url", "/api/v1/apps/buildstatus?id=" + apps_fields::text(rec, "id")},
                {"app", nullptr},
                {"error", rec.value("error", json())},
                {"problems", rec.value("problems", json::array())},
                {"created", rec.value("created", json())},
                {"started", rec.value("started", json())},
                {"finished", rec.value("finished", json())}};
    const std::string slug = apps_fields::text(rec, "app");
    if (!slug.empty())
        if (auto app = r.owned(kCollection).get(slug)) out["app"] = apps_fields::owner_view(*app);
    return out;
}

json Apps::build(platform::Request& r) {
    const std::string prompt = r.str("prompt"), key = r.str("request_key");
    const std::string seed = seed_of(prompt, key);
    auto builds = r.owned(kBuilds);
    auto keys = r.owned(kBuildKeys);
    int races = 0;
    for (int attempt = 0; attempt < 64; ++attempt) {
        const std::string slot = platform::hash_id(seed, attempt);
        const auto held = keys.get(slot);
        std::optional<json> earlier;
        if (held) earlier = builds.get(apps_fields::text(*held, "build"));
        if (earlier && apps_fields::text(*earlier, "seed") != seed)
            continue;  // another seed's slot
        if (earlier && (!key.empty() || apps_fields::text(*earlier, "status") != "failed")) {
            json out = build_view(r, refreshed(r, *earlier));
            out["deduplicated"] = true;
            return out;
        }
        // A new build: the record first, then the slot (from what it held), then the job.
        const std::string id = "build_" + platform::random_hex(10);
        const int64_t now = host_.now_ms();
        json rec = {{"id", id},
                    {"status", "queued"},
                    {"prompt", prompt},
                    {"request_key", key.empty() ? json() : json(key)},
                    {"seed", seed},
                    {"work", ""},
                    {"app", ""},
                    {"error", nullptr},
                    {"problems", json::array()},
                    {"created", platform::rfc3339(now)},
                    {"created_ms", now},
                    {"started", nullptr},
                    {"finished", nullptr}};
        builds.put(id, rec);
        if (!keys.compare_and_set(slot, held, json{{"build", id}})) {
            builds.erase(id);  // someone else took the slot meanwhile: answer theirs
            if (++races < 8) --attempt;
            continue;
        }
        platform::Host::CallResult queued;
        try {
            queued = host_.call("work", "from_call",
                                {{"service", "apps"},
                                 {"method", "build_run"},
                                 {"args", {{"id", id}}},
                                 {"title", "App build: " + title_line(prompt, 120)}},
                                r.call());
        } catch (const platform::Error& e) {
            queued.code = e.code();
            queued.body = e.what();
        }
        if (!queued.ok()) {
            keys.compare_and_set(slot, json{{"build", id}}, held);
            builds.erase(id);
            throw platform::unavailable(
                "apps/build needs the work service (plugin `work` in the profile) to queue "
                "builds: " +
                queued.body);
        }
        const std::string job = apps_fields::text(queued.result(), "id");
        auto written = builds.update(id, [&](const std::optional<json>& cur) {
            if (!cur) return cur;
            json next = *cur;
            next["work"] = job;
            return std::optional<json>(next);
        });
        json out = build_view(r, written ? *written : rec);
        out["deduplicated"] = false;
        return out;
    }
    throw platform::conflict("prompt: too many builds share this description's slot");
}

json Apps::refreshed(const platform::Request& r, const json& rec, int64_t wait) const {
    const std::string status = apps_fields::text(rec, "status");
    if (final_status(status)) return rec;
    const std::string job = apps_fields::text(rec, "work");
    std::string failure;
    if (job.empty()) {
        if (host_.now_ms() - rec.value("created_ms", int64_t(0)) > kUnqueuedMs)
            failure = "never queued: the server stopped before the build reached the work queue";
    } else {
        json ask = {{"id", job}};
        if (wait > 0) ask["wait"] = wait;
        auto res = host_.call("work", "get", ask, r.call());
        if (!res.ok()) return rec;  // the work service is away: the record as it stands
        const json work = res.result();
        const std::string ws = apps_fields::text(work, "status");
        if (ws == "failed" || ws == "blocked") {
            const std::string error = apps_fields::text(work, "error");
            failure = error == "interrupted"
                          ? "interrupted: the server stopped during the build, which is not run "
                            "again; start a new build to try again"
                          : error;
        }
    }
    auto builds = r.owned(kBuilds);
    const std::string id = apps_fields::text(rec, "id");
    auto now = builds.get(id);
    if (!now) no_build(id);
    if (failure.empty() || final_status(apps_fields::text(*now, "status"))) return *now;
    auto written = builds.update(id, [&](const std::optional<json>& cur) {
        if (!cur || final_status(apps_fields::text(*cur, "status"))) return cur;
        json next = *cur;
        next["status"] = "failed";
        next["error"] = failure;
        next["finished"] = platform::rfc3339(host_.now_ms());
        return std::optional<json>(next);
    });
    return written ? *written : *now;
}

json Apps::buildstatus(platform::Request& r) {
    const std::string id = r.str("id");
    auto rec = r.owned(kBuilds).get(id);
    if (!rec) no_build(id);
    return build_view(r, refreshed(r, *rec, r.integer("wait", 0, 0, 60)));
}

json Apps::builds(platform::Request& r) {
    std::vector<json> all;
    for (auto& [id, rec] : r.owned(kBuilds).list()) all.push_back(refreshed(r, rec));
    std::stable_sort(all.begin(), all.end(), [](const json& a, const json& b) {
        return a.value("created_ms", int64_t(0)) > b.value("created_ms", int64_t(0));
    });
    if (all.size() > kListMax) all.resize(kListMax);
    json out = json::array();
    for (const auto& rec : all) {
        json view = build_view(r, rec);
        if (view["app"].is_object()) view["app"].erase("html");
        out.push_back(view);
    }
    return {{"builds", out}};
}

json Apps::build_run(platform::Request& r) {
    const std::string id = r.str("id");
    auto builds = r.owned(kBuilds);
    bool claimed = false;
    std::string was;
    auto started = builds.update(id, [&](const std::optional<json>& cur) {
        claimed = false;
        if (!cur) no_build(id);
        was = apps_fields::text(*cur, "status");
        if (was != "queued") return cur;
        json next = *cur;
        next["status"] = "building";
        next["started"] = platform::rfc3339(host_.now_ms());
        claimed = true;
        return std::optional<json>(next);
    });
    if (!claimed)
        throw platform::conflict("id: build " + id + " is " + was +
                                 "; a build runs once: start a new one with apps/build");
    const json rec = *started;
    auto fail = [&](const std::string& message, const json& problems) {
        builds.update(id, [&](const std::optional<json>& cur) {
            if (!cur) return cur;
            json next = *cur;
            next["status"] = "failed";
            next["error"] = message;
            next["problems"] = problems;
            next["finished"] = platform::rfc3339(host_.now_ms());
            return std::optional<json>(next);
        });
    };
    std::set<std::string> callable;
    bool known = true;
    try {
        callable = callable_methods(r);
    } catch (const platform::Error&) {
        known = false;
    }
    json reply;
    try {
        reply = host_.complete(
            apps_build::model_request(apps_fields::text(rec, "prompt"),
                                      std::vector<std::string>(callable.begin(), callable.end())));
    } catch (const platform::Error& e) {
        fail(e.what(), json::array());
        throw;
    }
    std::string why;
    auto built = apps_build::read_reply(reply, &why);
    if (!built) {
        fail(why, json::array());
        throw platform::Error(platform::Code::bad_gateway, why);
    }
    json problems = json::array();
    for (const auto& p : apps_check::check(built->html, kHtmlMaxBytes, callable, known))
        if (p.rule != "well-formed")  // browsers mend markup; they cannot mend a blocked request
            problems.push_back({{"rule", p.rule}, {"message", p.message}, {"line", p.line}});
    if (!problems.empty()) {
        const std::string message =
            "the model's app fails the check (" + problems[0].value("rule", "") + ", line " +
            std::to_string(problems[0].value("line", 0)) + "): " + problems[0].value("message", "");
        fail(message, problems);
        throw platform::Error(platform::Code::bad_gateway, message);
    }
    std::string name = title_line(built->name, kNameMax - 3);
    if (name.empty()) name = title_line(apps_fields::text(rec, "prompt"), 60);
    std::string description = platform::utf8_prefix(built->description, kDescriptionMax);
    if (description.empty()) description = name;
    const std::string now = platform::rfc3339(host_.now_ms());
    json app = {{"slug", ""},
                {"name", name},
                {"description", description},
                {"tags", ""},
                {"icon", ""},
                {"html", built->html},
                {"price", 0},
                {"public", false},
                {"owner", r.account()},
                {"source", {{"kind", "build"}, {"id", id}}},
                {"created", now},
                {"updated", now}};
    const json saved = save_new(r, apps_fields::slug_from(name), std::move(app));
    auto done = builds.update(id, [&](const std::optional<json>& cur) {
        if (!cur) return cur;
        json next = *cur;
        next["status"] = "complete";
        next["app"] = saved["slug"];
        next["finished"] = platform::rfc3339(host_.now_ms());
        return std::optional<json>(next);
    });
    return build_view(r, done ? *done : rec);
}
