// The work plugin as replicas sharing one store (plugin_test::Replicas: instances on one fake
// host, each with its node id, joined by a broker): a replica starting leaves the work another
// runs alone, work queued on one is run by an idle other (woken by the broker, or by the keeper's
// tick without one), and the work of a runner whose lease lapsed is failed "interrupted" once,
// with its cleanup done once.
#include "../support/replicas.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "../support/plugin_under_test.hpp"
#include "services.hpp"

namespace {

using namespace plugin_test;
using namespace work_test;

json settings(int64_t poll_ms = 60000) {
    return {{"workers", 1}, {"lease_ms", 2000}, {"poll_ms", poll_ms}};
}

class WorkReplicasTest : public ::testing::Test {
protected:
    WorkReplicasTest() {
        host.on_call = [this](const std::string& s, const std::string& m, const json& req,
                              const std::string& as) { return services.call(s, m, req, as); };
    }
    ~WorkReplicasTest() override {
        services.release();
        replicas.stop_all();
    }

    FakePlugin& load(const std::string& node, const json& config = settings()) {
        return replicas.load(platform_plugin_entry, config, node);
    }
    std::string submit(FakePlugin& p, const std::string& prompt) {
        Reply r = p.call("submit", {{"prompt", prompt}}, "ann");
        EXPECT_EQ(r.code, PLATFORM_OK) << r.body;
        return r.code == PLATFORM_OK ? r.json().value("id", "") : "";
    }
    json get(FakePlugin& p, const std::string& id) {
        Reply r = p.call("get", {{"id", id}}, "ann");
        EXPECT_EQ(r.code, PLATFORM_OK) << r.body;
        return r.code == PLATFORM_OK ? r.json() : json();
    }
    // Polls work/get until the status is `status` (deadline 10 s).
    json until(FakePlugin& p, const std::string& id, const std::string& status) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        json last;
        while (std::chrono::steady_clock::now() < deadline) {
            last = get(p, id);
            if (last.value("status", "") == status) return last;
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        ADD_FAILURE() << "work " << id << " never became " << status << ": " << last;
        return last;
    }
    json stored(const std::string& key) {
        std::lock_guard<std::mutex> g(host.store_mutex);
        auto it = host.store.find(key);
        return it == host.store.end() ? json() : json::parse(it->second.value);
    }
    size_t live_grants() {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        for (;;) {
            size_t n;
            {
                std::lock_guard<std::mutex> g(host.grants_mutex);
                n = host.grants.size();
            }
            if (n == 0 || std::chrono::steady_clock::now() >= deadline) return n;
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    }

    Services services;
    FakeHost host;
    Replicas replicas{host};  // destroyed (instances stopped) before host
};

TEST_F(WorkReplicasTest, AReplicaStartingLeavesTheWorkAnotherRunsAlone) {
    FakePlugin& a = load("node-a");
    services.hold();
    const std::string id = submit(a, "HOLD long job");
    ASSERT_TRUE(services.wait_held());
    EXPECT_EQ(until(a, id, "doing").at("status"), "doing");
    EXPECT_EQ(stored("work/ann/" + id).value("runner", ""), "node-a");

    FakePlugin& b = load("node-b");  // its start repairs the store: not node-a's live work
    EXPECT_EQ(get(b, id).at("status"), "doing");
    EXPECT_GT(stored("runner/node-b").value("alive_until", int64_t{0}), 0);
    services.release();
    json done = until(b, id, "done");
    EXPECT_EQ(done.at("attempts"), 1);
    EXPECT_EQ(services.run_count(), 1u);
    EXPECT_EQ(live_grants(), 0u);

    replicas.stop(a);  // a clean stop ends the lease at once
    EXPECT_EQ(stored("runner/node-a").value("alive_until", int64_t{-1}), 0);
}

TEST_F(WorkReplicasTest, WorkQueuedOnABusyReplicaIsRunByAnIdleOneWokenByTheBroker) {
    FakePlugin& a = load("node-a");
    services.hold();
    const std::string held = submit(a, "HOLD keeps a busy");
    ASSERT_TRUE(services.wait_held());
    FakePlugin& b = load("node-b");  // idle; its keeper would look only after a minute
    const int before = replicas.published.load();
    const std::string queued = submit(a, "queued on a");
    EXPECT_GT(replicas.published.load(), before);  // platform.work.queued
    json done = until(b, queued, "done");          // while a's only worker is still busy
    EXPECT_EQ(done.at("result"), "did: queued on a");
    EXPECT_EQ(stored("work/ann/" + queued).value("runner", ""), "node-b");
    EXPECT_EQ(get(a, held).at("status"), "doing");
    services.release();
    until(a, held, "done");
    EXPECT_EQ(services.run_count(), 2u);
}

TEST_F(WorkReplicasTest, WithoutABrokerTheKeepersTickFindsWorkQueuedElsewhere) {
    replicas.broker_up = false;
    FakePlugin& a = load("node-a");
    services.hold();
    const std::string held = submit(a, "HOLD keeps a busy");
    ASSERT_TRUE(services.wait_held());
    FakePlugin& b = load("node-b", settings(100));
    const std::string queued = submit(a, "queued on a");
    EXPECT_EQ(until(b, queued, "done").at("status"), "done");
    services.release();
    until(a, held, "done");
    EXPECT_EQ(services.run_count(), 2u);
}

TEST_F(WorkReplicasTest, ALapsedRunnersWorkIsFailedOnceAndCleanedUpOnce) {
    FakePlugin& a = load("node-a", {{"workers", 1}});  // default lease: 30 s
    services.hold();
    Reply r = a.call("from_task", {{"task", "t1"}, {"prompt", "HOLD file the report"}}, "ann");
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    const std::string id = r.json().at("id");
    ASSERT_TRUE(services.wait_held());
    until(a, id, "doing");
    // The store and grants as they are when node-a's machine dies now.
    std::map<std::string, FakeHost::Entry> died;
    std::map<std::string, std::string> grants;
    {
        std::lock_guard<std::mutex> g(host.store_mutex);
        died = host.store;
    }
    {
        std::lock_guard<std::mutex> g(host.grants_mutex);
        grants = host.grants;
    }
    services.release();
    replicas.stop(a);
    {
        std::lock_guard<std::mutex> g(host.store_mutex);
        host.store = died;
    }
    {
        std::lock_guard<std::mutex> g(host.grants_mutex);
        host.grants = grants;
    }
    const size_t runs = services.run_count();
    size_t updates;
    {
        std::lock_guard<std::mutex> g(services.m);
        updates = services.task_updates.size();  // {status: doing}, and a's own write-back
    }

    // Two replicas sweeping every 500 ms; node-a's lease still runs: its work is left alone.
    FakePlugin& b = load("node-b");
    FakePlugin& c = load("node-c");
    EXPECT_EQ(get(b, id).at("status"), "doing");
    EXPECT_EQ(get(c, id).at("status"), "doing");
    {
        std::lock_guard<std::mutex> g(host.store_mutex);
        host.store["runner/node-a"] = {json{{"node", "node-a"}, {"alive_until", 1}}.dump(), 0};
    }
    json failed = until(c, id, "failed");
    EXPECT_EQ(failed.at("error"), "interrupted");
    EXPECT_EQ(failed.at("attempts"), 1);
    const std::string taker = stored("work/ann/" + id).value("runner", "");
    EXPECT_TRUE(taker == "node-b" || taker == "node-c") << taker;
    EXPECT_EQ(live_grants(), 0u);  // the grant revoked after the write-back
    load("node-d");                // a third replica's start-up repair does not take it again
    replicas.stop_all();           // no sweep is under way any more
    EXPECT_EQ(services.run_count(), runs);  // never run again by itself
    std::vector<json> written;
    {
        std::lock_guard<std::mutex> g(services.m);
        written.assign(services.task_updates.begin() + static_cast<long>(updates),
                       services.task_updates.end());
    }
    ASSERT_EQ(written.size(), 1u);  // the write-back, once
    EXPECT_EQ(written[0].at("status"), "failed");
    EXPECT_EQ(written[0].at("result"), "interrupted");
    EXPECT_EQ(stored("running/ann/" + id), json());  // cleaned up
}

TEST_F(WorkReplicasTest, TheSameNodeRestartingFailsItsOwnWorkAtOnce) {
    FakePlugin& a = load("node-a", {{"workers", 1}});
    services.hold();
    const std::string id = submit(a, "HOLD until the crash");
    ASSERT_TRUE(services.wait_held());
    until(a, id, "doing");
    FakePlugin& b = load("node-b");
    std::map<std::string, FakeHost::Entry> died;
    {
        std::lock_guard<std::mutex> g(host.store_mutex);
        died = host.store;
    }
    services.release();
    replicas.stop(a);
    {
        std::lock_guard<std::mutex> g(host.store_mutex);
        died["runner/node-b"] = host.store["runner/node-b"];  // b's lease as b keeps it
        host.store = died;
    }
    FakePlugin& again = load("node-a", {{"workers", 1}});  // node-a's lease still runs
    json w = get(again, id);
    EXPECT_EQ(w.at("status"), "failed") << w;
    EXPECT_EQ(w.at("error"), "interrupted");
    EXPECT_EQ(get(b, id).at("status"), "failed");
}

}  // namespace
