// The fixture of the firing tests (firing_test.cpp, firing_steps_test.cpp): the calendar plugin
// on the SDK's fake host, whose settable clock (`now_ms`) stands for the business clock and whose
// `on_call` plays agent/run, agent/post (recorded in `seen`, with the clock at the call) and
// auth/me (`zones`), and notify (devices, send: recorded in `pushes`) for the accounts in
// `notifiable` (for the others, no notify service), and mail/post (recorded in `letters`) for the
// accounts in `mailboxes` (for the others, no mail service). The scheduler polls every 20 ms here; "nothing happened" is checked after two
// complete passes over the due index that began after the clock was set (settle), never after a
// sleep.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "../support/plugin_under_test.hpp"
#include "scheduler.hpp"

namespace firing_test {

using namespace plugin_test;

inline int64_t at(const std::string& rfc3339) {
    return calendar::parse_rfc3339(rfc3339).value().utc_s;
}

struct Seen {
    std::string method, account;
    json request;
    int64_t now_ms;  // the business clock when the call was made
};

class FiringTest : public ::testing::Test {
protected:
    void SetUp() override {
        set_clock("2027-03-01T00:00:00Z");
        host.on_call = [this](const std::string& service, const std::string& method,
                              const json& req, const std::string& account) {
            Reply r;
            r.code = PLATFORM_OK;
            if (service == "auth" && method == "me") {
                const auto z = zones.find(account);
                r.body =
                    json{{"account",
                          {{"id", account},
                           {"metadata", {{"timezone", z == zones.end() ? "UTC" : z->second}}}}}}
                        .dump();
                return r;
            }
            if (service == "notify" && notifiable.count(account)) {
                std::lock_guard<std::mutex> g(m);
                if (method == "send") pushes.push_back({method, account, req, host.now_ms});
                r.body = method == "devices" ? R"({"notifiable":true})" : R"({"sent":1})";
                return r;
            }
            if (service == "mail" && method == "post" && mailboxes.count(account)) {
                std::lock_guard<std::mutex> g(m);
                letters.push_back({method, account, req, host.now_ms});
                r.body = json{{"id", "m" + std::to_string(letters.size())}}.dump();
                return r;
            }
            if (service != "agent" || (method != "run" && method != "post"))
                return r.code = PLATFORM_NOT_FOUND, r;
            if (call_ms)
                std::this_thread::sleep_for(std::chrono::milliseconds(call_ms));  // a slower agent
            std::lock_guard<std::mutex> g(m);
            seen.push_back({method, account, req, host.now_ms});
            if (method == "run" && run_failure.code != PLATFORM_OK) return run_failure;
            const std::string n = std::to_string(seen.size());
            r.body = method == "run" ? json{{"text", "answer " + n},
                                            {"thread", "th-" + n},
                                            {"steps", json::array()},
                                            {"model", "fake"}}
                                           .dump()
                                     : json{{"thread", "th-" + n}}.dump();
            return r;
        };
        plugin = load();
    }
    void TearDown() override { plugin.reset(); }

    std::unique_ptr<FakePlugin> load() {
        return std::make_unique<FakePlugin>(
            host.load(platform_plugin_entry, {{"start_delay_ms", 0}, {"poll_ms", 20}}));
    }
    void set_clock(const std::string& rfc3339) { host.now_ms = at(rfc3339) * 1000; }

    json ok(const std::string& method, const json& args, const std::string& who = "alice") {
        Reply r = plugin->call(method, args, who);
        EXPECT_EQ(r.code, PLATFORM_OK) << method << ": " << r.body;
        return r.code == PLATFORM_OK ? r.json() : json();
    }
    json read(const std::string& id, const std::string& who = "alice") {
        return ok("read", {{"id", id}}, who);
    }

    std::vector<Seen> calls(const std::string& method = "") {
        std::lock_guard<std::mutex> g(m);
        std::vector<Seen> out;
        for (const auto& s : seen)
            if (method.empty() || s.method == method) out.push_back(s);
        return out;
    }
    // Polls `done` until it holds or 10 s pass.
    template <class F>
    bool wait_for(F done) {
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (!done()) {
            if (std::chrono::steady_clock::now() > until) return false;
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        return true;
    }
    bool wait_calls(size_t n, const std::string& method = "") {
        return wait_for([&] { return calls(method).size() >= n; });
    }
    // Two whole passes began after this call: whatever was due has been handled.
    void settle() {
        const uint64_t from = calendar::Scheduler::passes();
        ASSERT_TRUE(wait_for([&] { return calendar::Scheduler::passes() >= from + 2; }));
    }
    std::vector<std::string> due_keys() {
        std::lock_guard<std::mutex> g(host.store_mutex);
        std::vector<std::string> out;
        for (const auto& [k, v] : host.store)
            if (k.rfind("due/", 0) == 0) out.push_back(k);
        return out;
    }
    std::map<std::string, std::string> due_entries() {
        std::lock_guard<std::mutex> g(host.store_mutex);
        std::map<std::string, std::string> out;
        for (const auto& [k, v] : host.store)
            if (k.rfind("due/", 0) == 0) out[k] = v.value;
        return out;
    }
    std::map<std::string, std::string> grants() {
        std::lock_guard<std::mutex> g(host.grants_mutex);
        return host.grants;
    }

    FakeHost host;
    std::map<std::string, std::string> zones{{"alice", "Europe/London"}, {"bob", "UTC"}};
    std::mutex m;
    std::vector<Seen> seen;
    std::set<std::string> notifiable;  // accounts with a device: notify answers for them
    std::vector<Seen> pushes;          // their notify/send calls
    std::set<std::string> mailboxes;   // accounts mail/post answers for (others: no mail service)
    std::vector<Seen> letters;         // their mail/post calls
    Reply run_failure{PLATFORM_OK, "", "", {}};
    int call_ms = 0;
    std::unique_ptr<FakePlugin> plugin;
};

}  // namespace firing_test
