// apps/build against the real host: a durable build in the work queue that asks the model (a
// scripted OpenAI-format model on loopback, or the offline model-builtin) for the app —
// queued -> complete with a saved private app; the same request_key (or the same prompt without
// one) is one build; a kill -9 during a build leaves it failed "interrupted", never built twice;
// a model that answers no app or an app that would load from outside fails with the reason; bad
// input is 4xx naming the argument.
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <memory>
#include <thread>

#include "catalogue_test.hpp"
#include "fake_model_server.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "profiles.hpp"

using nlohmann::json;
using namespace platform::test;
using M = FakeModelServer;

namespace {

const std::string kHtml =
    "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>Tip</title></head>\n"
    "<body><label>Bill <input id=\"b\" type=\"number\"></label><p id=\"t\"></p>\n<script>\n"
    "document.getElementById('b').oninput = e => {\n"
    "  document.getElementById('t').textContent = (e.target.value * 0.15).toFixed(2);\n"
    "};\n</script></body></html>\n";

json app_html_call(const std::string& name, const std::string& html) {
    return M::openai_tool_call(
        "call_1", "app_html", {{"name", name}, {"description", "Works out a tip"}, {"html", html}});
}

// A host on the test profile with its store in SQLite under a temp home (so a restart keeps the
// builds and the work queue), one work worker, and model-openai pointed at the fake model server.
class AppsBuild : public ::testing::Test {
protected:
    void SetUp() override {
        const std::string text =
            with_plugin_config(with_sqlite_store(test_profile_text(), home.path() + "/store.db"),
                               "work", "workers: 1");
        options_ = model_server_host(model, home.path() + "/apps-build.yaml", text);
        options_.home = home.path();
    }
    std::unique_ptr<HostProcess> start() {
        auto host = std::make_unique<HostProcess>(options_);
        host->start();
        api = std::make_unique<HttpClient>("127.0.0.1", host->api_port());
        return host;
    }
    HttpResult build(const json& body, const std::string& who = "bd-ann") {
        return api->post_json("/api/v1/apps/build", body, bearer(who));
    }
    // buildstatus until the build is complete or failed (each call waits up to 5 s; 60 s at most).
    json finished(const std::string& id, const std::string& who = "bd-ann") {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
        json b;
        while (std::chrono::steady_clock::now() < deadline) {
            auto r = api->get("/api/v1/apps/buildstatus?wait=5&id=" + id, bearer(who));
            if (r.status != 200) return json{{"http", r.status}, {"body", r.body}};
            b = r.json()["data"];
            if (b["status"] == "complete" || b["status"] == "failed") break;
        }
        return b;
    }
    size_t model_requests() { return model.requests(M::kOpenAiPath).size(); }
    bool model_saw(size_t n) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        while (model_requests() < n && std::chrono::steady_clock::now() < deadline)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        return model_requests() >= n;
    }

    FakeModelServer model;
    TempDir home;
    HostProcess::Options options_;
    std::unique_ptr<HttpClient> api;
};

