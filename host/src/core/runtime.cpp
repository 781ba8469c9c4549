#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <filesystem>
#include <optional>
#include <platform/host/core/host_store_table.hpp>
#include <platform/host/core/loader.hpp>
#include <platform/host/core/names.hpp>
#include <platform/host/core/node_id.hpp>
#include <platform/host/core/plugin_states.hpp>
#include <platform/host/core/runtime.hpp>
#include <platform/host/core/status.hpp>
#include <set>
#include <thread>
#include <variant>

namespace platform::host {

namespace fs = std::filesystem;

namespace {
platform_kind_t kind_of(const std::string& name) {
    if (name == "store") return PLATFORM_KIND_STORE;
    if (name == "broker") return PLATFORM_KIND_BROKER;
    if (name == "events") return PLATFORM_KIND_EVENTS;
    if (name == "auth") return PLATFORM_KIND_AUTH;
    return PLATFORM_KIND_MODEL;
}
// PLATFORM_NODE_ID, else the id kept in $PLATFORM_HOME/node-id (node_id.hpp).
std::string node_id_of(const Settings& s) {
    std::string warning;
    std::string id = stable_node_id(s.node_id, s.home, &warning);
    if (!warning.empty()) spdlog::warn("node id {}: {}", id, warning);
    return id;
}
// Logs "plugin <file> refused: <why>" and keeps it for plugin_states() (plugin_states.hpp).
void refuse(PluginRefusals& refusals, const std::string& file, const std::string& id,
            const std::string& why) {
    spdlog::error("plugin {} refused: {}", file, why);
    refusals.add(file, id, why);
}
}  // namespace

Runtime::Runtime(Settings settings, Profile profile)
    : settings_(std::move(settings)),
      profile_(std::move(profile)),
      clock_(profile_.manual_clock),
      registry_(settings_.ns, node_id_of(settings_)),
      api_(make_host_api()),
      pool_(4, 256),
      activity_(activity_store_writer(*this),
                [this](std::function<void()> flush) {
                    timers_.at(Clock::monotonic_ms() + ActivityRecord::kFlushIntervalMs,
                               [this, flush = std::move(flush)] {
                                   if (!stopped_) pool_.submit(flush);
                               });
                }),
      tools_(std::make_unique<ToolCatalog>(registry_)),
      payments_(std::make_unique<PaymentGate>(*this)),
      admission_(std::make_unique<Admission>(*this)),
      node_records_(std::make_unique<NodeRecords>(*this)),
      started_ms_(Clock::real_now_ms()) {}

Runtime::~Runtime() {
    stop();
}

std::vector<std::string> Runtime::plugin_dirs() const {
    std::vector<std::string> dirs;
    const std::string exe = settings_.exe_dir;
    dirs.push_back(exe + "/plugins");                  // build tree
    dirs.push_back(exe + "/../lib/platform/plugins");  // installed
    if (profile_.test_plugins) dirs.push_back(exe + "/tests/plugins");
    for (const auto& d : settings_.plugin_path) dirs.push_back(d);
    for (const auto& d : profile_.plugin_path) dirs.push_back(d);
    return dirs;
}

Plugin* Runtime::provider(const std::string& kind) const {
    auto it = providers_.find(kind);
    return it == providers_.end() ? nullptr : it->second;
}

Plugin* Runtime::model(const std::string& id) const {
    auto it = models_.find(id);
    return it == models_.end() ? nullptr : it->second;
}

uint64_t Runtime::max_body() const {
    uint64_t m = PLATFORM_DEFAULT_MAX_BODY;
    for (const auto& p : plugins_)
        for (const auto& e : p->endpoints) m = std::max(m, e.max_body);
    return m;
}

bool Runtime::create(Plugin& p, std::string& error) {
    p.ctx = HostCtx{this, &p};
    std::string config = p.config.dump();
    char err[512] = {0};
    p.instance = p.desc->on_create(&api_, reinterpret_cast<platform_host_ctx_t*>(&p.ctx),
                                   platform_str_t{config.data(), config.size()}, err, sizeof err);
    if (!p.instance) {
        error = std::string("on_create failed: ") + (err[0] ? err : "no reason given");
        return false;
    }
    return true;
}

bool Runtime::start_or_refuse(Plugin& p) {
    std::string error;
    if (!create(p, error)) {
        refuse(refusals_, p.path, p.id, error);
        return false;
    }
    if (p.desc->on_start && p.desc->on_start(p.instance) != PLATFORM_OK) {
        refuse(refusals_, p.path, p.id, "on_start failed");
        if (p.desc->on_destroy) p.desc->on_destroy(p.instance);
        p.instance = nullptr;
        return false;
    }
    return true;
}

bool Runtime::profile_loads(const std::string& id) const {
    return profile_.all_plugins || std::find(profile_.plugins.begin(), profile_.plugins.end(),
                                             id) != profile_.plugins.end();
}

void Runtime::load_all() {
    std::map<std::string, Plugin*> by_id;
    std::set<std::string> stems;
    const std::vector<fs::path> files = find_plugin_files([&] {
        std::vector<fs::path> v;
        for (auto& d : plugin_dirs()) v.emplace_back(d);
        return v;
    }());
    // `isolation: process` (matched by file name, <id>.so): a platform-worker loads it instead.
    std::vector<char> isolated(files.size());
    for (size_t i = 0; i < files.size(); ++i)
        isolated[i] = profile_.isolated.count(files[i].stem().string()) > 0;
    // The in-process libraries are opened and their descriptors checked (every endpoint's schema
    // compiled) on up to 4 threads, a third of a start's work: the dynamic loader serialises
    // dlopen itself, the checks run side by side. The results are taken in file order below, so
    // the log, the refusals and which of two libraries with the same id wins are as before
    // (decision 80).
    using Loaded = std::variant<std::unique_ptr<Plugin>, std::string>;
    std::vector<std::optional<Loaded>> opened(files.size());
    std::vector<std::exception_ptr> failed(files.size());
    {
        std::atomic<size_t> next{0};
        auto open_some = [&] {
            for (size_t i; (i = next.fetch_add(1)) < files.size();) {
                if (isolated[i]) continue;
                try {
                    opened[i].emplace(load_plugin(files[i], &api_));
                } catch (...) {
                    failed[i] = std::current_exception();
                }
            }
        };
        const size_t helpers =
            std::min<size_t>({std::max(1u, std::thread::hardware_concurrency()), 4, files.size()});
        std::vector<std::thread> threads;
        for (size_t k = 1; k < helpers; ++k) threads.emplace_back(open_some);
        open_some();
        for (auto& t : threads) t.join();
    }
    for (size_t i = 0; i < files.size(); ++i) {
        const fs::path& file = files[i];
        stems.insert(file.stem().string());
        if (failed[i]) std::rethrow_exception(failed[i]);
        auto loaded = !isolated[i]       ? std::move(*opened[i])
                      : isolated_loader_ ? isolated_loader_(file.string())
                                         : Loaded("plugin isolation is not available in this host");
        if (auto* why = std::get_if<std::string>(&loaded)) {
            refuse(refusals_, file.string(), "", *why);
            continue;
        }
        auto plugin = std::move(std::get<std::unique_ptr<Plugin>>(loaded));
        if (by_id.count(plugin->id)) {
            spdlog::warn("plugin {} skipped: id '{}' already loaded from {}", file.string(),
                         plugin->id, by_id[plugin->id]->path);
            refusals_.add(file.string(), plugin->id,
                          "id '" + plugin->id + "' already loaded from " + by_id[plugin->id]->path);
            continue;
        }
        by_id[plugin->id] = plugin.get();
        plugins_.push_back(std::move(plugin));
    }

    // Providers first: services may use the store from on_start. The store, events and broker
    // providers come before the others, which may use them from on_start (auth-local keeps its
    // accounts in the store).
    std::vector<std::pair<std::string, const ProviderChoice*>> ordered;
    for (const char* first : {"store", "events", "broker"})
        if (auto it = profile_.providers.find(first); it != profile_.providers.end())
            ordered.emplace_back(it->first, &it->second);
    for (const auto& [kind, choice] : profile_.providers)
        if (kind != "store" && kind != "events" && kind != "broker")
            ordered.emplace_back(kind, &choice);
    for (const auto& [kind, choice_ref] : ordered) {
        const auto& choice = *choice_ref;
        auto it = by_id.find(choice.plugin);
        if (it == by_id.end())
            throw ProfileError(choice.where + ": providers." + kind + ".plugin: unknown plugin '" +
                               choice.plugin + "' (not found in the plugin folders)");
        Plugin& p = *it->second;
        if (p.kind != kind_of(kind))
            throw ProfileError(choice.where + ": providers." + kind + ".plugin: '" + choice.plugin +
                               "' is not a " + kind + " provider");
        p.config = choice.config;
        // A model provider is configured the same way whether or not the profile names it.
        if (p.kind == PLATFORM_KIND_MODEL && (p.config.is_null() || p.config.empty()) &&
            profile_.plugin_config.contains(p.id))
            p.config = profile_.plugin_config[p.id];
        p.privileged = profile_.privileged.count(p.id) > 0;
        std::string error;
        if (!create(p, error))
            throw ProfileError(choice.where + ": providers." + kind + ": " + choice.plugin + ": " +
                               error);
        if (p.desc->on_start && p.desc->on_start(p.instance) != PLATFORM_OK)
            throw ProfileError(choice.where + ": providers." + kind + ": " + choice.plugin +
                               ": on_start failed");
        providers_[kind] = &p;
        if (p.kind == PLATFORM_KIND_MODEL) models_[p.id] = &p;
        started_.push_back(&p);
        // A provider whose descriptor names a service is also registered as that service.
        if (!p.service.empty()) {
            if (!registry_.add(&p))
                throw ProfileError(choice.where + ": providers." + kind + ": " + choice.plugin +
                                   ": service " + p.service + " already registered");
            spdlog::info("plugin {} {} serving {} ({} endpoints)", p.id, p.version,
                         registry_.find(p.service)->name, p.endpoints.size());
        }
    }
    start_models(by_id);
    // Built-ins (the `runtime` service, add_builtin), privileged; served with `plugins: all`,
    // or when a `plugins:` list names them.
    std::set<std::string> builtin_ids;
    for (const auto& [id, make] : builtins_)
        if (profile_loads(id) && !by_id.count(id)) {
            plugins_.push_back(make());
            by_id[id] = plugins_.back().get();
            builtin_ids.insert(id);
        }
    for (const auto& id : profile_.isolated)
        if (!stems.count(id))  // a plugin that was found but refused is already logged
            throw ProfileError(profile_.isolation_where + ": isolation." + id +
                               ": unknown plugin '" + id + "' (no " + id +
                               ".so in the plugin folders)");
    if (!profile_.all_plugins)
        for (const auto& id : profile_.plugins)
            if (!by_id.count(id))
                throw ProfileError(profile_.plugins_where + ": plugins: unknown plugin '" + id +
                                   "'");

    for (auto& up : plugins_) {
        Plugin& p = *up;
        if (p.kind != PLATFORM_KIND_SERVICE) continue;
        const bool builtin = builtin_ids.count(p.id) > 0;
        if (!profile_loads(p.id)) continue;
        if (profile_.plugin_config.contains(p.id)) p.config = profile_.plugin_config[p.id];
        p.privileged = builtin || profile_.privileged.count(p.id) > 0;
        if (!start_or_refuse(p)) continue;
        if (!registry_.add(&p)) {
            refuse(refusals_, p.path, p.id, "service " + p.service + " already registered");
            continue;
        }
        started_.push_back(&p);
        spdlog::info("plugin {} {} serving {} ({} endpoints)", p.id, p.version,
                     registry_.find(p.service)->name, p.endpoints.size());
    }
}

// Every other model plugin the profile loads (`plugins: all` or listed), configured from
// plugin_config.<id>: several may be loaded, and model_choice.hpp picks one per call.
void Runtime::start_models(const std::map<std::string, Plugin*>& by_id) {
    for (const auto& [id, pp] : by_id) {
        Plugin& p = *pp;
        if (p.kind != PLATFORM_KIND_MODEL || models_.count(id) || p.instance) continue;
        if (!profile_loads(id)) continue;
        const auto* table = static_cast<const platform_model_provider_t*>(p.desc->provider);
        if (p.worker || !table || !PLATFORM_HAS_FIELD(platform_model_provider_t, table, complete) ||
            !table->complete) {
            refuse(refusals_, p.path, p.id,
                   p.worker ? "model providers run in the host, not in a worker"
                            : "model provider table without `complete`");
            continue;
        }
        if (profile_.plugin_config.contains(id)) p.config = profile_.plugin_config[id];
        p.privileged = profile_.privileged.count(id) > 0;
        if (!start_or_refuse(p)) continue;
        models_[id] = &p;
        started_.push_back(&p);
        spdlog::info("plugin {} {} loaded as a model provider", p.id, p.version);
    }
}

void Runtime::start() {
    secrets_ = std::make_unique<Secrets>(settings_.config_secret_key, settings_.home);
    load_all();
    // Shared rate-limit counters need a store that compares and sets (rate_limiter.hpp).
    for (const auto& [key, limit] :
         {std::pair{"http.rate_limit", &profile_.http.rate_limit},
          std::pair{"http.account_rate_limit", &profile_.http.account_rate_limit}})
        if (limit->enabled() && limit->shared && !HostStoreTable(*this, "_ratelimit").has_cas())
            throw ProfileError(
                profile_.file + ": " + key + ".shared: the store provider (" +
                (provider("store") ? provider("store")->id : std::string("none")) +
                ") has no compare-and-set, which counters shared between replicas need; use a "
                "store with it (store-postgres, store-sqlite, store-memory) or drop `shared`");
    // Registered services live in the store when there is one, so every replica on it sees them
    // (decision 72); the sweep below then expires them there.
    if (provider("store")) {
        registry_.share_externals(std::make_unique<HostStoreTable>(*this, "_registry"));
        relay_registry_changes();
    }
    sweep_registry();
}

namespace {
// The broker topic on which hosts tell each other that they changed a registered service.
const std::string kRegistryTopic = "_platform.registry";
}  // namespace

// A change made here is published as {"node", "action", "service"}; one published by another
// node makes this host's registry watchers hear it, read back from the store
// (ServiceRegistry::changed_elsewhere), on the worker pool.
void Runtime::relay_registry_changes() {
    Plugin* b = provider("broker");
    if (!b || !b->instance) return;
    const auto* table = static_cast<const platform_broker_provider_t*>(b->desc->provider);
    void* inst = b->instance;
    registry_.on_shared_change(
        [this, table, inst](const std::string& action, const std::string& name) {
            const std::string body = nlohmann::json{
                {"node", registry_.node_id()},
                {"action", action},
                {"service", name}}.dump();
            const std::string headers = "{}";
            const platform_status_t st =
                table->publish(inst, platform_str_t{kRegistryTopic.data(), kRegistryTopic.size()},
                               platform_str_t{body.data(), body.size()},
                               platform_str_t{headers.data(), headers.size()});
            if (st != PLATFORM_OK)
                spdlog::warn("registry: other replicas' watchers miss a change of {} (broker: {})",
                             name, status_info(st).name);
        });
    if (table->subscribe(inst, platform_str_t{kRegistryTopic.data(), kRegistryTopic.size()},
                         platform_str_t{}, &Runtime::registry_message, this,
                         &registry_subscription_) != PLATFORM_OK) {
        registry_subscription_ = 0;
        spdlog::warn(
            "registry: cannot subscribe to {}; this host's watchers hear only the "
            "changes made through it",
            kRegistryTopic);
    }
}

void Runtime::registry_message(void* user, platform_str_t, platform_str_t body, platform_str_t) {
    auto* rt = static_cast<Runtime*>(user);
    const nlohmann::json m =
        nlohmann::json::parse(std::string(body.ptr ? body.ptr : "", body.len), nullptr, false);
    if (!m.is_object() || !m.contains("node") || !m["node"].is_string() ||
        m["node"] == rt->registry_.node_id() || !m.contains("service") || !m["service"].is_string())
        return;
    const std::string action = m.value("action", "update"), name = m["service"];
    if (rt->stopped_) return;
    rt->pool_.submit([rt, action, name] {
        if (!rt->stopped_) rt->registry_.changed_elsewhere(action, name, rt->clock_.now_ms());
    });
}

// Every second, on the worker pool (the registry may be in a store a network away).
void Runtime::sweep_registry() {
    registry_.expire(clock_.now_ms());
    timers_.at(Clock::monotonic_ms() + 1000, [this] {
        if (!stopped_) pool_.submit([this] { sweep_registry(); });
    });
}

Identity Runtime::service_identity(const Plugin& p) const {
    Identity who;
    who.id = qualify(settings_.ns, p.service.empty() ? p.id : p.service);
    who.scopes = {"service"};
    who.type = "service";
    who.issuer = settings_.ns;
    who.name = who.id;
    return who;
}

void Runtime::set_resource_listener(
    std::function<void(const std::string&, const std::string&)> fn) {
    std::lock_guard<std::mutex> g(resource_listener_m_);
    resource_listener_ = std::move(fn);
}

void Runtime::resource_updated(const std::string& uri, const std::string& account) {
    std::function<void(const std::string&, const std::string&)> fn;
    {
        std::lock_guard<std::mutex> g(resource_listener_m_);
        fn = resource_listener_;
    }
    if (fn) fn(uri, account);
}

void Runtime::set_addresses(std::string api, std::string proxy) {
    api_address_ = std::move(api);
    proxy_address_ = std::move(proxy);
    // Now that it can be reached, this node's record goes to the store for the other replicas.
    if (!listening_.exchange(true)) refresh_node_record();
}

nlohmann::json Runtime::own_node(int64_t now_ms) const {
    nlohmann::json services = nlohmann::json::array();
    for (const auto& s : registry_.all()) services.push_back(s.name);
    return {{"id", registry_.node_id()},
            {"address", api_address_},
            {"metadata", {{"proxy", proxy_address_}, {"profile", profile_.name}}},
            {"services", services},
            {"started", started_ms_},
            {"last_seen", now_ms}};
}

// Writes this node's record now and every NodeRecords::kRefreshMs (on the worker pool: the store
// may be a network away).
void Runtime::refresh_node_record() {
    if (stopped_) return;
    const int64_t now = clock_.now_ms();  // the clock every store call uses (node_records.hpp)
    node_records_->write(own_node(now), now);
    timers_.at(Clock::monotonic_ms() + NodeRecords::kRefreshMs, [this] {
        if (!stopped_) pool_.submit([this] { refresh_node_record(); });
    });
}

nlohmann::json Runtime::network_nodes() const {
    const int64_t now = clock_.now_ms();
    nlohmann::json out = nlohmann::json::array({own_node(now)});
    if (auto others = node_records_->others(registry_.node_id(), now))
        for (auto& n : *others) out.push_back(std::move(n));
    return out;
}

Plugin* Runtime::add_service(std::unique_ptr<Plugin> up, std::string& error) {
    Plugin& p = *up;
    auto refuse = [&](std::string why) -> Plugin* {
        error = std::move(why);
        if (p.worker) p.worker->stop();
        std::lock_guard<std::mutex> g(dynamic_m_);
        dynamic_.push_back(std::move(up));  // the worker's callbacks may still point at it
        return nullptr;
    };
    if (stopped_) return refuse("the host is stopping");
    if (!create(p, error)) return refuse(error);
    if (p.desc->on_start && p.desc->on_start(p.instance) != PLATFORM_OK)
        return refuse("on_start failed");
    if (!registry_.add(&p))
        return refuse("a service named " + qualify(settings_.ns, p.service) +
                      " is already registered");
    std::lock_guard<std::mutex> g(dynamic_m_);
    dynamic_started_.push_back(&p);
    dynamic_.push_back(std::move(up));
    spdlog::info("plugin {} {} serving {} ({} endpoints, runtime)", p.id, p.version,
                 qualify(settings_.ns, p.service), p.endpoints.size());
    return &p;
}

void Runtime::remove_service(Plugin* p) {
    registry_.remove(p);
    {
        std::lock_guard<std::mutex> g(dynamic_m_);
        auto it = std::find(dynamic_started_.begin(), dynamic_started_.end(), p);
        if (it == dynamic_started_.end()) return;
        dynamic_started_.erase(it);
    }
    if (p->instance && p->desc->on_stop) p->desc->on_stop(p->instance);
}

void Runtime::set_log_listener(
    std::function<void(const Plugin&, platform_log_level_t, std::string_view)> fn) {
    std::lock_guard<std::mutex> g(log_listener_m_);
    log_listener_ = std::move(fn);
}

void Runtime::plugin_logged(const Plugin& p, platform_log_level_t level, std::string_view message) {
    if (!p.worker) return;  // only isolated plugins can be runtime services
    std::function<void(const Plugin&, platform_log_level_t, std::string_view)> fn;
    {
        std::lock_guard<std::mutex> g(log_listener_m_);
        fn = log_listener_;
    }
    if (fn) fn(p, level, message);
}

void Runtime::stop() {
    if (stopped_) return;
    stopped_ = true;
    timers_.stop();
    pool_.stop();
    activity_.flush();  // what was seen since the last flush, while the store is still up
    if (listening_) node_records_->remove(registry_.node_id());  // other replicas stop listing it
    if (registry_subscription_)
        if (Plugin* b = provider("broker"); b && b->instance)
            static_cast<const platform_broker_provider_t*>(b->desc->provider)
                ->unsubscribe(b->instance, registry_subscription_);
    std::vector<Plugin*> dynamic;
    {
        std::lock_guard<std::mutex> g(dynamic_m_);
        dynamic.swap(dynamic_started_);
    }
    for (auto it = dynamic.rbegin(); it != dynamic.rend(); ++it)
        if ((*it)->worker) (*it)->worker->stop();
    for (auto it = started_.rbegin(); it != started_.rend(); ++it)
        if ((*it)->instance && (*it)->desc->on_stop) (*it)->desc->on_stop((*it)->instance);
    for (auto it = started_.rbegin(); it != started_.rend(); ++it)
        if ((*it)->instance && (*it)->desc->on_destroy) {
            (*it)->desc->on_destroy((*it)->instance);
            (*it)->instance = nullptr;
        }
    for (auto& p : plugins_)  // workers of isolated plugins that were loaded but never started
        if (p->worker) p->worker->stop();
}

}  // namespace platform::host
