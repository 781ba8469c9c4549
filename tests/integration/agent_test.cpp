// The agent service (plugins/agent) on the real host, test profile: the offline model-builtin
// answers and the agent calls notes as the caller. Surface A (POST /agent, POST /agent/<name>,
// GET /agents), surface B (/api/v1/agent/ask in its {"data": ...} envelope), MCP tools/call,
// ownership of threads, the prompt limit and metering (billing: allowance, then credit, then
// 402); agent/stream (a step chunk per finished tool call, then the reply, as Server-Sent Events;
// the same checks, errors and price). AgentModelServer drives model-openai against the scripted
// fake model server on loopback.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "catalogue_test.hpp"
#include "fake_model_server.hpp"
#include "mcp_client.hpp"
#include "stream_reader.hpp"
#include "text_search.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

class AgentApi : public platform::test::CatalogueTest {
protected:
    AgentApi() : CatalogueTest("agent") {}

    // POST /agent (or /agent/<name>) as `who`: surface A, the bare {text, thread}.
    HttpResult surface_a(const json& body, const std::string& who, const std::string& agent = "") {
        return api.post_json(agent.empty() ? "/agent" : "/agent/" + agent, body, as(who));
    }
    HttpResult rpc(const std::string& service, const std::string& method, const json& request,
                   const std::string& who) {
        return api.post_json(
            "/rpc", {{"service", service}, {"method", method}, {"request", request}}, as(who));
    }
    json balance(const std::string& who) {
        auto r = rpc("billing", "Billing.Balance", json::object(), who);
        EXPECT_EQ(r.status, 200) << r.body;
        return r.status == 200 ? r.json() : json::object();
    }
};

TEST_F(AgentApi, NotesThroughSurfaceAAndTheThreadCarriesOn) {
    auto first = surface_a({{"prompt", "note that the boiler code is 4512"}}, "ann");
    ASSERT_EQ(first.status, 200) << first.body;
    const json reply = first.json();
    ASSERT_TRUE(reply["text"].is_string()) << first.body;
    ASSERT_TRUE(reply["thread"].is_string()) << first.body;
    EXPECT_EQ(reply.size(), 2u) << first.body;  // {text, thread}, no envelope
    const std::string thread = reply["thread"];

    auto notes = api.get("/api/v1/notes/list", as("ann"));  // stored through notes, as ann
    ASSERT_EQ(notes.status, 200) << notes.body;
    EXPECT_TRUE(has(notes.body, "4512")) << notes.body;
    EXPECT_FALSE(has(api.get("/api/v1/notes/list", as("bob")).body, "4512"));

    auto second = surface_a({{"prompt", "what are my notes"}, {"thread", thread}}, "ann");
    ASSERT_EQ(second.status, 200) << second.body;
    EXPECT_TRUE(has(second.json()["text"].get<std::string>(), "4512")) << second.body;
    EXPECT_EQ(second.json()["thread"], thread);

    auto named =
        surface_a({{"prompt", "what are my notes"}, {"thread", thread}}, "ann", "assistant");
    ASSERT_EQ(named.status, 200) << named.body;
    EXPECT_EQ(named.json()["thread"], thread);
    auto nobody = surface_a({{"prompt", "hi"}}, "ann", "nobody");
    EXPECT_EQ(nobody.status, 404) << nobody.body;
    EXPECT_TRUE(has(nobody.body, "agent")) << nobody.body;
}

TEST_F(AgentApi, TheVersionedSurfaceWrapsTheReplyInData) {
    auto r = post("ask", {{"prompt", "what are my notes"}}, "ann");
    ASSERT_EQ(r.status, 200) << r.body;
    const json body = r.json();
    ASSERT_EQ(body.size(), 1u) << r.body;
    ASSERT_TRUE(body.contains("data")) << r.body;
    EXPECT_TRUE(body["data"]["text"].is_string()) << r.body;
    EXPECT_TRUE(body["data"]["thread"].is_string()) << r.body;
    EXPECT_EQ(body["data"].size(), 2u) << r.body;
    EXPECT_EQ(api.get("/api/v1/agent/ask?prompt=hi", as("ann")).status, 405);
    EXPECT_EQ(api.post_json("/api/v1/agent/ask", {{"prompt", "hi"}}).status, 401);
}

