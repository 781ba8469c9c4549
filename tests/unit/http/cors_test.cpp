// CORS headers as micro sets them: origin echoed (or *), credentials, methods, headers; never
// overriding what a handler already set.
#include <gtest/gtest.h>

#include <platform/host/http_cors.hpp>

using platform::host::add_cors_headers;
using platform::host::has_header;
using platform::host::HeaderList;

namespace {

std::string get(const HeaderList& h, const std::string& name) {
    for (const auto& [k, v] : h)
        if (k == name) return v;
    return "<none>";
}

TEST(Cors, WithoutOriginAllowsAny) {
    HeaderList h;
    add_cors_headers(h, "");
    EXPECT_EQ(get(h, "Access-Control-Allow-Origin"), "*");
    EXPECT_EQ(get(h, "Access-Control-Allow-Credentials"), "true");
    EXPECT_EQ(get(h, "Access-Control-Allow-Methods"), "POST, PATCH, GET, OPTIONS, PUT, DELETE");
    EXPECT_EQ(get(h, "Access-Control-Allow-Headers"),
              "Accept, Content-Type, Content-Length, Accept-Encoding, X-CSRF-Token, Authorization, "
              "Platform-Namespace, "
              "Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID");
    EXPECT_EQ(get(h, "Access-Control-Expose-Headers"),
              "Mcp-Session-Id, X-Request-Id, WWW-Authenticate");
    EXPECT_FALSE(has_header(h, "Vary"));
}

TEST(Cors, OriginIsEchoedWithVary) {
    HeaderList h;
    add_cors_headers(h, "https://app.example");
    EXPECT_EQ(get(h, "Access-Control-Allow-Origin"), "https://app.example");
    EXPECT_EQ(get(h, "Vary"), "Origin");
}

TEST(Cors, HeadersAlreadySetAreKept) {
    HeaderList h{{"access-control-allow-origin", "https://only.example"},
                 {"Access-Control-Allow-Methods", "GET"}};
    add_cors_headers(h, "https://other.example");
    EXPECT_EQ(get(h, "access-control-allow-origin"), "https://only.example");
    EXPECT_EQ(get(h, "Access-Control-Allow-Origin"),
              "<none>");  // not added twice under another case
    EXPECT_EQ(get(h, "Access-Control-Allow-Methods"), "GET");
    EXPECT_EQ(get(h, "Access-Control-Allow-Credentials"), "true");
    EXPECT_FALSE(has_header(h, "Vary"));
    EXPECT_TRUE(has_header(h, "Access-Control-Expose-Headers"));
    EXPECT_EQ(h.size(), 5u);
}

TEST(Cors, HasHeaderIgnoresCase) {
    HeaderList h{{"X-Request-Id", "1"}};
    EXPECT_TRUE(has_header(h, "x-request-id"));
    EXPECT_FALSE(has_header(h, "x-request"));
}

}  // namespace
