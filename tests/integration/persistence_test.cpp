// The local profile persists notes in SQLite under PLATFORM_HOME: written, host restarted, read.
// Notes are owner-only and `local` has real accounts (auth-local): the test logs in as admin.
#include <gtest/gtest.h>

#include <filesystem>

#include "host_process.hpp"
#include "http_client.hpp"
#include "local_accounts.hpp"

using namespace platform::test;

namespace {

// An access token for admin (PLATFORM_ADMIN_SECRET), through POST /auth/token.
std::map<std::string, std::string> admin_bearer(HttpClient& c, const std::string& secret) {
    return bearer(access_token(c, "admin", secret));
}

TEST(Persistence, NotesSurviveARestartOnTheLocalProfile) {
    TempDir home;
    const HostProcess::Options opts =
        local_options("persistence-admin-secret", "local", home.path());
    {
        HostProcess host(opts);
        host.start();
        HttpClient c("127.0.0.1", host.api_port());
        auto r = c.post_json("/api/v1/notes/add", {{"title", "durable"}, {"text", "still here"}},
                             admin_bearer(c, "persistence-admin-secret"));
        ASSERT_EQ(r.status, 200) << r.body;
        EXPECT_EQ(host.stop(), 0) << host.log();
    }
    EXPECT_TRUE(std::filesystem::exists(home.path() + "/data/store.db"));
    HostProcess again(opts);
    again.start();
    HttpClient c("127.0.0.1", again.api_port());
    auto r = c.get("/api/v1/notes/get?title=durable", admin_bearer(c, "persistence-admin-secret"));
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.json()["data"]["text"], "still here");
    EXPECT_EQ(again.stop(), 0);
}

}  // namespace