TEST_F(AppsBuild, QueuedThenCompleteWithASavedPrivateApp) {
    model.enqueue(M::kOpenAiPath, M::ok(app_html_call("Tip Calculator", kHtml)));
    auto host = start();
    auto queued = build({{"prompt", "a tip calculator"}});
    ASSERT_EQ(queued.status, 200) << queued.body << host->log();
    const json q = queued.json()["data"];
    const std::string id = q["id"];
    EXPECT_EQ(id.rfind("build_", 0), 0u) << id;
    EXPECT_TRUE(q["status"] == "queued" || q["status"] == "building" || q["status"] == "complete")
        << q;
    EXPECT_EQ(q["status_url"], "/api/v1/apps/buildstatus?id=" + id);
    EXPECT_EQ(q["deduplicated"], false);

    const json done = finished(id);
    ASSERT_EQ(done["status"], "complete") << done << host->log();
    const json app = done["app"];
    EXPECT_EQ(app["slug"].get<std::string>().rfind("tip-calculator", 0), 0u) << app;
    EXPECT_EQ(app["html"], kHtml);
    EXPECT_EQ(app["public"], false);
    EXPECT_EQ(app["price"], 0);
    EXPECT_EQ(app["source"], json({{"kind", "build"}, {"id", id}}));
    EXPECT_EQ(done["error"], nullptr);

    // What the model was asked: the prompt, and only the tool that hands the app back.
    auto seen = model.requests(M::kOpenAiPath);
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(M::openai_tool_names(seen[0].body), std::vector<std::string>{"app_html"});
    EXPECT_NE(seen[0].text.find("a tip calculator"), std::string::npos);

    // The app is the owner's, like any other; read answers the build too; builds lists it.
    auto read =
        api->get("/api/v1/apps/read?slug=" + app["slug"].get<std::string>(), bearer("bd-ann"));
    EXPECT_EQ(read.json()["data"]["html"], kHtml) << read.body;
    EXPECT_EQ(api->get("/api/v1/apps/read?slug=" + app["slug"].get<std::string>(), bearer("bd-bob"))
                  .status,
              404);
    auto status = api->get("/api/v1/apps/read?slug=" + id, bearer("bd-ann"));
    ASSERT_EQ(status.status, 200) << status.body;
    EXPECT_EQ(status.json()["data"]["status"], "complete");
    auto list = api->get("/api/v1/apps/builds", bearer("bd-ann"));
    ASSERT_EQ(list.status, 200) << list.body;
    ASSERT_EQ(list.json()["data"]["builds"].size(), 1u) << list.body;
    EXPECT_EQ(list.json()["data"]["builds"][0]["id"], id);
    EXPECT_FALSE(list.json()["data"]["builds"][0]["app"].contains("html"));
    // Another account sees nothing of it.
    EXPECT_EQ(api->get("/api/v1/apps/buildstatus?id=" + id, bearer("bd-bob")).status, 404);
    EXPECT_EQ(api->get("/api/v1/apps/read?slug=" + id, bearer("bd-bob")).status, 404);
    EXPECT_EQ(api->get("/api/v1/apps/builds", bearer("bd-bob")).json()["data"]["builds"].size(),
              0u);
    // The build is a job of the work queue, named for what it is.
    auto work = api->get("/api/v1/work/list", bearer("bd-ann"));
    ASSERT_EQ(work.json()["data"]["work"].size(), 1u) << work.body;
    EXPECT_EQ(work.json()["data"]["work"][0]["status"], "done");
    EXPECT_EQ(work.json()["data"]["work"][0]["prompt"], "App build: a tip calculator");
    EXPECT_EQ(work.json()["data"]["work"][0]["call"],
              json({{"service", "apps"}, {"method", "build_run"}}));
    EXPECT_EQ(host->stop(), 0) << host->log();
}

TEST_F(AppsBuild, TheSameRequestKeyOrPromptIsOneBuild) {
    model.hold(M::kOpenAiPath);
    model.enqueue(M::kOpenAiPath, M::ok(app_html_call("Keyed", kHtml)));
    model.enqueue(M::kOpenAiPath, M::ok(app_html_call("Unkeyed", kHtml)));
    auto host = start();
    auto first = build({{"prompt", "a tip calculator"}, {"request_key", "k-1"}});
    ASSERT_EQ(first.status, 200) << first.body << host->log();
    auto again = build({{"prompt", "a tip calculator"}, {"request_key", "k-1"}});
    ASSERT_EQ(again.status, 200) << again.body;
    EXPECT_EQ(again.json()["data"]["id"], first.json()["data"]["id"]);
    EXPECT_EQ(again.json()["data"]["deduplicated"], true);
    // The key is what counts: another prompt with the same key is still that build.
    EXPECT_EQ(build({{"prompt", "something else"}, {"request_key", "k-1"}}).json()["data"]["id"],
              first.json()["data"]["id"]);
    // Without a key, the same description is one build (not the keyed one).
    auto plain = build({{"prompt", "a tip calculator"}});
    auto plain2 = build({{"prompt", "a tip calculator"}});
    EXPECT_NE(plain.json()["data"]["id"], first.json()["data"]["id"]);
    EXPECT_EQ(plain2.json()["data"]["id"], plain.json()["data"]["id"]);
    // The same key of another account is another build.
    auto bobs = build({{"prompt", "a tip calculator"}, {"request_key", "k-1"}}, "bd-bob");
    EXPECT_NE(bobs.json()["data"]["id"], first.json()["data"]["id"]);
    model.enqueue(M::kOpenAiPath, M::ok(app_html_call("Bob's", kHtml)));
    model.release(M::kOpenAiPath);

    EXPECT_EQ(finished(first.json()["data"]["id"])["status"], "complete") << host->log();
    EXPECT_EQ(finished(plain.json()["data"]["id"])["status"], "complete");
    EXPECT_EQ(finished(bobs.json()["data"]["id"], "bd-bob")["status"], "complete");
    EXPECT_EQ(model_requests(), 3u);
    EXPECT_EQ(api->get("/api/v1/apps/builds", bearer("bd-ann")).json()["data"]["builds"].size(),
              2u);
    EXPECT_EQ(api->get("/api/v1/apps/collection", bearer("bd-ann")).json()["data"]["apps"].size(),
              2u);
    EXPECT_EQ(host->stop(), 0) << host->log();
}

