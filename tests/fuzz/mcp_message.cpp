// Fuzz target mcp_message: JSON-RPC messages to the MCP endpoint (mcp.hpp) of a real host
// (fuzz_host.hpp: the mirror services' tools, resources, prompts and completions).
//
// Each input is one session: the harness POSTs `initialize` (as account `alice`, or `admin`
// when the first line is exactly `#admin`, or anonymous for `#anonymous`), then every further
// line of the input as one POST /mcp body in that session — one JSON-RPC message per line
// (requests, notifications, responses, batches, garbage) — then DELETEs the session. Headers
// are a well-behaved client's: Host localhost, Content-Type application/json, Accept both types,
// MCP-Protocol-Version 2025-11-25, Mcp-Session-Id.
//
// Findings: a crash or sanitizer report; an exception out of the server; a message never
// answered or answered twice; an HTTP 5xx; a JSON-RPC internal error (-32603: bad input must
// be an invalid-params error or an isError result naming the argument); an answer that is not
// JSON-RPC.
#include <nlohmann/json.hpp>

#include "fuzz_host.hpp"
#include "fuzz_support.hpp"

namespace {

using nlohmann::json;
using platform::host::HttpRequest;
using platform::host::HttpResponse;
using platform::host::McpServer;

McpServer& server() {
    static auto* mcp = new McpServer(fuzz::FuzzHost::get().runtime(), "fuzz");
    return *mcp;
}

HttpRequest request(const std::string& method, const std::string& token, const std::string& sid,
                    std::string body) {
    HttpRequest r;
    r.method = method;
    r.path = "/mcp";
    r.body = std::move(body);
    r.headers["host"] = "localhost:8080";
    r.headers["content-type"] = "application/json";
    r.headers["accept"] = "application/json, text/event-stream";
    r.headers["mcp-protocol-version"] = "2025-11-25";
    if (!token.empty()) r.headers["authorization"] = "Bearer " + token;
    if (!sid.empty()) r.headers["mcp-session-id"] = sid;
    return r;
}

HttpResponse exchange(HttpRequest req, const std::string& what) {
    fuzz::Exchange ex;
    server().handle(req, ex.reply(), ex.open());
    return ex.wait(what);
}

// The JSON-RPC messages of an answer: a JSON body, or each `data:` line of an event stream.
std::vector<json> messages(const HttpResponse& r) {
    std::vector<json> out;
    if (r.body.empty()) return out;
    if (r.content_type != "text/event-stream") {
        out.push_back(json::parse(r.body, nullptr, false));
        return out;
    }
    for (const auto& line : fuzz::lines(r.body))
        if (line.rfind("data: ", 0) == 0)
            out.push_back(json::parse(line.substr(6), nullptr, false));
    return out;
}

void check(const HttpResponse& r, const std::string& what) {
    FUZZ_CHECK(r.status < 500, what + ": HTTP " + std::to_string(r.status) + " " + r.body);
    for (const json& m : messages(r)) {
        FUZZ_CHECK(m.is_object() && m.value("jsonrpc", "") == "2.0",
                   what + ": not JSON-RPC: " + r.body);
        if (m.contains("error")) {
            const json& e = m["error"];
            FUZZ_CHECK(e.is_object() && e.contains("code") && e["code"].is_number_integer(),
                       what + ": malformed error: " + r.body);
            FUZZ_CHECK(e["code"] != -32603, what + ": internal error: " + r.body);
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    auto lines = fuzz::lines(fuzz::text(data, size));
    std::string token = "alice";
    size_t first = 0;
    if (!lines.empty() && (lines[0] == "#admin" || lines[0] == "#anonymous")) {
        token = lines[0] == "#admin" ? "admin" : "";
        first = 1;
    }
    const HttpResponse init = exchange(
        request(
            "POST", token, "",
            R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",)"
            R"("capabilities":{"sampling":{},"elicitation":{}},"clientInfo":{"name":"fuzz","version":"1"}}})"),
        "initialize");
    std::string sid;
    for (const auto& [name, value] : init.headers)
        if (name == "Mcp-Session-Id") sid = value;
    FUZZ_CHECK(init.status == 200 && !sid.empty(), "initialize failed: " + init.body);

    for (size_t i = first; i < lines.size() && i < first + 16; ++i) {
        const std::string what = "message " + std::to_string(i) + " " + lines[i].substr(0, 200);
        const HttpResponse r = exchange(request("POST", token, sid, lines[i]), what);
        if (fuzz::verbose())
            std::fprintf(stderr, "%s -> %d %s\n", what.c_str(), r.status,
                         r.body.substr(0, 300).c_str());
        check(r, what);
    }
    const HttpResponse end = exchange(request("DELETE", token, sid, ""), "DELETE");
    FUZZ_CHECK(end.status == 204, "DELETE answered " + std::to_string(end.status) + " " + end.body);
    return 0;
}