TEST_F(AgentApi, ListsTheAgentsOnBothSurfaces) {
    auto a = api.get("/agents", as("ann"));
    ASSERT_EQ(a.status, 200) << a.body;
    ASSERT_TRUE(a.json()["agents"].is_array()) << a.body;
    EXPECT_EQ(a.json()["agents"][0]["name"], "assistant") << a.body;
    auto b = get("list", "ann");
    ASSERT_EQ(b.status, 200) << b.body;
    EXPECT_EQ(b.json()["data"], a.json());
    EXPECT_EQ(post("list", json::object(), "ann").status, 200);  // a read answers POST too

    // Extensions: an agent of one's own is listed, and answers.
    ASSERT_EQ(
        post("create",
             {{"name", "keeper"}, {"instructions", "Keep notes."}, {"services", {"notes"}}}, "ann")
            .status,
        200);
    EXPECT_EQ(post("create", {{"name", "assistant"}, {"instructions", "x"}}, "ann").status, 409);
    expect_400(post("create", {{"name", "Not Valid"}, {"instructions", "x"}}, "ann"), "name");
    EXPECT_TRUE(has(api.get("/agents", as("ann")).body, "keeper"));
    EXPECT_FALSE(has(api.get("/agents", as("bob")).body, "keeper"));
    auto asked = surface_a({{"prompt", "what are my notes"}}, "ann", "keeper");
    EXPECT_EQ(asked.status, 200) << asked.body;
    EXPECT_EQ(surface_a({{"prompt", "hi"}}, "bob", "keeper").status, 404);
    EXPECT_EQ(post("delete", {{"name", "keeper"}}, "ann").status, 200);
}

TEST_F(AgentApi, AnotherAccountsThreadIsNotFound) {
    auto mine = post("ask", {{"prompt", "hello"}}, "ann");
    ASSERT_EQ(mine.status, 200) << mine.body;
    const std::string thread = mine.json()["data"]["thread"];
    auto theirs = post("ask", {{"prompt", "hi"}, {"thread", thread}}, "bob");
    EXPECT_EQ(theirs.status, 404) << theirs.body;
    EXPECT_TRUE(has(theirs.body, "thread: no such conversation")) << theirs.body;
    EXPECT_EQ(theirs.json()["error"]["code"], "not_found");
    EXPECT_EQ(surface_a({{"prompt", "hi"}, {"thread", thread}}, "bob").status, 404);
    EXPECT_EQ(post("ask", {{"prompt", "hi"}, {"thread", "th-000000000000-000000"}}, "ann").status,
              404);
}

TEST_F(AgentApi, PromptsOver8000BytesAreRefused) {
    auto r = post("ask", {{"prompt", std::string(8001, 'x')}}, "ann");
    expect_400(r, "prompt: must be at most 8000 bytes");
    std::string euros;
    for (int i = 0; i < 2667; ++i) euros += "\xe2\x82\xac";  // 2667 characters, 8001 bytes
    expect_400(post("ask", {{"prompt", euros}}, "ann"), "prompt: must be at most 8000 bytes");
    EXPECT_EQ(surface_a({{"prompt", std::string(8001, 'x')}}, "ann").status, 400);
    expect_400(post("ask", json::object(), "ann"), "prompt");
}

TEST_F(AgentApi, AskIsAnMcpTool) {
    McpClient mcp(host->api_port(), "ann");
    mcp.initialize();
    const json tools = mcp.request("tools/list");
    bool listed = false;
    for (const auto& t : tools["result"]["tools"]) listed |= t["name"] == "agent_ask";
    EXPECT_TRUE(listed) << tools;
    const json result = mcp.call_tool("agent_ask", {{"prompt", "note that the gate code is 1234"}});
    EXPECT_FALSE(result.value("isError", false)) << result;
    const json data =
        result.contains("structuredContent")
            ? result["structuredContent"]
            : json::parse(result["content"][0]["text"].get<std::string>(), nullptr, false);
    EXPECT_TRUE(data["text"].is_string()) << result;
    EXPECT_TRUE(data["thread"].is_string()) << result;
    EXPECT_TRUE(has(api.get("/api/v1/notes/list", as("ann")).body, "1234"));

    const json prompts = mcp.request("prompts/list");
    EXPECT_TRUE(has(prompts.dump(), "agent_assistant")) << prompts;
    const json got = mcp.request("prompts/get", {{"name", "agent_assistant"}});
    EXPECT_TRUE(got.contains("result")) << got;
}

