// The `runtime` built-in (runtime_service.hpp): endpoints over runtime::Manager.
#include <spdlog/spdlog.h>

#include <platform/host/core/loader.hpp>
#include <platform/host/core/plugin_states.hpp>
#include <platform/host/core/runtime.hpp>
#include <platform/host/isolation/worker_plugin.hpp>
#include <platform/sdk.hpp>

#include "runtime_manager.hpp"
#include "runtime_service.hpp"

namespace {

using platform::json;
using platform::host::runtime::Manager;
using platform::host::runtime::RuntimeError;
using platform::host::runtime::Source;

namespace schema = platform::schema;

// A run service's name, as `status` lists it.
schema::Value service_name() {
    return schema::string().min_len(1).max_len(63).doc("The service's name (as `status` lists it)");
}

// "<source>[@<ref>]": a ref is what follows the last '@' when it has no '/' or ':' (so the user of
// git@host:org/repo is not a ref).
std::pair<std::string, std::string> split_ref(const std::string& text) {
    const auto at = text.rfind('@');
    if (at == std::string::npos || at == 0 || at + 1 == text.size()) return {text, ""};
    const std::string ref = text.substr(at + 1);
    if (ref.find_first_of("/:") != std::string::npos) return {text, ""};
    return {text.substr(0, at), ref};
}

std::string last_segment(std::string url) {
    while (!url.empty() && url.back() == '/') url.pop_back();
    std::string name = url.substr(url.find_last_of("/:") + 1);
    if (name.size() > 4 && name.compare(name.size() - 4, 4, ".git") == 0)
        name.resize(name.size() - 4);
    return name;
}

class RuntimeService {
public:
    static void describe(platform::ServiceSpec<RuntimeService>& s) {
        s.id("runtime").version("1.0.0").service("runtime").summary(
            "Runs services built from source in isolated workers");
        s.post("run")
            .title("Run a service from source")
            .description(
                "Builds a plugin from a git repository (`source[@ref]`: a path or URL git can "
                "clone, or a short "
                "name under the config value git.baseurl) or from an uploaded folder (`archive`: "
                "base64 .tar.gz) "
                "with CMake, Cargo, Go, make or cc (by what the folder holds) against this host's "
                "SDK, "
                "then runs it in a platform-worker process. "
                "Answers at once "
                "with status pending; poll status. Needs the admin or runtime scope.")
            .schema(schema::object()
                        .str("source")
                        .min_len(1)
                        .max_len(2048)
                        .required()
                        .doc("Repository, folder or short name, optionally @ref")
                        .str("name")
                        .min_len(1)
                        .max_len(63)
                        .doc("Service name (default: the folder or repository name)")
                        .str("ref")
                        .min_len(1)
                        .max_len(256)
                        .doc("Branch, tag or commit (instead of @ref)")
                        .str("archive")
                        .doc("The folder as a base64-encoded .tar.gz"))
            .access(platform::Access::account)
            .max_body(64ull << 20)
            .withheld_from_agent()
            .handler(&RuntimeService::run);
        s.post("update")
            .title("Update a service")
            .description(
                "Rebuilds from the latest commit of its branch (or the new `archive`) and swaps "
                "workers: the old "
                "one keeps serving until the new one runs; a failed build keeps it and records the "
                "error. A "
                "service at a commit is only restarted.")
            .schema(schema::object()
                        .prop("name", service_name())
                        .required()
                        .str("archive")
                        .doc("A new upload (base64 .tar.gz)"))
            .access(platform::Access::account)
            .max_body(64ull << 20)
            .withheld_from_agent()
            .handler(&RuntimeService::update);
        s.post("kill")
            .title("Kill a service")
            .description(
                "Stops the service's worker and removes it; its routes answer 404 afterwards.")
            .schema(schema::object().prop("name", service_name()).required())
            .access(platform::Access::account)
            .destructive()
            .withheld_from_agent()
            .handler(&RuntimeService::kill);
        s.get("status")
            .title("Status of run services")
            .description(
                "Every service started with run (or one): name, version, source, status (pending, "
                "building, "
                "starting, running, updating (rebuilt while the old build serves), error), build, "
                "updated (ms since the epoch) and metadata "
                "(owner, group, error).")
            .schema(schema::object().prop("name", service_name()))
            .access(platform::Access::account)
            .read_only()
            .idempotent()
            .handler(&RuntimeService::status);
        s.get("logs")
            .title("Logs of a run service")
            .description(
                "The last `lines` lines of the service's build output, runtime events and log; "
                "with follow, "
                "then every new line as it comes (a stream), until the call's deadline.")
            .schema(schema::object()
                        .prop("name", service_name())
                        .required()
                        .integer("lines")
                        .range(0, 10000)
                        .def(15)
                        .doc("How many past lines")
                        .boolean("follow")
                        .def(false)
                        .doc("Keep streaming new lines"))
            .access(platform::Access::account)
            .read_only()
            .streaming()
            .async(&RuntimeService::logs);
        s.get("plugins")
            .title("Plugins of this host")
            .description(
                "The profile's name and every plugin the host found at start (and its built-ins): "
                "id, version, kind, service, file, and state: loaded (in the host's process), "
                "isolated (in a platform-worker, with its restarts and how the last worker "
                "ended), refused (with the reason: the library could not be loaded, its id was "
                "taken, on_create or on_start failed, its service was taken) or unused (found; "
                "the profile does not load it). Admin only.")
            .schema(schema::object())
            .access(platform::Access::admin)
            .read_only()
            .idempotent()
            .withheld_from_agent()
            .handler(&RuntimeService::plugins);
    }

