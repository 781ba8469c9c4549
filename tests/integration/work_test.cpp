// The work service (plugins/work) on the real host. WorkApi (test profile, the offline
// model-builtin): submitted work runs later as its owner through a grant (agent/run, notes as the
// caller), surface B and surface A, ownership, list filters, retry rules, 402 -> blocked then
// retried once credit came, a task for the agent becoming work. WorkOnModelServer (a SQLite store,
// model-openai against the scripted fake model server, one worker): work/get's `wait` over MCP
// sends a progress notification at each change of status; a graceful stop during a run does not
// wait for it and leaves it interrupted; and a job held inside the model while two more wait, the
// host SIGKILLed and started again — the queued jobs complete, the held one is failed
// "interrupted", and work/retry runs it once (one more model request, not two).
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <thread>

#include "catalogue_test.hpp"
#include "fake_model_server.hpp"
#include "mcp_client.hpp"
#include "profiles.hpp"
#include "text_search.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

// work/get (surface B) until `done(work)` holds or 60 s pass; each poll waits up to 2 s for a
// change.
json poll(HttpClient& api, const std::string& id, const std::string& who,
          const std::function<bool(const json&)>& done) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    json last;
    while (std::chrono::steady_clock::now() < deadline) {
        auto r = api.get("/api/v1/work/get?id=" + id + "&wait=2", bearer(who));
        if (r.status != 200) {
            ADD_FAILURE() << "work/get " << id << ": " << r.status << " " << r.body;
            return json();
        }
        last = r.json()["data"];
        if (done(last)) return last;
    }
    ADD_FAILURE() << "work " << id << " did not get there in 60 s: " << last;
    return last;
}

json finished(HttpClient& api, const std::string& id, const std::string& who) {
    return poll(api, id, who, [](const json& w) {
        const std::string s = w.value("status", "");
        return s == "done" || s == "failed" || s == "blocked";
    });
}

std::vector<std::string> ids(const json& list) {
    std::vector<std::string> out;
    for (const auto& w : list.value("work", json::array())) out.push_back(w.value("id", ""));
    return out;
}

class WorkApi : public platform::test::CatalogueTest {
protected:
    WorkApi() : CatalogueTest("work") {}

    std::string submit(const json& body, const std::string& who) {
        auto r = post("submit", body, who);
        EXPECT_EQ(r.status, 200) << r.body << host->log();
        return r.status == 200 ? r.json()["data"].value("id", "") : "";
    }
};

TEST_F(WorkApi, SubmittedWorkRunsLaterAsItsOwner) {
    auto r = post("submit", {{"prompt", "note that the boiler code is 4512"}}, "ann");
    ASSERT_EQ(r.status, 200) << r.body << host->log();
    const json data = r.json()["data"];
    EXPECT_EQ(data["status"], "todo");
    const std::string id = data.value("id", "");
    ASSERT_FALSE(id.empty()) << r.body;

    const json w = finished(api, id, "ann");
    ASSERT_EQ(w["status"], "done") << w << host->log();
    EXPECT_TRUE(w["result"].is_string() && !w["result"].get<std::string>().empty()) << w;
    EXPECT_TRUE(w["thread"].is_string()) << w;  // the reply was delivered into a conversation
    bool added = false;
    for (const auto& step : w["steps"])
        added = added || (step["tool"] == "notes_add" && step["outcome"] == "ok");
    EXPECT_TRUE(added) << w;
    EXPECT_EQ(w["attempts"], 1);
    EXPECT_FALSE(has(w.dump(), "grant")) << w;

    auto notes = api.get("/api/v1/notes/list", as("ann"));  // written through notes, as ann
    EXPECT_TRUE(has(notes.body, "4512")) << notes.body;
    EXPECT_FALSE(has(api.get("/api/v1/notes/list", as("bob")).body, "4512"));

    auto theirs = get("get?id=" + id, "bob");
    EXPECT_EQ(theirs.status, 404) << theirs.body;
    EXPECT_TRUE(has(theirs.body, "id: no such work")) << theirs.body;
    EXPECT_EQ(post("retry", {{"id", id}}, "bob").status, 404);

    auto again = post("retry", {{"id", id}}, "ann");
    EXPECT_EQ(again.status, 409) << again.body;
    EXPECT_TRUE(has(again.body, "id: work is done; only failed or blocked work can be retried"))
        << again.body;
}