TEST_F(AgentApi, AsksAreMeteredAllowanceFirstThenCredit) {
    const int64_t before = balance("dave").value("allowance", int64_t(0));
    ASSERT_EQ(post("ask", {{"prompt", "hi"}}, "dave").status, 200);
    EXPECT_EQ(balance("dave")["allowance"], before - 1);

    ASSERT_EQ(rpc("billing", "Billing.SetAllowance",
                  {{"account", "carol"}, {"allowance_per_day", 0}}, "admin")
                  .status,
              200);
    auto broke = post("ask", {{"prompt", "hi"}}, "carol");
    EXPECT_EQ(broke.status, 402) << broke.body;
    EXPECT_EQ(broke.json()["error"]["code"], "payment_required") << broke.body;
    EXPECT_EQ(surface_a({{"prompt", "hi"}}, "carol").status, 402);
    ASSERT_EQ(
        rpc("billing", "Billing.AddCredit", {{"account", "carol"}, {"amount", 1}}, "admin").status,
        200);
    ASSERT_EQ(post("ask", {{"prompt", "hi"}}, "carol").status, 200);
    EXPECT_EQ(balance("carol")["credit"], 0);
    EXPECT_EQ(post("ask", {{"prompt", "hi"}}, "carol").status, 402);
    // A refused ask costs nothing.
    ASSERT_EQ(
        rpc("billing", "Billing.AddCredit", {{"account", "carol"}, {"amount", 1}}, "admin").status,
        200);
    EXPECT_EQ(post("ask", {{"prompt", "hi"}, {"thread", "th-none"}}, "carol").status, 404);
    EXPECT_EQ(balance("carol")["credit"], 1);
}

// agent/stream with the offline model: steps, then the reply as the last chunk; the thread is the
// inbox's; what ask refuses it refuses before any chunk, as a plain error; it costs what ask costs.
TEST_F(AgentApi, StreamsTheStepsThenTheReplyAndSavesTheThread) {
    auto r =
        api.post_json("/api/v1/agent/stream", {{"prompt", "note that the boiler code is 4512"}},
                      {{"Authorization", "Bearer erin"}, {"Accept", "text/event-stream"}});
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.header("content-type"), "text/event-stream");
    const auto chunks = stream_chunks(r.body);
    ASSERT_GE(chunks.size(), 2u) << r.body;
    for (size_t i = 0; i + 1 < chunks.size(); ++i) {
        EXPECT_EQ(chunks[i]["type"], "step") << chunks[i];
        EXPECT_EQ(chunks[i]["outcome"], "ok") << chunks[i];
        EXPECT_TRUE(chunks[i]["tool"].is_string() && chunks[i]["seconds"].is_number()) << chunks[i];
    }
    const json& reply = chunks.back();
    EXPECT_EQ(reply["type"], "reply") << r.body;
    ASSERT_TRUE(reply["text"].is_string() && reply["thread"].is_string()) << r.body;
    EXPECT_TRUE(has(api.get("/api/v1/notes/list", as("erin")).body, "4512"));

    const std::string thread = reply["thread"];
    auto read = api.get("/api/v1/inbox/read?id=" + thread, as("erin"));
    ASSERT_EQ(read.status, 200) << read.body;
    const json data = read.json()["data"];
    ASSERT_EQ(data["messages"].size(), 2u) << read.body;
    EXPECT_EQ(data["messages"][0]["text"], "note that the boiler code is 4512");
    EXPECT_EQ(data["messages"][1]["text"], reply["text"]);
    EXPECT_EQ(data["unread"], 1);
    EXPECT_EQ(api.get("/api/v1/inbox/read?id=" + thread, as("bob")).status, 404);
}