TEST_F(AppsBuild, AKillDuringABuildFailsItAsInterruptedAndNeverBuildsTwice) {
    model.enqueue(M::kOpenAiPath, M::never());  // the build stays inside the model
    std::string id;
    {
        auto host = start();
        auto queued = build({{"prompt", "a slow app"}, {"request_key", "slow-1"}});
        ASSERT_EQ(queued.status, 200) << queued.body << host->log();
        id = queued.json()["data"]["id"];
        ASSERT_TRUE(model_saw(1)) << host->log();
        EXPECT_EQ(api->get("/api/v1/apps/buildstatus?id=" + id, bearer("bd-ann"))
                      .json()["data"]["status"],
                  "building");
        EXPECT_EQ(host->stop(SIGKILL), 128 + SIGKILL);
    }
    model.enqueue(M::kOpenAiPath, M::ok(app_html_call("Too late", kHtml)));
    auto host = start();
    const json b = finished(id);
    EXPECT_EQ(b["status"], "failed") << b << host->log();
    EXPECT_EQ(b["error"].get<std::string>().rfind("interrupted", 0), 0u) << b;
    // A retry with the same key answers that build; nothing is built again.
    auto retry = build({{"prompt", "a slow app"}, {"request_key", "slow-1"}});
    ASSERT_EQ(retry.status, 200) << retry.body;
    EXPECT_EQ(retry.json()["data"]["id"], id);
    EXPECT_EQ(retry.json()["data"]["status"], "failed");
    // Nor does retrying its work job: the build runs only from queued.
    auto jobs = api->get("/api/v1/work/list", bearer("bd-ann")).json()["data"]["work"];
    ASSERT_EQ(jobs.size(), 1u) << jobs;
    auto again = api->post_json("/api/v1/work/retry", {{"id", jobs[0]["id"]}}, bearer("bd-ann"));
    ASSERT_EQ(again.status, 200) << again.body;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    json w;
    while (std::chrono::steady_clock::now() < deadline) {
        w = api->get("/api/v1/work/get?wait=5&id=" + jobs[0]["id"].get<std::string>(),
                     bearer("bd-ann"))
                .json()["data"];
        if (w["status"] == "failed" || w["status"] == "done") break;
    }
    EXPECT_EQ(w["status"], "failed") << w;
    EXPECT_NE(w["error"].get<std::string>().find("a build runs once"), std::string::npos) << w;
    EXPECT_EQ(model_requests(), 1u);
    EXPECT_EQ(api->get("/api/v1/apps/collection", bearer("bd-ann")).json()["data"]["apps"].size(),
              0u);
    EXPECT_EQ(host->stop(), 0) << host->log();
}

TEST_F(AppsBuild, NoAppOrAnAppThatLoadsFromOutsideFailsWithTheReason) {
    model.enqueue(M::kOpenAiPath, M::ok(M::openai_text("I would rather not.")));
    model.enqueue(M::kOpenAiPath,
                  M::ok(app_html_call("Outside",
                                      "<!doctype html><script "
                                      "src=\"https://cdn.example.com/x.js\"></script>")));
    model.enqueue(M::kOpenAiPath, M::status(500, M::openai_error("overloaded")));
    auto host = start();
    const json words = finished(build({{"prompt", "first"}}).json()["data"]["id"]);
    EXPECT_EQ(words["status"], "failed") << words << host->log();
    EXPECT_EQ(words["error"], "the model did not build an app: I would rather not.");
    const json outside = finished(build({{"prompt", "second"}}).json()["data"]["id"]);
    EXPECT_EQ(outside["status"], "failed") << outside;
    ASSERT_FALSE(outside["problems"].empty()) << outside;
    EXPECT_EQ(outside["problems"][0]["rule"], "external") << outside;
    EXPECT_NE(outside["error"].get<std::string>().find("external"), std::string::npos);
    const json upstream = finished(build({{"prompt", "third"}}).json()["data"]["id"]);
    EXPECT_EQ(upstream["status"], "failed") << upstream;
    EXPECT_FALSE(upstream["error"].get<std::string>().empty());
    EXPECT_EQ(api->get("/api/v1/apps/collection", bearer("bd-ann")).json()["data"]["apps"].size(),
              0u);
    // A failed build of a description does not block building it again (without a key).
    model.enqueue(M::kOpenAiPath, M::ok(app_html_call("Second time", kHtml)));
    auto again = build({{"prompt", "first"}});
    EXPECT_EQ(again.json()["data"]["deduplicated"], false) << again.body;
    EXPECT_EQ(finished(again.json()["data"]["id"])["status"], "complete");
    EXPECT_EQ(host->stop(), 0) << host->log();
}

