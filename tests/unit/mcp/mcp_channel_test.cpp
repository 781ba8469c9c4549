// Channel (one POST's answer: JSON, or an event stream once something must precede the
// response) and ToolCallClient (what call_progress / call_log / call_client_request do).
#include <gtest/gtest.h>

#include "mcp_internal.hpp"

using namespace platform::host;
using namespace platform::host::mcp;

namespace {

struct FakeStream : HttpStream {
    std::vector<std::string> writes;
    bool ended = false;
    bool write(std::string_view b) override {
        writes.emplace_back(b);
        return !ended;
    }
    void end() override { ended = true; }
};

struct Wire {
    std::vector<HttpResponse> replies;
    std::shared_ptr<FakeStream> stream;
    int opened = 0;
    std::shared_ptr<Channel> channel(bool sse, bool json) {
        return std::make_shared<Channel>(
            [this](HttpResponse r) { replies.push_back(std::move(r)); },
            [this](int status, const std::string& type,
                   const std::vector<std::pair<std::string, std::string>>&) {
                EXPECT_EQ(status, 200);
                EXPECT_EQ(type, "text/event-stream");
                ++opened;
                return stream = std::make_shared<FakeStream>();
            },
            sse, json, std::vector<std::pair<std::string, std::string>>{{"Mcp-Session-Id", "s1"}},
            "Bearer x");
    }
};

Session session(json caps = json::object(), std::string level = "info") {
    Session s;
    s.id = "s1";
    s.client_capabilities = std::move(caps);
    s.log_level = std::move(level);
    return s;
}

TEST(McpChannel, AnswersJsonWhenNothingPrecedesTheResponse) {
    Wire w;
    auto c = w.channel(true, true);
    c->finish(result_message(7, json::object()));
    c->finish(result_message(8, json::object()));  // once only
    ASSERT_EQ(w.replies.size(), 1u);
    EXPECT_EQ(w.opened, 0);
    EXPECT_EQ(json::parse(w.replies[0].body)["id"], 7);
    EXPECT_EQ(w.replies[0].headers[0].first, "Mcp-Session-Id");
}

TEST(McpChannel, OpensAStreamForANotificationAndEndsItWithTheResponse) {
    Wire w;
    auto c = w.channel(true, true);
    EXPECT_TRUE(c->send({{"jsonrpc", "2.0"}, {"method", "notifications/progress"}}));
    c->finish(result_message(1, json::object()));
    EXPECT_TRUE(w.replies.empty());
    ASSERT_EQ(w.stream->writes.size(), 2u);
    EXPECT_EQ(w.stream->writes[0].rfind("event: message\ndata: {", 0), 0u);
    EXPECT_NE(w.stream->writes[1].find("\"id\":1"), std::string::npos);
    EXPECT_TRUE(w.stream->ended);
}

TEST(McpChannel, WithoutEventStreamsNotificationsAreRefusedAndTheAnswerIsJson) {
    Wire w;
    auto c = w.channel(false, true);
    EXPECT_FALSE(c->send({{"jsonrpc", "2.0"}, {"method", "notifications/message"}}));
    c->finish(result_message(1, json::object()));
    EXPECT_EQ(w.opened, 0);
    ASSERT_EQ(w.replies.size(), 1u);
}

TEST(McpChannel, AnEventStreamOnlyClientGetsTheResponseAsAnEvent) {
    Wire w;
    w.channel(true, false)->finish(result_message(3, json::object()));
    EXPECT_TRUE(w.replies.empty());
    ASSERT_TRUE(w.stream);
    EXPECT_NE(w.stream->writes.at(0).find("\"id\":3"), std::string::npos);
}

TEST(McpChannel, UnauthorizedIs401WithTheChallenge) {
    Wire w;
    w.channel(true, true)->unauthorized("no account");
    ASSERT_EQ(w.replies.size(), 1u);
    EXPECT_EQ(w.replies[0].status, 401);
    EXPECT_EQ(w.replies[0].headers.back(),
              std::make_pair(std::string("WWW-Authenticate"), std::string("Bearer x")));
}

TEST(McpCallClient, ProgressNeedsATokenAndMustIncrease) {
    Wire w;
    auto live = std::make_shared<Live>();
    ToolCallClient none(live, w.channel(true, true), session(), 1, nullptr);
    EXPECT_EQ(none.progress(1, 10, ""), PLATFORM_UNSUPPORTED);
    auto ch = w.channel(true, true);
    ToolCallClient c(live, ch, session(), 1, "tok");
    EXPECT_EQ(c.progress(0, 100, "start"), PLATFORM_OK);
    EXPECT_EQ(c.progress(50, 100, ""), PLATFORM_OK);
    EXPECT_EQ(c.progress(50, 100, ""), PLATFORM_INVALID_ARGUMENT);
    ASSERT_EQ(w.stream->writes.size(), 2u);
    json first = json::parse(w.stream->writes[0].substr(w.stream->writes[0].find('{')));
    EXPECT_EQ(
        first["params"],
        json::parse(R"({"progressToken":"tok","progress":0.0,"total":100.0,"message":"start"})"));
}

TEST(McpCallClient, LogsAtOrAboveTheSessionLevel) {
    Wire w;
    ToolCallClient c(std::make_shared<Live>(), w.channel(true, true), session({}, "warning"), 1,
                     nullptr);
    EXPECT_EQ(c.log("info", "", "\"quiet\""), PLATFORM_OK);  // below: not sent
    EXPECT_EQ(c.log("error", "db", "{\"n\":1}"), PLATFORM_OK);
    EXPECT_EQ(c.log("loud", "", "1"), PLATFORM_INVALID_ARGUMENT);
    ASSERT_EQ(w.stream->writes.size(), 1u);
    json sent = json::parse(w.stream->writes[0].substr(w.stream->writes[0].find('{')));
    EXPECT_EQ(sent["params"], json::parse(R"({"level":"error","logger":"db","data":{"n":1}})"));
}

TEST(McpCallClient, ClientRequestsNeedTheCapabilityAndGetTheAnswer) {
    Wire w;
    auto live = std::make_shared<Live>();
    ToolCallClient plain(live, w.channel(true, true), session(), 1, nullptr);
    EXPECT_EQ(
        plain.request("sampling/createMessage", "{}", 0, [](platform_status_t, std::string) {}),
        PLATFORM_UNSUPPORTED);

    ToolCallClient c(live, w.channel(true, true), session({{"sampling", json::object()}}), 2,
                     nullptr);
    platform_status_t code = -1;
    std::string body;
    ASSERT_EQ(
        c.request("sampling/createMessage", R"({"maxTokens":5})", 0,
                  [&](platform_status_t st, std::string b) { code = st, body = std::move(b); }),
        PLATFORM_OK);
    json asked = json::parse(w.stream->writes.at(0).substr(w.stream->writes[0].find('{')));
    EXPECT_EQ(asked["method"], "sampling/createMessage");
    EXPECT_FALSE(live->answer("other-session", {{"id", asked["id"]}, {"result", json::object()}}));
    EXPECT_TRUE(live->answer("s1", {{"id", asked["id"]}, {"result", {{"role", "assistant"}}}}));
    EXPECT_EQ(code, PLATFORM_OK);
    EXPECT_EQ(json::parse(body)["role"], "assistant");
    EXPECT_FALSE(live->answer("s1", {{"id", asked["id"]}, {"result", json::object()}}));  // once
}

TEST(McpCallClient, RequestsStillWaitingFailWhenTheCallEnds) {
    Wire w;
    auto live = std::make_shared<Live>();
    ToolCallClient c(live, w.channel(true, true), session({{"elicitation", json::object()}}), 1,
                     nullptr);
    platform_status_t code = -1;
    ASSERT_EQ(c.request("elicitation/create", "{}", 0,
                        [&](platform_status_t st, std::string) { code = st; }),
              PLATFORM_OK);
    c.finished();
    EXPECT_EQ(code, PLATFORM_UNAVAILABLE);
    EXPECT_TRUE(live->pending.empty());
}

}  // namespace
