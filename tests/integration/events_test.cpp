// The events service against the real host: publish and read over the gateway, consume as a
// stream (Server-Sent Events, parsed leniently: `data:` frames, or JSON values one after another
// or in one array while a surface cannot stream), consumer groups with ack, access and argument
// errors on the test profile (events-memory), and durability on the local profile (events-sqlite).
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <sstream>
#include <thread>

#include "eventually.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "local_accounts.hpp"
#include "local_files.hpp"
#include "shared_host_test.hpp"
#include "stream_reader.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

class Events : public SharedHostTest {
protected:
    json publish(const std::string& topic, const json& payload) {
        auto r = api.post_json("/events/publish", {{"topic", topic}, {"payload", payload}},
                               as("ev-alice"));
        EXPECT_EQ(r.status, 200) << r.body;
        return r.status == 200 ? r.json() : json();
    }
};

TEST_F(Events, PublishThenReadInOrder) {
    for (int i = 1; i <= 3; ++i) {
        json p = publish("it.read", {{"n", i}});
        EXPECT_EQ(p.value("offset", 0), i);
        EXPECT_EQ(p.value("topic", ""), "it.read");
        EXPECT_FALSE(p.value("id", "").empty());
    }
    auto r = api.get("/events/read?topic=it.read", as("ev-alice"));
    ASSERT_EQ(r.status, 200) << r.body;
    json events = r.json().at("events");
    ASSERT_EQ(events.size(), 3u);
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(events[i].at("offset"), i + 1);
        EXPECT_EQ(events[i].at("payload"), json({{"n", i + 1}}));
    }
    r = api.get("/events/read?topic=it.read&offset=3&limit=5", as("ev-alice"));
    ASSERT_EQ(r.status, 200) << r.body;
    ASSERT_EQ(r.json().at("events").size(), 1u);
    EXPECT_EQ(r.json().at("events")[0].at("offset"), 3);
}

TEST_F(Events, ConsumeStreamsTheEventsInOrder) {
    for (int i = 1; i <= 3; ++i) publish("it.stream", "event " + std::to_string(i));
    RawAnswer r = raw_get(host->api_port(), "/events/consume?topic=it.stream&offset=1&limit=3",
                          bearer("ev-alice"));
    ASSERT_EQ(r.status, 200) << r.headers << "\n" << r.body;
    auto events = stream_chunks(r.body);
    ASSERT_EQ(events.size(), 3u) << r.body;
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(events[i].at("offset"), i + 1);
        EXPECT_EQ(events[i].at("payload"), "event " + std::to_string(i + 1));
        EXPECT_EQ(events[i].at("topic"), "it.stream");
    }
}

TEST_F(Events, ConsumeDeliversALiveEvent) {
    publish("it.live", 1);
    RawAnswer r;
    std::thread consumer([&] {
        r = raw_get(host->api_port(),
                    "/events/consume?topic=it.live&offset=2&limit=1&wait_ms=20000",
                    bearer("ev-alice"));
    });
    publish("it.live", 2);  // before or while the consumer waits: delivered either way
    consumer.join();
    ASSERT_EQ(r.status, 200) << r.body;
    auto events = stream_chunks(r.body);
    ASSERT_EQ(events.size(), 1u) << r.body;
    EXPECT_EQ(events[0].at("offset"), 2);
    EXPECT_EQ(events[0].at("payload"), 2);
}

TEST_F(Events, GroupConsumeAndAck) {
    publish("it.group", "a");
    publish("it.group", "b");
    RawAnswer r = raw_get(host->api_port(),
                          "/events/consume?topic=it.group&group=workers&offset=1&limit=1&wait_ms=0",
                          bearer("ev-alice"));
    ASSERT_EQ(r.status, 200) << r.body;
    auto first = stream_chunks(r.body);
    ASSERT_EQ(first.size(), 1u) << r.body;
    EXPECT_EQ(first[0].at("offset"), 1);
    r = raw_get(host->api_port(), "/events/consume?topic=it.group&group=workers&limit=1&wait_ms=0",
                bearer("ev-alice"));
    auto second = stream_chunks(r.body);
    ASSERT_EQ(second.size(), 1u) << r.body;
    EXPECT_EQ(second[0].at("offset"), 2);  // the other member's event is in flight

    auto ack =
        api.post_json("/events/ack", {{"topic", "it.group"}, {"group", "workers"}, {"offset", 1}},
                      as("ev-alice"));
    ASSERT_EQ(ack.status, 200) << ack.body;
    EXPECT_EQ(ack.json().at("acked"), 1);
    EXPECT_EQ(ack.json().at("committed"), 1);
    auto nack =
        api.post_json("/events/nack", {{"topic", "it.group"}, {"group", "workers"}, {"offset", 2}},
                      as("ev-alice"));
    ASSERT_EQ(nack.status, 200) << nack.body;
    r = raw_get(host->api_port(), "/events/consume?topic=it.group&group=workers&limit=1&wait_ms=0",
                bearer("ev-alice"));
    auto again = stream_chunks(r.body);
    ASSERT_EQ(again.size(), 1u) << r.body;
    EXPECT_EQ(again[0].at("offset"), 2);
    EXPECT_EQ(again[0].at("delivery"), 2);

    auto unknown = api.post_json(
        "/events/ack", {{"topic", "it.group"}, {"group", "nobody"}, {"offset", 1}}, as("ev-alice"));
    EXPECT_EQ(unknown.status, 404) << unknown.body;
}