// The offline model and bad input, on the shared test-profile host (model-builtin).
class AppsBuildOffline : public CatalogueTest {
protected:
    AppsBuildOffline() : CatalogueTest("apps") {}
    json until_finished(const std::string& id, const std::string& who) {
        json b;
        for (int i = 0; i < 12; ++i) {
            b = get("buildstatus?wait=5&id=" + id, who).json()["data"];
            if (b["status"] == "complete" || b["status"] == "failed") break;
        }
        return b;
    }
};

TEST_F(AppsBuildOffline, ATemplateBuildCompletesWithAWorkingApp) {
    auto r = post("build", {{"prompt", "build me a packing checklist"}}, "bo-ann");
    ASSERT_EQ(r.status, 200) << r.body;
    const json b = until_finished(r.json()["data"]["id"], "bo-ann");
    ASSERT_EQ(b["status"], "complete") << b;
    EXPECT_EQ(b["app"]["name"], "Checklist");
    const std::string slug = b["app"]["slug"];
    // The saved app passes the same check any app gets, and its page opens.
    auto checked = post("test", {{"slug", slug}}, "bo-ann");
    ASSERT_EQ(checked.status, 200) << checked.body;
    EXPECT_EQ(checked.json()["data"]["ok"], true) << checked.body;
    EXPECT_EQ(api.get("/ui/apps/" + slug, as("bo-ann")).status, 200);
}

TEST_F(AppsBuildOffline, ABuildNoTemplateFitsFailsNamingTheModelSetting) {
    auto r = post("build", {{"prompt", "a spreadsheet with pivot tables"}}, "bo-ann");
    ASSERT_EQ(r.status, 200) << r.body;
    const json b = until_finished(r.json()["data"]["id"], "bo-ann");
    EXPECT_EQ(b["status"], "failed") << b;
    EXPECT_NE(b["error"].get<std::string>().find("model.provider"), std::string::npos) << b;
    EXPECT_EQ(b["app"], nullptr);
}

TEST_F(AppsBuildOffline, BadInputIsRefusedNamingTheArgument) {
    auto empty = post("build", {{"prompt", ""}}, "bo-ann");
    EXPECT_EQ(empty.status, 400) << empty.body;
    EXPECT_NE(empty.body.find("prompt"), std::string::npos) << empty.body;
    auto big = post("build", {{"prompt", std::string(8001, 'a')}}, "bo-ann");
    EXPECT_EQ(big.status, 400) << big.body;
    EXPECT_NE(big.body.find("prompt"), std::string::npos) << big.body;
    auto key =
        post("build", {{"prompt", "a timer"}, {"request_key", std::string(201, 'k')}}, "bo-ann");
    EXPECT_EQ(key.status, 400) << key.body;
    EXPECT_NE(key.body.find("request_key"), std::string::npos) << key.body;
    EXPECT_EQ(post("build", {{"prompt", "a timer"}}, "").status, 401);
    auto bad_id = get("buildstatus?id=nope", "bo-ann");
    EXPECT_EQ(bad_id.status, 400) << bad_id.body;
    EXPECT_NE(bad_id.body.find("id"), std::string::npos);
    auto none = get("buildstatus?id=build_00000000000000000000", "bo-ann");
    EXPECT_EQ(none.status, 404) << none.body;
    EXPECT_EQ(get("buildstatus?id=build_00000000000000000000&wait=61", "bo-ann").status, 400);
    // The internal method is not reachable from outside.
    EXPECT_EQ(post("build_run", {{"id", "build_00000000000000000000"}}, "bo-ann").status, 404);
}

}  // namespace