    explicit RuntimeService(const platform::Host& host)
        : host_(host), runtime_(*reinterpret_cast<platform::host::HostCtx*>(host.ctx())->runtime) {}

    void start() {
        auto store = host_.store();
        manager_ = std::make_unique<Manager>(
            runtime_, runtime_.settings().home + "/runtime",
            platform::host::runtime::Persistence{
                [store](const json& r) { store.put("service/" + r.value("name", ""), r.dump()); },
                [store](const std::string& name) { store.erase("service/" + name); }});
        std::vector<json> records;
        platform::ScanOptions o;
        o.prefix = "service/";
        for (const auto& r : store.scan(o)) {
            json j = json::parse(r.value, nullptr, false);
            if (j.is_object()) records.push_back(std::move(j));
        }
        if (!records.empty()) spdlog::info("runtime: restoring {} service(s)", records.size());
        manager_->restore(records);
    }
    void stop() {
        if (manager_) manager_->stop();
    }

    json run(platform::Request& r) {
        allowed(r);
        auto [text, ref] = split_ref(r.str("source"));
        if (r.args().contains("ref")) ref = r.str("ref");
        platform::host::runtime::RunRequest req;
        req.display = r.str("source");
        req.owner = r.account();
        req.group = runtime_.settings().ns;
        if (r.args().contains("archive")) {
            req.source.kind = "archive";
            auto archive = platform::base64_decode(r.str("archive"));
            if (!archive || archive->empty())
                throw platform::invalid_argument("archive: not base64 of a .tar.gz");
            req.source.archive = std::move(*archive);
            if (!r.args().contains("name"))
                throw platform::invalid_argument("name: required with an archive");
        } else {
            req.source = Source{"git", resolve(text), ref, ""};
        }
        req.name = r.str("name", last_segment(text));
        return {{"service", visible(call([&] { return manager_->run(std::move(req)); }))}};
    }

    json update(platform::Request& r) {
        allowed(r);
        std::string archive;
        if (r.args().contains("archive")) {
            auto decoded = platform::base64_decode(r.str("archive"));
            if (!decoded || decoded->empty())
                throw platform::invalid_argument("archive: not base64 of a .tar.gz");
            archive = std::move(*decoded);
        }
        return {{"service", visible(call([&] {
                     return manager_->update(r.str("name"), std::move(archive));
                 }))}};
    }

    json kill(platform::Request& r) {
        allowed(r);
        call([&] { return manager_->kill(r.str("name")), json(); });
        return {{"killed", r.str("name")}};
    }

