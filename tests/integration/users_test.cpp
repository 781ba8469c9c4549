// The users service against the real host (test profile: the bearer token is the account id, the
// business clock is manual): the host's activity record reaches users/list within 5 s of a call,
// moving the clock past three minutes takes an account offline, agents are marked, find and get,
// and the arguments' limits.
#include <gtest/gtest.h>

#include <chrono>
#include <ctime>

#include "catalogue_test.hpp"
#include "host_process.hpp"
#include "http_client.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

class UsersApi : public CatalogueTest {
protected:
    UsersApi() : CatalogueTest("users") {}

    // The users of list?<query> as `who` (a test failure and none unless 200).
    json users(const std::string& who, const std::string& query = "") {
        return data_of(get("list" + query, who)).value("users", json::array());
    }
    // The entry for `id` in `list`; null when absent.
    static json entry(const json& list, const std::string& id) {
        for (const auto& u : list)
            if (u.at("id") == id) return u;
        return nullptr;
    }
    // Polls `probe` every 50 ms until it is true or `ms` pass; whether it became true.
    template <class F>
    static bool within(int ms, F&& probe) {
        const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
        while (std::chrono::steady_clock::now() < until) {
            if (probe()) return true;
            struct timespec pause {
                0, 50 * 1000 * 1000
            };
            nanosleep(&pause, nullptr);  // polling interval of a condition, not a synchronisation
        }
        return false;
    }
};

TEST_F(UsersApi, ACallShowsTheAccountOnlineWithinFiveSecondsUntilThreeMinutesPass) {
    ASSERT_EQ(api.get("/api/v1/notes/list", as("u-ann")).status, 200);
    const auto called = std::chrono::steady_clock::now();
    json ann;
    ASSERT_TRUE(within(5000, [&] {
        ann = entry(users("u-bob"), "u-ann");
        return ann.is_object() && ann.at("online") == true;
    })) << users("u-bob").dump();
    EXPECT_LT(std::chrono::steady_clock::now() - called, std::chrono::seconds(5));
    EXPECT_EQ(ann.at("name"), "u-ann");
    EXPECT_EQ(ann.at("type"), "user");
    EXPECT_EQ(ann.at("agent"), false);
    EXPECT_TRUE(ann.at("last_seen").is_string());
    EXPECT_EQ(ann.size(), 6u) << ann.dump();  // nothing beyond the public fields
    EXPECT_TRUE(entry(users("u-bob", "?online=true"), "u-ann").is_object());

    tick(3 * 60 * 1000 + 1000);
    ann = entry(users("u-bob"), "u-ann");
    ASSERT_TRUE(ann.is_object());
    EXPECT_EQ(ann.at("online"), false);
    EXPECT_TRUE(entry(users("u-bob", "?online=true"), "u-ann").is_null());
    EXPECT_EQ(entry(users("u-bob", "?online=true"), "u-bob").at("online"), true);  // the caller
}

TEST_F(UsersApi, AgentsAreListedAndMarked) {
    const json assistant = entry(users("u-carl"), "assistant");
    ASSERT_TRUE(assistant.is_object()) << users("u-carl").dump();
    EXPECT_EQ(assistant.at("agent"), true);
    EXPECT_EQ(assistant.at("type"), "agent");
    EXPECT_TRUE(assistant.at("last_seen").is_null());
}

TEST_F(UsersApi, FindAndGet) {
    ASSERT_EQ(api.get("/api/v1/notes/list", as("u-Dora")).status, 200);
    json found;
    ASSERT_TRUE(within(5000, [&] {
        found = data_of(get("find?query=DORA", "u-eve")).value("users", json::array());
        return entry(found, "u-Dora").is_object();
    })) << found.dump();
    for (const auto& u : found) {
        const std::string id = u.at("id"), name = u.at("name");
        EXPECT_TRUE(id.find("Dora") != std::string::npos || name.find("Dora") != std::string::npos)
            << u.dump();
    }
    const json dora = data_of(get("get?id=u-Dora", "u-eve"));
    EXPECT_EQ(dora.at("id"), "u-Dora");
    EXPECT_EQ(get("get?id=assistant", "u-eve").json()["data"]["agent"], true);
    const auto missing = get("get?id=u-nobody", "u-eve");
    EXPECT_EQ(missing.status, 404) << missing.body;
}

TEST_F(UsersApi, LimitOutsideOneToHundredIs400NamingItAndAnonymousIs401) {
    for (const char* bad : {"0", "101", "-1", "many"}) {
        const auto r = get(std::string("list?limit=") + bad, "u-fay");
        EXPECT_EQ(r.status, 400) << bad << ": " << r.body;
        EXPECT_NE(r.body.find("limit"), std::string::npos) << r.body;
    }
    EXPECT_EQ(users("u-fay", "?limit=1").size(), 1u);
    EXPECT_EQ(api.get("/api/v1/users/list").status, 401);
    EXPECT_EQ(api.get("/api/v1/users/find?query=a").status, 401);
    EXPECT_EQ(api.get("/api/v1/users/get?id=a").status, 401);
    EXPECT_EQ(get("find", "u-fay").status, 400);  // query is required
}

}  // namespace
