#include "registry_sweep.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

#include "sweep_verdicts.hpp"

namespace platform::test {

using nlohmann::json;

namespace {

bool verbose() {
    return std::getenv("SWEEP_VERBOSE") != nullptr;
}

Headers json_bearer(const std::string& token) {
    return {{"Authorization", "Bearer " + token}, {"Content-Type", "application/json"}};
}

// Why valid calls to an endpoint are not made (they would not answer, or would change what the
// sweep relies on); its invalid ones are still swept. By flag, then by path.
std::string valid_calls_skipped(const SweptOperation& op) {
    if (op.flags.count("streaming")) return "streaming: a valid call opens an event stream";
    static const std::map<std::string, std::string> by_path = {
        {"/clock/set", "moves the business clock every later call sees"},
        {"/clock/advance", "moves the business clock every later call sees"},
    };
    auto it = by_path.find(op.path);
    return it == by_path.end() ? "" : it->second;
}

}  // namespace

std::vector<SweptOperation> registry_operations(HttpClient& c, const std::string& path_prefix) {
    std::vector<SweptOperation> out;
    const json doc = c.get("/api/v1/openapi.json").json();
    for (const auto& [path, item] : doc["paths"].items()) {
        if (path.rfind(path_prefix, 0) != 0) continue;
        const json& op = item["post"];
        const bool catalogue = path.rfind("/api/v1/", 0) == 0;
        const size_t from = catalogue ? 8 : 1;
        SweptOperation o{path,
                         path.substr(from, path.find('/', from) - from),
                         "",
                         op.value("x-platform-access", ""),
                         {},
                         op["requestBody"]["content"]["application/json"]["schema"],
                         op.value("x-platform-max-body", size_t(1) << 20),
                         item.contains("get")};
        if (catalogue) o.tool = o.service + "_" + path.substr(from + o.service.size() + 1);
        const std::string flags = op.value("x-platform-flags", "");  // "destructive,action"
        for (size_t i = 0, end; i < flags.size(); i = end + 1) {
            end = std::min(flags.find(',', i), flags.size());
            o.flags.insert(flags.substr(i, end - i));
        }
        out.push_back(std::move(o));
    }
    return out;
}

void SweepTally::answered(const BadInput& c, const std::string& what) {
    ++answers[(c.valid_by_schema ? "valid " : "bad ") + what];
    if (verbose())
        std::fprintf(stderr, "%s: %s -> %s\n", kind_name(c.kind), c.label.c_str(), what.c_str());
}

void SweepTally::fail(const std::string& where, const BadInput& c, const std::string& what) {
    failures.push_back(where + " [" + kind_name(c.kind) + ": " + c.label + "] " + what);
}

std::string SweepTally::answers_line() const {
    std::string out;
    for (const auto& [what, n] : answers)
        out += (out.empty() ? "" : ", ") + what + " x" + std::to_string(n);
    return out;
}

std::string SweepTally::failures_text() const {
    std::string out;
    for (const auto& l : failures) out += "  " + l + "\n";
    return out;
}

SweepTally sweep_http(int port, const std::vector<SweptOperation>& ops,
                      const SweepCallers& callers) {
    SweepTally tally;
    auto client = std::make_unique<HttpClient>("127.0.0.1", port);
    client->set_timeout_ms(kSweepTimeoutMs);
    auto send = [&](const SweptOperation& op, const BadInput& c, const std::string& method,
                    const std::string& target, const std::string& body) {
        ++tally.calls;
        tally.kinds.insert(c.kind);
        try {
            const HttpResult r = client->request(method, target, body, json_bearer(callers.of(op)));
            tally.answered(c, std::to_string(r.status) +
                                  (verbose() ? " " + op.path + " " + shorten(r.body) : ""));
            if (auto problem = judge_http(c, r, op.flags.count("open_world") > 0))
                tally.fail(method + " " + op.path, c, *problem);
        } catch (const std::exception& e) {
            tally.fail(method + " " + op.path, c, std::string("no answer: ") + e.what());
            client = std::make_unique<HttpClient>("127.0.0.1", port);
            client->set_timeout_ms(kSweepTimeoutMs);
        }
    };
    for (const SweptOperation& op : ops) {
        tally.endpoints.insert(op.path);
        const std::string skip = valid_calls_skipped(op);
        if (!skip.empty()) tally.skipped.push_back(op.path + ": valid calls skipped: " + skip);
        for (const auto& arg : baseline(op.schema).unsatisfiable)
            tally.skipped.push_back(op.path + ": no valid value for " + arg +
                                    ", cases on its other arguments left out");
        for (const BadInput& c : bad_inputs(op.schema, {op.max_body, true})) {
            if (c.valid_by_schema && !skip.empty()) continue;
            send(op, c, "POST", op.path, c.body());
            if (op.get && c.kind == BadKind::invalid_utf8)  // the same through the query string
                send(op, c, "GET", op.path + "?" + c.argument + "=sweep%C3%28", "");
        }
    }
    return tally;
}

std::unique_ptr<McpClient> sweep_mcp_client(int port, const std::string& token) {
    auto m = std::make_unique<McpClient>(port, token);
    m->http().set_timeout_ms(kSweepTimeoutMs);
    m->initialize();
    return m;
}

HttpResult call_tool(McpClient& m, int id, const std::string& tool, const json& args) {
    Headers h = m.headers();
    h["Content-Type"] = "application/json";
    json msg = {{"jsonrpc", "2.0"},
                {"id", id},
                {"method", "tools/call"},
                {"params", {{"name", tool}, {"arguments", args}}}};
    return m.post_raw(msg.dump(-1, ' ', false, json::error_handler_t::replace), h);
}

// What an MCP answer was, for the tally: "isError", "result", "error -32602", "HTTP 500".
static std::string mcp_answer_kind(const HttpResult& r, const json& m, const std::string& tool) {
    std::string text;
    for (const auto& part : m.is_object() && m.contains("result")
                                ? m["result"].value("content", json::array())
                                : json::array())
        text += part.value("text", "");
    return (!m.is_object()        ? "HTTP " + std::to_string(r.status)
            : m.contains("error") ? "error " + m["error"].value("code", json(0)).dump()
            : m["result"].value("isError", false) ? std::string("isError")
                                                  : std::string("result")) +
           (verbose() ? " " + tool + " " + shorten(text) : "");
}

SweepTally sweep_mcp(int port, const std::vector<SweptOperation>& ops,
                     const SweepCallers& callers) {
    SweepTally tally;
    std::map<std::string, std::unique_ptr<McpClient>> clients;
    std::map<std::string, json> tools;  // every tool either caller sees → its input schema
    for (const std::string* token : {&callers.caller, &callers.admin}) {
        clients[*token] = sweep_mcp_client(port, *token);
        for (const auto& [name, tool] : clients[*token]->tools())
            tools.emplace(name, tool["inputSchema"]);
    }
    int id = 1000;
    for (const SweptOperation& op : ops) {
        auto tool = tools.find(op.tool);
        if (tool == tools.end()) continue;  // a built-in, or an endpoint that is not a tool
        tally.endpoints.insert(op.tool);
        const std::string skip = valid_calls_skipped(op);
        for (const BadInput& c : bad_inputs(tool->second, {op.max_body, false})) {
            if (c.valid_by_schema && !skip.empty()) continue;
            ++tally.calls;
            tally.kinds.insert(c.kind);
            auto& client = clients[callers.of(op)];
            try {
                const HttpResult r = call_tool(*client, ++id, op.tool, c.args);
                tally.answered(c, mcp_answer_kind(r, mcp_response(r), op.tool));
                if (auto problem = judge_mcp(c, r, op.flags.count("open_world") > 0))
                    tally.fail(op.tool, c, *problem);
            } catch (const std::exception& e) {
                tally.fail(op.tool, c, std::string("no answer: ") + e.what());
                client = sweep_mcp_client(port, callers.of(op));
            }
        }
    }
    return tally;
}

void report_sweep(const SweepTally& http, double http_seconds, const SweepTally& mcp,
                  double mcp_seconds) {
    for (const auto& s : http.skipped) std::printf("sweep: %s\n", s.c_str());
    std::printf("sweep: HTTP answers: %s\nsweep: MCP answers: %s\n", http.answers_line().c_str(),
                mcp.answers_line().c_str());
    std::printf("sweep: HTTP %zu endpoints x %zu case kinds = %d calls in %.1f s, %zu failures\n",
                http.endpoints.size(), http.kinds.size(), http.calls, http_seconds,
                http.failures.size());
    std::printf("sweep: MCP %zu tools x %zu case kinds = %d calls in %.1f s, %zu failures\n",
                mcp.endpoints.size(), mcp.kinds.size(), mcp.calls, mcp_seconds,
                mcp.failures.size());
    std::printf(
        "sweep: %zu endpoints x %zu case kinds = %d HTTP calls, %d MCP calls, %zu failures\n",
        http.endpoints.size(), http.kinds.size(), http.calls, mcp.calls,
        http.failures.size() + mcp.failures.size());
    EXPECT_GE(http.kinds.size(), static_cast<size_t>(kBadKinds));
    EXPECT_TRUE(http.failures.empty()) << http.failures.size() << " HTTP failures:\n"
                                       << http.failures_text();
    EXPECT_TRUE(mcp.failures.empty()) << mcp.failures.size() << " MCP failures:\n"
                                      << mcp.failures_text();
}

}  // namespace platform::test
