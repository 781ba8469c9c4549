#include "sweep_verdicts.hpp"

#include <map>

#include "mcp_client.hpp"

namespace platform::test {

using nlohmann::json;

namespace {

// The error message of an HTTP answer: /api/v1's error.message or the gateway's Detail.
std::string message_of(const HttpResult& r) {
    json j = json::parse(r.body, nullptr, false);
    if (j.is_object() && j.contains("error") && j["error"].is_object())
        return j["error"].value("message", "");
    if (j.is_object() && j.contains("Detail")) return j.value("Detail", "");
    return "";
}

// An error body that disagrees with its status (abi.h's status table): /api/v1's error.code, the
// gateway's Code. Empty when they agree or the body is not an error.
std::string mismatch(const HttpResult& r) {
    static const std::map<int, std::string> codes = {
        {400, "invalid_argument"},  {401, "unauthenticated"},
        {402, "payment_required"},  {403, "permission_denied"},
        {404, "not_found"},         {405, "method_not_allowed"},
        {408, "timeout"},           {409, "conflict"},
        {413, "payload_too_large"}, {415, "unsupported_media_type"},
        {429, "rate_limited"},      {500, "internal"},
        {501, "unsupported"},       {502, "bad_gateway"},
        {503, "unavailable"},       {504, "deadline_exceeded"}};
    const json j = json::parse(r.body, nullptr, false);
    if (r.status < 400 || !j.is_object()) return "";
    auto want = codes.find(r.status);
    if (j.contains("error") && j["error"].is_object() && want != codes.end() &&
        j["error"].value("code", "") != want->second)
        return "HTTP " + std::to_string(r.status) + " with error.code " +
               j["error"].value("code", "") + " (want " + want->second + ")";
    if (j.contains("Code") && j["Code"] != r.status)
        return "HTTP " + std::to_string(r.status) + " with Code " + j["Code"].dump();
    return "";
}

// A number argument sent at its limits that the answer echoes under its own name must come back
// unchanged (an offset read into an int or a uint32 comes back wrapped).
std::string echo_mismatch(const BadInput& c, const json& answer) {
    if (c.kind != BadKind::at_limits || !answer.is_object() || !c.args.contains(c.argument))
        return "";
    const json& sent = c.args[c.argument];
    auto it = answer.find(c.argument);
    if (!sent.is_number() || it == answer.end() || !it->is_number() || *it == sent) return "";
    return "echoes " + c.argument + " as " + it->dump() + ", sent " + sent.dump();
}

// A 5xx a valid call may get: 501 and 503 anywhere, 502 and 504 from an upstream's endpoint.
bool server_error_allowed(int status, bool upstream) {
    if (status == 501 || status == 503) return true;
    return upstream && (status == 502 || status == 504);
}

}  // namespace

std::string shorten(std::string s) {
    return s.size() > 160 ? s.substr(0, 160) + "..." : s;
}

// The JSON-RPC response of a POST /mcp answer (application/json or an event stream).
json mcp_response(const HttpResult& r) {
    if (r.header("content-type").rfind("text/event-stream", 0) == 0) {
        for (auto& m : sse_messages(r.body))
            if (m.contains("id") && (m.contains("result") || m.contains("error"))) return m;
        return json();
    }
    return json::parse(r.body, nullptr, false);
}

// nullopt when the answer is right for the case, else what is wrong with it.
std::optional<std::string> judge_http(const BadInput& c, const HttpResult& r, bool upstream) {
    if (auto m = mismatch(r); !m.empty()) return m + ": " + shorten(r.body);
    if (r.status == 200) {
        const json j = json::parse(r.body, nullptr, false);
        const std::string e = echo_mismatch(c, j.is_object() && j.contains("data") ? j["data"] : j);
        if (!e.empty()) return e;
    }
    if (c.valid_by_schema) {
        if (r.status < 500 || server_error_allowed(r.status, upstream)) return std::nullopt;
        return "HTTP " + std::to_string(r.status) + " " + shorten(r.body);
    }
    if (r.status < 400 || r.status >= 500)
        return "HTTP " + std::to_string(r.status) + " " + shorten(r.body);
    if (!json::accept(r.body))
        return "HTTP " + std::to_string(r.status) + " body is not JSON: " + shorten(r.body);
    if (!names(message_of(r), c.argument))
        return "HTTP " + std::to_string(r.status) + " message does not name " + c.argument + ": " +
               shorten(r.body);
    return std::nullopt;
}

std::string error_code_of(const json& result) {
    if (!result.is_object() || !result.contains("structuredContent")) return "";
    const json& content = result["structuredContent"];
    if (!content.is_object() || !content.contains("error") || !content["error"].is_object())
        return "";  // an answer may have a field called error (a build's), not an error object
    return content["error"].value("code", "");
}

std::optional<std::string> judge_mcp(const BadInput& c, const HttpResult& r, bool upstream) {
    if (r.status >= 500) return "HTTP " + std::to_string(r.status) + " " + shorten(r.body);
    const json m = mcp_response(r);
    if (!m.is_object())
        return "no JSON-RPC response: HTTP " + std::to_string(r.status) + " " + shorten(r.body);
    if (m.contains("error")) return "JSON-RPC error " + shorten(m["error"].dump());
    const json& result = m["result"];
    const std::string code = error_code_of(result);
    if (std::string e = echo_mismatch(c, result.value("structuredContent", json())); !e.empty())
        return e;
    if (c.valid_by_schema) {
        if (code == "internal" ||
            (!upstream && (code == "bad_gateway" || code == "deadline_exceeded")))
            return "isError " + shorten(result.dump());
        return std::nullopt;
    }
    if (!result.value("isError", false)) return "not an error: " + shorten(result.dump());
    std::string text;
    for (const auto& part : result.value("content", json::array()))
        text += part.value("text", "") + "\n";
    if (!names(text, c.argument)) return "text does not name " + c.argument + ": " + shorten(text);
    return std::nullopt;
}

}  // namespace platform::test