TEST_F(WorkApi, ListsFilterAndPage) {
    const std::string a = submit({{"prompt", "what are my notes"}}, "cat");
    finished(api, a, "cat");
    const std::string b = submit({{"prompt", "list my tasks"}}, "cat");
    finished(api, b, "cat");
    auto all = get("list", "cat");
    ASSERT_EQ(all.status, 200) << all.body;
    EXPECT_EQ(ids(all.json()["data"]),
              (std::vector<std::string>{b, a}));  // most recently finished first
    EXPECT_EQ(all.json()["data"]["total"], 2);
    EXPECT_EQ(ids(get("list?status=done&limit=1", "cat").json()["data"]),
              std::vector<std::string>{b});
    EXPECT_EQ(ids(get("list?status=done&offset=1", "cat").json()["data"]),
              std::vector<std::string>{a});
    EXPECT_TRUE(ids(get("list?status=todo", "cat").json()["data"]).empty());
    EXPECT_EQ(post("list", {{"status", "done"}}, "cat").status, 200);  // a read answers POST too
    EXPECT_TRUE(ids(get("list", "dan").json()["data"]).empty());
    expect_400(get("list?status=nope", "cat"), "status");
    expect_400(get("list?limit=0", "cat"), "limit");
    expect_400(get("list?limit=101", "cat"), "limit");
    expect_400(get("list?offset=-1", "cat"), "offset");
}

TEST_F(WorkApi, SubmitRefusesBadArguments) {
    expect_400(post("submit", {{"prompt", std::string(8001, 'x')}}, "ann"), "prompt");
    expect_400(post("submit", {{"prompt", ""}}, "ann"), "prompt");
    EXPECT_EQ(api.post_json("/api/v1/work/submit", {{"prompt", "hi"}}).status, 401);
    EXPECT_EQ(api.get("/api/v1/work/submit?prompt=hi", as("ann")).status, 405);

    // Another account's conversation: 404 at submit, nothing queued.
    auto ask = api.post_json("/api/v1/agent/ask", {{"prompt", "hello"}}, as("ann"));
    ASSERT_EQ(ask.status, 200) << ask.body;
    const std::string thread = ask.json()["data"]["thread"];
    auto foreign = post("submit", {{"prompt", "hi"}, {"thread", thread}}, "eve");
    EXPECT_EQ(foreign.status, 404) << foreign.body;
    EXPECT_TRUE(has(foreign.body, "thread: no such conversation")) << foreign.body;
    EXPECT_TRUE(ids(get("list", "eve").json()["data"]).empty());
    // The owner's: the result lands in that conversation.
    const std::string id = submit({{"prompt", "what are my notes"}, {"thread", thread}}, "ann");
    const json w = finished(api, id, "ann");
    EXPECT_EQ(w["status"], "done") << w;
    EXPECT_EQ(w["thread"], thread);
    // The internal endpoint is not reachable from outside.
    EXPECT_EQ(post("from_task", {{"task", "t"}, {"prompt", "x"}}, "ann").status, 404);
}

