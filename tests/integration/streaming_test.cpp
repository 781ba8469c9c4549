// Streaming endpoints over HTTP: each chunk a plugin sends is one Server-Sent Event, sent as it
// comes; an error after the stream began is a final `event: error`; a client that goes away stops
// the plugin's producer (respond_chunk fails, on_cancel runs). Surfaces that cannot stream (/rpc)
// get the chunks as one JSON array.
#include <gtest/gtest.h>

#include "host_process.hpp"
#include "http_client.hpp"
#include "shared_host_test.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

std::vector<json> data_frames(const std::string& body) {
    std::vector<json> out;
    size_t i = 0;
    while ((i = body.find("data: ", i)) != std::string::npos) {
        size_t end = body.find('\n', i);
        out.push_back(json::parse(body.substr(i + 6, end - i - 6)));
        i = end;
    }
    return out;
}

class Streaming : public SharedHostTest {};

TEST_F(Streaming, ChunksArriveAsServerSentEvents) {
    HttpClient c("127.0.0.1", host->api_port());
    auto r = c.get("/api/v1/sse/count?n=3");
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.header("content-type"), "text/event-stream");
    EXPECT_EQ(r.header("transfer-encoding"), "chunked");
    EXPECT_EQ(r.body, "data: {\"i\":1}\n\ndata: {\"i\":2}\n\ndata: {\"i\":3}\n\n");
}

TEST_F(Streaming, FramesInOrderThenEnd) {
    HttpClient c("127.0.0.1", host->api_port());
    auto r = c.get("/api/v1/sse/count?n=50");
    ASSERT_EQ(r.status, 200) << r.body;
    auto frames = data_frames(r.body);
    ASSERT_EQ(frames.size(), 50u) << r.body;
    for (int i = 0; i < 50; ++i) EXPECT_EQ(frames[static_cast<size_t>(i)]["i"], i + 1);
    // The connection is reusable after the stream ended.
    EXPECT_EQ(c.get("/").status, 200);
    EXPECT_EQ(c.connects(), 1);
}

TEST_F(Streaming, AnErrorAfterTheStreamBeganIsAnErrorEvent) {
    HttpClient c("127.0.0.1", host->api_port());
    auto r = c.get("/api/v1/sse/count?n=2&fail=true");
    ASSERT_EQ(r.status, 200);
    EXPECT_NE(
        r.body.find(
            "event: error\ndata: {\"code\":\"conflict\",\"message\":\"stream failed on purpose\"}"),
        std::string::npos)
        << r.body;
    auto before = c.get("/api/v1/sse/count?n=0&fail=true");  // no chunk yet: a plain error
    EXPECT_EQ(before.status, 409);
    EXPECT_EQ(before.json()["error"]["code"], "conflict");
}

TEST_F(Streaming, RpcGetsTheChunksAsOneArray) {
    HttpClient proxy("127.0.0.1", host->proxy_port());
    auto r = proxy.post_json(
        "/rpc", {{"service", "sse"}, {"method", "Sse.Count"}, {"request", {{"n", 3}}}});
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.json(), json::parse(R"([{"i":1},{"i":2},{"i":3}])"));
}

TEST_F(Streaming, AClientThatLeavesStopsTheProducer) {
    HttpClient c("127.0.0.1", host->api_port());
    auto before = c.get("/api/v1/sse/stopped").json()["data"]["stopped"].get<int>();
    {
        HttpClient leaver("127.0.0.1", host->api_port());
        leaver.send_raw("GET /api/v1/sse/count?n=100000&gap_ms=1 HTTP/1.1\r\nHost: t\r\n\r\n");
        EXPECT_EQ(leaver.read_some().rfind("HTTP/1.1 200", 0), 0u);  // the stream began
    }                                                                // the socket closes here
    int stopped = before;
    for (int i = 0; i < 200 && stopped == before;
         ++i) {  // bounded: the producer notices within a few writes
        auto r = c.get("/api/v1/sse/stopped");
        stopped = r.json()["data"]["stopped"].get<int>();
        if (stopped == before) host->wait_for_log("never-printed-marker", 25);
    }
    EXPECT_EQ(stopped, before + 1);
}

}  // namespace