TEST_F(AgentApi, StreamRefusesWhatAskRefusesAsPlainErrors) {
    expect_400(post("stream", {{"prompt", ""}}, "ann"), "prompt");
    expect_400(post("stream", json::object(), "ann"), "prompt");
    expect_400(post("stream", {{"prompt", std::string(8001, 'x')}}, "ann"),
               "prompt: must be at most 8000 bytes");
    auto mine = post("ask", {{"prompt", "hello from ann"}}, "ann");
    ASSERT_EQ(mine.status, 200) << mine.body;
    const std::string thread = mine.json()["data"]["thread"];
    auto theirs = post("stream", {{"prompt", "hi"}, {"thread", thread}}, "bob");
    EXPECT_EQ(theirs.status, 404) << theirs.body;
    EXPECT_EQ(theirs.header("content-type").rfind("application/json", 0), 0u) << theirs.body;
    EXPECT_EQ(theirs.json()["error"]["code"], "not_found") << theirs.body;
    EXPECT_TRUE(has(theirs.body, "thread: no such conversation")) << theirs.body;
    EXPECT_EQ(post("stream", {{"prompt", "hi"}, {"agent", "nobody"}}, "ann").status, 404);
    EXPECT_EQ(api.post_json("/api/v1/agent/stream", {{"prompt", "hi"}}).status, 401);
}

TEST_F(AgentApi, StreamIsMeteredLikeAsk) {
    const int64_t before = balance("frank").value("allowance", int64_t(0));
    auto r = post("stream", {{"prompt", "hi"}}, "frank");
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(stream_chunks(r.body).back()["type"], "reply") << r.body;
    EXPECT_EQ(balance("frank")["allowance"], before - 1);

    ASSERT_EQ(rpc("billing", "Billing.SetAllowance",
                  {{"account", "gina"}, {"allowance_per_day", 0}}, "admin")
                  .status,
              200);
    auto broke = post("stream", {{"prompt", "hi"}}, "gina");
    EXPECT_EQ(broke.status, 402) << broke.body;
    EXPECT_EQ(broke.json()["error"]["code"], "payment_required") << broke.body;
    ASSERT_EQ(
        rpc("billing", "Billing.AddCredit", {{"account", "gina"}, {"amount", 1}}, "admin").status,
        200);
    EXPECT_EQ(post("stream", {{"prompt", "hi"}, {"thread", "th-none"}}, "gina").status, 404);
    EXPECT_EQ(balance("gina")["credit"], 1);  // a refused stream costs nothing
    ASSERT_EQ(post("stream", {{"prompt", "hi"}}, "gina").status, 200);
    EXPECT_EQ(balance("gina")["credit"], 0);
}

TEST_F(AgentApi, StreamOverMcpAndRpcIsOneArrayOfTheChunks) {
    McpClient mcp(host->api_port(), "hank");
    mcp.initialize();
    const json result = mcp.call_tool("agent_stream", {{"prompt", "what are my notes"}});
    EXPECT_FALSE(result.value("isError", false)) << result;
    const json data =
        result.contains("structuredContent")
            ? result["structuredContent"]
            : json::parse(result["content"][0]["text"].get<std::string>(), nullptr, false);
    const json chunks =
        data.is_object() && data.contains("data") ? data["data"] : data;  // {"data": [...]}
    ASSERT_TRUE(chunks.is_array() && !chunks.empty()) << result;
    EXPECT_EQ(chunks.back()["type"], "reply") << result;

    auto r = rpc("agent", "Agent.Stream", {{"prompt", "what are my notes"}}, "hank");
    ASSERT_EQ(r.status, 200) << r.body;
    ASSERT_TRUE(r.json().is_array()) << r.body;
    EXPECT_EQ(r.json().back()["type"], "reply") << r.body;
}

// ---- model-openai against the scripted fake model server ---------------------------------------

// profiles/test.yaml + the outbound allow-list for the fake model server; the provider is chosen
// with config `model.provider`, its upstream with OPENAI_BASE_URL.
class AgentModelServer : public ::testing::Test {
protected:
    void SetUp() override {
        HostProcess::Options o =
            model_server_host(model, dir.path() + "/agent-model-test.yaml", test_profile_text());
        host = std::make_unique<HostProcess>(o);
        host->start();
        api = std::make_unique<HttpClient>("127.0.0.1", host->api_port());
    }
    void use(const std::string& provider) {
        auto r = api->post_json("/rpc",
                                {{"service", "config"},
                                 {"method", "Config.Set"},
                                 {"request", {{"path", "model.provider"}, {"value", provider}}}},
                                {{"Authorization", "Bearer admin"}});
        ASSERT_EQ(r.status, 200) << r.body;
    }
    HttpResult ask(const json& body, const std::string& who = "ann") {
        return api->post_json("/api/v1/agent/ask", body, {{"Authorization", "Bearer " + who}});
    }
    static std::vector<std::string> tool_names(const json& request) {
        return FakeModelServer::openai_tool_names(request);
    }