TEST_F(WorkApi, WithoutCreditWorkIsBlockedAndRetriedOnceCreditCame) {
    auto rpc = [&](const std::string& method, const json& request) {
        return api.post_json("/rpc",
                             {{"service", "billing"}, {"method", method}, {"request", request}},
                             as("admin"));
    };
    ASSERT_EQ(rpc("Billing.SetAllowance", {{"account", "ivy"}, {"allowance_per_day", 0}}).status,
              200);
    const std::string id =
        submit({{"prompt", "what are my notes"}}, "ivy");  // accepted: it pays when it runs
    const json blocked = finished(api, id, "ivy");
    EXPECT_EQ(blocked["status"], "blocked") << blocked;
    EXPECT_TRUE(has(blocked.value("error", ""), "credit")) << blocked;
    ASSERT_EQ(rpc("Billing.AddCredit", {{"account", "ivy"}, {"amount", 1}}).status, 200);
    auto retried = post("retry", {{"id", id}}, "ivy");
    ASSERT_EQ(retried.status, 200) << retried.body;
    EXPECT_EQ(retried.json()["data"]["attempts"], 2);
    const json done = finished(api, id, "ivy");
    EXPECT_EQ(done["status"], "done") << done;
    auto balance = api.post_json(
        "/rpc",
        {{"service", "billing"}, {"method", "Billing.Balance"}, {"request", json::object()}},
        as("ivy"));
    EXPECT_EQ(balance.json()["credit"], 0) << balance.body;  // charged once
}

TEST_F(WorkApi, SurfaceAPostsListsAndGetsWork) {
    auto posted =
        api.post_json("/work", {{"prompt", "note that the gate code is 7731"}}, as("fay"));
    ASSERT_EQ(posted.status, 200) << posted.body;
    const std::string id = posted.json().value("id", "");
    ASSERT_FALSE(id.empty()) << posted.body;  // bare, no envelope
    EXPECT_FALSE(posted.json().contains("data")) << posted.body;

    finished(api, id, "fay");
    auto one = api.get("/work/" + id, as("fay"));
    ASSERT_EQ(one.status, 200) << one.body;
    const json work = one.json()["work"];
    EXPECT_EQ(work["status"], "done") << one.body;
    EXPECT_TRUE(work["result"].is_string()) << one.body;
    EXPECT_TRUE(work["progress"].is_object()) << one.body;

    auto list = api.get("/work", as("fay"));
    ASSERT_EQ(list.status, 200) << list.body;
    EXPECT_EQ(ids(list.json()), std::vector<std::string>{id});
    EXPECT_EQ(api.get("/work/" + id, as("gus")).status, 404);
    EXPECT_EQ(api.post_json("/work", {{"prompt", "hi"}}).status, 401);
}

TEST_F(WorkApi, ATaskForTheAgentBecomesWorkAndGetsItsOutcome) {
    auto created = api.post_json(
        "/api/v1/tasks/create",
        {{"title", "note that the locker code is 2210"}, {"assignee", "agent"}}, as("hal"));
    ASSERT_EQ(created.status, 200) << created.body;
    const std::string task = created.json()["data"]["id"];
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    json t;
    while (std::chrono::steady_clock::now() < deadline) {
        t = api.get("/api/v1/tasks/read?id=" + task, as("hal")).json()["data"];
        if (t.value("status", "") == "done" || t.value("status", "") == "failed") break;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    EXPECT_EQ(t["status"], "done") << t << host->log();
    EXPECT_FALSE(t.value("result", "").empty()) << t;
    auto list = get("list", "hal");
    ASSERT_EQ(list.status, 200);
    ASSERT_EQ(list.json()["data"]["work"].size(), 1u) << list.body;
    EXPECT_EQ(list.json()["data"]["work"][0]["task"], task);
    EXPECT_TRUE(has(api.get("/api/v1/notes/list", as("hal")).body, "2210"));
}

// ---- durability across a crash ------------------------------------------------------------------

// profiles/test.yaml with the store in SQLite under `home`, one worker, and the outbound allow-list
// for the fake model server (model-openai, chosen by OPENAI_API_KEY).
class WorkOnModelServer : public ::testing::Test {
protected:
    void SetUp() override {
        const std::string text =
            with_plugin_config(with_sqlite_store(test_profile_text(), home.path() + "/store.db"),
                               "work", "workers: 1");
        options_ = model_server_host(model, home.path() + "/work-restart.yaml", text);
        options_.home = home.path();
    }
    HostProcess::Options options() { return options_; }
    size_t model_requests() { return model.requests(FakeModelServer::kOpenAiPath).size(); }
    // Until the model has seen `n` requests (30 s at most).
    bool model_saw(size_t n) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        while (model_requests() < n && std::chrono::steady_clock::now() < deadline)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        return model_requests() >= n;
    }

    FakeModelServer model;
    TempDir home;
    HostProcess::Options options_;
    std::string id_;
};

