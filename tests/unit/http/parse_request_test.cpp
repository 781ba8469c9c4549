// A request as the server reads it, regressions of the fuzz harness's findings (tests/fuzz):
//   - parse_framed_request (request_parser.hpp): the query is the target's raw text, so repeated
//     keys, `[]` arrays, order and a bare `?flag` all reach the query parser (query.hpp);
//   - json_depth.hpp: JSON nested deeper than kMaxJsonDepth is a 400, not a stack overflow when
//     the parsed arguments are copied.
#include <gtest/gtest.h>

#include <platform/host/core/request_args.hpp>
#include <platform/host/http/http_framing.hpp>
#include <platform/host/http/http_server.hpp>
#include <platform/validation/json_depth.hpp>
#include <string>

namespace {

using platform::host::Frame;
using platform::host::FrameLimits;
using platform::host::ParsedRequest;

ParsedRequest parse(const std::string& bytes) {
    const Frame f = platform::host::frame_request(bytes, FrameLimits{});
    EXPECT_TRUE(f.complete()) << f.message;
    return platform::host::parse_framed_request(std::string_view(bytes).substr(f.skip, f.length), f,
                                                FrameLimits{}.max_request_bytes);
}

TEST(ParseRequest, QueryIsTheTargetsRawText) {
    auto p = parse(
        "GET /api/v1/tasks/list?tags=a&tags=b&ids[]=1&ids[]=2&verbose&x=%26y HTTP/1.1\r\nHost: "
        "h\r\n\r\n");
    ASSERT_EQ(p.error_status, 0) << p.error_detail;
    EXPECT_EQ(p.req.method, "GET");
    EXPECT_EQ(p.req.path, "/api/v1/tasks/list");
    EXPECT_EQ(p.req.query, "tags=a&tags=b&ids[]=1&ids[]=2&verbose&x=%26y");
    EXPECT_EQ(p.req.header("host"), "h");
    EXPECT_FALSE(p.close);
}

TEST(ParseRequest, NoQueryBodyAndConnectionClose) {
    auto p = parse(
        "POST /rpc HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}");
    ASSERT_EQ(p.error_status, 0) << p.error_detail;
    EXPECT_EQ(p.req.query, "");
    EXPECT_EQ(p.req.body, "{}");
    EXPECT_EQ(p.req.header("content-type"), "application/json");
    EXPECT_TRUE(p.http10);
    EXPECT_TRUE(p.close);  // HTTP/1.0 without keep-alive
}

TEST(JsonDepth, CountsContainersOutsideStrings) {
    using platform::validation::json_depth_ok;
    EXPECT_TRUE(json_depth_ok("[[1]]", 2));
    EXPECT_FALSE(json_depth_ok("[[[1]]]", 2));
    EXPECT_TRUE(json_depth_ok(R"({"a": "[[[[", "b": "\"[[[["})", 1));
    EXPECT_FALSE(json_depth_ok(R"({"a": {"b": []}})", 2));
    EXPECT_TRUE(json_depth_ok("]]]]{", 1));  // not JSON: the parser refuses it afterwards
}

TEST(JsonDepth, DeeplyNestedBodyIsA400) {
    for (size_t depth : {size_t{300}, size_t{100000}}) {
        platform::host::HttpRequest req;
        req.method = "POST";
        req.path = "/api/v1/notes/add";
        req.headers["content-type"] = "application/json";
        req.body = "{\"title\":" + std::string(depth, '[') + std::string(depth, ']') + "}";
        auto r = platform::host::request_args(req, nullptr, 1 << 20);
        auto* e = std::get_if<platform::host::ArgsError>(&r);
        ASSERT_NE(e, nullptr) << depth;
        EXPECT_EQ(e->http_status, 400);
        EXPECT_EQ(e->message, "request body: nested more than 256 levels deep");
    }
}

}  // namespace