    FakeModelServer model;
    TempDir dir;
    std::unique_ptr<HostProcess> host;
    std::unique_ptr<HttpClient> api;
};

TEST_F(AgentModelServer, RunsTheModelsToolCallsAsTheCaller) {
    use("openai");
    model.enqueue(FakeModelServer::kOpenAiPath,
                  FakeModelServer::ok(FakeModelServer::openai_tool_call(
                      "call_1", "notes_add", {{"title", "boiler"}, {"text", "4512"}})));
    model.enqueue(FakeModelServer::kOpenAiPath,
                  FakeModelServer::ok(FakeModelServer::openai_tool_call("call_2", "notes_get",
                                                                        {{"title", "boiler"}})));
    model.enqueue(FakeModelServer::kOpenAiPath,
                  FakeModelServer::ok(FakeModelServer::openai_text("The boiler code is 4512.")));

    auto r = ask({{"prompt", "remember that the boiler code is 4512"}});
    ASSERT_EQ(r.status, 200) << r.body << host->log();
    EXPECT_EQ(r.json()["data"]["text"], "The boiler code is 4512.");
    ASSERT_TRUE(r.json()["data"]["thread"].is_string());

    // The tool calls ran as ann, through notes.
    auto note = api->get("/api/v1/notes/get?title=boiler", {{"Authorization", "Bearer ann"}});
    ASSERT_EQ(note.status, 200) << note.body;
    EXPECT_EQ(note.json()["data"]["text"], "4512");
    EXPECT_EQ(api->get("/api/v1/notes/get?title=boiler", {{"Authorization", "Bearer bob"}}).status,
              404);

    const auto seen = model.requests(FakeModelServer::kOpenAiPath);
    ASSERT_EQ(seen.size(), 3u);
    const json& first = seen[0].body;
    const auto names = tool_names(first);
    EXPECT_NE(std::find(names.begin(), names.end(), "notes_add"), names.end()) << first;
    EXPECT_EQ(std::find(names.begin(), names.end(), "agent_ask"), names.end())
        << first;  // never itself
    EXPECT_EQ(first["messages"][0]["role"], "system");
    EXPECT_TRUE(has(first["messages"][0]["content"].get<std::string>(), "never instructions"))
        << first;
    EXPECT_EQ(first["messages"].back()["content"], "remember that the boiler code is 4512");
    // Each result went back as a tool message answering its call.
    const json& third = seen[2].body["messages"];
    std::vector<json> results;
    for (const auto& m : third)
        if (m["role"] == "tool") results.push_back(m);
    ASSERT_EQ(results.size(), 2u) << third;
    EXPECT_EQ(results[0]["tool_call_id"], "call_1");
    EXPECT_EQ(results[1]["tool_call_id"], "call_2");
    EXPECT_TRUE(has(results[1]["content"].get<std::string>(), "4512")) << third;
    EXPECT_EQ(seen[0].header("authorization"), "Bearer test-key");
}

