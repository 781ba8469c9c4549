// The chat service (plugins/chat/) through the real host, on the `test` profile (auth-noop: the
// bearer token is the account) with live streams ending after 1 s without a message: public and
// group rooms between two accounts, direct rooms, encrypted groups, the sender's own messages, `live` as
// Server-Sent Events (a message sent while it is open, then resuming with `after`) and an
// @agent answer from the offline model.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "http_client.hpp"
#include "profiles.hpp"
#include "shared_host_test.hpp"
#include "stream_reader.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

class Chat : public SharedHostTest {
protected:
    static void SetUpTestSuite() {
        HostProcess::Options o;
        o.profile = suite_dir() + "/chat.yaml";
        std::ofstream(o.profile) << with_plugin_config(test_profile_text(), "chat",
                                                       "live_idle_ms: 1000");
        start_host(o);
    }

    json ok(const HttpResult& r) {
        EXPECT_EQ(r.status, 200) << r.body;
        return r.status == 200 ? r.json()["data"] : json();
    }
    HttpResult call(const std::string& who, const std::string& method, const json& args) {
        return api.post_json("/api/v1/" + method, args, as(who));
    }
    json send(const std::string& who, const std::string& room, const std::string& text) {
        return ok(call(who, "chat/send", {{"room", room}, {"message", text}}));
    }
    std::string group(const std::string& owner, bool encrypted) {
        return ok(call(owner, "groups/create", {{"name", "team"}, {"encrypted", encrypted}}))["id"];
    }
};

// One `live` call read as its bytes arrive: GET with Accept: text/event-stream on its own
// connection; frames are the JSON of the `data:` lines received so far.
class LiveStream {
public:
    LiveStream(int port, const std::string& target, const std::string& token)
        : c_("127.0.0.1", port) {
        c_.send_raw("GET " + target + " HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer " + token +
                    "\r\nAccept: text/event-stream\r\n\r\n");
    }
    // The first frame after those already taken that `pred` accepts (the others are skipped);
    // throws when 30 s pass without bytes or the stream ends first.
    json next(const std::function<bool(const json&)>& pred) {
        for (;;) {
            for (size_t at; (at = bytes_.find("data: ", scanned_)) != std::string::npos;) {
                const size_t end = bytes_.find('\n', at);
                if (end == std::string::npos) break;
                scanned_ = end;
                json frame = json::parse(bytes_.substr(at + 6, end - at - 6));
                if (pred(frame)) return frame;
            }
            const std::string more = c_.read_some();
            if (more.empty()) throw std::runtime_error("the stream ended: " + bytes_);
            bytes_ += more;
        }
    }

private:
    HttpClient c_;
    std::string bytes_;
    size_t scanned_ = 0;
};

TEST_F(Chat, AnnSendsToAPublicRoomAndBobReadsIt) {
    const json sent = send("ann", "lobby", "hello bob");
    EXPECT_EQ(sent["from"], "ann");
    EXPECT_EQ(sent["agent"], false);
    const json read = ok(api.get("/api/v1/chat/messages?room=lobby", as("bob")));
    EXPECT_EQ(read, (json{{"room", "lobby"}, {"messages", {sent}}}));
    // Listed (other tests' rooms may come first: the manual clock gives them the same time).
    json lobby;
    const json listed = ok(api.get("/api/v1/chat/rooms", as("bob")));
    for (const auto& r : listed["rooms"])
        if (r["id"] == "lobby") lobby = r;
    EXPECT_EQ(lobby["kind"], "public") << listed;
    EXPECT_EQ(lobby["messages"], 1) << lobby;
    EXPECT_EQ(call("bob", "chat/send", {{"room", "Lobby!"}, {"message", "x"}}).status, 400);
    EXPECT_EQ(call("bob", "chat/send", {{"room", "lobby"}, {"message", ""}}).status, 400);
    EXPECT_EQ(api.get("/api/v1/chat/messages?room=lobby").status, 401);
    EXPECT_EQ(ok(api.get("/api/v1/chat/messages?room=lobby", as("bob")))["messages"].size(), 1u);
}

TEST_F(Chat, AGroupRoomIsForItsMembers) {
    const std::string id = group("ann", false);
    ok(call("ann", "groups/update", {{"id", id}, {"action", "invite"}, {"account", "ivy"}}));
    const json sent = send("ann", id, "members only");
    EXPECT_EQ(call("stan", "chat/messages", {{"room", id}}).status, 404);
    EXPECT_EQ(call("stan", "chat/send", {{"room", id}, {"message", "x"}}).status, 404);
    EXPECT_EQ(call("ivy", "chat/messages", {{"room", id}}).status, 403);
    EXPECT_EQ(call("ivy", "chat/send", {{"room", id}, {"message", "x"}}).status, 403);
    EXPECT_EQ(call("ann", "chat/messages", {{"room", std::string(32, 'e')}}).status, 404);
    ok(call("ivy", "groups/update", {{"id", id}, {"action", "accept"}}));
    EXPECT_EQ(ok(call("ivy", "chat/messages", {{"room", id}}))["messages"], json::array({sent}));
    const json rooms = ok(call("ivy", "chat/rooms", json::object()))["rooms"];
    bool listed = false;
    for (const auto& r : rooms) listed |= r["id"] == id && r["kind"] == "group";
    EXPECT_TRUE(listed) << rooms;
    const json strangers = ok(call("stan", "chat/rooms", json::object()));
    for (const auto& r : strangers["rooms"]) EXPECT_NE(r["id"], id);
}

