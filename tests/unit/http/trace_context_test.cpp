// W3C traceparent validation and generation; request ids kept or generated.
#include <gtest/gtest.h>

#include <platform/host/http/trace_context.hpp>
#include <set>

using namespace platform::host;

namespace {

const std::string kValid = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

TEST(TraceContext, ValidTraceparents) {
    EXPECT_TRUE(valid_traceparent(kValid));
    EXPECT_TRUE(valid_traceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00"));
    // A later version may append fields after a dash.
    EXPECT_TRUE(valid_traceparent("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra"));
    EXPECT_TRUE(valid_traceparent("cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"));
}

TEST(TraceContext, InvalidTraceparents) {
    const std::string cases[] = {
        "",
        "garbage",
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",    // upper case
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01",    // zero trace id
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",    // zero parent id
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",    // version ff
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-x",  // version 00 is exactly 55
        "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01x",   // later version: '-' after 55
        "00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",    // separators
        "00-4bf92f3577b34da6a3ce929d0e0e473-600f067aa0ba902b7-01",    // misplaced dash
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0g",    // flags not hex
        "0-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",     // short
    };
    for (const auto& c : cases) EXPECT_FALSE(valid_traceparent(c)) << c;
}

TEST(TraceContext, GeneratedTraceparentsAreValidAndDistinct) {
    std::set<std::string> seen;
    for (int i = 0; i < 100; ++i) {
        std::string tp = new_traceparent();
        EXPECT_TRUE(valid_traceparent(tp)) << tp;
        EXPECT_EQ(tp.substr(0, 3), "00-");
        seen.insert(tp);
    }
    EXPECT_EQ(seen.size(), 100u);
}

TEST(TraceContext, TraceIdOf) {
    EXPECT_EQ(trace_id_of(kValid), "4bf92f3577b34da6a3ce929d0e0e4736");
    EXPECT_EQ(trace_id_of("nope"), "");
}

TEST(TraceContext, RequestIds) {
    EXPECT_EQ(request_id_for("abc-123"), "abc-123");
    std::string generated = request_id_for("");
    EXPECT_EQ(generated.size(), 16u);
    EXPECT_NE(request_id_for(""), generated);
    EXPECT_EQ(request_id_for("has space").size(), 16u);
    EXPECT_EQ(request_id_for(std::string(129, 'a')).size(), 16u);
    EXPECT_EQ(request_id_for(std::string(128, 'a')), std::string(128, 'a'));
}

}  // namespace