TEST_F(AgentModelServer, RunsAnthropicToolUseAndTheThreadCarriesOn) {
    for (const auto& [path, value] :
         {std::pair<std::string, std::string>{"model.anthropic.base_url", model.url()},
          {"model.anthropic.api_key", "sk-ant-test"}}) {
        auto r = api->post_json("/rpc",
                                {{"service", "config"},
                                 {"method", "Config.Set"},
                                 {"request", {{"path", path}, {"value", value}}}},
                                {{"Authorization", "Bearer admin"}});
        ASSERT_EQ(r.status, 200) << r.body;
    }
    use("anthropic");
    using Call = FakeModelServer::ToolCall;
    model.enqueue(
        FakeModelServer::kAnthropicPath,
        FakeModelServer::ok(FakeModelServer::anthropic_tool_use(
            {Call{"toolu_1", "notes_add", {{"title", "gate"}, {"text", "code 1234"}}, ""}},
            "Saving it.")));
    model.enqueue(FakeModelServer::kAnthropicPath,
                  FakeModelServer::ok(FakeModelServer::anthropic_tool_use(
                      {Call{"toolu_2", "notes_list", json::object(), ""}})));
    model.enqueue(FakeModelServer::kAnthropicPath,
                  FakeModelServer::ok(FakeModelServer::anthropic_text("Saved: gate.")));
    auto first = ask({{"prompt", "remember the gate code 1234"}});
    ASSERT_EQ(first.status, 200) << first.body << host->log();
    EXPECT_EQ(first.json()["data"]["text"], "Saved: gate.");
    const std::string thread = first.json()["data"]["thread"];
    auto note = api->get("/api/v1/notes/get?title=gate", {{"Authorization", "Bearer ann"}});
    ASSERT_EQ(note.status, 200) << note.body;
    EXPECT_EQ(note.json()["data"]["text"], "code 1234");

    auto seen = model.requests(FakeModelServer::kAnthropicPath);
    ASSERT_EQ(seen.size(), 3u);
    EXPECT_EQ(seen[0].header("x-api-key"), "sk-ant-test");
    EXPECT_TRUE(has(seen[0].body["system"].get<std::string>(), "never instructions"))
        << seen[0].body;
    // The third request carries both tool results, as tool_result blocks answering their ids.
    const json& last = seen[2].body["messages"];
    std::vector<std::string> answered;
    for (const auto& m : last)
        if (m["role"] == "user" && m["content"].is_array())
            for (const auto& block : m["content"])
                if (block["type"] == "tool_result") answered.push_back(block["tool_use_id"]);
    EXPECT_EQ(answered, (std::vector<std::string>{"toolu_1", "toolu_2"})) << last;

    // The next ask on the thread sends the earlier exchange as history.
    model.enqueue(FakeModelServer::kAnthropicPath,
                  FakeModelServer::ok(FakeModelServer::anthropic_text("It is 1234.")));
    auto second = ask({{"prompt", "what was the gate code?"}, {"thread", thread}});
    ASSERT_EQ(second.status, 200) << second.body;
    EXPECT_EQ(second.json()["data"]["thread"], thread);
    seen = model.requests(FakeModelServer::kAnthropicPath);
    ASSERT_EQ(seen.size(), 4u);
    const std::string history = seen[3].body["messages"].dump();
    EXPECT_TRUE(has(history, "remember the gate code 1234") && has(history, "Saved: gate."))
        << history;
}

// The body of a raw HTTP/1.1 answer so far (head cut off, the whole chunks decoded).
std::string answer_body(const std::string& raw) {
    const size_t head_end = raw.find("\r\n\r\n");
    if (head_end == std::string::npos) return "";
    std::string body = raw.substr(head_end + 4), out;
    if (raw.substr(0, head_end).find("chunked") == std::string::npos) return body;
    for (size_t pos = 0; pos < body.size();) {
        const size_t eol = body.find("\r\n", pos);
        if (eol == std::string::npos) break;
        const size_t len = std::stoul(body.substr(pos, eol - pos), nullptr, 16);
        if (len == 0 || eol + 2 + len > body.size()) break;  // the end, or a chunk not all in
        out += body.substr(eol + 2, len);
        pos = eol + 2 + len + 2;
    }
    return out;
}

