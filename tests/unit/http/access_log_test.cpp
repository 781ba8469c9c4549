// One JSON line per request, with the fields operators grep for.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <platform/host/http/access_log.hpp>

using namespace platform::host;

TEST(AccessLog, OneJsonLine) {
    AccessRecord r;
    r.time = std::chrono::system_clock::time_point(std::chrono::milliseconds(1700000000123));
    r.request_id = "rid-1";
    r.method = "POST";
    r.path = "/rpc";
    r.status = 200;
    r.bytes = 42;
    r.duration_ms = 1.23456;
    r.remote = "127.0.0.1";
    r.user_agent = "curl/8 \"quoted\"\n";
    r.trace_id = "4bf92f3577b34da6a3ce929d0e0e4736";
    r.port = "api";
    std::string line = access_log_line(r);
    EXPECT_EQ(line.find('\n'), std::string::npos);
    auto j = nlohmann::json::parse(line);
    EXPECT_EQ(j["time"], "2023-11-14T22:13:20.123Z");
    EXPECT_EQ(j["request_id"], "rid-1");
    EXPECT_EQ(j["method"], "POST");
    EXPECT_EQ(j["path"], "/rpc");
    EXPECT_EQ(j["status"], 200);
    EXPECT_EQ(j["bytes"], 42);
    EXPECT_DOUBLE_EQ(j["duration_ms"].get<double>(), 1.235);
    EXPECT_EQ(j["remote"], "127.0.0.1");
    EXPECT_EQ(j["user_agent"], "curl/8 \"quoted\"\n");
    EXPECT_EQ(j["trace_id"], "4bf92f3577b34da6a3ce929d0e0e4736");
    EXPECT_EQ(j["port"], "api");
}

TEST(AccessLog, UnknownMethodAndPathAreDashes) {
    AccessRecord r;
    r.status = 400;
    auto j = nlohmann::json::parse(access_log_line(r));
    EXPECT_EQ(j["method"], "-");
    EXPECT_EQ(j["path"], "-");
    EXPECT_FALSE(j.contains("trace_id"));
}

// The line is written by hand: control characters are escaped, bytes that are not UTF-8 become
// U+FFFD, valid UTF-8 stays as it is, and the number of milliseconds keeps three decimals at most.
TEST(AccessLog, EscapesAndReplacesLikeJson) {
    AccessRecord r;
    r.status = 200;
    r.method = "GET";
    r.path = "/caf\xc3\xa9";
    r.user_agent = std::string("a\x01\\b\t\xff\xed\xa0\x80z", 10);
    r.duration_ms = 12;
    const std::string line = access_log_line(r);
    auto j = nlohmann::json::parse(line);
    EXPECT_EQ(j["path"], "/caf\xc3\xa9");
    EXPECT_EQ(j["user_agent"], "a\x01\\b\t\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbdz");
    EXPECT_DOUBLE_EQ(j["duration_ms"].get<double>(), 12.0);
    EXPECT_EQ(j.size(), 9u);  // no port, no trace_id
    EXPECT_LT(line.find("\"bytes\""), line.find("\"user_agent\""));
}
