// The work plugin (plugins/work) through the SDK's fake host: `on_call` plays agent/run (scripted
// answers, or held until the test releases it), agent/messages, agent/list and tasks/update.
// Submit, list orders and limits, ownership, retry rules, the state machine, a crash mid-run
// (the store as the dead process left it, a fresh instance on it), 402 -> blocked, grants revoked
// at the end, and the write-back of work made from a task.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "../../../plugins/work/workers.hpp"
#include "../support/plugin_under_test.hpp"
#include "services.hpp"

namespace {

using namespace plugin_test;
using namespace work_test;

class WorkTest : public ::testing::Test {
protected:
    WorkTest() {
        host.on_call = [this](const std::string& s, const std::string& m, const json& req,
                              const std::string& as) { return services.call(s, m, req, as); };
    }
    ~WorkTest() override { services.release(); }

    FakePlugin& load(json config = {{"workers", 1}}) {
        plugin.reset();
        plugin = std::make_unique<FakePlugin>(host.load(platform_plugin_entry, config));
        return *plugin;
    }
    Reply call(const std::string& method, const json& args, const std::string& who = "ann") {
        return plugin->call(method, args, who);
    }
    std::string submit(const json& args, const std::string& who = "ann") {
        Reply r = call("submit", args, who);
        EXPECT_EQ(r.code, PLATFORM_OK) << r.body;
        return r.code == PLATFORM_OK ? r.json().value("id", "") : "";
    }
    // work/get, waiting (wait) up to 5 s for the work to finish.
    json finished(const std::string& id, const std::string& who = "ann") {
        Reply r = call("get", {{"id", id}, {"wait", 5}}, who);
        EXPECT_EQ(r.code, PLATFORM_OK) << r.body;
        return r.code == PLATFORM_OK ? r.json() : json();
    }
    // Polls work/get until the status is `status` (deadline 5 s).
    json until(const std::string& id, const std::string& status, const std::string& who = "ann") {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        json last;
        while (std::chrono::steady_clock::now() < deadline) {
            last = call("get", {{"id", id}}, who).json();
            if (last.value("status", "") == status) return last;
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        ADD_FAILURE() << "work " << id << " never became " << status << ": " << last;
        return last;
    }
    std::vector<std::string> ids(const json& args, const std::string& who = "ann") {
        Reply r = call("list", args, who);
        EXPECT_EQ(r.code, PLATFORM_OK) << r.body;
        std::vector<std::string> out;
        if (r.code != PLATFORM_OK) return out;
        const json body = r.json();
        for (const auto& w : body.at("work")) out.push_back(w.at("id"));
        return out;
    }
    uint64_t grants_made() {
        std::lock_guard<std::mutex> g(host.grants_mutex);
        return host.grant_ids;
    }
    // Grants not yet revoked, once the count settles on `expect` (the cleanup — task write-back,
    // then the revoke — follows the record's final state), or after 5 s.
    size_t live_grants(size_t expect = 0) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        for (;;) {
            size_t n;
            {
                std::lock_guard<std::mutex> g(host.grants_mutex);
                n = host.grants.size();
            }
            if (n == expect || std::chrono::steady_clock::now() >= deadline) return n;
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    }

    Services services;
    FakeHost host;
    std::unique_ptr<FakePlugin> plugin;  // destroyed (stopped, joined) before host
};

TEST(WorkTitle, FirstLineCutOnACharacter) {
    EXPECT_EQ(work::Workers::title("\n  note the code\nmore"), "Work: note the code");
    EXPECT_EQ(work::Workers::title(""), "Work: ");
    const std::string title = work::Workers::title(std::string(73, 'a') + "é and more");
    EXPECT_EQ(title, "Work: " + std::string(73, 'a'));  // 'é' would end past 80 bytes
    EXPECT_EQ(work::Workers::cut("aé", 2), "a");
    EXPECT_EQ(work::Workers::cut("aé", 3), "aé");
}

TEST_F(WorkTest, SubmitRunsOnceAsTheCallerAndGetShowsTheOutcome) {
    load({{"workers", 2}});
    Reply r = call("submit", {{"prompt", "note that the boiler code is 4512\nplease"}});
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    EXPECT_EQ(r.json().at("status"), "todo");
    const std::string id = r.json().at("id");
    json w = finished(id);
    EXPECT_EQ(w.at("status"), "done") << w;
    EXPECT_EQ(w.at("result"), "did: note that the boiler code is 4512\nplease");
    EXPECT_EQ(w.at("thread"), "th-new");  // the conversation agent/run delivered into
    EXPECT_EQ(w.at("error"), nullptr);
    EXPECT_EQ(w.at("attempts"), 1);
    ASSERT_EQ(w.at("steps").size(), 1u);
    EXPECT_EQ(w.at("steps")[0].at("tool"), "notes_add");
    EXPECT_EQ(w.at("progress").at("steps"), 1);
    EXPECT_TRUE(w.at("created").is_string() && w.at("started").is_string() &&
                w.at("finished").is_string())
        << w;
    EXPECT_EQ(w.dump().find("grant"), std::string::npos) << w;  // never shown

    ASSERT_EQ(services.run_count(), 1u);
    const json run = services.runs[0];
    EXPECT_EQ(run.at("_as"), "ann");  // through ann's grant
    EXPECT_EQ(run.at("channel"), "web");
    EXPECT_EQ(run.at("title"), "Work: note that the boiler code is 4512");
    EXPECT_FALSE(run.contains("thread"));
    EXPECT_FALSE(run.contains("agent"));
    EXPECT_EQ(live_grants(), 0u);  // revoked at the end

    json a = call("read", {{"id", id}}).json();  // surface A's shape
    EXPECT_EQ(a.at("work").at("id"), id);
    EXPECT_EQ(a.at("work").at("status"), "done");
}

TEST_F(WorkTest, SubmitChecksItsArguments) {
    load();
    services.hold();  // nothing finishes meanwhile
    Reply big = call("submit", {{"prompt", std::string(8001, 'x')}});
    EXPECT_EQ(big.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_NE(big.body.find("prompt"), std::string::npos) << big.body;
    std::string accents;
    for (int i = 0; i < 4001; ++i) accents += "é";  // 4001 characters, 8002 bytes
    EXPECT_EQ(call("submit", {{"prompt", accents}}).code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(call("submit", {{"prompt", ""}}).code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(call("submit", {{"prompt", "hi"}}, "").code, PLATFORM_UNAUTHENTICATED);

    Reply foreign = call("submit", {{"prompt", "HOLD continue"}, {"thread", "th-ann"}}, "bob");
    EXPECT_EQ(foreign.code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(foreign.body, "thread: no such conversation");
    Reply agent = call("submit", {{"prompt", "HOLD hi"}, {"agent", "nobody"}});
    EXPECT_EQ(agent.code, PLATFORM_NOT_FOUND);
    EXPECT_NE(agent.body.find("agent: no such agent 'nobody'"), std::string::npos) << agent.body;
    EXPECT_TRUE(ids(json::object(), "bob").empty());
    EXPECT_TRUE(ids(json::object()).empty());
    EXPECT_EQ(live_grants(), 0u);  // refused submissions take no grant

    EXPECT_EQ(call("submit", {{"prompt", std::string(8000, 'x')}}).code,
              PLATFORM_OK);  // the limit itself
    const std::string id =
        submit({{"prompt", "HOLD go on"}, {"thread", "th-ann"}, {"agent", "keeper"}});
    services.release();
    json w = finished(id);
    EXPECT_EQ(w.at("thread"), "th-ann");
    EXPECT_EQ(w.at("agent"), "keeper");
    EXPECT_EQ(services.runs.back().at("thread"), "th-ann");
    EXPECT_EQ(services.runs.back().at("agent"), "keeper");
}

TEST_F(WorkTest, AnotherOwnersWorkIsNotFound) {
    load();
    const std::string id = submit({{"prompt", "mine"}});
    finished(id);
    for (const char* method : {"get", "read", "retry"}) {
        Reply r = call(method, {{"id", id}}, "bob");
        EXPECT_EQ(r.code, PLATFORM_NOT_FOUND) << method;
        EXPECT_EQ(r.body, "id: no such work") << method;
    }
    EXPECT_EQ(call("get", {{"id", "wk-nothing"}}).code, PLATFORM_NOT_FOUND);
    EXPECT_TRUE(ids(json::object(), "bob").empty());
    EXPECT_EQ(ids(json::object()), std::vector<std::string>{id});
    EXPECT_EQ(call("get", {{"id", id}}, "").code, PLATFORM_UNAUTHENTICATED);
}

TEST_F(WorkTest, ListsOpenWorkOldestFirstThenRecentCompletions) {
    load();  // one worker: jobs run in queue order
    services.scripted = {answer(PLATFORM_OK, R"({"text":"a","thread":"th-1","steps":[]})"),
                         answer(PLATFORM_INTERNAL, "the model broke"),
                         answer(PLATFORM_PAYMENT_REQUIRED, "needs 1 credit; you have 0")};
    const std::string a = submit({{"prompt", "a"}}), b = submit({{"prompt", "b"}}),
                      c = submit({{"prompt", "c"}});
    EXPECT_EQ(finished(c).at("status"), "blocked");
    EXPECT_EQ(finished(b).at("status"), "failed");
    EXPECT_EQ(finished(a).at("status"), "done");
    services.hold();
    const std::string d = submit({{"prompt", "HOLD d"}});
    ASSERT_TRUE(services.wait_held());
    const std::string e = submit({{"prompt", "e"}});
    EXPECT_EQ(until(d, "doing").at("status"), "doing");
    json todo = call("get", {{"id", e}}).json();
    EXPECT_EQ(todo.at("status"), "todo");
    EXPECT_EQ(todo.at("progress").at("ahead"), 0);  // d left the queue when it started

    EXPECT_EQ(ids(json::object()), (std::vector<std::string>{d, e, c, b, a}));
    EXPECT_EQ(ids({{"status", "failed"}}), std::vector<std::string>{b});
    EXPECT_EQ(ids({{"status", "todo"}}), std::vector<std::string>{e});
    EXPECT_EQ(ids({{"limit", 2}}), (std::vector<std::string>{d, e}));
    EXPECT_EQ(ids({{"offset", 3}, {"limit", 2}}), (std::vector<std::string>{b, a}));
    json page = call("list", {{"offset", 4}}).json();
    EXPECT_EQ(page.at("total"), 5);
    EXPECT_EQ(page.at("work").size(), 1u);
    EXPECT_FALSE(page.at("work")[0].contains("steps"));
    for (const json& bad : {json{{"status", "nope"}}, json{{"limit", 0}}, json{{"limit", 101}},
                            json{{"offset", -1}}, json{{"limit", "ten"}}}) {
        Reply r = call("list", bad);
        EXPECT_EQ(r.code, PLATFORM_INVALID_ARGUMENT) << bad;
        EXPECT_NE(r.body.find(bad.begin().key()), std::string::npos) << r.body;
    }
    services.release();
    EXPECT_EQ(finished(e).at("status"), "done");
}

TEST_F(WorkTest, StatesGoTodoDoingDoneAndTheWaitFollowsThem) {
    load();
    services.hold();
    const std::string id = submit({{"prompt", "HOLD step by step"}});
    ASSERT_TRUE(services.wait_held());
    json doing = until(id, "doing");
    EXPECT_TRUE(doing.at("started").is_string());
    EXPECT_EQ(doing.at("finished"), nullptr);
    EXPECT_EQ(doing.at("result"), nullptr);
    std::thread later([this] { services.release(); });
    json done = finished(id);  // wait answers once it is done
    later.join();
    EXPECT_EQ(done.at("status"), "done");
    EXPECT_EQ(call("get", {{"id", id}, {"wait", 61}}).code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(services.run_count(), 1u);
}

TEST_F(WorkTest, RetryOnlyFailedOrBlockedWorkWithAFreshGrantAndItRunsOnce) {
    load();
    services.scripted = {answer(PLATFORM_BAD_GATEWAY, "upstream failed"),
                         answer(PLATFORM_PAYMENT_REQUIRED, "needs 1 credit")};
    const std::string failed = submit({{"prompt", "first"}}),
                      blocked = submit({{"prompt", "second"}});
    json f = finished(failed), b = finished(blocked);
    EXPECT_EQ(f.at("status"), "failed");
    EXPECT_EQ(f.at("error"), "upstream failed");
    EXPECT_EQ(b.at("status"), "blocked");
    EXPECT_EQ(b.at("error"), "needs 1 credit");
    EXPECT_EQ(live_grants(), 0u);
    EXPECT_EQ(services.run_count(), 2u);

    Reply again = call("retry", {{"id", failed}});
    ASSERT_EQ(again.code, PLATFORM_OK) << again.body;
    EXPECT_EQ(again.json().at("status"), "todo");
    EXPECT_EQ(again.json().at("attempts"), 2);
    json f2 = finished(failed);
    EXPECT_EQ(f2.at("status"), "done");
    EXPECT_EQ(f2.at("error"), nullptr);
    EXPECT_EQ(f2.at("attempts"), 2);
    EXPECT_EQ(services.run_count(), 3u);  // once more, not twice
    EXPECT_EQ(grants_made(), 3u);         // a fresh grant for the retry...
    EXPECT_EQ(live_grants(), 0u);         // ...revoked when it ended

    Reply done = call("retry", {{"id", failed}});
    EXPECT_EQ(done.code, PLATFORM_CONFLICT);
    EXPECT_EQ(done.body, "id: work is done; only failed or blocked work can be retried");
    EXPECT_EQ(call("retry", {{"id", blocked}}).code, PLATFORM_OK);
    EXPECT_EQ(finished(blocked).at("status"), "done");
    EXPECT_EQ(services.run_count(), 4u);

    services.hold();
    const std::string held = submit({{"prompt", "HOLD busy"}}),
                      queued = submit({{"prompt", "queued"}});
    ASSERT_TRUE(services.wait_held());
    until(held, "doing");
    Reply r1 = call("retry", {{"id", held}}), r2 = call("retry", {{"id", queued}});
    EXPECT_EQ(r1.code, PLATFORM_CONFLICT);
    EXPECT_EQ(r1.body, "id: work is doing; only failed or blocked work can be retried");
    EXPECT_EQ(r2.body, "id: work is todo; only failed or blocked work can be retried");
    services.release();
    finished(queued);
    EXPECT_EQ(services.run_count(), 6u);
}

TEST_F(WorkTest, PaymentRequiredBlocksAndTheGrantIsRevoked) {
    load();
    services.scripted = {answer(PLATFORM_PAYMENT_REQUIRED, "needs 1 credit; you have 0")};
    const std::string id = submit({{"prompt", "expensive"}});
    json w = finished(id);
    EXPECT_EQ(w.at("status"), "blocked");
    EXPECT_EQ(w.at("error"), "needs 1 credit; you have 0");
    EXPECT_EQ(w.at("result"), nullptr);
    EXPECT_EQ(grants_made(), 1u);
    EXPECT_EQ(live_grants(), 0u);
}

TEST_F(WorkTest, ACrashMidRunLeavesFailedInterruptedWorkThatRetryRunsOnce) {
    load();
    services.hold();
    const std::string held = submit({{"prompt", "HOLD note the code"}});
    ASSERT_TRUE(services.wait_held());
    until(held, "doing");
    const std::string q1 = submit({{"prompt", "queued one"}}),
                      q2 = submit({{"prompt", "queued two"}});
    // The store and grants as a process killed now leaves them.
    std::map<std::string, FakeHost::Entry> crashed;
    std::map<std::string, std::string> grants;
    {
        std::lock_guard<std::mutex> g(host.store_mutex);
        crashed = host.store;
    }
    {
        std::lock_guard<std::mutex> g(host.grants_mutex);
        grants = host.grants;
    }
    EXPECT_EQ(grants.size(), 3u);  // the held job's and the two queued ones'
    services.release();
    plugin.reset();  // the old instance ends; its late outcome is not in the crashed store
    {
        std::lock_guard<std::mutex> g(host.store_mutex);
        host.store = crashed;
    }
    {
        std::lock_guard<std::mutex> g(host.grants_mutex);
        host.grants = grants;
    }
    const size_t runs_before = services.run_count();  // the held one, and the queued ones it ran

    load();
    json w = call("get", {{"id", held}}).json();
    EXPECT_EQ(w.at("status"), "failed") << w;
    EXPECT_EQ(w.at("error"), "interrupted");
    EXPECT_EQ(finished(q1).at("status"), "done");  // queued work runs after the restart
    EXPECT_EQ(finished(q2).at("status"), "done");
    EXPECT_EQ(services.run_count(), runs_before + 2);  // never the interrupted one
    for (size_t i = runs_before; i < services.run_count(); ++i)
        EXPECT_EQ(services.runs[i].at("prompt").get<std::string>().find("HOLD"), std::string::npos);
    EXPECT_EQ(live_grants(), 0u);  // the interrupted job's grant too

    ASSERT_EQ(call("retry", {{"id", held}}).code, PLATFORM_OK);
    json again = finished(held);
    EXPECT_EQ(again.at("status"), "done");
    EXPECT_EQ(again.at("attempts"), 2);
    EXPECT_EQ(services.run_count(), runs_before + 3);
    EXPECT_EQ(live_grants(), 0u);
}

TEST_F(WorkTest, ACrashBetweenClaimAndQueueUpdateIsInterruptedToo) {
    load();
    services.hold();
    const std::string id = submit({{"prompt", "HOLD claimed"}});
    ASSERT_TRUE(services.wait_held());
    until(id, "doing");
    std::map<std::string, FakeHost::Entry> crashed;
    {
        std::lock_guard<std::mutex> g(host.store_mutex);
        crashed = host.store;
    }
    services.release();
    plugin.reset();
    // The moment after the compare-and-set: the record is doing, its queue entry not yet gone.
    std::string running, ref;
    for (auto& [k, v] : crashed)
        if (k.rfind("running/", 0) == 0) running = k, ref = v.value;
    ASSERT_FALSE(running.empty());
    crashed.erase(running);
    crashed["queue/00000000000000000001-" + id] = {ref, 0};
    {
        std::lock_guard<std::mutex> g(host.store_mutex);
        host.store = crashed;
    }
    const size_t runs_before = services.run_count();
    load();
    json w = call("get", {{"id", id}}).json();
    EXPECT_EQ(w.at("status"), "failed");
    EXPECT_EQ(w.at("error"), "interrupted");
    EXPECT_TRUE(ids({{"status", "todo"}}).empty());
    EXPECT_EQ(services.run_count(), runs_before);
}

TEST_F(WorkTest, WorkFromATaskWritesItsOutcomeBack) {
    load();
    services.hold();
    Reply r = call("from_task", {{"task", "t1"}, {"prompt", "HOLD file the report"}});
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    const std::string id = r.json().at("id");
    ASSERT_TRUE(services.wait_held());
    Reply same =
        call("from_task", {{"task", "t1"}, {"prompt", "HOLD file the report"}});  // open: not twice
    EXPECT_EQ(same.json().at("id"), id);
    EXPECT_EQ(grants_made(), 1u);
    services.release();
    json w = finished(id);
    EXPECT_EQ(w.at("status"), "done");
    EXPECT_EQ(w.at("task"), "t1");
    EXPECT_EQ(services.run_count(), 1u);
    EXPECT_EQ(live_grants(), 0u);  // after the write-back
    std::vector<json> updates;
    {
        std::lock_guard<std::mutex> g(services.m);
        updates = services.task_updates;
    }
    ASSERT_EQ(updates.size(), 2u);
    EXPECT_EQ(updates[0], (json{{"id", "t1"}, {"status", "doing"}, {"_as", "ann"}}));
    EXPECT_EQ(updates[1], (json{{"id", "t1"},
                                {"status", "done"},
                                {"result", "did: HOLD file the report"},
                                {"_as", "ann"}}));
    EXPECT_EQ(live_grants(), 0u);

    services.scripted = {answer(PLATFORM_UNAVAILABLE, "no model is configured")};
    const std::string next =
        call("from_task", {{"task", "t1"}, {"prompt", "again"}}).json().at("id");
    EXPECT_NE(next, id);  // the earlier work ended: the task set back to todo queues anew
    EXPECT_EQ(finished(next).at("status"), "failed");
    EXPECT_EQ(live_grants(), 0u);
    {
        std::lock_guard<std::mutex> g(services.m);
        ASSERT_EQ(services.task_updates.size(), 4u);
        EXPECT_EQ(services.task_updates[3].at("status"), "failed");
        EXPECT_EQ(services.task_updates[3].at("result"), "no model is configured");
    }
    EXPECT_EQ(call("from_task", {{"task", "t2"}, {"prompt", std::string(8001, 'x')}}).code,
              PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(call("from_task", {{"task", "t2"}, {"prompt", "x"}}, "").code,
              PLATFORM_UNAUTHENTICATED);
}

TEST_F(WorkTest, RefusesToStartOnAStoreWithoutCompareAndSet) {
    host.store_features &= ~static_cast<uint64_t>(PLATFORM_STORE_CAS);
    EXPECT_THROW(load(), std::runtime_error);  // on_start failed: the host refuses the plugin
    bool logged = false;
    for (const auto& line : host.logs)
        logged = logged || line.find("cannot recover the queue") != std::string::npos;
    EXPECT_TRUE(logged);
}

}  // namespace
