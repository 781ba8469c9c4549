// common/model/upstream_call — one JSON POST to a model upstream through the host's outbound
// client, with the error mapping and the retry rule both HTTP model providers share
// (docs/decisions.md 29). Part of the model client library they link; not a plugin.
//
// The request is an operator URL (Host::fetch with operator_url): a public upstream is reached
// directly, a loopback or private one (Ollama, llama.cpp, a test's fake server) only when its
// host:port is on the profile's outbound.allow list.
//
// Retries: exactly one, and only when nothing can have been done upstream: a 429 or 503 answer,
// or a refused connection. The wait is the answer's Retry-After (seconds) capped at 2 s, else
// 250 ms. Never after any other answer (a 200 included) or a timeout.
//
// Failures (platform::Error):
//   timeout       no answer within the timeout (model.<name>.timeout_ms)
//   unavailable   the host refused the URL (naming the base_url setting and the host's reason)
//   bad_gateway   "<name> answered <status>: <upstream error message>" for a non-2xx answer (401
//                 and 403 add "check <key setting>"); "<name> answered malformed JSON ..." for a
//                 2xx body that is not a JSON object; "<name> request failed: ..." when the
//                 connection failed.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <platform/sdk/host.hpp>
#include <string>

namespace common::model {

struct UpstreamPost {
    std::string name;  // "openai": the start of every message
    std::string url;
    nlohmann::json headers = nlohmann::json::object();  // Content-Type is added
    nlohmann::json body;
    int64_t timeout_ms = 60000;
    std::string key_setting;   // named on 401/403
    std::string base_setting;  // named when the host refuses the URL
};

// POSTs `post.body` and returns the answer's JSON object (2xx only); throws as described above.
nlohmann::json post_json(const platform::Host& host, const UpstreamPost& post);

// The upstream's own explanation in an error body: error.message (OpenAI, Anthropic, vLLM),
// error as a string (Ollama, llama.cpp), message, else the body's first 200 bytes.
std::string upstream_error_message(const std::string& body);

// How long to wait before the retry: Retry-After in seconds (headers with lower-case names)
// capped at 2000 ms, else 250 ms.
int64_t retry_wait_ms(const nlohmann::json& headers);

// True when the host's failure text says the connection was refused.
bool connection_refused(const std::string& error);

}  // namespace common::model
