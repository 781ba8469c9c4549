// mcp_client.hpp — MCP over raw HTTP for tests (Streamable HTTP, one JSON-RPC message per POST).
//
//   McpClient mcp(host.api_port(), "alice");      // bearer token; "" = anonymous
//   mcp.initialize();                              // keeps Mcp-Session-Id
//   json r = mcp.request("tools/list");            // the whole response message
//   EventStream events(host.api_port(), mcp.headers());   // GET /mcp, read by a thread
//   events.wait_for("notifications/resources/updated", 10000);
//
// Replies may be application/json or text/event-stream (progress, logging): both are parsed, and
// the notifications that preceded the response are kept in notifications().
#pragma once

#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "http_client.hpp"

namespace platform::test {

// Every `data:` message of an event-stream body, in order.
std::vector<nlohmann::json> sse_messages(const std::string& body);

class McpClient {
public:
    explicit McpClient(int port, std::string token = "");

    // initialize + notifications/initialized; returns the initialize result (fails the test when
    // either is refused).
    nlohmann::json initialize(const std::string& version = "2025-11-25");
    // A request; returns the response message ({"result"} or {"error"}), or throws when the HTTP
    // answer carries none.
    nlohmann::json request(const std::string& method,
                           const nlohmann::json& params = nlohmann::json::object());
    // Every tool of tools/list, all pages followed, by name (throws when a page is an error).
    std::map<std::string, nlohmann::json> tools();
    // A tools/call's result (throws on a JSON-RPC error).
    nlohmann::json call_tool(const std::string& name, const nlohmann::json& arguments);
    // POSTs a message with this client's headers (plus `extra`) and returns the raw answer.
    HttpResult post(const nlohmann::json& message, const Headers& extra = {});
    HttpResult post_raw(const std::string& body, const Headers& headers);

    // Authorization, Mcp-Session-Id and MCP-Protocol-Version as the client sends them.
    Headers headers() const;
    const std::string& session() const { return session_; }
    void set_session(std::string id) { session_ = std::move(id); }
    const std::vector<nlohmann::json>& notifications() const { return notifications_; }
    HttpClient& http() { return http_; }

private:
    HttpClient http_;
    std::string token_, session_, version_;
    int next_id_ = 1;
    std::vector<nlohmann::json> notifications_;
};

// GET /mcp on its own connection; a thread collects the bytes so a test can wait for an event
// with a deadline. The destructor shuts the socket down and joins the reader.
class EventStream {
public:
    EventStream(int port, const Headers& headers);
    ~EventStream();
    EventStream(const EventStream&) = delete;
    EventStream& operator=(const EventStream&) = delete;

    int status();  // the answer's status, once its head arrived (0 if none within 10 s)
    // True once `text` appears `times` times in what arrived (the head included) before the
    // deadline.
    bool wait_for(const std::string& text, int timeout_ms, size_t times = 1);
    size_t count(const std::string& text);  // occurrences so far
    std::string received();

private:
    int fd_ = -1;
    std::thread reader_;
    std::mutex m_;
    std::condition_variable cv_;
    std::string data_;
    bool closed_ = false;
};

}  // namespace platform::test
