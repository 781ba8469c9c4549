// CORS headers (http_cors.hpp): only origins listed in the profile may read answers with the
// user's credentials; "*" lets any other origin read without them; `null` never; headers a
// handler set are kept.
#include <gtest/gtest.h>

#include <platform/host/http/http_cors.hpp>

using namespace platform::host;

namespace {

std::string get(const HeaderList& h, const std::string& name) {
    for (const auto& [k, v] : h)
        if (k == name) return v;
    return "<none>";
}

CorsSettings allowing(std::vector<std::string> origins) {
    CorsSettings c;
    c.origins = std::move(origins);
    return c;
}

TEST(Cors, NothingListedMeansNoCrossOriginReads) {
    for (const char* origin : {"https://app.example", "null", ""}) {
        HeaderList h;
        add_cors_headers(h, origin, CorsSettings{});
        EXPECT_TRUE(h.empty()) << origin;
    }
}

TEST(Cors, AListedOriginIsEchoedWithCredentials) {
    HeaderList h;
    add_cors_headers(h, "https://app.example",
                     allowing({"https://other.example", "https://app.example"}));
    EXPECT_EQ(get(h, "Access-Control-Allow-Origin"), "https://app.example");
    EXPECT_EQ(get(h, "Access-Control-Allow-Credentials"), "true");
    EXPECT_EQ(get(h, "Vary"), "Origin");
    EXPECT_EQ(get(h, "Access-Control-Allow-Methods"), "POST, PATCH, GET, OPTIONS, PUT, DELETE");
    EXPECT_EQ(get(h, "Access-Control-Allow-Headers"),
              "Accept, Content-Type, Content-Length, Accept-Encoding, X-CSRF-Token, Authorization, "
              "Platform-Namespace, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID");
    EXPECT_EQ(get(h, "Access-Control-Expose-Headers"),
              "Mcp-Session-Id, X-Request-Id, WWW-Authenticate");
    // Browsers send origins in lower case; a listed one matches whatever its case.
    HeaderList upper;
    add_cors_headers(upper, "HTTPS://APP.EXAMPLE", allowing({"https://app.example"}));
    EXPECT_EQ(get(upper, "Access-Control-Allow-Origin"), "HTTPS://APP.EXAMPLE");
}

TEST(Cors, AnUnlistedOriginGetsNothingButVary) {
    HeaderList h;
    add_cors_headers(h, "https://evil.example", allowing({"https://app.example"}));
    EXPECT_EQ(get(h, "Access-Control-Allow-Origin"), "<none>");
    EXPECT_EQ(get(h, "Access-Control-Allow-Credentials"), "<none>");
    EXPECT_EQ(get(h, "Vary"), "Origin");
    EXPECT_EQ(h.size(), 1u);
}

TEST(Cors, StarAllowsOtherOriginsWithoutCredentials) {
    const CorsSettings cors = allowing({"https://app.example", "*"});
    HeaderList any;
    add_cors_headers(any, "https://elsewhere.example", cors);
    EXPECT_EQ(get(any, "Access-Control-Allow-Origin"), "*");
    EXPECT_EQ(get(any, "Access-Control-Allow-Credentials"), "<none>");
    HeaderList listed;
    add_cors_headers(listed, "https://app.example", cors);
    EXPECT_EQ(get(listed, "Access-Control-Allow-Origin"), "https://app.example");
    EXPECT_EQ(get(listed, "Access-Control-Allow-Credentials"), "true");
}

TEST(Cors, NullIsNeverAllowed) {
    // Not even by "*", nor if it got into the list some other way than the profile.
    HeaderList h;
    add_cors_headers(h, "null", allowing({"*", "null"}));
    EXPECT_EQ(get(h, "Access-Control-Allow-Origin"), "<none>");
    EXPECT_EQ(get(h, "Access-Control-Allow-Credentials"), "<none>");
}

TEST(Cors, WithoutAnOriginNothingIsAdded) {
    HeaderList h;
    add_cors_headers(h, "", allowing({"*"}));
    EXPECT_TRUE(h.empty());
}

TEST(Cors, HeadersAlreadySetAreKept) {
    HeaderList h{{"access-control-allow-origin", "https://only.example"},
                 {"Access-Control-Allow-Methods", "GET"}};
    add_cors_headers(h, "https://app.example", allowing({"https://app.example"}));
    EXPECT_EQ(get(h, "access-control-allow-origin"), "https://only.example");
    EXPECT_EQ(get(h, "Access-Control-Allow-Origin"), "<none>");  // not added again in another case
    EXPECT_EQ(get(h, "Access-Control-Allow-Methods"), "GET");
    EXPECT_EQ(get(h, "Access-Control-Allow-Credentials"), "true");
    EXPECT_TRUE(has_header(h, "Access-Control-Expose-Headers"));
}

TEST(Cors, WhatMayBeListed) {
    for (const char* ok : {"*", "https://app.example", "http://127.0.0.1:5173",
                           "https://[::1]:8443", "http://localhost"})
        EXPECT_EQ(cors_origin_problem(ok), "") << ok;
    EXPECT_NE(cors_origin_problem("null").find("never allowed"), std::string::npos);
    for (const char* bad : {"", "https://app.example/", "https://App.example", "ftp://a.example",
                            "app.example", "https://a.example/path", "https://a.example:port"})
        EXPECT_NE(cors_origin_problem(bad).find("must be \"*\" or an origin"), std::string::npos)
            << bad;
}

TEST(Cors, HasHeaderIgnoresCase) {
    HeaderList h{{"X-Request-Id", "1"}};
    EXPECT_TRUE(has_header(h, "x-request-id"));
    EXPECT_FALSE(has_header(h, "x-request"));
}

}  // namespace
