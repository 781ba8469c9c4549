// The profile's `http:` section: defaults, values, and errors naming file:line: http.<key>.
#include <gtest/gtest.h>

#include "../support/profile_section_test.hpp"

using namespace platform::host;

namespace {

class HttpProfile : public plugin_test::ProfileSectionTest {};

TEST_F(HttpProfile, Defaults) {
    Profile p = load_profile(write(""), {});
    EXPECT_EQ(p.http.max_request_bytes, 0u);
    EXPECT_EQ(p.http.max_header_count, 100u);
    EXPECT_EQ(p.http.max_header_bytes, 16384u);
    EXPECT_EQ(p.http.max_connections, 10000u);
    EXPECT_EQ(p.http.drain_ms, 10000);
    EXPECT_TRUE(p.http.cors.enabled);
    EXPECT_TRUE(p.http.cors.origins.empty());  // no other origin may read answers
    EXPECT_TRUE(p.http.access_log);
    EXPECT_FALSE(p.http.rate_limit.enabled());
}

TEST_F(HttpProfile, CorsOrigins) {
    Profile p = load_profile(write("http:\n  cors: {origins: [\"https://app.example\", "
                                   "\"http://127.0.0.1:5173\", \"*\"]}\n"),
                             {});
    EXPECT_TRUE(p.http.cors.enabled);
    EXPECT_EQ(p.http.cors.origins,
              (std::vector<std::string>{"https://app.example", "http://127.0.0.1:5173", "*"}));
    EXPECT_TRUE(load_profile(write("http:\n  cors: true\n"), {}).http.cors.origins.empty());
}

TEST_F(HttpProfile, Values) {
    Profile p = load_profile(write("http:\n"
                                   "  max_request_bytes: 65536\n"
                                   "  max_header_count: 20\n"
                                   "  max_header_bytes: 4096\n"
                                   "  header_timeout_ms: 5000\n"
                                   "  idle_timeout_ms: 30000\n"
                                   "  max_connections: 50\n"
                                   "  cors: false\n"
                                   "  access_log: false\n"
                                   "  drain_ms: 2500\n"
                                   "  rate_limit: {requests_per_second: 1.5, burst: 3}\n"),
                             {});
    EXPECT_EQ(p.http.max_request_bytes, 65536u);
    EXPECT_EQ(p.http.max_header_count, 20u);
    EXPECT_EQ(p.http.max_header_bytes, 4096u);
    EXPECT_EQ(p.http.header_timeout_ms, 5000);
    EXPECT_EQ(p.http.idle_timeout_ms, 30000);
    EXPECT_EQ(p.http.max_connections, 50u);
    EXPECT_FALSE(p.http.cors.enabled);
    EXPECT_FALSE(p.http.access_log);
    EXPECT_EQ(p.http.drain_ms, 2500);
    EXPECT_TRUE(p.http.rate_limit.enabled());
    EXPECT_DOUBLE_EQ(p.http.rate_limit.requests_per_second, 1.5);
    EXPECT_DOUBLE_EQ(p.http.rate_limit.burst, 3);
}

TEST_F(HttpProfile, ErrorsNameFileLineAndKey) {
    std::string e = error_of("http:\n  max_header_count: lots\n");
    EXPECT_NE(e.find("p.yaml:7: http.max_header_count: must be an integer"), std::string::npos)
        << e;
    e = error_of("http:\n  max_header_count: 0\n");
    EXPECT_NE(e.find("p.yaml:7: http.max_header_count: must be between 1 and"), std::string::npos)
        << e;
    e = error_of("http:\n  cors: maybe\n");
    EXPECT_NE(e.find("p.yaml:7: http.cors: must be true or false"), std::string::npos) << e;
    // `null` is never an allowed origin, nor a path, an upper-case host or another scheme.
    e = error_of("http:\n  cors: {origins: [\"null\"]}\n");
    EXPECT_NE(e.find("p.yaml:7: http.cors.origins: 'null': `null` is never allowed"),
              std::string::npos)
        << e;
    for (const char* bad : {"https://app.example/", "https://App.example", "ftp://app.example",
                            "app.example", "https://app.example:8443/x"}) {
        e = error_of(std::string("http:\n  cors: {origins: [\"") + bad + "\"]}\n");
        EXPECT_NE(e.find(std::string("p.yaml:7: http.cors.origins: '") + bad +
                         "': must be \"*\" or an origin"),
                  std::string::npos)
            << e;
    }
    e = error_of("http:\n  cors: {allow: [\"*\"]}\n");
    EXPECT_NE(e.find("p.yaml:7: http.cors.allow: unknown key (expected origins)"),
              std::string::npos)
        << e;
    e = error_of("http:\n  colour: blue\n");
    EXPECT_NE(e.find("p.yaml:7: http.colour: unknown key"), std::string::npos) << e;
    e = error_of("http:\n  rate_limit: {burst: 3}\n");
    EXPECT_NE(e.find("p.yaml:7: http.rate_limit.requests_per_second: missing"), std::string::npos)
        << e;
    e = error_of("http:\n  rate_limit: {requests_per_second: -1}\n");
    EXPECT_NE(e.find("p.yaml:7: http.rate_limit.requests_per_second: must be a number above 0"),
              std::string::npos)
        << e;
    e = error_of("http:\n  rate_limit: {requests_per_second: 1, per: minute}\n");
    EXPECT_NE(e.find("http.rate_limit.per: unknown key"), std::string::npos) << e;
    e = error_of("http: 5\n");
    EXPECT_NE(e.find("p.yaml:6: http: must be a mapping"), std::string::npos) << e;
}

}  // namespace