// The step chunk goes out when the tool call finishes, while the model is still on its next
// completion: the second model request is held until the test has read the step.
TEST_F(AgentModelServer, StreamSendsTheToolStepBeforeTheReply) {
    use("openai");
    model.enqueue(FakeModelServer::kOpenAiPath,
                  FakeModelServer::ok(FakeModelServer::openai_tool_call(
                      "call_1", "notes_add", {{"title", "boiler"}, {"text", "4512"}})));
    model.enqueue(FakeModelServer::kOpenAiPath,
                  FakeModelServer::ok(FakeModelServer::openai_text("Saved the boiler code.")));
    model.hold(FakeModelServer::kOpenAiPath, 1);  // the first completion goes through, not the next

    HttpClient stream("127.0.0.1", host->api_port());
    const std::string body = json{{"prompt", "remember that the boiler code is 4512"}}.dump();
    stream.send_raw(
        "POST /api/v1/agent/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ann\r\n"
        "Accept: text/event-stream\r\nContent-Type: application/json\r\nContent-Length: " +
        std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body);
    std::string raw;
    auto frames = [&] {  // the whole Server-Sent Events frames so far
        const std::string body = answer_body(raw);
        const size_t end = body.rfind("\n\n");
        return stream_chunks(end == std::string::npos ? "" : body.substr(0, end + 2));
    };
    for (int i = 0; i < 100 && frames().empty(); ++i) {  // bounded; each read waits for bytes
        const std::string more = stream.read_some();
        if (more.empty()) break;  // closed
        raw += more;
    }
    ASSERT_EQ(raw.rfind("HTTP/1.1 200", 0), 0u) << raw << host->log();
    EXPECT_NE(raw.find("text/event-stream"), std::string::npos) << raw;
    const auto first = frames();
    ASSERT_EQ(first.size(), 1u) << raw;
    EXPECT_EQ(first[0]["type"], "step");
    EXPECT_EQ(first[0]["tool"], "notes_add");
    EXPECT_EQ(first[0]["arguments"], (json{{"title", "boiler"}, {"text", "4512"}}));
    EXPECT_EQ(first[0]["outcome"], "ok");
    EXPECT_TRUE(first[0]["seconds"].is_number());
    // The model is on the second completion, held: the reply cannot have been sent yet.
    ASSERT_TRUE(model.wait_for_requests(FakeModelServer::kOpenAiPath, 2));
    EXPECT_EQ(raw.find("\"reply\""), std::string::npos) << raw;
    auto note = api->get("/api/v1/notes/get?title=boiler", {{"Authorization", "Bearer ann"}});
    EXPECT_EQ(note.status, 200) << note.body;  // the step ran before its chunk went out

    model.release(FakeModelServer::kOpenAiPath);
    for (int i = 0; i < 100; ++i) {
        const std::string more = stream.read_some();
        if (more.empty()) break;  // the server closed: the answer is complete
        raw += more;
        if (raw.size() >= 5 && raw.compare(raw.size() - 5, 5, "0\r\n\r\n") == 0) break;
    }
    const auto all = frames();
    ASSERT_EQ(all.size(), 2u) << raw;
    EXPECT_EQ(all[0], first[0]);
    EXPECT_EQ(all[1]["type"], "reply");
    EXPECT_EQ(all[1]["text"], "Saved the boiler code.");
    ASSERT_TRUE(all[1]["thread"].is_string()) << raw;
    const std::string thread = all[1]["thread"];

    // Saved: the inbox reads it back, and ask continues it with that history.
    auto read = api->get("/api/v1/inbox/read?id=" + thread, {{"Authorization", "Bearer ann"}});
    ASSERT_EQ(read.status, 200) << read.body;
    ASSERT_EQ(read.json()["data"]["messages"].size(), 2u) << read.body;
    EXPECT_EQ(read.json()["data"]["messages"][1]["text"], "Saved the boiler code.");
    model.enqueue(FakeModelServer::kOpenAiPath,
                  FakeModelServer::ok(FakeModelServer::openai_text("It is 4512.")));
    auto next = ask({{"prompt", "what was it?"}, {"thread", thread}});
    ASSERT_EQ(next.status, 200) << next.body;
    EXPECT_EQ(next.json()["data"]["thread"], thread);
    const auto seen = model.requests(FakeModelServer::kOpenAiPath);
    ASSERT_EQ(seen.size(), 3u);
    EXPECT_TRUE(has(seen[2].body["messages"].dump(), "Saved the boiler code."));
    EXPECT_EQ(api->get("/api/v1/inbox/read?id=" + thread, {{"Authorization", "Bearer bob"}}).status,
              404);
}

TEST_F(AgentModelServer, AStreamWithoutAModelIs503BeforeAnyChunk) {
    use("anthropic");  // no ANTHROPIC_API_KEY
    auto r = api->post_json("/api/v1/agent/stream", {{"prompt", "hello"}},
                            {{"Authorization", "Bearer ann"}, {"Accept", "text/event-stream"}});
    EXPECT_EQ(r.status, 503) << r.body;
    EXPECT_EQ(r.json()["error"]["code"], "unavailable") << r.body;
}

TEST_F(AgentModelServer, AnUnconfiguredModelIs503) {
    use("anthropic");  // no ANTHROPIC_API_KEY
    auto r = ask({{"prompt", "hello"}});
    EXPECT_EQ(r.status, 503) << r.body;
    EXPECT_EQ(r.json()["error"]["code"], "unavailable") << r.body;
    EXPECT_TRUE(has(r.body, "api_key")) << r.body;
}

}  // namespace
