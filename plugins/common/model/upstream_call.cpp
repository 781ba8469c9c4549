#include "common/model/upstream_call.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <platform/sdk/error.hpp>
#include <thread>

#include "common/model/neutral.hpp"

namespace common::model {

using nlohmann::json;
using platform::Code;
using platform::Error;

namespace {

std::string clip(const std::string& text, size_t n = 200) {
    return text.size() <= n ? text : text.substr(0, n) + "...";
}

// One attempt: the response, or the host's refusal/failure as an Error.
platform::HttpResponse attempt(const platform::Host& host, const UpstreamPost& post) {
    platform::HttpRequest req;
    req.method = "POST";
    req.url = post.url;
    req.headers = post.headers.is_object() ? post.headers : json::object();
    req.headers["Content-Type"] = "application/json";
    req.headers["Accept"] = "application/json";
    req.body = json_text(post.body);
    req.timeout_ms = static_cast<int32_t>(std::clamp<int64_t>(post.timeout_ms, 1, 3600000));
    req.operator_url = true;
    return host.fetch(req);
}

bool retryable_status(int status) {
    return status == 429 || status == 503;
}

}  // namespace

std::string upstream_error_message(const std::string& body) {
    const json j = json::parse(body, nullptr, false);
    if (j.is_object()) {
        if (j.contains("error")) {
            const json& e = j["error"];
            if (e.is_object() && e.contains("message") && e["message"].is_string())
                return e["message"];
            if (e.is_string()) return e;
        }
        if (j.contains("message") && j["message"].is_string()) return j["message"];
        if (j.contains("detail") && j["detail"].is_string()) return j["detail"];
    }
    return body.empty() ? "(empty body)" : clip(body);
}

int64_t retry_wait_ms(const json& headers) {
    if (headers.is_object() && headers.contains("retry-after") &&
        headers["retry-after"].is_string()) {
        const std::string v = headers["retry-after"];
        char* end = nullptr;
        const double seconds = std::strtod(v.c_str(), &end);
        if (end != v.c_str() && seconds >= 0)
            return std::min<int64_t>(2000, static_cast<int64_t>(seconds * 1000));
    }
    return 250;
}

bool connection_refused(const std::string& error) {
    for (const char* s :
         {"Connection refused", "Couldn't connect", "Could not connect", "Failed to connect"})
        if (error.find(s) != std::string::npos) return true;
    return false;
}

json post_json(const platform::Host& host, const UpstreamPost& post) {
    platform::HttpResponse resp;
    for (int round = 0;; ++round) {
        bool retry = false;
        try {
            resp = attempt(host, post);
            retry = retryable_status(resp.status);
        } catch (const Error& e) {
            if (e.code() == Code::timeout || e.code() == Code::deadline_exceeded)
                throw Error(Code::timeout, post.name + " did not answer within " +
                                               std::to_string(post.timeout_ms) + " ms (model." +
                                               post.name + ".timeout_ms): " + e.what());
            if (e.code() == Code::permission_denied || e.code() == Code::invalid_argument)
                throw Error(Code::unavailable,
                            post.name + ": " + post.base_setting + " is refused: " + e.what());
            if (round == 0 && connection_refused(e.what())) {
                std::this_thread::sleep_for(std::chrono::milliseconds(250));
                continue;
            }
            throw Error(Code::bad_gateway, post.name + " request failed: " + e.what());
        }
        if (!retry || round > 0) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(retry_wait_ms(resp.headers)));
    }
    const std::string status = std::to_string(resp.status);
    if (resp.status < 200 || resp.status > 299) {
        std::string message =
            post.name + " answered " + status + ": " + upstream_error_message(resp.body);
        if (resp.status == 401 || resp.status == 403)
            message += " (check " + post.key_setting + ")";
        throw Error(Code::bad_gateway, message);
    }
    json body = json::parse(resp.body, nullptr, false);
    if (!body.is_object())
        throw Error(Code::bad_gateway, post.name + " answered malformed JSON (status " + status +
                                           "): " + clip(resp.body));
    return body;
}

}  // namespace common::model
