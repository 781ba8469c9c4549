// `platform status`: micro's fmtDuration table (client/cli/run/service_test.go) for
// the UPDATED column, and the row's n/a and metadata rules.
#include "runtime_format.hpp"

#include <gtest/gtest.h>

using platform::cli::first_error;
using platform::cli::format_duration;
using platform::cli::status_row;

TEST(RuntimeFormat, FmtDurationTable) {
    const std::pair<int64_t, const char*> cases[] = {
        {15, "15s"},
        {0, "0s"},
        {60, "1m0s"},
        {75, "1m15s"},
        {903, "15m3s"},
        {4532, "1h15m32s"},
        {82808, "23h0m8s"},
        {86400, "1d0h0m0s"},
        {1006400, "11d15h33m20s"},
        {111006360, "1284d19h6m0s"},
    };
    for (const auto& [seconds, want] : cases) EXPECT_EQ(format_duration(seconds), want) << seconds;
    EXPECT_EQ(format_duration(-5), "0s");
}

TEST(RuntimeFormat, StatusRow) {
    nlohmann::json rec = {{"name", "hello"},
                          {"version", "1.0.0"},
                          {"source", "."},
                          {"status", "running"},
                          {"build", "0123456789abcdef"},
                          {"updated", 1000000},
                          {"metadata", {{"owner", "admin"}, {"group", "go.core.api"}}}};
    auto row = status_row(rec, 1000000 + 4532 * 1000);
    ASSERT_EQ(row.size(), 7u);
    EXPECT_EQ(row[0], "hello");
    EXPECT_EQ(row[4], "0123456");
    EXPECT_EQ(row[5], "1h15m32s ago");
    EXPECT_EQ(row[6], "owner=admin, group=go.core.api");
    rec["version"] = "";
    rec["build"] = "";
    rec["status"] = "error";
    rec["metadata"]["error"] = "build failed: x.cpp:1: error: boom";
    rec.erase("updated");
    row = status_row(rec, 0);
    EXPECT_EQ(row[1], "n/a");
    EXPECT_EQ(row[4], "n/a");
    EXPECT_EQ(row[5], "unknown");
    EXPECT_EQ(row[6], "owner=admin, group=go.core.api, error=build failed: x.cpp:1: error: boom");
}

TEST(FirstError, TheFirstLineNamingAnErrorElseTheFirstLine) {
    EXPECT_EQ(first_error("build failed: cmake --build exited 1\n"
                          "[1/2] Building CXX object hello.cpp.o\n"
                          "  /src/hello.cpp:12:5: error: 'undeclared_thing' was not declared\n"
                          "/src/hello.cpp:14:1: error: expected ';'\n"),
              "/src/hello.cpp:12:5: error: 'undeclared_thing' was not declared");
    EXPECT_EQ(first_error("\n\n  git clone file:///r/nosuch failed (exit 128)  \nfatal: no repo"),
              "git clone file:///r/nosuch failed (exit 128)");
    EXPECT_EQ(first_error("CMake Error: The source directory does not exist"),
              "CMake Error: The source directory does not exist");
    EXPECT_EQ(first_error(""), "");
    EXPECT_EQ(first_error("x: error: " + std::string(400, 'y')).size(), 300u);
}
