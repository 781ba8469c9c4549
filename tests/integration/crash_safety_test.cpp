// Crash safety of acknowledged writes (issue 11) on the `local` profile: store-sqlite and
// events-sqlite under a temporary PLATFORM_HOME, auth-local accounts with personal tokens.
//
// Four clients (crash_workload.hpp) write notes, docs, tasks and store records over HTTP. After a
// seeded random number of answered writes the host is SIGKILLed with writes in flight; every
// SQLite file in the home must then pass `PRAGMA integrity_check` (opened read-only, before any
// restart); the host starts again on the same home and every acknowledged write must read back
// intact — the latest acknowledged value of each record (a write cut short may or may not have
// landed). Five cycles, then a clean stop. docs/reliability.md "Durability of writes" names the
// SQLite setting this relies on.
//
// CRASH_SAFETY_SEED=<n> repeats a run (the seed is printed); CRASH_SAFETY_CYCLES=<n> changes the
// number of kills (default 5).
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <thread>

#include "crash_workload.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "replicas.hpp"

using namespace platform::test;

namespace {

namespace fs = std::filesystem;

constexpr int kClients = 4;
constexpr const char* kAdminSecret = "crash-safety-admin-secret";

unsigned env_number(const char* name, unsigned fallback) {
    const char* v = std::getenv(name);
    return v && *v ? static_cast<unsigned>(std::strtoul(v, nullptr, 10)) : fallback;
}

// The SQLite databases under `dir`, told by their header.
std::vector<std::string> sqlite_files(const std::string& dir) {
    std::vector<std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
        if (!e.is_regular_file()) continue;
        char head[16] = {};
        std::ifstream(e.path(), std::ios::binary).read(head, sizeof head);
        if (std::string(head, sizeof head) == std::string("SQLite format 3\0", 16))
            out.push_back(e.path().string());
    }
    return out;
}

// The rows of PRAGMA integrity_check, joined ("ok" for a sound file); the file opened read-only.
std::string integrity_check(const std::string& path) {
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        std::string error = db ? sqlite3_errmsg(db) : "out of memory";
        sqlite3_close(db);
        return "cannot open: " + error;
    }
    std::string rows;
    char* error = nullptr;
    auto collect = [](void* out, int, char** values, char**) {
        auto& s = *static_cast<std::string*>(out);
        s += (s.empty() ? "" : "; ") + std::string(values[0] ? values[0] : "NULL");
        return 0;
    };
    if (sqlite3_exec(db, "PRAGMA integrity_check", collect, &rows, &error) != SQLITE_OK) {
        rows = std::string("error: ") + (error ? error : "?");
        sqlite3_free(error);
    }
    sqlite3_close(db);
    return rows;
}

// Every SQLite file in the home is sound; answers how many there are.
size_t expect_sound_files(const std::string& home) {
    const auto files = sqlite_files(home);
    for (const auto& f : files) EXPECT_EQ(integrity_check(f), "ok") << f;
    EXPECT_TRUE(fs::exists(home + "/data/store.db"));
    EXPECT_TRUE(fs::exists(home + "/data/events.db"));
    return files.size();
}

// A personal token (never expires, kept in the store) for account `id`, logged in with `secret`.
std::string personal_token(HttpClient& api, const std::string& id, const std::string& secret) {
    auto login = api.post_json("/auth/token", {{"id", id}, {"secret", secret}});
    EXPECT_EQ(login.status, 200) << login.body;
    auto made = api.post_json("/auth/createToken", {{"name", "crash-safety"}},
                              bearer(login.json().value("access_token", "")));
    EXPECT_EQ(made.status, 200) << made.body;
    return made.json().value("token", "");
}

// Reads every client's records back; the problems are reported, the counts summed.
void verify_all(HttpClient& api, std::vector<std::unique_ptr<WriteClient>>& clients,
                WriteCounts& sum) {
    std::vector<std::string> problems;
    for (auto& c : clients) {
        c->counts = {};
        c->verify(api, problems);
        sum.checked += c->counts.checked;
        sum.landed += c->counts.landed;
    }
    for (const auto& p : problems) ADD_FAILURE() << p;
}

void report_restart(unsigned kill, const WriteCounts& sum, bool failed) {
    std::printf(
        "[crash-safety] restart after kill %u: %zu records read back, %s (%zu in-flight "
        "writes had landed)\n",
        kill, sum.checked, failed ? "NOT all intact" : "all intact", sum.landed);
}

