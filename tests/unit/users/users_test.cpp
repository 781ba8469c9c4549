// The users plugin (plugins/users/) through the fake host: the host's activity records, the auth
// service's accounts and the agent service's agents merged, ordered and filtered; find, get and
// the arguments' limits.
#include <gtest/gtest.h>

#include <algorithm>
#include <platform/sdk/text.hpp>
#include <string>
#include <vector>

#include "../support/plugin_under_test.hpp"

namespace {

using namespace plugin_test;

constexpr int64_t kMinute = 60 * 1000;

class UsersTest : public ::testing::Test {
protected:
    UsersTest() {
        host.on_call = [this](const std::string& service, const std::string& method, const json&,
                              const std::string& account) {
            calls.push_back(service + "/" + method + " as " + account);
            if (service == "agent" && method == "list")
                return reply(PLATFORM_OK, json{{"agents", agents}}.dump());
            if (service == "auth" && method == "listAccounts" && !accounts.is_null())
                return reply(PLATFORM_OK, json{{"accounts", accounts}}.dump());
            return reply(PLATFORM_NOT_FOUND, "");
        };
    }

    // What the host's activity record writes for an account seen `ago` ms before now.
    void seen(const std::string& id, int64_t first_ago, int64_t last_ago,
              const std::string& name = "") {
        const json record = {{"id", id},
                             {"name", name.empty() ? id : name},
                             {"type", "user"},
                             {"first_seen", host.now_ms - first_ago},
                             {"last_seen", host.now_ms - last_ago}};
        host.store["seen/" + id] = {record.dump(), 0};
    }
    json list(const json& args, const std::string& who = "caller") {
        return ok_json(users.call("list", args, who), "list");
    }
    std::vector<std::string> ids(const json& answer) {
        std::vector<std::string> out;
        for (const auto& u : answer.at("users")) out.push_back(u.at("id"));
        return out;
    }