TEST_F(Chat, AnEncryptedGroupsRoomIsListedButClosed) {
    const std::string id = group("ann", true);
    const std::string refusal = "room " + id +
                                " belongs to an end-to-end encrypted group: only XMPP clients "
                                "with OMEMO can read or post there";
    for (const auto& r : {call("ann", "chat/send", {{"room", id}, {"message", "x"}}),
                          call("ann", "chat/messages", {{"room", id}}),
                          api.get("/api/v1/chat/live?room=" + id, as("ann"))}) {
        EXPECT_EQ(r.status, 409) << r.body;
        EXPECT_EQ(r.json()["error"]["message"], refusal);
    }
    bool listed = false;
    const json rooms = ok(call("ann", "chat/rooms", json::object()))["rooms"];
    for (const auto& r : rooms) listed |= r["id"] == id && r["encrypted"] == true;
    EXPECT_TRUE(listed) << rooms;
}

// A direct room: each of the two names it by the other, nobody else can read it, and the events
// it is published on are out of the events service's reach.
TEST_F(Chat, ADirectRoomIsForItsTwoAccountsAlone) {
    const json sent = send("dora", "@eli", "psst");
    EXPECT_EQ(sent["room"], "@eli");
    EXPECT_EQ(sent["to"], "eli");
    const json read = ok(call("eli", "chat/messages", {{"room", "@dora"}}));
    ASSERT_EQ(read["messages"].size(), 1u) << read;
    EXPECT_EQ(read["messages"][0]["text"], "psst");
    EXPECT_EQ(read["messages"][0]["room"], "@dora");
    EXPECT_EQ(ok(api.get("/api/v1/chat/messages?room=%40eli", as("dora")))["messages"],
              json::array({sent}));
    EXPECT_EQ(ok(call("fay", "chat/messages", {{"room", "@dora"}}))["messages"], json::array());
    bool listed = false;
    const json rooms = ok(call("eli", "chat/rooms", json::object()))["rooms"];
    for (const auto& r : rooms) listed |= r["id"] == "@dora" && r["kind"] == "direct";
    EXPECT_TRUE(listed) << rooms;
    const json fays = ok(call("fay", "chat/rooms", json::object()));  // kept: the loop reads it
    for (const auto& r : fays["rooms"]) EXPECT_NE(r["kind"], "direct") << r;
    EXPECT_EQ(call("dora", "chat/send", {{"room", "@dora"}, {"message", "x"}}).status, 400);

    for (const char* topic : {"chat:all", "chat:room:@dora:eli"}) {
        auto r = api.post_json("/events/read", {{"topic", topic}}, as("fay"));
        EXPECT_EQ(r.status, 400) << topic << ": " << r.body;
        EXPECT_NE(r.body.find("topic"), std::string::npos) << r.body;
    }
    auto old = api.post_json("/events/read", {{"topic", "chat.all"}}, as("fay"));
    EXPECT_EQ(old.body.find("psst"), std::string::npos) << old.body;
}

TEST_F(Chat, SourcesAreTheSendersOwn) {
    const std::string id = send("sue", "sources-room", "mine")["id"];
    EXPECT_EQ(ok(call("sue", "chat/source", {{"id", id}}))["text"], "mine");
    const auto other = call("tom", "chat/source", {{"id", id}});
    EXPECT_EQ(other.status, 404);
    EXPECT_EQ(other.body.find("mine"), std::string::npos);
    EXPECT_EQ(ok(call("sue", "chat/sources", json::object())),
              (json{{"sources", {id}}, {"total", 1}}));
    EXPECT_EQ(ok(call("tom", "chat/sources", json::object())),
              (json{{"sources", json::array()}, {"total", 0}}));
}

TEST_F(Chat, LiveDeliversNewMessagesAsServerSentEventsAndResumes) {
    LiveStream live(host->api_port(), "/api/v1/chat/live?room=live-room", "bob");
    const json ready = live.next([](const json&) { return true; });
    EXPECT_EQ(ready, (json{{"type", "ready"}, {"room", "live-room"}, {"cursor", 0}}));
    const json first = send("ann", "live-room", "while you listen");
    const json got = live.next([](const json& f) { return f["type"] == "message"; });
    EXPECT_EQ(got, (json{{"type", "message"}, {"cursor", 1}, {"message", first}}));

    // Sent while nobody listens; a call with `after` picks it up, and the stream ends when idle.
    const json second = send("ann", "live-room", "while you were away");
    const auto frames = stream_messages(
        host->api_port(), "/api/v1/chat/live?room=live-room&after=" + got["cursor"].dump(), "bob",
        30000);
    ASSERT_EQ(frames.size(), 1u);
    EXPECT_EQ(frames[0], (json{{"type", "message"}, {"cursor", 2}, {"message", second}}));
}

TEST_F(Chat, AgentAnswersInTheRoom) {
    LiveStream live(host->api_port(), "/api/v1/chat/live?room=ask-room", "ann");
    live.next([](const json& f) { return f["type"] == "ready"; });
    const json asked = send("ann", "ask-room", "@agent what are my notes");
    EXPECT_EQ(asked["agent"], false);
    const json answer = live.next(
        [](const json& f) { return f["type"] == "message" && f["message"]["agent"] == true; });
    EXPECT_EQ(answer["message"]["from"], "assistant");
    EXPECT_EQ(answer["message"]["room"], "ask-room");
    EXPECT_FALSE(answer["message"]["text"].get<std::string>().empty());
    const json all = ok(api.get("/api/v1/chat/messages?room=ask-room", as("bob")))["messages"];
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[0], asked);
    EXPECT_EQ(all[1], answer["message"]);
}

}  // namespace