TEST(CrashSafety, AcknowledgedWritesSurviveSigkillCycles) {
    const unsigned seed = env_number("CRASH_SAFETY_SEED", std::random_device{}());
    const unsigned cycles = env_number("CRASH_SAFETY_CYCLES", 5);
    std::printf("[crash-safety] seed %u (CRASH_SAFETY_SEED=%u repeats this run), %u cycles\n", seed,
                seed, cycles);
    RecordProperty("seed", std::to_string(seed));
    std::mt19937 rng(seed);
    const auto began = std::chrono::steady_clock::now();

    TempDir home;
    HostProcess::Options opts;
    opts.profile = "local";
    opts.home = home.path();
    opts.env["PLATFORM_ADMIN_SECRET"] = kAdminSecret;
    std::vector<std::unique_ptr<WriteClient>> clients;
    size_t total_acked = 0, total_checked = 0;

    for (unsigned cycle = 1; cycle <= cycles && !HasFailure(); ++cycle) {
        HostProcess host(opts);
        host.start();
        HttpClient api("127.0.0.1", host.api_port());
        WriteCounts sum;
        if (cycle == 1) {
            const std::string admin = personal_token(api, "admin", kAdminSecret);
            for (int i = 0; i < kClients; ++i) {
                const std::string id = "crash-" + std::to_string(i), secret = "secret-of-" + id;
                auto made = api.post_json("/auth/createAccount", {{"id", id}, {"secret", secret}},
                                          bearer(admin));
                ASSERT_EQ(made.status, 200) << made.body;
                clients.push_back(std::make_unique<WriteClient>(i, personal_token(api, id, secret),
                                                                admin, rng()));
            }
        } else {
            verify_all(api, clients, sum);  // what the previous cycle acknowledged
            total_checked += sum.checked;
            report_restart(cycle - 1, sum, HasFailure());
        }

        // The writers, until the kill; the kill after a random number of answered writes.
        const size_t kill_after = std::uniform_int_distribution<size_t>(100, 1500)(rng);
        std::atomic<size_t> answered{0};
        std::atomic<bool> stop{false};
        std::mutex m;
        std::condition_variable cv;
        std::vector<std::thread> writers;
        for (auto& c : clients) {
            c->counts = {};
            writers.emplace_back([&, client = c.get()] {
                HttpClient own("127.0.0.1", host.api_port());
                while (!stop && client->write_one(own)) {
                    ++answered;
                    std::lock_guard<std::mutex> lock(m);
                    cv.notify_all();
                }
            });
        }
        {
            std::unique_lock<std::mutex> lock(m);
            EXPECT_TRUE(
                cv.wait_for(lock, std::chrono::seconds(30), [&] { return answered >= kill_after; }))
                << answered << " of " << kill_after << " writes answered in 30 s\n"
                << host.log();
        }
        EXPECT_EQ(host.stop(SIGKILL), 128 + SIGKILL);
        stop = true;
        for (auto& t : writers) t.join();
        const size_t files = expect_sound_files(home.path());

        for (auto& c : clients) {
            sum.acknowledged += c->counts.acknowledged;
            sum.in_flight += c->counts.in_flight;
            for (const auto& e : c->errors) ADD_FAILURE() << e;
            c->errors.clear();
        }
        total_acked += sum.acknowledged;
        std::printf(
            "[crash-safety] kill %u: after %zu acknowledged writes (%zu more in flight); "
            "%zu SQLite files checked\n",
            cycle, sum.acknowledged, sum.in_flight, files);
    }

    // A last start: everything acknowledged in the last cycle, then a clean stop.
    HostProcess last(opts);
    last.start();
    HttpClient api("127.0.0.1", last.api_port());
    WriteCounts sum;
    verify_all(api, clients, sum);
    total_checked += sum.checked;
    report_restart(cycles, sum, HasFailure());
    EXPECT_EQ(last.stop(), 0) << last.log();
    expect_sound_files(home.path());
    const auto seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    std::printf(
        "[crash-safety] %u cycles, %zu acknowledged writes, %zu record checks, %s, %.1f s\n",
        cycles, total_acked, total_checked,
        HasFailure() ? "FAILURES above" : "every acknowledged write found intact", seconds);
    RecordProperty("acknowledged_writes", std::to_string(total_acked));
}