TEST_F(WorkOnModelServer, WaitingOverMcpReportsEachChangeOfStatus) {
    using M = FakeModelServer;
    model.hold(M::kOpenAiPath);
    model.enqueue(M::kOpenAiPath, M::ok(M::openai_text("finished while you waited")));
    HostProcess host(options());
    host.start();
    HttpClient api("127.0.0.1", host.api_port());
    auto submitted =
        api.post_json("/api/v1/work/submit", {{"prompt", "take your time"}}, bearer("ann"));
    ASSERT_EQ(submitted.status, 200) << submitted.body << host.log();
    const std::string id = submitted.json()["data"]["id"];
    ASSERT_TRUE(model_saw(1)) << host.log();  // doing, inside the model

    McpClient mcp(host.api_port(), "ann");
    mcp.initialize();
    const std::string body = json{{"jsonrpc", "2.0"},
                                  {"id", 7},
                                  {"method", "tools/call"},
                                  {"params",
                                   {{"name", "work_get"},
                                    {"arguments", {{"id", id}, {"wait", 20}}},
                                    {"_meta", {{"progressToken", "w-1"}}}}}}
                                 .dump();
    std::string request =
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(host.api_port()) +
        "\r\nContent-Type: application/json\r\n";
    for (const auto& [k, v] : mcp.headers()) request += k + ": " + v + "\r\n";
    request += "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
    HttpClient stream("127.0.0.1", host.api_port());
    stream.send_raw(request);
    // The first notification says it is doing; only then does the model answer.
    std::string got;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (!has(got, "is doing") && std::chrono::steady_clock::now() < deadline)
        got += stream.read_some();
    ASSERT_TRUE(has(got, "is doing")) << got;
    EXPECT_TRUE(has(got, "notifications/progress")) << got;
    EXPECT_TRUE(has(got, "w-1")) << got;
    model.release(M::kOpenAiPath);
    while (!has(got, "finished while you waited") && std::chrono::steady_clock::now() < deadline)
        got += stream.read_some();
    EXPECT_TRUE(has(got, "is done")) << got;  // a second notification, at the change
    EXPECT_LT(got.find("is doing"), got.find("is done")) << got;
    EXPECT_TRUE(has(got, "finished while you waited")) << got;  // the result: work_get's answer
    EXPECT_EQ(host.stop(), 0) << host.log();
}

TEST_F(WorkOnModelServer, AGracefulStopDuringARunLeavesTheWorkInterrupted) {
    using M = FakeModelServer;
    model.hold(M::kOpenAiPath);
    model.enqueue(M::kOpenAiPath, M::ok(M::openai_text("too late")));
    HostProcess::Options o = options();
    {
        HostProcess host(o);
        host.start();
        HttpClient api("127.0.0.1", host.api_port());
        auto r = api.post_json("/api/v1/work/submit", {{"prompt", "slow work"}}, bearer("ann"));
        ASSERT_EQ(r.status, 200) << r.body << host.log();
        id_ = r.json()["data"]["id"];
        ASSERT_TRUE(model_saw(1)) << host.log();
        EXPECT_EQ(host.stop(), 0) << host.log();  // does not wait for the run to end
    }
    model.release(M::kOpenAiPath);
    HostProcess again(o);
    again.start();
    HttpClient api("127.0.0.1", again.api_port());
    auto w = api.get("/api/v1/work/get?id=" + id_, bearer("ann"));
    ASSERT_EQ(w.status, 200) << w.body;
    EXPECT_EQ(w.json()["data"]["status"], "failed") << w.body;
    EXPECT_EQ(w.json()["data"]["error"], "interrupted") << w.body;
    EXPECT_EQ(model_requests(), 1u);
    EXPECT_EQ(again.stop(), 0) << again.log();
}