    FakeHost host;
    FakePlugin users = host.load(platform_plugin_entry);
    json agents = json::array();
    json accounts;  // null: no auth service (auth-noop)
    std::vector<std::string> calls;
};

TEST_F(UsersTest, ListsSeenAccountsOnlineFirstThenNewest) {
    seen("old", 60 * kMinute, 1 * kMinute);    // online, oldest
    seen("new", 10 * kMinute, 5 * kMinute);    // offline, newest
    seen("mid", 30 * kMinute, 20 * kMinute);   // offline
    seen("fresh", 20 * kMinute, 2 * kMinute);  // online
    EXPECT_EQ(ids(list(json::object())), (std::vector<std::string>{"fresh", "old", "new", "mid"}));
    EXPECT_EQ(ids(list({{"online", true}})), (std::vector<std::string>{"fresh", "old"}));
    EXPECT_EQ(ids(list({{"limit", 3}})), (std::vector<std::string>{"fresh", "old", "new"}));
}

TEST_F(UsersTest, AUserShowsOnlyPublicFields) {
    seen("ann", 10 * kMinute, 1 * kMinute, "Ann Smith");
    const json ann = ok_json(users.call("get", {{"id", "ann"}}, "bob"));
    EXPECT_EQ(ann, (json{{"id", "ann"},
                         {"name", "Ann Smith"},
                         {"type", "user"},
                         {"agent", false},
                         {"online", true},
                         {"last_seen", platform::rfc3339(host.now_ms - kMinute)}}));
}

TEST_F(UsersTest, OnlineMeansSeenInTheLastThreeMinutes) {
    seen("ann", 10 * kMinute, 0);
    host.now_ms += 3 * kMinute;
    EXPECT_EQ(list(json::object()).at("users")[0].at("online"), true);
    host.now_ms += 1;
    EXPECT_EQ(list(json::object()).at("users")[0].at("online"), false);
    EXPECT_EQ(ids(list({{"online", true}})), std::vector<std::string>{});
}

TEST_F(UsersTest, TheCallerIsOnlineBeforeTheHostWritesItsActivity) {
    seen("bob", 60 * kMinute, 30 * kMinute);
    const json bob = ok_json(users.call("get", {{"id", "bob"}}, "bob"));
    EXPECT_EQ(bob.at("online"), true);
    EXPECT_EQ(bob.at("last_seen"), platform::rfc3339(host.now_ms));
    EXPECT_EQ(ok_json(users.call("get", {{"id", "bob"}}, "ann")).at("online"), false);
}

TEST_F(UsersTest, AgentsAreListedForTheCallerAndMarked) {
    seen("ann", 10 * kMinute, 1 * kMinute);
    seen("helper", 10 * kMinute, 1 * kMinute);  // an account named like an agent wins
    agents = {{{"name", "assistant"}, {"description", "x"}, {"kind", "default"}},
              {{"name", "helper"}, {"description", "y"}, {"kind", "own"}}};
    const json all = list(json::object(), "ann");
    EXPECT_EQ(ids(all), (std::vector<std::string>{"ann", "helper", "assistant"}));
    const json assistant = all.at("users")[2];
    EXPECT_EQ(assistant.at("agent"), true);
    EXPECT_EQ(assistant.at("type"), "agent");
    EXPECT_EQ(assistant.at("online"), false);
    EXPECT_TRUE(assistant.at("last_seen").is_null());
    EXPECT_EQ(all.at("users")[1].at("agent"), false);
    EXPECT_NE(std::find(calls.begin(), calls.end(), "agent/list as ann"), calls.end());
}

TEST_F(UsersTest, WithAnAuthServiceItsAccountsAreTheUsers) {
    accounts = {{{"id", "admin"},
                 {"name", "admin"},
                 {"type", "user"},
                 {"scopes", {"admin"}},
                 {"metadata", {{"timezone", "UTC"}, {"phone", "123"}}},
                 {"created", 1000}},
                {{"id", "svc"}, {"name", "Billing bot"}, {"type", "service"}, {"created", 2000}}};
    seen("admin", 10 * kMinute, 1 * kMinute);
    seen("gone", 10 * kMinute, 1 * kMinute);  // seen, but no longer an account
    const json all = list(json::object());
    EXPECT_EQ(ids(all), (std::vector<std::string>{"admin", "svc"}));
    EXPECT_EQ(all.at("users")[1].at("name"), "Billing bot");
    EXPECT_EQ(all.at("users")[1].at("type"), "service");
    EXPECT_TRUE(all.at("users")[1].at("last_seen").is_null());
    const std::string body = users.call("list", json::object(), "caller").body;
    EXPECT_EQ(body.find("scopes"), std::string::npos) << body;
    EXPECT_EQ(body.find("phone"), std::string::npos) << body;
    EXPECT_NE(std::find(calls.begin(), calls.end(), "auth/listAccounts as service"), calls.end());
}

TEST_F(UsersTest, FindMatchesUsernameOrDisplayNameIgnoringCase) {
    seen("ann", 10 * kMinute, 1 * kMinute, "Ann Smith");
    seen("bob", 10 * kMinute, 1 * kMinute, "Robert SMITHSON");
    seen("carl", 10 * kMinute, 1 * kMinute);
    agents = {{{"name", "annotator"}}};
    const auto found = [&](const std::string& q) {
        return ids(ok_json(users.call("find", {{"query", q}}, "carl")));
    };
    EXPECT_EQ(found("smith"), (std::vector<std::string>{"ann", "bob"}));
    EXPECT_EQ(found("ANN"), (std::vector<std::string>{"ann", "annotator"}));
    EXPECT_EQ(found("nobody"), std::vector<std::string>{});
    EXPECT_EQ(users.call("find", {{"query", ""}}, "carl").code, PLATFORM_INVALID_ARGUMENT);
}

TEST_F(UsersTest, GetAnswers404ForAnUnknownUser) {
    seen("ann", 10 * kMinute, 1 * kMinute);
    const Reply r = users.call("get", {{"id", "nobody"}}, "ann");
    EXPECT_EQ(r.code, PLATFORM_NOT_FOUND);
    EXPECT_NE(r.body.find("nobody"), std::string::npos) << r.body;
}

TEST_F(UsersTest, LimitOutsideOneToHundredIs400NamingIt) {
    for (const json& bad : {json(0), json(101), json(-5), json("ten")}) {
        const Reply r = users.call("list", {{"limit", bad}}, "ann");
        EXPECT_EQ(r.code, PLATFORM_INVALID_ARGUMENT) << bad;
        EXPECT_NE(r.body.find("limit"), std::string::npos) << r.body;
    }
    for (int i = 0; i < 120; ++i) seen("u" + std::to_string(i), 10 * kMinute, 1 * kMinute);
    EXPECT_EQ(list(json::object()).at("users").size(), 100u);
    EXPECT_EQ(list({{"limit", 100}}).at("users").size(), 100u);
    EXPECT_EQ(list({{"limit", 1}}).at("users").size(), 1u);
}

TEST_F(UsersTest, DescriptorReadsOnlyAndNeedsAnAccount) {
    const platform_plugin_desc_t* d = users.descriptor();
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(platform::copy(d->id), "users");
    EXPECT_EQ(platform::copy(d->service), "v1.users");
    ASSERT_EQ(d->endpoint_count, 3u);
    for (uint32_t i = 0; i < d->endpoint_count; ++i) {
        const platform_endpoint_t& e = d->endpoints[i];
        SCOPED_TRACE(platform::copy(e.name));
        EXPECT_EQ(e.verb, PLATFORM_VERB_GET);
        EXPECT_EQ(e.access, PLATFORM_ACCESS_ACCOUNT);
        EXPECT_TRUE(e.flags & PLATFORM_FLAG_READ_ONLY);
    }
}

}  // namespace
