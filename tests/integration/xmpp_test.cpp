// XMPP federation against clients nobody here wrote: Debian's Prosody, started by each test on
// free loopback ports with the config scripts/xmpp writes, and @xmpp/client (tests/e2e, installed
// by scripts/e2e-deps.sh) as the XMPP client.
//
// Checked: a client logs in with a platform account's secret (deploy/xmpp/mod_auth_platform.lua
// asks the platform) and is refused with a wrong one; the host joins Prosody as the bridge
// component; a plain group's room carries messages both ways between the XMPP client and web chat
// (chat/messages, chat/send) without echoes; so does a direct chat between an XMPP client and a
// web account (deploy/xmpp/mod_platform_direct.lua); an encrypted group's room answers chat/send
// with 409.
// The tests skip only when prosody is missing and cannot be installed.
#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>
#include <thread>

#include "build_tree.hpp"
#include "command.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "local_accounts.hpp"
#include "prosody_server.hpp"
#include "unused_port.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

const std::string kE2e = platform::test::source_dir() + "/tests/e2e";
const std::string kNode = kE2e + "/node_modules/.bin/node";
const std::string kAdminSecret = "admin-secret-for-xmpp";
const std::string kComponentSecret = "component-secret-for-xmpp";

// Runs tests/e2e/xmpp_client.mjs with `args` (Node 22 of the `node` npm package).
CommandResult xmpp_client(const std::vector<std::string>& args, const std::string& home) {
    std::vector<std::string> argv = {kNode, kE2e + "/xmpp_client.mjs"};
    argv.insert(argv.end(), args.begin(), args.end());
    const char* path = std::getenv("PATH");
    return run_command(
        argv,
        {{"PATH", kE2e + "/node_modules/.bin:" + (path ? path : "/usr/bin:/bin")}, {"HOME", home}},
        60);
}

// Creates account `id` with `secret` as the admin.
void create_account(HttpClient& api, const std::string& admin, const std::string& id,
                    const std::string& secret) {
    auto r = api.post_json("/auth/createAccount", {{"id", id}, {"secret", secret}},
                           {{"Authorization", "Bearer " + admin}});
    ASSERT_EQ(r.status, 200) << r.body;
}

class Xmpp : public ::testing::Test {
protected:
    // The host runs with --xmpp and joins Prosody's component port, told beforehand (it connects
    // again until Prosody listens); Prosody checks logins with the host's gateway.
    void SetUp() override {
        component_port_ = unused_loopback_port();
        HostProcess::Options o = local_options(kAdminSecret);
        o.args = {"--xmpp"};
        o.env["PLATFORM_XMPP_DOMAIN"] = "localhost";
        o.env["PLATFORM_XMPP_COMPONENT_PORT"] = std::to_string(component_port_);
        o.env["PLATFORM_XMPP_COMPONENT_SECRET"] = kComponentSecret;
        host_ = std::make_unique<HostProcess>(o);
        host_->start();
        api_ = std::make_unique<HttpClient>("127.0.0.1", host_->api_port());
        admin_ = access_token(*api_, "admin", kAdminSecret);
        ProsodyServer::Options p;
        p.platform_url = "http://127.0.0.1:" + std::to_string(host_->api_port());
        p.component_secret = kComponentSecret;
        p.component_port = component_port_;
        prosody_ = std::make_unique<ProsodyServer>(p);
        if (!prosody_->installed()) GTEST_SKIP() << prosody_->why();
        ASSERT_TRUE(prosody_->ready()) << "prosody did not start; its log:\n" << prosody_->log();
    }

public:
    std::vector<std::string> login_args(const std::string& user, const std::string& password) {
        return {"--service",  prosody_->c2s_service(),
                "--domain",   "localhost",
                "--user",     user,
                "--password", password};
    }

    const std::string& home() const { return home_.path(); }

protected:
    int component_port_ = 0;
    std::unique_ptr<HostProcess> host_;
    std::unique_ptr<HttpClient> api_;
    std::string admin_;
    std::unique_ptr<ProsodyServer> prosody_;
    TempDir home_;
};

