// replicas.hpp — host replicas on profiles/kubernetes.yaml: several `platform server` processes,
// each with its own PLATFORM_HOME and ports, sharing one PostgreSQL database (store-postgres) and
// one nats-server (broker-nats, events-nats), with the same PLATFORM_CONFIG_SECRET_KEY so each
// opens what another sealed. Replica 0 gets the servers as PLATFORM_POSTGRES_URL and
// PLATFORM_NATS_URL, the others as --postgres_url and --nats_url. A set that changes nothing in
// the profile starts its replicas with `--profile kubernetes`; the others write a copy with their
// changes.
//
//   if (auto why = replicas_skip_reason(); !why.empty()) GTEST_SKIP() << why;
//   ReplicaSet set;                         // a PostgreSQL database of its own; nothing started
//   set.start(0); set.start(1);             // two replicas
//   HttpClient a("127.0.0.1", set[0].api_port()), b("127.0.0.1", set[1].api_port());
//   std::string admin = access_token(a, "admin", ReplicaSet::kAdminSecret);
//   set.kill9(0); set.start(0);             // a crash, then the same replica (home) again
//
// The servers: tests/support/postgres_server.hpp and nats_server.hpp (ctest's fixtures, or started
// by this process). Each set gets its own database (PLATFORM_POSTGRES_URL names it), so tests
// running at once never share a store; they share the nats-server (their topics differ).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "host_process.hpp"

namespace platform::test {

// Why replicas cannot run here, to skip with ("" when PostgreSQL and nats-server are there).
std::string replicas_skip_reason();

class ReplicaSet {
public:
    static constexpr const char* kAdminSecret = "replicas-admin-secret";
    // 64 hex digits: the AES-256-GCM key every replica shares.
    static constexpr const char* kSecretKey =
        "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

    struct Options {
        // "auth-local" (the kubernetes profile) or "auth-noop" (the profile with auth-noop's
        // block in place of auth-local's: the bearer text is the account id; `admin` is an admin).
        std::string auth = "auth-local";
        std::string extra;  // YAML sections appended to the profile (outbound: ...)
        std::vector<std::pair<std::string, std::string>>
            plugin_config;                       // (plugin, "key: value" lines)
        std::map<std::string, std::string> env;  // for every replica
        // Leaves out the profile's http.rate_limit and http.account_rate_limit, for tests that
        // write as fast as they can (the kubernetes profile limits each account to tens of
        // requests a second).
        bool lift_rate_limits = false;
    };

    ReplicaSet() : ReplicaSet(Options{}) {}
    explicit ReplicaSet(Options options);
    ~ReplicaSet();  // stops the replicas still running (SIGTERM), drops the database
    ReplicaSet(const ReplicaSet&) = delete;
    ReplicaSet& operator=(const ReplicaSet&) = delete;

    // Starts replica `i` (0, 1, ...) on its own home — the same home each time — and waits for its
    // listening line (throws with the log when it does not come).
    HostProcess& start(size_t i);
    // Starts replicas 0..n-1 at the same time (each waits for its listening line).
    void start_together(size_t n);
    // SIGKILL of replica `i` (nothing flushed, no clean-up); answers its exit status.
    int kill9(size_t i);
    // SIGTERM; answers its exit status.
    int stop(size_t i);
    // Replica `i` as last started (stopped or killed ones keep their log).
    HostProcess& operator[](size_t i) { return *hosts_.at(i); }

    // What replica `i` is started with (its profile, home and environment).
    HostProcess::Options options(size_t i);
    const std::string& profile_path() const { return profile_; }
    const std::string& postgres_url() const { return postgres_url_; }
    const std::string& database() const { return database_; }
    // The end of each started replica's log (the access log left out), for failure messages.
    std::string logs() const;

private:
    Options options_;
    std::unique_ptr<TempDir> dir_;
    std::vector<std::unique_ptr<TempDir>> homes_;
    std::vector<std::unique_ptr<HostProcess>> hosts_;
    std::string profile_, database_, postgres_url_;
};

}  // namespace platform::test
