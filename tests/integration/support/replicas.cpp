#include "replicas.hpp"

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>
#include <stdexcept>

#include "build_tree.hpp"
#include "nats_server.hpp"
#include "postgres_server.hpp"
#include "profiles.hpp"

namespace platform::test {

namespace {

constexpr const char* kNoopAuth = R"(  auth:
    plugin: auth-noop
    config:
      admins: [admin]
)";

// The profile's auth provider block (`  auth:` and the lines nested under it) replaced by
// auth-noop's.
std::string with_noop_auth(std::string text) {
    const auto at = text.find("\n  auth:\n    plugin: auth-local\n");
    if (at == std::string::npos) throw std::runtime_error("the profile has no auth-local block");
    size_t end = at + 1;  // past the lines indented deeper than `  auth:`
    for (size_t next = text.find('\n', end); next != std::string::npos;
         next = text.find('\n', end)) {
        end = next + 1;
        const size_t indent = text.find_first_not_of(' ', end);
        if (indent != std::string::npos && text[indent] != '\n' && indent - end <= 2) break;
    }
    text.replace(at + 1, end - at - 1, kNoopAuth);
    return text;
}

// `text` without the mapping key `key` (a line `<indent>key:`) and the lines nested under it.
std::string without_key(const std::string& text, const std::string& key) {
    std::istringstream in(text);
    std::string out;
    size_t dropping = std::string::npos;  // the indentation of the key being left out
    for (std::string line; std::getline(in, line);) {
        const size_t indent = line.find_first_not_of(' ');
        if (dropping != std::string::npos) {
            if (indent == std::string::npos || indent > dropping) continue;
            dropping = std::string::npos;
        }
        if (indent != std::string::npos && line.compare(indent, key.size() + 1, key + ":") == 0) {
            dropping = indent;
            continue;
        }
        out += line + "\n";
    }
    return out;
}

}  // namespace

std::string replicas_skip_reason() {
    if (PostgresServer::get().dsn().empty()) return PostgresServer::get().reason();
    if (!NatsServer::shared())
        return std::getenv("PLATFORM_NATS_DIR")
                   ? "no nats-server: the ctest fixture integration-nats-start could not start "
                     "one (see its output)"
                   : "no nats-server: install Debian's 'nats-server' package (scripts/deps.sh)";
    return "";
}

ReplicaSet::ReplicaSet(Options options)
    : options_(std::move(options)), dir_(std::make_unique<TempDir>()) {
    static std::atomic<int> n{0};
    database_ = "replicas_" + std::to_string(::getpid()) + "_" + std::to_string(n++);
    postgres_url_ = PostgresServer::get().create_database(database_);
    if (postgres_url_.empty())
        throw std::runtime_error("replicas: cannot create database " + database_ + " on " +
                                 PostgresServer::get().dsn());
    std::string text = profile_text("kubernetes");
    if (options_.auth == "auth-noop") text = with_noop_auth(text);
    for (const auto& [plugin, settings] : options_.plugin_config)
        text = with_plugin_config(text, plugin, settings);
    if (options_.lift_rate_limits)
        text = without_key(without_key(text, "rate_limit"), "account_rate_limit");
    if (options_.auth != "auth-noop" && options_.extra.empty() && options_.plugin_config.empty() &&
        !options_.lift_rate_limits) {
        profile_ = "kubernetes";  // the tree's profile by its name, as an operator starts it
        return;
    }
    profile_ = dir_->path() + "/kubernetes.yaml";
    std::ofstream(profile_) << text << "\n" << options_.extra << "\n";
}

ReplicaSet::~ReplicaSet() {
    // Together: each replica's SIGTERM waits for its own drain.
    std::vector<std::future<void>> stopping;
    for (auto& h : hosts_)
        if (h) stopping.push_back(std::async(std::launch::async, [&h] { h->stop(); }));
    for (auto& f : stopping) f.wait();
    hosts_.clear();
    PostgresServer::get().drop_database(database_);
}

HostProcess::Options ReplicaSet::options(size_t i) {
    while (homes_.size() <= i) homes_.push_back(std::make_unique<TempDir>());
    HostProcess::Options o;
    o.profile = profile_;
    o.home = homes_[i]->path();
    o.env = options_.env;
    // Replica 0 is given the servers in the environment, the others by flag: both ways an
    // operator may use.
    if (i == 0) {
        o.env["PLATFORM_POSTGRES_URL"] = postgres_url_;
        o.env["PLATFORM_NATS_URL"] = NatsServer::shared()->url();
    } else {
        o.args = {"--postgres_url", postgres_url_, "--nats_url", NatsServer::shared()->url()};
    }
    o.env["PLATFORM_CONFIG_SECRET_KEY"] = kSecretKey;
    o.env["PLATFORM_ADMIN_SECRET"] = kAdminSecret;
    return o;
}

HostProcess& ReplicaSet::start(size_t i) {
    HostProcess::Options o = options(i);
    while (hosts_.size() <= i) hosts_.emplace_back();
    hosts_[i] = std::make_unique<HostProcess>(std::move(o));
    hosts_[i]->start();
    return *hosts_[i];
}

void ReplicaSet::start_together(size_t n) {
    for (size_t i = 0; i < n; ++i) options(i);  // the homes, before the threads
    while (hosts_.size() < n) hosts_.emplace_back();
    std::vector<std::future<void>> starting;
    for (size_t i = 0; i < n; ++i) {
        hosts_[i] = std::make_unique<HostProcess>(options(i));
        starting.push_back(std::async(std::launch::async, [h = hosts_[i].get()] { h->start(); }));
    }
    for (auto& f : starting) f.get();  // rethrows a start's failure
}

int ReplicaSet::kill9(size_t i) {
    return hosts_.at(i)->stop(SIGKILL);
}

int ReplicaSet::stop(size_t i) {
    return hosts_.at(i)->stop();
}

std::string ReplicaSet::logs() const {
    std::string out;
    for (size_t i = 0; i < hosts_.size(); ++i) {
        if (!hosts_[i]) continue;
        // Without the access log's lines (one JSON object per request), the last 80 lines.
        std::vector<std::string> lines;
        std::istringstream in(hosts_[i]->log());
        for (std::string line; std::getline(in, line);)
            if (line.rfind("{\"bytes\":", 0) != 0) lines.push_back(line);
        out += "---- replica " + std::to_string(i) + " (last lines but the access log) ----\n";
        for (size_t l = lines.size() > 80 ? lines.size() - 80 : 0; l < lines.size(); ++l)
            out += lines[l] + "\n";
    }
    return out;
}

}  // namespace platform::test