TEST_F(Xmpp, ClientLogsInWithThePlatformSecretAndIsRefusedWithAWrongOne) {
    create_account(*api_, admin_, "ann", "ann-secret-for-xmpp");

    auto args = login_args("ann", "ann-secret-for-xmpp");
    args.insert(args.begin(), "login");
    CommandResult ok = xmpp_client(args, home_.path());
    EXPECT_EQ(ok.code, 0) << ok.out << ok.err << prosody_->log();
    EXPECT_NE(ok.out.find("online ann@localhost/"), std::string::npos) << ok.out << ok.err;

    args = login_args("ann", "not-the-secret-of-ann");
    args.insert(args.begin(), "login");
    CommandResult wrong = xmpp_client(args, home_.path());
    EXPECT_EQ(wrong.code, 1) << wrong.out << wrong.err;
    EXPECT_NE(wrong.out.find("refused not-authorized"), std::string::npos) << wrong.out;

    args = login_args("nobody", "ann-secret-for-xmpp");
    args.insert(args.begin(), "login");
    CommandResult unknown = xmpp_client(args, home_.path());
    EXPECT_NE(unknown.out.find("refused not-authorized"), std::string::npos) << unknown.out;

    // The checks left no login behind: ann's token list holds no refresh token.
    const std::string ann = access_token(*api_, "ann", "ann-secret-for-xmpp");
    auto tokens = api_->get("/auth/listTokens", {{"Authorization", "Bearer " + ann}});
    ASSERT_EQ(tokens.status, 200) << tokens.body;
    int logins = 0;
    for (const auto& t : tokens.json().value("tokens", json::array()))
        if (t.value("kind", "") == "refresh") ++logins;
    EXPECT_EQ(logins, 1) << tokens.body;  // only the one this test just made
}

}  // namespace

namespace {

TEST_F(Xmpp, TheHostJoinsProsodyAsTheBridgeComponent) {
    // The startup line names the component connection.
    EXPECT_NE(host_->log().find("listening api=127.0.0.1:" + std::to_string(host_->api_port()) +
                                " proxy=127.0.0.1:" + std::to_string(host_->proxy_port()) +
                                " xmpp=127.0.0.1:" + std::to_string(component_port_)),
              std::string::npos)
        << host_->log();
    EXPECT_TRUE(host_->wait_for_log("xmpp: connected as bridge.localhost", 30000))
        << host_->log() << prosody_->log();
    EXPECT_EQ(host_->log().find(kComponentSecret), std::string::npos) << "the secret was logged";
    // A clean stop: the component disconnects and the server exits 0.
    EXPECT_EQ(host_->stop(), 0) << host_->log();
    EXPECT_NE(host_->log().find("stopped"), std::string::npos) << host_->log();
}

TEST(XmppSettings, AServerWithXmppOnAndNoSecretStopsNamingTheSetting) {
    HostProcess::Options o = local_options(kAdminSecret);
    o.args = {"--xmpp"};
    o.env["PLATFORM_XMPP_COMPONENT_SECRET"] = "";
    HostProcess host(o);
    EXPECT_NE(host.run_to_exit(), 0);
    EXPECT_NE(host.log().find("PLATFORM_XMPP_COMPONENT_SECRET"), std::string::npos) << host.log();
}

}  // namespace

namespace {

// The messages xmpp_client.mjs printed, one JSON object {from, body} a line.
std::vector<json> message_lines(const std::string& out) {
    std::vector<json> lines;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);)
        if (!line.empty() && line[0] == '{')
            if (json j = json::parse(line, nullptr, false); j.is_object()) lines.push_back(j);
    return lines;
}

std::string bearer_of(HttpClient& api, const std::string& id, const std::string& secret) {
    return "Bearer " + access_token(api, id, secret);
}

// What one exchange saw: the XMPP client (ann, run with `client_args`) sends "hello from xmpp";
// once web account `web` reads it in `room` (as `web` names it), `web` answers "hello from the
// web" there with chat/send, which the client waits for.
struct Exchange {
    json stored_xmpp = json::array();  // chat/messages' copies of the XMPP message
    int web_status = 0;                // chat/send's status
    CommandResult client;              // xmpp_client.mjs
    std::vector<json> lines;           // the messages the client saw
};

