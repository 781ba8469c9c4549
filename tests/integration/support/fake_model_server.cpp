#include "fake_model_server.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>

#include "../../unit/outbound/loopback_server.hpp"

namespace platform::test {

using nlohmann::json;

std::string FakeModelServer::Request::header(const std::string& lower_name) const {
    auto it = headers.find(lower_name);
    return it == headers.end() ? "" : it->second;
}

FakeModelServer::FakeModelServer()
    : server_(std::make_unique<LoopbackServer>([this](const LoopbackServer::Request& r) {
          return answer(r.method, r.target, r.headers, r.body);
      })) {}

FakeModelServer::~FakeModelServer() {
    {
        std::lock_guard<std::mutex> g(m_);
        closing_ = true;
    }
    released_.notify_all();
    server_.reset();
}

int FakeModelServer::port() const {
    return server_->port();
}
std::string FakeModelServer::url(const std::string& suffix) const {
    return server_->url("") + suffix;
}
std::string FakeModelServer::allow_entry() const {
    return "127.0.0.1:" + std::to_string(port());
}

void FakeModelServer::enqueue(const std::string& path, Response response) {
    std::lock_guard<std::mutex> g(m_);
    queues_[path].push_back(std::move(response));
}

size_t FakeModelServer::pending(const std::string& path) const {
    std::lock_guard<std::mutex> g(m_);
    auto it = queues_.find(path);
    return it == queues_.end() ? 0 : it->second.size();
}

std::vector<FakeModelServer::Request> FakeModelServer::requests() const {
    std::lock_guard<std::mutex> g(m_);
    return requests_;
}

std::vector<FakeModelServer::Request> FakeModelServer::requests(const std::string& path) const {
    std::vector<Request> out;
    for (auto& r : requests())
        if (r.path == path) out.push_back(r);
    return out;
}

bool FakeModelServer::wait_for_requests(const std::string& path, size_t n, int timeout_ms) {
    std::unique_lock<std::mutex> lock(m_);
    return arrived_.wait_for(lock, std::chrono::milliseconds(timeout_ms), [&] {
        return static_cast<size_t>(
                   std::count_if(requests_.begin(), requests_.end(),
                                 [&](const Request& r) { return r.path == path; })) >= n;
    });
}

void FakeModelServer::hold(const std::string& path, size_t after) {
    std::lock_guard<std::mutex> g(m_);
    held_[path] = after;
}

void FakeModelServer::release(const std::string& path) {
    {
        std::lock_guard<std::mutex> g(m_);
        held_.erase(path);
    }
    released_.notify_all();
}

void FakeModelServer::reset() {
    std::lock_guard<std::mutex> g(m_);
    queues_.clear();
    requests_.clear();
}

std::string FakeModelServer::answer(const std::string& method, const std::string& target,
                                    const std::map<std::string, std::string>& headers,
                                    const std::string& body) {
    Request rec{method, target.substr(0, target.find('?')), headers, body,
                json::parse(body, nullptr, false)};
    if (rec.body.is_discarded()) rec.body = nullptr;
    Response resp;
    {
        std::unique_lock<std::mutex> lock(m_);
        requests_.push_back(rec);
        arrived_.notify_all();
        const auto nth = static_cast<size_t>(
            std::count_if(requests_.begin(), requests_.end(),
                          [&](const Request& r) { return r.path == rec.path; }));
        released_.wait(lock, [&] {
            const auto held = held_.find(rec.path);
            return closing_ || held == held_.end() || nth <= held->second;
        });
        auto& queue = queues_[rec.path];
        if (queue.empty()) {
            const std::string why =
                "fake model server: nothing scripted for " + method + " " + rec.path;
            resp = status(
                500, {{"type", "error"}, {"error", {{"type", "api_error"}, {"message", why}}}});
        } else {
            resp = std::move(queue.front());
            queue.erase(queue.begin());
        }
    }
    if (resp.hang) return "";
    auto extra = resp.headers;
    extra.emplace_back("Content-Type", "application/json");
    return LoopbackServer::reply(resp.status, resp.raw.empty() ? resp.body.dump() : resp.raw,
                                 extra);
}

// ---- answers ----------------------------------------------------------------------------------

json FakeModelServer::openai_text(const std::string& text, const std::string& model,
                                  int prompt_tokens, int completion_tokens,
                                  const std::string& finish_reason) {
    return {{"id", "chatcmpl-fake"},
            {"object", "chat.completion"},
            {"created", 1767225600},
            {"model", model},
            {"choices",
             {{{"index", 0},
               {"message", {{"role", "assistant"}, {"content", text}}},
               {"finish_reason", finish_reason}}}},
            {"usage",
             {{"prompt_tokens", prompt_tokens},
              {"completion_tokens", completion_tokens},
              {"total_tokens", prompt_tokens + completion_tokens}}}};
}

json FakeModelServer::openai_tool_calls(const std::vector<ToolCall>& calls,
                                        const std::string& model, int prompt_tokens,
                                        int completion_tokens, const std::string& text) {
    json list = json::array();
    for (const auto& c : calls)
        list.push_back(
            {{"id", c.id},
             {"type", "function"},
             {"function",
              {{"name", c.name},
               {"arguments", c.raw_arguments.empty() ? c.arguments.dump() : c.raw_arguments}}}});
    json message = {{"role", "assistant"},
                    {"content", text.empty() ? json() : json(text)},
                    {"tool_calls", list}};
    json out = openai_text("", model, prompt_tokens, completion_tokens, "tool_calls");
    out["choices"][0]["message"] = message;
    return out;
}

json FakeModelServer::openai_error(const std::string& message, const std::string& type) {
    return {
        {"error", {{"message", message}, {"type", type}, {"param", nullptr}, {"code", nullptr}}}};
}

json FakeModelServer::anthropic_text(const std::string& text, const std::string& model,
                                     int input_tokens, int output_tokens,
                                     const std::string& stop_reason) {
    return {{"id", "msg_fake"},
            {"type", "message"},
            {"role", "assistant"},
            {"model", model},
            {"content", {{{"type", "text"}, {"text", text}}}},
            {"stop_reason", stop_reason},
            {"stop_sequence", nullptr},
            {"usage", {{"input_tokens", input_tokens}, {"output_tokens", output_tokens}}}};
}

json FakeModelServer::anthropic_tool_use(const std::vector<ToolCall>& calls,
                                         const std::string& text, const std::string& model,
                                         int input_tokens, int output_tokens) {
    json content = json::array();
    if (!text.empty()) content.push_back({{"type", "text"}, {"text", text}});
    for (const auto& c : calls)
        content.push_back(
            {{"type", "tool_use"}, {"id", c.id}, {"name", c.name}, {"input", c.arguments}});
    json out = anthropic_text("", model, input_tokens, output_tokens, "tool_use");
    out["content"] = content;
    return out;
}

json FakeModelServer::anthropic_error(const std::string& message, const std::string& type) {
    return {{"type", "error"}, {"error", {{"type", type}, {"message", message}}}};
}

std::vector<std::string> FakeModelServer::openai_tool_names(const json& request) {
    std::vector<std::string> out;
    for (const auto& t : request.value("tools", json::array()))
        out.push_back(t["function"]["name"]);
    return out;
}

HostProcess::Options model_server_host(const FakeModelServer& server, const std::string& path,
                                       const std::string& profile_text) {
    std::ofstream(path) << profile_text << "\noutbound:\n  allow: [\"" << server.allow_entry()
                        << "\"]\n";
    HostProcess::Options o;
    o.profile = path;
    o.env["OPENAI_BASE_URL"] = server.url("/v1");
    o.env["OPENAI_API_KEY"] = "test-key";
    o.env["OPENAI_MODEL"] = "gpt-test";
    o.env["ANTHROPIC_API_KEY"] = "";
    return o;
}

}  // namespace platform::test