TEST_F(WorkOnModelServer, QueuedWorkSurvivesAKillAndInterruptedWorkIsRetriedOnce) {
    using M = FakeModelServer;
    HostProcess first(options());
    first.start();
    HttpClient a("127.0.0.1", first.api_port());
    model.enqueue(M::kOpenAiPath, M::never());  // the first job stays inside the model
    auto held =
        a.post_json("/api/v1/work/submit", {{"prompt", "remember the held job"}}, bearer("ann"));
    ASSERT_EQ(held.status, 200) << held.body << first.log();
    const std::string h = held.json()["data"]["id"];
    ASSERT_TRUE(model_saw(1)) << first.log();
    EXPECT_EQ(poll(a, h, "ann", [](const json& w) { return w["status"] == "doing"; })["status"],
              "doing");
    const std::string q1 =
        a.post_json("/api/v1/work/submit", {{"prompt", "queued one"}}, bearer("ann"))
            .json()["data"]["id"];
    const std::string q2 =
        a.post_json("/api/v1/work/submit", {{"prompt", "queued two"}}, bearer("ann"))
            .json()["data"]["id"];
    auto todo = a.get("/api/v1/work/list?status=todo", bearer("ann"));
    EXPECT_EQ(ids(todo.json()["data"]), (std::vector<std::string>{q1, q2})) << todo.body;
    model.enqueue(M::kOpenAiPath, M::ok(M::openai_text("queued one is done")));
    model.enqueue(M::kOpenAiPath, M::ok(M::openai_text("queued two is done")));
    EXPECT_EQ(first.stop(SIGKILL), 128 + SIGKILL);

    HostProcess second(options());
    second.start();
    HttpClient b("127.0.0.1", second.api_port());
    const json w1 = finished(b, q1, "ann"), w2 = finished(b, q2, "ann");
    EXPECT_EQ(w1["status"], "done") << w1 << second.log();
    EXPECT_EQ(w1["result"], "queued one is done");
    EXPECT_EQ(w2["status"], "done") << w2;
    EXPECT_EQ(w2["result"], "queued two is done");
    auto interrupted = b.get("/api/v1/work/get?id=" + h, bearer("ann"));
    ASSERT_EQ(interrupted.status, 200) << interrupted.body;
    EXPECT_EQ(interrupted.json()["data"]["status"], "failed") << interrupted.body;
    EXPECT_EQ(interrupted.json()["data"]["error"], "interrupted") << interrupted.body;
    EXPECT_EQ(model_requests(), 3u);  // the held one was not run again

    model.enqueue(M::kOpenAiPath, M::ok(M::openai_text("the held job is done")));
    auto retried = b.post_json("/api/v1/work/retry", {{"id", h}}, bearer("ann"));
    ASSERT_EQ(retried.status, 200) << retried.body << second.log();
    const json again = finished(b, h, "ann");
    EXPECT_EQ(again["status"], "done") << again;
    EXPECT_EQ(again["result"], "the held job is done");
    EXPECT_EQ(again["attempts"], 2);
    EXPECT_EQ(model_requests(), 4u);  // once more, not twice
    EXPECT_EQ(b.post_json("/api/v1/work/retry", {{"id", h}}, bearer("ann")).status, 409);
    EXPECT_EQ(second.stop(), 0) << second.log();
}

}  // namespace
