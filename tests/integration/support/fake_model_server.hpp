// fake_model_server.hpp — a scripted model upstream on loopback, for tests of the HTTP model
// providers (model-openai, model-anthropic) and of whatever drives them (the agent).
//
//   FakeModelServer model;                                    // 127.0.0.1, a free port
//   model.enqueue("/v1/chat/completions", FakeModelServer::ok(FakeModelServer::openai_tool_call(
//       "call_1", "notes_add", {{"title", "a"}, {"text", "b"}})));
//   model.enqueue("/v1/chat/completions", FakeModelServer::ok(FakeModelServer::openai_text("Done.")));
//   profile: outbound.allow: [model.allow_entry()]            // loopback needs the allow-list
//   settings: OPENAI_BASE_URL=model.url("/v1")                 // or ANTHROPIC_BASE_URL=model.url()
//   ... run the exchange ...
//   auto seen = model.requests("/v1/chat/completions");       // what the provider sent, in order
//   EXPECT_EQ(seen[1].body["messages"][2]["role"], "tool");
//   EXPECT_EQ(seen[0].header("authorization"), "Bearer k");
//
// Each path has a queue of scripted responses, answered in order, one per request (any method).
// A request to a path whose queue is empty is answered 500 with an OpenAI/Anthropic-shaped error
// naming the path ("fake model server: nothing scripted for POST /v1/messages"), and is recorded
// like any other, so a test that under-scripts fails with a clear message.
//
// Paths: model-openai posts to <base_url>/chat/completions, so with base_url = url("/v1") the path
// is "/v1/chat/completions"; model-anthropic posts to <base_url>/v1/messages (or <base_url>/messages
// when base_url ends in /v1), so with base_url = url() the path is "/v1/messages". The paths are
// kOpenAiPath and kAnthropicPath below.
//
// hold(path) keeps requests to `path` waiting, recorded but unanswered, until release(path): a test
// can see a job sitting inside the model, then let it finish (the destructor releases everything).
//
// Bounded and thread-safe: one thread per connection, Connection: close; the destructor stops and
// joins everything. Built on tests/unit/outbound/loopback_server.hpp.
#pragma once

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "host_process.hpp"
#include "profiles.hpp"

namespace platform::test {

class LoopbackServer;

class FakeModelServer {
public:
    static constexpr const char* kOpenAiPath = "/v1/chat/completions";
    static constexpr const char* kAnthropicPath = "/v1/messages";

    // One scripted answer. `raw`, when set, is sent as the body instead of `body` (for malformed
    // answers); `hang` never answers (the connection stays open until the client gives up), for
    // timeout tests.
    struct Response {
        int status = 200;
        nlohmann::json body = nlohmann::json::object();
        std::string raw;
        std::vector<std::pair<std::string, std::string>> headers;  // besides Content-Type/Length
        bool hang = false;
    };

    // One request the server received.
    struct Request {
        std::string method, path;                    // path without the query
        std::map<std::string, std::string> headers;  // lower-case names
        std::string text;                            // the raw body
        nlohmann::json body;                         // the body parsed, or null when not JSON
        std::string header(const std::string& lower_name) const;
    };

    FakeModelServer();
    ~FakeModelServer();
    FakeModelServer(const FakeModelServer&) = delete;
    FakeModelServer& operator=(const FakeModelServer&) = delete;

    int port() const;
    // "http://127.0.0.1:<port>" + suffix: url("/v1") is an OpenAI base URL, url() an Anthropic one.
    std::string url(const std::string& suffix = "") const;
    // "127.0.0.1:<port>", the entry for a profile's outbound.allow list.
    std::string allow_entry() const;

    // Appends an answer to the queue of `path`.
    void enqueue(const std::string& path, Response response);
    // Scripted answers not yet used for `path`.
    size_t pending(const std::string& path) const;
    // Every request so far, in arrival order; or those to `path`.
    std::vector<Request> requests() const;
    std::vector<Request> requests(const std::string& path) const;
    // Until `path` has seen `n` requests (each counted when it arrives, held or not), or
    // `timeout_ms` passes: whether it has. A condition wait, no polling.
    bool wait_for_requests(const std::string& path, size_t n, int timeout_ms = 30000);
    // Forgets queued answers and recorded requests.
    void reset();
    // Requests to `path` wait (after being recorded) until release(path); then each takes the
    // next scripted answer, in arrival order. With `after` n, the first n requests to `path` (counted
    // since the start or reset()) are answered at once and only later ones wait: a test can let a
    // first completion through and see what happened before the next one (agent/stream's chunks).
    void hold(const std::string& path, size_t after = 0);
    void release(const std::string& path);