    json status(platform::Request& r) {
        allowed(r);
        json out = json::array();
        for (const auto& rec : call([&] { return manager_->status(r.str("name")); }))
            out.push_back(visible(rec));
        return {{"services", out}};
    }

    void logs(platform::Request& r, platform::Responder out) {
        allowed(r);
        const std::string name = r.str("name");
        auto lines = call([&] { return json(manager_->logs(name, r["lines"].get<size_t>())); });
        if (!r["follow"].get<bool>()) return out.ok({{"lines", lines}});
        for (const auto& l : lines)
            if (!out.chunk(json{{"line", l}})) return;
        call([&] {
            return manager_->follow(name,
                                    [out](const std::string& line) {
                                        return out.chunk(json{{"line", line}});
                                    }),
                   json();
        });
    }

    json plugins(platform::Request&) {
        json list = json::array();
        for (const auto& p : platform::host::plugin_states(runtime_)) {
            json j = {{"id", p.id},           {"version", p.version}, {"kind", p.kind},
                      {"service", p.service}, {"file", p.file},       {"state", p.state}};
            if (!p.reason.empty()) j["reason"] = p.reason;
            if (auto* w = dynamic_cast<const platform::host::WorkerPlugin*>(p.worker.get())) {
                j["restarts"] = w->restarts();
                if (const std::string exit = w->last_exit(); !exit.empty()) j["last_exit"] = exit;
            }
            list.push_back(std::move(j));
        }
        return {{"profile", runtime_.profile().name}, {"plugins", list}};
    }

private:
    template <class F>
    static json call(F&& f) {
        try {
            return f();
        } catch (const RuntimeError& e) {
            throw platform::Error(static_cast<platform::Code>(e.code), e.what());
        }
    }
    static void allowed(const platform::Request& r) {
        const std::string scopes = "," + r.scopes() + ",";
        if (scopes.find(",admin,") == std::string::npos &&
            scopes.find(",runtime,") == std::string::npos)
            throw platform::Error(platform::Code::permission_denied,
                                  "runtime: needs the admin or the runtime scope");
    }
    // Without the host's paths.
    static json visible(json rec) {
        for (const char* k : {"src_dir", "so_path", "generation"}) rec.erase(k);
        return rec;
    }
    // A git URL from what the user typed; a short name goes under git.baseurl.
    std::string resolve(const std::string& text) const {
        if (text[0] == '/' || text[0] == '.' || text.find("://") != std::string::npos ||
            (text.find('@') != std::string::npos && text.find(':') != std::string::npos))
            return text;
        const std::string first = text.substr(0, text.find('/'));
        if (first.find('.') != std::string::npos) return "https://" + text;  // github.com/org/repo
        std::string base;
        try {
            auto got = host_.call("config", "Config.Get", {{"path", "git.baseurl"}});
            if (got.ok() && got.result().value("value", json()).is_string())
                base = got.result()["value"];
        } catch (const platform::Error&) {  // no config service in this profile
        }
        if (base.empty()) {
            json v = host_.config("git_baseurl");
            if (v.is_string()) base = v;
        }
        if (base.empty())
            throw platform::invalid_argument("source: '" + text +
                                             "' is a short name and no git.baseurl is configured "
                                             "(platform config set git.baseurl <url>)");
        while (!base.empty() && base.back() == '/') base.pop_back();
        return base + "/" + text;
    }

    platform::Host host_;
    platform::host::Runtime& runtime_;
    std::unique_ptr<Manager> manager_;
};

}  // namespace

namespace platform::host {

std::unique_ptr<Plugin> make_runtime_plugin() {
    auto p = std::make_unique<Plugin>();
    p->path = "<built-in runtime>";
    p->desc = platform::detail::ServiceRuntime<RuntimeService>::descriptor();
    const std::string problem = check_descriptor(p->desc, *p);
    if (!problem.empty()) throw std::logic_error("runtime built-in: " + problem);
    p->privileged = true;
    return p;
}

}  // namespace platform::host
