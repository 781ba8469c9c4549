// `platform submit` and `platform work get <id> --wait` against a real server, the latter in a
// real terminal: tmux runs it in a pane while the job sits inside the model (the scripted fake model
// server holds the request), and the test reads the pane — the progress line first, then the
// result. Also `work list`, `work retry` and `inbox` through the CLI.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "command.hpp"
#include "eventually.hpp"
#include "fake_model_server.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "terminal_pane.hpp"
#include "text_search.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

// profiles/test.yaml with the fake model server allowed; model-openai chosen by config.
class CliWork : public ::testing::Test {
protected:
    void SetUp() override {
        HostProcess::Options o =
            model_server_host(model, dir.path() + "/cli-work-test.yaml", test_profile_text());
        host = std::make_unique<HostProcess>(o);
        host->start();
        api = std::make_unique<HttpClient>("127.0.0.1", host->api_port());
        auto r = api->post_json("/rpc",
                                {{"service", "config"},
                                 {"method", "Config.Set"},
                                 {"request", {{"path", "model.provider"}, {"value", "openai"}}}},
                                {{"Authorization", "Bearer admin"}});
        ASSERT_EQ(r.status, 200) << r.body;
    }
    std::map<std::string, std::string> cli_env() const {
        return {{"PLATFORM_HOME", home.path()},
                {"PLATFORM_PROXY", "127.0.0.1:" + std::to_string(host->proxy_port())},
                {"PLATFORM_TOKEN", "ann"},
                {"PLATFORM_ENV", ""}};
    }
    CommandResult platform(std::vector<std::string> args) {
        return run_cli(*host, home.path(), "ann", std::move(args));
    }
    FakeModelServer model;
    TempDir dir, home;
    std::unique_ptr<HostProcess> host;
    std::unique_ptr<HttpClient> api;
};

TEST_F(CliWork, WorkGetWaitShowsProgressInATerminalThenTheResult) {
    model.hold(FakeModelServer::kOpenAiPath);
    model.enqueue(FakeModelServer::kOpenAiPath,
                  FakeModelServer::ok(FakeModelServer::openai_text("The boiler code is 4512.")));
    auto submitted = platform({"submit", "what is the boiler code"});
    ASSERT_EQ(submitted.code, 0) << submitted.err;
    std::string id = submitted.out;
    while (!id.empty() && (id.back() == '\n' || id.back() == ' ')) id.pop_back();
    ASSERT_FALSE(id.empty());
    EXPECT_TRUE(has(submitted.err, "platform work get " + id + " --wait")) << submitted.err;
    ASSERT_TRUE(eventually([&] { return !model.requests(FakeModelServer::kOpenAiPath).empty(); }))
        << host->log();

    // The command in a real terminal; the pane stays once it ends.
    TerminalPane pane("'" + HostProcess::binary() + "' work get " + id + " --wait", cli_env());
    ASSERT_TRUE(pane.started()) << pane.error();

    // While the model holds the job: a progress line saying it is being done.
    ASSERT_TRUE(eventually([&] { return has(pane.screen(), "doing ·"); })) << pane.screen();
    model.release(FakeModelServer::kOpenAiPath);
    ASSERT_TRUE(eventually([&] { return has(pane.screen(), "EXIT="); })) << pane.screen();
    const std::string screen = pane.screen();
    EXPECT_TRUE(has(screen, "done in")) << screen;
    EXPECT_TRUE(has(screen, "The boiler code is 4512.")) << screen;
    EXPECT_TRUE(has(screen, "EXIT=0")) << screen;
    EXPECT_FALSE(has(screen, "doing ·")) << "the progress line is cleared at the end:\n" << screen;

    // Off a terminal: the result on stdout, the status changes on stderr.
    auto again = platform({"work", "get", id, "--wait"});
    EXPECT_EQ(again.code, 0) << again.err;
    EXPECT_TRUE(has(again.out, "The boiler code is 4512.")) << again.out;
    EXPECT_TRUE(has(again.err, "work " + id + ": done")) << again.err;
}

TEST_F(CliWork, ListRetryAndInbox) {
    model.enqueue(FakeModelServer::kOpenAiPath,
                  FakeModelServer::status(500, {{"error", {{"message", "upstream broke"}}}}));
    auto submitted = platform({"submit", "--wait", "hello"});
    EXPECT_EQ(submitted.code, 1) << submitted.out << submitted.err;  // failed
    EXPECT_TRUE(has(submitted.err, "error:")) << submitted.err;

    auto listed = platform({"work", "list", "--status", "failed", "-o", "json"});
    ASSERT_EQ(listed.code, 0) << listed.err;
    const json jobs = json::parse(listed.out)["work"];
    ASSERT_EQ(jobs.size(), 1u) << listed.out;
    const std::string id = jobs[0]["id"];

    model.enqueue(FakeModelServer::kOpenAiPath,
                  FakeModelServer::ok(FakeModelServer::openai_text("Hello, Ann.")));
    auto retried = platform({"work", "retry", id});
    ASSERT_EQ(retried.code, 0) << retried.err;
    auto followed = platform({"work", "get", id, "--wait"});
    EXPECT_EQ(followed.code, 0) << followed.err;
    EXPECT_TRUE(has(followed.out, "Hello, Ann.")) << followed.out;
    EXPECT_EQ(platform({"work", "retry", id}).code, 1);  // done work is not retried (409)
    EXPECT_EQ(platform({"work", "get", "wk-none"}).code, 5);
    EXPECT_EQ(platform({"work", "frobnicate"}).code, 2);

    // The reply landed in a conversation: the inbox lists it unread, read does not change that.
    auto inbox = platform({"inbox", "list", "-o", "json"});
    ASSERT_EQ(inbox.code, 0) << inbox.err;
    const json items = json::parse(inbox.out)["items"];
    ASSERT_FALSE(items.empty()) << inbox.out;
    const std::string thread = items[0]["id"];
    EXPECT_EQ(items[0]["unread"], 1) << inbox.out;
    EXPECT_EQ(items[0]["channel"], "cli") << inbox.out;  // submitted from the CLI
    auto read = platform({"inbox", "read", thread});
    ASSERT_EQ(read.code, 0) << read.err;
    EXPECT_TRUE(has(read.out, "Hello, Ann.")) << read.out;
    ASSERT_EQ(platform({"inbox", "mark_read", thread}).code, 0);
    EXPECT_EQ(json::parse(platform({"inbox", "list", "-o", "json"}).out)["items"][0]["unread"], 0);
    ASSERT_EQ(platform({"inbox", "mark_unread", thread}).code, 0);
    EXPECT_EQ(json::parse(platform({"inbox", "list", "-o", "json"}).out)["items"][0]["unread"], 1);
    EXPECT_EQ(platform({"inbox", "read"}).code, 2);
}

}  // namespace