// Once on the kubernetes profile (support/replicas.hpp): two replicas on store-postgres, broker-nats
// and events-nats with auth-local accounts; the four clients write through both (two each), one
// replica is SIGKILLed after a seeded random number of answered writes, and every write either
// replica acknowledged reads back intact through the survivor, then through the killed replica
// started again on its home. One cycle: the SQLite checks above have no counterpart (PostgreSQL
// recovers its own files); its own ctest entry, crash-safety-kubernetes-test.
TEST(CrashSafetyOnKubernetes, AcknowledgedWritesSurviveTheKillOfAReplica) {
    if (auto why = replicas_skip_reason(); !why.empty()) GTEST_SKIP() << why;
    const unsigned seed = env_number("CRASH_SAFETY_SEED", std::random_device{}());
    std::printf("[crash-safety/kubernetes] seed %u (CRASH_SAFETY_SEED=%u repeats this run)\n", seed,
                seed);
    RecordProperty("seed", std::to_string(seed));
    std::mt19937 rng(seed);
    const auto began = std::chrono::steady_clock::now();

    ReplicaSet::Options o;
    o.lift_rate_limits = true;  // four writers as fast as they go
    ReplicaSet replicas(o);
    replicas.start(0);
    replicas.start(1);
    HttpClient on_a("127.0.0.1", replicas[0].api_port());
    const std::string admin = personal_token(on_a, "admin", ReplicaSet::kAdminSecret);
    std::vector<std::unique_ptr<WriteClient>> clients;
    for (int i = 0; i < kClients; ++i) {
        const std::string id = "crash-" + std::to_string(i), secret = "secret-of-" + id;
        auto made =
            on_a.post_json("/auth/createAccount", {{"id", id}, {"secret", secret}}, bearer(admin));
        ASSERT_EQ(made.status, 200) << made.body;
        clients.push_back(
            std::make_unique<WriteClient>(i, personal_token(on_a, id, secret), admin, rng()));
    }

    // Clients 0 and 1 write through replica 0, 2 and 3 through replica 1, until the kill of 0.
    const size_t kill_after = std::uniform_int_distribution<size_t>(100, 800)(rng);
    std::atomic<size_t> answered{0};
    std::atomic<bool> stop{false};
    std::mutex m;
    std::condition_variable cv;
    std::vector<std::thread> writers;
    for (size_t i = 0; i < clients.size(); ++i) {
        writers.emplace_back([&, client = clients[i].get(), port = replicas[i / 2].api_port()] {
            HttpClient own("127.0.0.1", port);
            while (!stop && client->write_one(own)) {
                ++answered;
                std::lock_guard<std::mutex> lock(m);
                cv.notify_all();
            }
        });
    }
    {
        std::unique_lock<std::mutex> lock(m);
        EXPECT_TRUE(
            cv.wait_for(lock, std::chrono::seconds(60), [&] { return answered >= kill_after; }))
            << answered << " of " << kill_after << " writes answered in 60 s\n"
            << replicas.logs();
    }
    EXPECT_EQ(replicas.kill9(0), 128 + SIGKILL);
    stop = true;
    for (auto& t : writers) t.join();
    WriteCounts sum;
    for (auto& c : clients) {
        sum.acknowledged += c->counts.acknowledged;
        sum.in_flight += c->counts.in_flight;
        for (const auto& e : c->errors) ADD_FAILURE() << e;
        c->errors.clear();
    }
    std::printf(
        "[crash-safety/kubernetes] kill of replica 0 after %zu acknowledged writes across both "
        "(%zu more in flight)\n",
        sum.acknowledged, sum.in_flight);

    // Through the survivor, then through the killed replica started again.
    HttpClient on_b("127.0.0.1", replicas[1].api_port());
    WriteCounts read_b;
    verify_all(on_b, clients, read_b);
    std::printf("[crash-safety/kubernetes] through replica 1: %zu records read back, %s\n",
                read_b.checked, HasFailure() ? "NOT all intact" : "all intact");
    replicas.start(0);
    HttpClient again("127.0.0.1", replicas[0].api_port());
    WriteCounts read_a;
    for (auto& c : clients) c->counts = {};
    std::vector<std::string> problems;
    for (auto& c : clients) {
        c->verify(again, problems);
        read_a.checked += c->counts.checked;
    }
    for (const auto& p : problems) ADD_FAILURE() << "through the restarted replica 0: " << p;
    EXPECT_EQ(read_a.checked, read_b.checked);
    const auto seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    std::printf(
        "[crash-safety/kubernetes] %zu acknowledged writes, %zu + %zu record checks, %s, "
        "%.1f s\n",
        sum.acknowledged, read_b.checked, read_a.checked,
        HasFailure() ? "FAILURES above" : "every acknowledged write found intact", seconds);
    RecordProperty("acknowledged_writes", std::to_string(sum.acknowledged));
}

}  // namespace