TEST_F(Events, TopicsListsWhatWasPublished) {
    publish("it.topics", 1);
    publish("it.topics", 2);
    auto r = api.get("/events/topics", as("ev-alice"));
    ASSERT_EQ(r.status, 200) << r.body;
    bool found = false;
    const json body = r.json();  // keep it alive: at() returns a reference into it
    for (const auto& t : body.at("topics"))
        if (t.at("topic") == "it.topics") {
            found = true;
            EXPECT_EQ(t.at("events"), 2);
            EXPECT_EQ(t.at("last_offset"), 2);
        }
    EXPECT_TRUE(found) << r.body;
}

TEST_F(Events, NeedsAnAccountAndNamesBadArguments) {
    auto r = api.post_json("/events/publish", {{"topic", "t"}, {"payload", 1}});
    EXPECT_EQ(r.status, 401) << r.body;
    r = api.post_json("/events/publish", {{"topic", "no/slashes"}, {"payload", 1}}, as("ev-alice"));
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_NE(r.body.find("topic"), std::string::npos) << r.body;
    r = api.post_json("/events/publish", {{"topic", "t"}}, as("ev-alice"));
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_NE(r.body.find("payload"), std::string::npos) << r.body;
    r = api.post_json("/events/publish", {{"topic", "t"}, {"payload", 1}, {"timestamp", "soon"}},
                      as("ev-alice"));
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_NE(r.body.find("timestamp"), std::string::npos) << r.body;
    r = api.get("/events/read?topic=t&limit=5000", as("ev-alice"));
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_NE(r.body.find("limit"), std::string::npos) << r.body;
}

// A consumer whose client went away: the next chunk fails, the stream ends, the host keeps
// serving (a host once aborted on that write: Pistache "could not find write data").
TEST(EventsStream, ClientLeavingMidStreamLeavesTheHostServing) {
    HostProcess host;
    host.start();
    HttpClient c("127.0.0.1", host.api_port());
    ASSERT_EQ(c.post_json("/events/publish", {{"topic", "gone"}, {"payload", 1}}, bearer("ev-bob"))
                  .status,
              200);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(host.api_port()));
    inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
    ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    const std::string req =
        "GET /events/consume?topic=gone&offset=1&wait_ms=20000 HTTP/1.1\r\nHost: x\r\n"
        "Authorization: Bearer ev-bob\r\n\r\n";
    ::send(fd, req.data(), req.size(), MSG_NOSIGNAL);
    std::string got;
    char buf[4096];
    while (got.find("data:") == std::string::npos) {  // the first event arrived: the stream is open
        pollfd p{fd, POLLIN, 0};
        ASSERT_GT(poll(&p, 1, 10000), 0) << got;
        ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        ASSERT_GT(n, 0) << got;
        got.append(buf, static_cast<size_t>(n));
    }
    // Close it, and wait until the server's end of the connection has seen the close (it leaves
    // ESTABLISHED for CLOSE_WAIT) before the next chunk is written to it.
    const int open_before = held_connections(host.api_port(), true);
    ::close(fd);
    ASSERT_TRUE(
        eventually([&] { return held_connections(host.api_port(), true) < open_before; }, 10));
    for (int i = 2; i <= 3; ++i) {  // the consumer now writes to a closed connection
        auto r =
            c.post_json("/events/publish", {{"topic", "gone"}, {"payload", i}}, bearer("ev-bob"));
        ASSERT_EQ(r.status, 200) << r.body << host.log();
    }
    auto r = c.get("/events/read?topic=gone", bearer("ev-bob"));
    ASSERT_EQ(r.status, 200) << host.log();
    EXPECT_EQ(r.json().at("events").size(), 3u);
    EXPECT_EQ(host.stop(), 0) << host.log();
}

TEST(EventsLocal, EventsSurviveARestart) {
    TempDir home;
    // local has real accounts (auth-local)
    const HostProcess::Options opts = local_options("events-admin-secret", "local", home.path());
    // An access token for admin through POST /auth/token.
    auto admin = [](HttpClient& c) {
        return bearer(access_token(c, "admin", "events-admin-secret"));
    };
    {
        HostProcess host(opts);
        host.start();
        HttpClient c("127.0.0.1", host.api_port());
        const auto bearer = admin(c);
        for (const char* text : {"first", "second"}) {
            auto r = c.post_json("/events/publish",
                                 {{"topic", "durable"}, {"payload", {{"text", text}}}}, bearer);
            ASSERT_EQ(r.status, 200) << r.body << host.log();
        }
        EXPECT_EQ(host.stop(), 0) << host.log();
    }
    EXPECT_TRUE(std::filesystem::exists(home.path() + "/data/events.db"));
    HostProcess again(opts);
    again.start();
    HttpClient c("127.0.0.1", again.api_port());
    const auto bearer = admin(c);
    auto r = c.get("/events/read?topic=durable", bearer);
    ASSERT_EQ(r.status, 200) << r.body;
    json events = r.json().at("events");
    ASSERT_EQ(events.size(), 2u);
    EXPECT_EQ(events[0].at("payload").at("text"), "first");
    EXPECT_EQ(events[1].at("payload").at("text"), "second");
    auto p = c.post_json("/events/publish", {{"topic", "durable"}, {"payload", 3}}, bearer);
    ASSERT_EQ(p.status, 200) << p.body;
    EXPECT_EQ(p.json().at("offset"), 3);  // offsets continue after the restart
    EXPECT_EQ(again.stop(), 0);
}

}  // namespace
