// The profile's `outbound:` section: parsed into Profile::outbound; errors name file:line: key.
#include <gtest/gtest.h>

#include <string>

#include "../support/profile_section_test.hpp"

namespace {

class OutboundProfile : public plugin_test::ProfileSectionTest {};

TEST_F(OutboundProfile, DefaultsWithoutTheSection) {
    ASSERT_EQ(error_of(""), "");
    const auto& o = profile_.outbound;
    EXPECT_TRUE(o.allow.empty());
    EXPECT_TRUE(o.providers.empty());
    EXPECT_EQ(o.timeout_ms, 30000);
    EXPECT_EQ(o.max_response_bytes, 10u << 20);
    EXPECT_EQ(o.max_redirects, 5);
    EXPECT_EQ(o.user_agent, "platform/0.1");
}

TEST_F(OutboundProfile, FullSectionParses) {
    setenv("OUTBOUND_TEST_KEY", "from-env", 1);
    ASSERT_EQ(
        error_of("outbound:\n"
                 "  allow: [\"127.0.0.1:*\", \"localhost:11434\", \"*:8080\", \"[::1]:9000\"]\n"
                 "  timeout_ms: 5000\n"
                 "  max_response_bytes: 2048\n"
                 "  max_redirects: 0\n"
                 "  user_agent: tester/1\n"
                 "  providers:\n"
                 "    weather:\n"
                 "      base_url: http://127.0.0.1:9999/v1\n"
                 "      api_key: \"${OUTBOUND_TEST_KEY}\"\n"
                 "      api_key_header: \"Authorization: Bearer\"\n"
                 "      key_required: true\n"
                 "      timeout_ms: 300000\n"
                 "    open: {base_url: \"https://api.example.com\"}\n"),
        "");
    const auto& o = profile_.outbound;
    EXPECT_EQ(o.allow,
              (std::vector<std::string>{"127.0.0.1:*", "localhost:11434", "*:8080", "[::1]:9000"}));
    EXPECT_EQ(o.timeout_ms, 5000);
    EXPECT_EQ(o.max_response_bytes, 2048u);
    EXPECT_EQ(o.max_redirects, 0);
    EXPECT_EQ(o.user_agent, "tester/1");
    ASSERT_EQ(o.providers.size(), 2u);
    const auto& w = o.providers.at("weather");
    EXPECT_EQ(w.base_url, "http://127.0.0.1:9999/v1");
    EXPECT_EQ(w.api_key, "from-env");
    EXPECT_EQ(w.api_key_header, "Authorization: Bearer");
    EXPECT_TRUE(w.key_required);
    EXPECT_EQ(w.timeout_ms, 300000);
    EXPECT_EQ(o.providers.at("open").timeout_ms, 0);  // the request's, else outbound.timeout_ms
    EXPECT_EQ(o.providers.at("open").base_url, "https://api.example.com");
    EXPECT_FALSE(o.providers.at("open").key_required);
}

TEST_F(OutboundProfile, ErrorsNameFileLineAndKey) {
    struct Case {
        std::string yaml, where;
    };
    const Case cases[] = {
        {"outbound: [1]\n", ":6: outbound: must be a mapping"},
        {"outbound:\n  allow: \"127.0.0.1:*\"\n", ":7: outbound.allow: must be a list of strings"},
        {"outbound:\n  allow:\n    - \"127.0.0.1:*\"\n    - \"*:*\"\n",
         ":9: outbound.allow: '*:*': would allow every target"},
        {"outbound:\n  allow: [\"127.0.0.1\"]\n",
         ":7: outbound.allow: '127.0.0.1': expected host:port"},
        {"outbound:\n  timeout_ms: -1\n", ":7: outbound.timeout_ms: must be between 1 and"},
        {"outbound:\n  timeout_ms: soon\n", ":7: outbound.timeout_ms: must be an integer"},
        {"outbound:\n  max_response_bytes: 0\n",
         ":7: outbound.max_response_bytes: must be between 1"},
        {"outbound:\n  max_redirects: 99\n",
         ":7: outbound.max_redirects: must be between 0 and 20"},
        {"outbound:\n  user_agent: [a]\n", ":7: outbound.user_agent: must be a string"},
        {"outbound:\n  alow: []\n", ":7: outbound.alow: unknown key (expected allow, providers"},
        {"outbound:\n  providers: [x]\n", ":7: outbound.providers: must be a mapping"},
        {"outbound:\n  providers:\n    weather: 1\n",
         ":8: outbound.providers.weather: must be a mapping"},
        {"outbound:\n  providers:\n    weather:\n      base_url: ftp://x\n",
         ":9: outbound.providers.weather.base_url: must be an http(s) URL (refused: scheme not "
         "allowed: ftp"},
        {"outbound:\n  providers:\n    weather:\n      key_required: yes\n",
         ":9: outbound.providers.weather.key_required: must be true or false"},
        {"outbound:\n  providers:\n    weather:\n      apikey: k\n",
         ":9: outbound.providers.weather.apikey: unknown key (expected base_url, api_key, "
         "api_key_header, key_required, timeout_ms)"},
        {"outbound:\n  providers:\n    gtfs:\n      timeout_ms: 0\n",
         ":9: outbound.providers.gtfs.timeout_ms: must be between 1 and 3600000"},
    };
    for (const auto& c : cases) {
        std::string e = error_of(c.yaml);
        EXPECT_NE(e.find(file_ + c.where), std::string::npos) << c.yaml << "\n=> " << e;
    }
}

}  // namespace
