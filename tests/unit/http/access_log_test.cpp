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
    const std::string agent("a\x01\\b\t\xff\xed\xa0\x80z", 10);  // AccessRecord holds views
    r.user_agent = agent;
    r.duration_ms = 12;
    const std::string line = access_log_line(r);
    auto j = nlohmann::json::parse(line);
    EXPECT_EQ(j["path"], "/caf\xc3\xa9");
    EXPECT_EQ(j["user_agent"], "a\x01\\b\t\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbdz");
    EXPECT_DOUBLE_EQ(j["duration_ms"].get<double>(), 12.0);
    EXPECT_EQ(j.size(), 9u);  // no port, no trace_id
    EXPECT_LT(line.find("\"bytes\""), line.find("\"user_agent\""));
}

// The date and time up to the seconds is kept per thread between lines of the same second.
TEST(AccessLog, TimeAcrossSeconds) {
    using std::chrono::milliseconds;
    const auto time_of = [](int64_t ms) {
        AccessRecord r;
        r.time = std::chrono::system_clock::time_point(milliseconds(ms));
        return nlohmann::json::parse(access_log_line(r))["time"].get<std::string>();
    };
    EXPECT_EQ(time_of(1700000000005), "2023-11-14T22:13:20.005Z");
    EXPECT_EQ(time_of(1700000000999), "2023-11-14T22:13:20.999Z");
    EXPECT_EQ(time_of(1700000001000), "2023-11-14T22:13:21.000Z");
    EXPECT_EQ(time_of(1700000000120), "2023-11-14T22:13:20.120Z");
    EXPECT_EQ(time_of(1735689599999), "2024-12-31T23:59:59.999Z");
    EXPECT_EQ(time_of(1735689600000), "2025-01-01T00:00:00.000Z");
}

// Appending keeps what the buffer held: the server reuses one buffer per thread.
TEST(AccessLog, AppendsToTheBuffer) {
    AccessRecord r;
    r.status = 204;
    std::string out = "kept";
    append_access_log_line(out, r);
    EXPECT_EQ(out.substr(0, 4), "kept");
    EXPECT_EQ(out.substr(4), access_log_line(r));
}
