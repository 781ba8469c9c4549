// The groups plugin (plugins/groups/) through the fake host: the update state machine as a table
// of cases, then list, read, create and the descriptor.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../support/plugin_under_test.hpp"

namespace {

using namespace plugin_test;

// One call on the group: an update action, or "read".
struct Step {
    std::string who, action, account, value;
};

// A case: the steps that must succeed, the step under test and its answer, then who reads the
// group afterwards and the code they get (none when then_who is empty).
struct Case {
    const char* name;
    std::vector<Step> setup;
    Step act;
    platform_status_t code;
    const char* body_has;
    std::string then_who;
    platform_status_t then_code;
};

// olga owns the group; mia is a member, ada an admin (when the setup makes them so), ivan is
// invited, stan a stranger.
const std::vector<Step> kMia = {{"olga", "invite", "mia", ""}, {"mia", "accept", "", ""}};
const std::vector<Step> kAda = {
    {"olga", "invite", "ada", ""}, {"ada", "accept", "", ""}, {"olga", "role", "ada", "admin"}};
const std::vector<Step> kIvan = {{"olga", "invite", "ivan", ""}};

std::vector<Step> operator+(std::vector<Step> a, const std::vector<Step>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

const platform_status_t OK = PLATFORM_OK, E404 = PLATFORM_NOT_FOUND,
                        E403 = PLATFORM_PERMISSION_DENIED, E400 = PLATFORM_INVALID_ARGUMENT,
                        E409 = PLATFORM_CONFLICT;

const Case kCases[] = {
    // invite
    {"owner invites", {}, {"olga", "invite", "ivan", ""}, OK, "", "ivan", E403},
    {"admin invites", kAda, {"ada", "invite", "ivan", ""}, OK, "", "", OK},
    {"member may not invite",
     kMia,
     {"mia", "invite", "ivan", ""},
     E403,
     "admin or owner",
     "ivan",
     E404},
    {"stranger's invite is 404",
     {},
     {"stan", "invite", "ivan", ""},
     E404,
     "no group",
     "ivan",
     E404},
    {"invite needs an account", {}, {"olga", "invite", "", ""}, E400, "account", "", OK},
    {"inviting a member conflicts", kMia, {"olga", "invite", "mia", ""}, E409, "mia", "", OK},
    // accept and decline
    {"invitee accepts", kIvan, {"ivan", "accept", "", ""}, OK, "", "ivan", OK},
    {"pending invitee may not read", kIvan, {"ivan", "read", "", ""}, E403, "accept", "", OK},
    {"pending invitee may not rename", kIvan, {"ivan", "rename", "", "x"}, E403, "accept", "", OK},
    {"invitee declines", kIvan, {"ivan", "decline", "", ""}, OK, "", "ivan", E404},
    {"declined invitee cannot accept",
     kIvan + std::vector<Step>{{"ivan", "decline", "", ""}},
     {"ivan", "accept", "", ""},
     E404,
     "no group",
     "ivan",
     E404},
    {"stranger cannot accept", {}, {"stan", "accept", "", ""}, E404, "no group", "stan", E404},
    {"member accepting again conflicts",
     kMia,
     {"mia", "accept", "", ""},
     E409,
     "already",
     "mia",
     OK},
    // remove
    {"member leaves", kMia, {"mia", "remove", "", ""}, OK, "", "mia", E404},
    {"removed member cannot read",
     kMia + std::vector<Step>{{"olga", "remove", "mia", ""}},
     {"mia", "read", "", ""},
     E404,
     "no group",
     "olga",
     OK},
    {"last owner may not leave", kMia, {"olga", "remove", "", ""}, E403, "last owner", "olga", OK},
    {"owner leaves after transfer",
     kMia + std::vector<Step>{{"olga", "role", "mia", "owner"}},
     {"olga", "remove", "", ""},
     OK,
     "",
     "olga",
     E404},
    {"owner removes a member", kMia, {"olga", "remove", "mia", ""}, OK, "", "mia", E404},
    {"owner removes an admin", kAda, {"olga", "remove", "ada", ""}, OK, "", "ada", E404},
    {"admin removes a member", kMia + kAda, {"ada", "remove", "mia", ""}, OK, "", "mia", E404},
    {"admin may not remove an owner",
     kAda,
     {"ada", "remove", "olga", ""},
     E403,
     "members only",
     "olga",
     OK},
    {"member may not remove others",
     kMia + kAda,
     {"mia", "remove", "ada", ""},
     E403,
     "admin or owner",
     "ada",
     OK},
    {"removing a non-member is 404", {}, {"olga", "remove", "stan", ""}, E404, "stan", "", OK},
    {"owner withdraws an invitation", kIvan, {"olga", "remove", "ivan", ""}, OK, "", "ivan", E404},
    {"member may not withdraw an invitation",
     kMia + kIvan,
     {"mia", "remove", "ivan", ""},
     E403,
     "invitation",
     "",
     OK},
    // role
    {"owner makes an admin", kMia, {"olga", "role", "mia", "admin"}, OK, "", "mia", OK},
    {"admin may not change roles",
     kMia + kAda,
     {"ada", "role", "mia", "admin"},
     E403,
     "only an owner",
     "",
     OK},
    {"role needs a known value", kMia, {"olga", "role", "mia", "boss"}, E400, "value", "", OK},
    {"role of a non-member is 404", {}, {"olga", "role", "stan", "admin"}, E404, "stan", "", OK},
    {"last owner may not step down",
     {},
     {"olga", "role", "olga", "admin"},
     E403,
     "last owner",
     "",
     OK},
    {"owner steps down after adding an owner",
     kMia + std::vector<Step>{{"olga", "role", "mia", "owner"}},
     {"olga", "role", "olga", "member"},
     OK,
     "",
     "olga",
     OK},
    // rename
    {"admin renames", kAda, {"ada", "rename", "", "new name"}, OK, "new name", "", OK},
    {"member may not rename", kMia, {"mia", "rename", "", "x"}, E403, "rename", "", OK},
    {"rename needs a value", {}, {"olga", "rename", "", ""}, E400, "value", "", OK},
    // delete
    {"owner deletes", kMia, {"olga", "delete", "", ""}, OK, "", "mia", E404},
    {"admin may not delete", kAda, {"ada", "delete", "", ""}, E403, "only an owner", "ada", OK},
    {"nothing acts on a deleted group",
     kIvan + std::vector<Step>{{"olga", "delete", "", ""}},
     {"ivan", "accept", "", ""},
     E404,
     "no group",
     "olga",
     E404},
    {"owner cannot act on a deleted group",
     std::vector<Step>{{"olga", "delete", "", ""}},
     {"olga", "rename", "", "x"},
     E404,
     "no group",
     "olga",
     E404},
};

class GroupsTest : public ::testing::Test {
protected:
    std::string create(const std::string& who, const std::string& name = "team") {
        Reply r = groups.call("create", {{"name", name}}, who);
        EXPECT_EQ(r.code, PLATFORM_OK) << r.body;
        return r.json().at("id").get<std::string>();
    }
    Reply run(const std::string& id, const Step& s) {
        if (s.action == "read") return groups.call("read", {{"id", id}}, s.who);
        json args = {{"id", id}, {"action", s.action}};
        if (!s.account.empty()) args["account"] = s.account;
        if (!s.value.empty()) args["value"] = s.value;
        return groups.call("update", args, s.who);
    }
    json list(const std::string& who) { return groups.call("list", json::object(), who).json(); }

    FakeHost host;
    FakePlugin groups = host.load(platform_plugin_entry);
};

TEST_F(GroupsTest, StateMachine) {
    for (const Case& c : kCases) {
        SCOPED_TRACE(c.name);
        const std::string id = create("olga");
        for (const Step& s : c.setup) {
            Reply r = run(id, s);
            ASSERT_EQ(r.code, PLATFORM_OK) << s.who << " " << s.action << ": " << r.body;
        }
        Reply r = run(id, c.act);
        EXPECT_EQ(r.code, c.code) << r.body;
        EXPECT_NE(r.body.find(c.body_has), std::string::npos) << r.body;
        if (!c.then_who.empty()) {
            Reply after = run(id, {c.then_who, "read", "", ""});
            EXPECT_EQ(after.code, c.then_code) << c.then_who << " reads: " << after.body;
        }
    }
}

TEST_F(GroupsTest, CreateAndRead) {
    Reply r = groups.call("create", {{"name", "secret"}, {"encrypted", true}}, "olga");
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    const json g = r.json();
    const std::string id = g.at("id");
    EXPECT_EQ(id.size(), 32u);
    EXPECT_EQ(g.at("room"), id);
    EXPECT_EQ(g.at("encrypted"), true);
    EXPECT_EQ(g.at("members"), (json{{{"account", "olga"}, {"role", "owner"}}}));
    EXPECT_EQ(g.at("invitations"), json::array());
    EXPECT_EQ(groups.call("read", {{"id", id}}, "olga").json(), g);
    EXPECT_EQ(groups.call("read", {{"id", id}}, "stan").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(groups.call("read", {{"id", "nope"}}, "olga").code, PLATFORM_NOT_FOUND);
    EXPECT_NE(create("olga"), id);  // fresh random ids
}

TEST_F(GroupsTest, ListShowsRolesAndInvitationsUntilDeleted) {
    const std::string a = create("olga", "a"), b = create("mia", "b");
    ASSERT_EQ(run(a, {"olga", "invite", "mia", ""}).code, PLATFORM_OK);
    json mine = list("mia");
    ASSERT_EQ(mine.at("groups").size(), 1u);
    EXPECT_EQ(mine.at("groups")[0].at("id"), b);
    EXPECT_EQ(mine.at("groups")[0].at("role"), "owner");
    ASSERT_EQ(mine.at("invitations").size(), 1u);
    EXPECT_EQ(mine.at("invitations")[0].at("id"), a);
    EXPECT_EQ(mine.at("invitations")[0].at("invited_by"), "olga");

    ASSERT_EQ(run(a, {"mia", "accept", "", ""}).code, PLATFORM_OK);
    mine = list("mia");
    EXPECT_EQ(mine.at("groups").size(), 2u);
    EXPECT_EQ(mine.at("invitations"), json::array());

    ASSERT_EQ(run(a, {"olga", "delete", "", ""}).code, PLATFORM_OK);
    EXPECT_EQ(list("olga").at("groups"), json::array());
    mine = list("mia");
    ASSERT_EQ(mine.at("groups").size(), 1u);
    EXPECT_EQ(mine.at("groups")[0].at("id"), b);
}

// Where the auth service lists the accounts, an invite names one of them: 404 for any other id
// (after the role check: a member still gets 403), and nothing is stored for it. With no list
// (auth-noop; the other tests) any id may be invited.
TEST_F(GroupsTest, AnInviteNamesAnAccountTheAuthServiceLists) {
    host.on_call = [](const std::string& service, const std::string& method, const json&,
                      const std::string&) {
        if (service == "auth" && method == "listAccounts")
            return reply(PLATFORM_OK, R"({"accounts":[{"id":"olga"},{"id":"mia"},{"id":"ivan"}]})");
        return reply(PLATFORM_NOT_FOUND, "");
    };
    const std::string id = create("olga");
    Reply r = run(id, {"olga", "invite", "nobody", ""});
    EXPECT_EQ(r.code, PLATFORM_NOT_FOUND);
    EXPECT_NE(r.body.find("account: no account nobody"), std::string::npos) << r.body;
    EXPECT_EQ(list("nobody").at("invitations"), json::array());
    EXPECT_EQ(groups.call("read", {{"id", id}}, "olga").json().at("invitations"), json::array());
    ASSERT_EQ(run(id, {"olga", "invite", "mia", ""}).code, PLATFORM_OK);
    ASSERT_EQ(run(id, {"mia", "accept", "", ""}).code, PLATFORM_OK);
    EXPECT_EQ(run(id, {"mia", "invite", "nobody", ""}).code, PLATFORM_PERMISSION_DENIED);
    EXPECT_EQ(run(id, {"olga", "invite", "ivan", ""}).code, PLATFORM_OK);
}

TEST_F(GroupsTest, BadInputAndAnonymous) {
    const std::string id = create("olga");
    Reply r = groups.call("create", {{"name", ""}}, "olga");
    EXPECT_EQ(r.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_NE(r.body.find("name"), std::string::npos) << r.body;
    r = groups.call("update", {{"id", id}, {"action", "explode"}}, "olga");
    EXPECT_EQ(r.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_NE(r.body.find("action"), std::string::npos) << r.body;
    EXPECT_EQ(groups.call("create", {{"name", "x"}}, "").code, PLATFORM_UNAUTHENTICATED);
    EXPECT_EQ(groups.call("list", json::object(), "").code, PLATFORM_UNAUTHENTICATED);
    EXPECT_EQ(groups.call("read", {{"id", id}}, "").code, PLATFORM_UNAUTHENTICATED);
}

TEST_F(GroupsTest, Descriptor) {
    const platform_plugin_desc_t* d = groups.descriptor();
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(platform::copy(d->id), "groups");
    EXPECT_EQ(platform::copy(d->service), "v1.groups");
    EXPECT_EQ(d->endpoint_count, 4u);
}

}  // namespace
