// tool_result: the tools/call result of an outcome carries the same payload as /api/v1's `data`;
// failures are isError results naming the problem; MCP-content endpoints pass through.
#include <gtest/gtest.h>

#include "mcp_internal.hpp"

using namespace platform::host;
using namespace platform::host::mcp;

namespace {

Endpoint endpoint(uint64_t flags = 0) {
    Endpoint e(Schema::compile(json::parse(R"({"type":"object"})")));
    e.flags = flags;
    return e;
}

TEST(McpToolResult, AnObjectIsTheStructuredContentAndTheText) {
    auto r = tool_result(endpoint(), Outcome{PLATFORM_OK, R"({"title":"a","n":1})"});
    EXPECT_EQ(r["structuredContent"], json::parse(R"({"title":"a","n":1})"));
    EXPECT_EQ(json::parse(r["content"][0]["text"].get<std::string>()), r["structuredContent"]);
    EXPECT_FALSE(r.contains("isError"));
}

TEST(McpToolResult, AnArrayRidesInData) {
    auto r = tool_result(endpoint(), Outcome{PLATFORM_OK, "[1,2]"});
    EXPECT_EQ(r["structuredContent"], json::parse(R"({"data":[1,2]})"));
    EXPECT_EQ(r["content"][0]["text"], "[1,2]");
}

TEST(McpToolResult, AFailureIsAnErrorResultWithTheCode) {
    auto r = tool_result(endpoint(), Outcome{PLATFORM_INVALID_ARGUMENT, "text: is required"});
    EXPECT_EQ(r["isError"], true);
    EXPECT_EQ(r["content"][0]["text"], "text: is required");
    EXPECT_EQ(r["structuredContent"]["error"],
              json::parse(R"({"code":"invalid_argument","message":"text: is required"})"));
}

TEST(McpToolResult, McpContentPassesThroughAndOtherShapesDoNot) {
    const std::string content =
        R"({"content":[{"type":"image","data":"AA==","mimeType":"image/png"}]})";
    EXPECT_EQ(tool_result(endpoint(PLATFORM_FLAG_MCP_CONTENT), Outcome{PLATFORM_OK, content}),
              json::parse(content));
    auto plain = tool_result(endpoint(), Outcome{PLATFORM_OK, content});
    EXPECT_EQ(plain["content"][0]["type"], "text");
    auto odd = tool_result(endpoint(PLATFORM_FLAG_MCP_CONTENT), Outcome{PLATFORM_OK, R"({"x":1})"});
    EXPECT_EQ(odd["structuredContent"], json::parse(R"({"x":1})"));
}

TEST(McpToolResult, RawBytesAreABase64Resource) {
    auto r = tool_result(endpoint(), Outcome{PLATFORM_OK, "hi!", "text/plain", true});
    EXPECT_EQ(r["content"][0]["resource"]["blob"], "aGkh");
    EXPECT_EQ(r["content"][0]["resource"]["mimeType"], "text/plain");
}

// tool_result_text splices a successful JSON answer in without parsing it: the same result as
// tool_result, value for value, for every shape of answer; nullopt where tool_result must build it.
TEST(McpToolResult, TheTextIsTheSameResultWithoutAParse) {
    for (const std::string body :
         {R"({"title":"a","n":1})", "[1,2]", R"("a \"quoted\" line\n")", "42", "null", "{}",
          "  {\"spaced\" : [ true , false ] }\n", R"({"u":"\u00e9t\u00e9 été"})"}) {
        SCOPED_TRACE(body);
        const Outcome o{PLATFORM_OK, body};
        const auto text = tool_result_text(endpoint(), o);
        ASSERT_TRUE(text.has_value());
        const json spliced = json::parse(*text);
        const json built = tool_result(endpoint(), o);
        EXPECT_EQ(spliced["structuredContent"], built["structuredContent"]);
        EXPECT_EQ(json::parse(spliced["content"][0]["text"].get<std::string>()),
                  json::parse(built["content"][0]["text"].get<std::string>()));
        EXPECT_EQ(spliced["content"][0]["type"], "text");
        EXPECT_EQ(spliced.size(), built.size());
    }
    // The JSON-RPC message around it.
    EXPECT_EQ(json::parse(result_message_text(7, R"({"x":1})")),
              result_message(7, json::parse(R"({"x":1})")));
    EXPECT_EQ(sse_frame_text("{}"), sse_frame(json::object()));
}

TEST(McpToolResult, TheTextIsLeftToToolResultWhereItMustBuildTheResult) {
    EXPECT_FALSE(tool_result_text(endpoint(), Outcome{PLATFORM_NOT_FOUND, "no such note"}));
    EXPECT_FALSE(tool_result_text(endpoint(), Outcome{PLATFORM_OK, "hi!", "text/plain", true}));
    EXPECT_FALSE(tool_result_text(endpoint(PLATFORM_FLAG_MCP_CONTENT),
                                  Outcome{PLATFORM_OK, R"({"content":[]})"}));
    // Not JSON (tool_result answers it as a string), or JSON with something after it.
    EXPECT_FALSE(tool_result_text(endpoint(), Outcome{PLATFORM_OK, "plain words"}));
    EXPECT_FALSE(tool_result_text(endpoint(), Outcome{PLATFORM_OK, R"({"a":1}{"b":2})"}));
    EXPECT_FALSE(tool_result_text(endpoint(), Outcome{PLATFORM_OK, std::string("\"\xC3\x28\"")}));
}

TEST(McpHelpers, VersionsLevelsFrames) {
    EXPECT_TRUE(supported_version("2025-11-25"));
    EXPECT_TRUE(supported_version("2025-03-26"));
    EXPECT_FALSE(supported_version("2024-11-05"));
    EXPECT_LT(log_severity("debug"), log_severity("emergency"));
    EXPECT_EQ(log_severity("verbose"), -1);
    EXPECT_EQ(sse_frame({{"a", 1}}), "event: message\ndata: {\"a\":1}\n\n");
    auto h = http_error(404, kInvalidRequest, "gone");
    EXPECT_EQ(h.status, 404);
    EXPECT_EQ(json::parse(h.body)["error"]["code"], -32600);
}

}  // namespace
