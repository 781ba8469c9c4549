// The local profile persists notes in SQLite under PLATFORM_HOME: written, host restarted, read.
#include "host_process.hpp"
#include "http_client.hpp"

#include <gtest/gtest.h>

#include <filesystem>

using platform::test::HostProcess;
using platform::test::HttpClient;
using platform::test::TempDir;

namespace {

TEST(Persistence, NotesSurviveARestartOnTheLocalProfile) {
    TempDir home;
    HostProcess::Options opts;
    opts.profile = "local";
    opts.home = home.path();
    {
        HostProcess host(opts);
        host.start();
        EXPECT_TRUE(host.wait_for_log("single-user mode")) << host.log();
        HttpClient c("127.0.0.1", host.api_port());
        auto r = c.post_json("/api/v1/notes/add", {{"title", "durable"}, {"text", "still here"}});
        ASSERT_EQ(r.status, 200) << r.body;
        EXPECT_EQ(host.stop(), 0) << host.log();
    }
    EXPECT_TRUE(std::filesystem::exists(home.path() + "/data/store.db"));
    HostProcess again(opts);
    again.start();
    HttpClient c("127.0.0.1", again.api_port());
    auto r = c.get("/api/v1/notes/get?title=durable");
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.json()["data"]["text"], "still here");
    EXPECT_EQ(again.stop(), 0);
}

}  // namespace