    // ---- answers ----------------------------------------------------------------------------

    static Response ok(nlohmann::json body) {
        return Response{200, std::move(body), {}, {}, false};
    }
    static Response status(int code, nlohmann::json body) {
        return Response{code, std::move(body), {}, {}, false};
    }
    static Response malformed(std::string raw, int code = 200) {
        return Response{code, nullptr, std::move(raw), {}, false};
    }
    static Response never() { return Response{200, nullptr, {}, {}, true}; }

    // A tool call as the helpers below take it: id, tool name, arguments object. For OpenAI the
    // arguments go out as a JSON string; `raw_arguments`, when set, is sent verbatim instead
    // (for malformed-arguments tests).
    struct ToolCall {
        std::string id, name;
        nlohmann::json arguments = nlohmann::json::object();
        std::string raw_arguments;
    };

    // OpenAI chat.completion with choices[0].message.content = text, finish_reason "stop" (or
    // the one given: "length"...), usage {prompt_tokens, completion_tokens, total_tokens}.
    static nlohmann::json openai_text(const std::string& text,
                                      const std::string& model = "gpt-test", int prompt_tokens = 11,
                                      int completion_tokens = 7,
                                      const std::string& finish_reason = "stop");
    // OpenAI chat.completion with content null (or `text`), tool_calls
    // [{id, type: "function", function: {name, arguments: "<json>"}}], finish_reason "tool_calls".
    static nlohmann::json openai_tool_calls(const std::vector<ToolCall>& calls,
                                            const std::string& model = "gpt-test",
                                            int prompt_tokens = 11, int completion_tokens = 7,
                                            const std::string& text = "");
    // The names of the tools an OpenAI-format request offered (request.tools[].function.name).
    static std::vector<std::string> openai_tool_names(const nlohmann::json& request);
    static nlohmann::json openai_tool_call(const std::string& id, const std::string& name,
                                           const nlohmann::json& arguments) {
        return openai_tool_calls({ToolCall{id, name, arguments, {}}});
    }
    // OpenAI's error body {"error": {"message", "type", "code": null}}.
    static nlohmann::json openai_error(const std::string& message,
                                       const std::string& type = "server_error");

    // Anthropic message {id, type: "message", role: "assistant", model, content: [{type: "text",
    // text}], stop_reason "end_turn" (or the one given), usage {input_tokens, output_tokens}}.
    static nlohmann::json anthropic_text(const std::string& text,
                                         const std::string& model = "claude-test",
                                         int input_tokens = 13, int output_tokens = 9,
                                         const std::string& stop_reason = "end_turn");
    // Anthropic message with an optional text block, then one tool_use block {id, name, input}
    // per call, stop_reason "tool_use".
    static nlohmann::json anthropic_tool_use(const std::vector<ToolCall>& calls,
                                             const std::string& text = "",
                                             const std::string& model = "claude-test",
                                             int input_tokens = 13, int output_tokens = 9);
    // Anthropic's error body {"type": "error", "error": {"type", "message"}}.
    static nlohmann::json anthropic_error(const std::string& message,
                                          const std::string& type = "api_error");

private:
    std::string answer(const std::string& method, const std::string& target,
                       const std::map<std::string, std::string>& headers, const std::string& body);

    mutable std::mutex m_;
    std::condition_variable released_;
    std::condition_variable arrived_;     // a request was recorded
    std::map<std::string, size_t> held_;  // path -> requests answered before holding
    bool closing_ = false;
    std::map<std::string, std::vector<Response>> queues_;
    std::vector<Request> requests_;
    std::unique_ptr<LoopbackServer> server_;  // last: destroyed (joined) first
};

// Writes `profile_text` with `server` on the profile's outbound allow-list to `path`, and answers
// the options of a HostProcess using it: OPENAI_BASE_URL, OPENAI_API_KEY ("test-key") and
// OPENAI_MODEL ("gpt-test") pointing at the server, ANTHROPIC_API_KEY cleared.
HostProcess::Options model_server_host(const FakeModelServer& server, const std::string& path,
                                       const std::string& profile_text);

}  // namespace platform::test
