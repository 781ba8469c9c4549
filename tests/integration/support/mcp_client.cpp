#include "mcp_client.hpp"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>

namespace platform::test {

using nlohmann::json;

std::vector<json> sse_messages(const std::string& body) {
    std::vector<json> out;
    size_t i = 0;
    while ((i = body.find("data: ", i)) != std::string::npos) {
        size_t end = body.find('\n', i);
        if (end == std::string::npos) end = body.size();
        json j = json::parse(body.substr(i + 6, end - i - 6), nullptr, false);
        if (!j.is_discarded()) out.push_back(std::move(j));
        i = end;
    }
    return out;
}

McpClient::McpClient(int port, std::string token)
    : http_("127.0.0.1", port), token_(std::move(token)) {}

Headers McpClient::headers() const {
    Headers h{{"Accept", "application/json, text/event-stream"}};
    if (!token_.empty()) h["Authorization"] = "Bearer " + token_;
    if (!session_.empty()) h["Mcp-Session-Id"] = session_;
    if (!version_.empty()) h["MCP-Protocol-Version"] = version_;
    return h;
}

HttpResult McpClient::post_raw(const std::string& body, const Headers& headers) {
    return http_.post("/mcp", body, headers);
}

HttpResult McpClient::post(const json& message, const Headers& extra) {
    Headers h = headers();
    h["Content-Type"] = "application/json";
    for (const auto& [k, v] : extra) h[k] = v;
    return post_raw(message.dump(), h);
}

json McpClient::initialize(const std::string& version) {
    session_.clear();
    version_.clear();
    json init = {{"jsonrpc", "2.0"},
                 {"id", next_id_++},
                 {"method", "initialize"},
                 {"params",
                  {{"protocolVersion", version},
                   {"capabilities", json::object()},
                   {"clientInfo", {{"name", "platform-tests"}, {"version", "1"}}}}}};
    HttpResult r = post(init);
    EXPECT_EQ(r.status, 200) << r.body;
    session_ = r.header("mcp-session-id");
    EXPECT_FALSE(session_.empty()) << "initialize gave no Mcp-Session-Id";
    json answer = r.header("content-type").rfind("text/event-stream", 0) == 0
                      ? sse_messages(r.body).back()
                      : json::parse(r.body);
    version_ = answer["result"].value("protocolVersion", version);
    HttpResult done = post({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
    EXPECT_EQ(done.status, 202) << done.body;
    return answer["result"];
}

json McpClient::request(const std::string& method, const json& params) {
    const int id = next_id_++;
    HttpResult r = post({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}});
    notifications_.clear();
    if (r.header("content-type").rfind("text/event-stream", 0) == 0) {
        json response;
        for (auto& m : sse_messages(r.body)) {
            if (m.contains("id") && (m.contains("result") || m.contains("error")))
                response = std::move(m);
            else
                notifications_.push_back(std::move(m));
        }
        if (response.is_null())
            throw std::runtime_error(method +
                                     ": the event stream ended without a response: " + r.body);
        return response;
    }
    json answer = json::parse(r.body, nullptr, false);
    if (!answer.is_object())
        throw std::runtime_error(method + ": HTTP " + std::to_string(r.status) + " " + r.body);
    return answer;
}

std::map<std::string, json> McpClient::tools() {
    std::map<std::string, json> out;
    json params = json::object();
    for (;;) {
        const json page = request("tools/list", params);
        if (!page.contains("result")) throw std::runtime_error("tools/list: " + page.dump());
        for (const auto& t : page["result"]["tools"]) out[t["name"]] = t;
        if (!page["result"].contains("nextCursor")) return out;
        params["cursor"] = page["result"]["nextCursor"];
    }
}

json McpClient::call_tool(const std::string& name, const json& arguments) {
    json answer = request("tools/call", {{"name", name}, {"arguments", arguments}});
    if (!answer.contains("result"))
        throw std::runtime_error("tools/call " + name + ": " + answer.dump());
    return answer["result"];
}

EventStream::EventStream(int port, const Headers& headers) {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
    if (connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0)
        throw std::runtime_error("EventStream: connect failed");
    std::string req = "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) + "\r\n";
    for (const auto& [k, v] : headers)
        if (k != "Accept") req += k + ": " + v + "\r\n";
    req += "Accept: text/event-stream\r\n\r\n";
    if (::send(fd_, req.data(), req.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(req.size()))
        throw std::runtime_error("EventStream: send failed");
    reader_ = std::thread([this] {
        char buf[4096];
        for (;;) {
            ssize_t n = recv(fd_, buf, sizeof buf, 0);
            std::lock_guard<std::mutex> g(m_);
            if (n <= 0) {
                closed_ = true;
                cv_.notify_all();
                return;
            }
            data_.append(buf, static_cast<size_t>(n));
            cv_.notify_all();
        }
    });
}

EventStream::~EventStream() {
    ::shutdown(fd_, SHUT_RDWR);
    reader_.join();
    ::close(fd_);
}

namespace {
size_t occurrences(const std::string& all, const std::string& text) {
    size_t n = 0;
    for (size_t i = all.find(text); i != std::string::npos; i = all.find(text, i + text.size()))
        ++n;
    return n;
}
}  // namespace

bool EventStream::wait_for(const std::string& text, int timeout_ms, size_t times) {
    std::unique_lock<std::mutex> lock(m_);
    cv_.wait_for(lock, std::chrono::milliseconds(timeout_ms),
                 [&] { return occurrences(data_, text) >= times || closed_; });
    return occurrences(data_, text) >= times;
}

size_t EventStream::count(const std::string& text) {
    std::lock_guard<std::mutex> g(m_);
    return occurrences(data_, text);
}

int EventStream::status() {
    if (!wait_for("\r\n\r\n", 10000)) return 0;
    std::lock_guard<std::mutex> g(m_);
    auto sp = data_.find(' ');
    return sp == std::string::npos ? 0 : std::stoi(data_.substr(sp + 1, 3));
}

std::string EventStream::received() {
    std::lock_guard<std::mutex> g(m_);
    return data_;
}

}  // namespace platform::test