Exchange exchange(Xmpp& t, HttpClient& api, const std::string& room,
                  std::vector<std::string> client_args, const std::string& web) {
    Exchange x;
    auto copies = [&] {
        json found = json::array();
        auto r = api.post_json("/api/v1/chat/messages", {{"room", room}}, {{"Authorization", web}});
        if (r.status == 200)
            for (const auto& m : r.json()["data"].value("messages", json::array()))
                if (m.value("text", "") == "hello from xmpp") found.push_back(m);
        return found;
    };
    std::thread answer([&] {
        for (int i = 0; i < 300 && x.stored_xmpp.empty(); ++i) {  // up to 30 s
            x.stored_xmpp = copies();
            if (x.stored_xmpp.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        if (x.stored_xmpp.empty()) return;
        x.web_status =
            api.post_json("/api/v1/chat/send", {{"room", room}, {"message", "hello from the web"}},
                          {{"Authorization", web}})
                .status;
    });
    client_args.insert(client_args.end(),
                       {"--send", "hello from xmpp", "--expect", "hello from the web"});
    x.client = xmpp_client(client_args, t.home());
    answer.join();
    x.lines = message_lines(x.client.out);
    x.stored_xmpp = copies();  // again, after the exchange: still one copy
    return x;
}

// An exchange in group or public room `room`, ann in it over XMPP.
Exchange room_exchange(Xmpp& t, HttpClient& api, const std::string& room, const std::string& ann,
                       const std::string& web) {
    auto args = t.login_args("ann", ann);
    args.insert(args.begin(), "room");
    args.insert(args.end(), {"--room", room + "@conference.localhost", "--after", "platform"});
    return exchange(t, api, room, args, web);
}

// Whether the client saw `body` from occupant `nick` of `room`.
bool saw(const Exchange& x, const std::string& room, const std::string& nick,
         const std::string& body) {
    for (const auto& m : x.lines)
        if (m["from"] == room + "@conference.localhost/" + nick && m["body"] == body) return true;
    return false;
}

TEST_F(Xmpp, APlainGroupRoomCarriesMessagesBothWays) {
    create_account(*api_, admin_, "ann", "ann-secret-for-xmpp");
    const std::string ann = bearer_of(*api_, "ann", "ann-secret-for-xmpp");
    auto created = api_->post_json("/api/v1/groups/create", {{"name", "xmpp friends"}},
                                   {{"Authorization", ann}});
    ASSERT_EQ(created.status, 200) << created.body;
    const std::string room = created.json()["data"]["id"];
    ASSERT_TRUE(host_->wait_for_log("xmpp: connected as bridge.localhost", 30000))
        << host_->log() << prosody_->log();

    const Exchange x = room_exchange(*this, *api_, room, "ann-secret-for-xmpp", ann);
    // XMPP → platform: stored once, from ann.
    ASSERT_EQ(x.stored_xmpp.size(), 1u) << x.client.out << x.client.err << host_->log();
    EXPECT_EQ(x.stored_xmpp[0]["from"], "ann");
    EXPECT_EQ(x.stored_xmpp[0]["room"], room);
    // Platform → XMPP: the web message reached the client, from ann's web occupant.
    EXPECT_EQ(x.web_status, 200);
    EXPECT_EQ(x.client.code, 0) << x.client.out << x.client.err << host_->log();
    EXPECT_TRUE(saw(x, room, "ann (web)", "hello from the web")) << x.client.out;
    // No echo: the bridge did not send the XMPP message back to the room.
    EXPECT_FALSE(saw(x, room, "ann (web)", "hello from xmpp")) << x.client.out;
}

TEST_F(Xmpp, APublicRoomCarriesMessagesOfAnyAccount) {
    create_account(*api_, admin_, "ann", "ann-secret-for-xmpp");
    create_account(*api_, admin_, "bob@home", "bob-secret-for-xmpp");  // no valid JID local part
    const std::string bob = bearer_of(*api_, "bob@home", "bob-secret-for-xmpp");
    ASSERT_TRUE(host_->wait_for_log("xmpp: connected as bridge.localhost", 30000))
        << host_->log() << prosody_->log();

    const Exchange x = room_exchange(*this, *api_, "lobby", "ann-secret-for-xmpp", bob);
    ASSERT_EQ(x.stored_xmpp.size(), 1u) << x.client.out << x.client.err << host_->log();
    EXPECT_EQ(x.stored_xmpp[0]["from"], "ann");
    EXPECT_EQ(x.web_status, 200);
    EXPECT_EQ(x.client.code, 0) << x.client.out << x.client.err << host_->log();
    EXPECT_TRUE(saw(x, "lobby", "bob@home (web)", "hello from the web")) << x.client.out;
}

// ann chats with bob@localhost from an XMPP client; bob is on the web only. ann's message is in
// bob's direct room @ann, and bob's answer there reaches ann's client from bob@localhost itself.
TEST_F(Xmpp, ADirectChatCarriesMessagesBothWaysBetweenXmppAndTheWeb) {
    create_account(*api_, admin_, "ann", "ann-secret-for-xmpp");
    create_account(*api_, admin_, "bob", "bob-secret-for-xmpp");
    const std::string bob = bearer_of(*api_, "bob", "bob-secret-for-xmpp");
    ASSERT_TRUE(host_->wait_for_log("xmpp: connected as bridge.localhost", 30000))
        << host_->log() << prosody_->log();

    auto args = login_args("ann", "ann-secret-for-xmpp");
    args.insert(args.begin(), "direct");
    args.insert(args.end(), {"--to", "bob@localhost"});
    const Exchange x = exchange(*this, *api_, "@ann", args, bob);
    ASSERT_EQ(x.stored_xmpp.size(), 1u) << x.client.out << x.client.err << host_->log();
    EXPECT_EQ(x.stored_xmpp[0]["from"], "ann");
    EXPECT_EQ(x.stored_xmpp[0]["room"], "@ann");  // as bob sees it
    EXPECT_EQ(x.web_status, 200);
    EXPECT_EQ(x.client.code, 0) << x.client.out << x.client.err << host_->log() << prosody_->log();
    bool from_bob = false, echoed = false;
    for (const auto& m : x.lines) {
        const std::string from = m.value("from", "");
        from_bob |= from.rfind("bob@localhost", 0) == 0 && m["body"] == "hello from the web";
        echoed |= m["body"] == "hello from xmpp";
    }
    EXPECT_TRUE(from_bob) << x.client.out;
    EXPECT_FALSE(echoed) << x.client.out;  // the bridge did not send ann's message back
    // ann's own web view of the room holds both, once each.
    auto mine =
        api_->post_json("/api/v1/chat/messages", {{"room", "@bob"}},
                        {{"Authorization", bearer_of(*api_, "ann", "ann-secret-for-xmpp")}});
    ASSERT_EQ(mine.status, 200) << mine.body;
    EXPECT_EQ(mine.json()["data"]["messages"].size(), 2u) << mine.body;
}

TEST_F(Xmpp, OnlyTheGroupsMembersEnterItsRoom) {
    create_account(*api_, admin_, "ann", "ann-secret-for-xmpp");
    create_account(*api_, admin_, "bob", "bob-secret-for-xmpp");
    const std::string ann = bearer_of(*api_, "ann", "ann-secret-for-xmpp");
    auto created =
        api_->post_json("/api/v1/groups/create", {{"name", "ann only"}}, {{"Authorization", ann}});
    ASSERT_EQ(created.status, 200) << created.body;
    const std::string room = created.json()["data"]["id"];
    const std::string room_jid = room + "@conference.localhost";
    ASSERT_TRUE(host_->wait_for_log("xmpp: connected as bridge.localhost", 30000))
        << host_->log() << prosody_->log();

    auto args = login_args("bob", "bob-secret-for-xmpp");
    args.insert(args.begin(), "room");
    args.insert(args.end(), {"--room", room_jid, "--send", "let me in", "--expect", "never"});
    CommandResult bob = xmpp_client(args, home_.path());
    EXPECT_EQ(bob.code, 1) << bob.out << bob.err;
    EXPECT_NE(bob.out.find("join refused"), std::string::npos) << bob.out;
    EXPECT_NE(bob.out.find("registration-required"), std::string::npos) << bob.out;

    // A member enters a room someone else opened: here the bridge, relaying a web message.
    auto sent = api_->post_json("/api/v1/chat/send", {{"room", room}, {"message", "from the web"}},
                                {{"Authorization", ann}});
    ASSERT_EQ(sent.status, 200) << sent.body;
    ASSERT_TRUE(host_->wait_for_log("xmpp: bridging room " + room, 10000)) << host_->log();
    args = login_args("ann", "ann-secret-for-xmpp");
    args.insert(args.begin(), "room");
    args.insert(args.end(), {"--room", room_jid, "--send", "ann is in", "--expect", "ann is in"});
    CommandResult member = xmpp_client(args, home_.path());
    EXPECT_EQ(member.code, 0) << member.out << member.err << prosody_->log();

    // A public room is open to every account.
    args = login_args("bob", "bob-secret-for-xmpp");
    args.insert(args.begin(), "room");
    args.insert(args.end(), {"--room", "lobby@conference.localhost", "--send", "hello lobby",
                             "--expect", "hello lobby"});
    CommandResult lobby = xmpp_client(args, home_.path());
    EXPECT_EQ(lobby.code, 0) << lobby.out << lobby.err;
}

TEST_F(Xmpp, AnEncryptedGroupsRoomIsNotReadableFromTheWeb) {
    create_account(*api_, admin_, "ann", "ann-secret-for-xmpp");
    const std::string ann = bearer_of(*api_, "ann", "ann-secret-for-xmpp");
    auto created =
        api_->post_json("/api/v1/groups/create", {{"name", "omemo only"}, {"encrypted", true}},
                        {{"Authorization", ann}});
    ASSERT_EQ(created.status, 200) << created.body;
    const std::string room = created.json()["data"]["id"];
    auto sent = api_->post_json("/api/v1/chat/send", {{"room", room}, {"message", "plain text"}},
                                {{"Authorization", ann}});
    EXPECT_EQ(sent.status, 409) << sent.body;

    // Its room is an XMPP room for the group's members, members-only (OMEMO clients need that).
    ASSERT_TRUE(host_->wait_for_log("xmpp: connected as bridge.localhost", 30000)) << host_->log();
    auto args = login_args("ann", "ann-secret-for-xmpp");
    args.insert(args.begin(), "room");
    args.insert(args.end(), {"--room", room + "@conference.localhost", "--send", "sealed",
                             "--expect", "sealed"});
    CommandResult client = xmpp_client(args, home_.path());
    EXPECT_EQ(client.code, 0) << client.out << client.err << prosody_->log();
}

}  // namespace
