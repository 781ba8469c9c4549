// The ABI failure modes of tests/abi/ against the real host: broken plugins are refused with one
// clear log line each, the host keeps serving notes, a throwing handler is a 500, a handler that
// never answers is a 504 followed by on_cancel, and a slow plugin does not stall other calls.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <future>

#include "build_tree.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "shared_host_test.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

class AbiLoading : public SharedHostTest {
protected:
    static void SetUpTestSuite() {
        const std::string broken = suite_dir();
        namespace fs = std::filesystem;
        fs::copy_file(platform::test::plugin_dir() + "/notes.so", broken + "/truncated.so");
        fs::resize_file(broken + "/truncated.so", 2048);  // headers intact, segments cut
        std::ofstream(broken + "/garbage.so") << std::string(200, '#') << " not a shared object\n";
        HostProcess::Options o;
        o.env["PLATFORM_PLUGIN_PATH"] = platform::test::test_plugin_dir() + "/abi:" + broken;
        start_host(o);
    }
    json rpc(const std::string& service, const std::string& method,
             const json& req = json::object(), int* status = nullptr,
             std::map<std::string, std::string> headers = {}) {
        HttpClient c("127.0.0.1", host->proxy_port());
        auto r = c.post_json("/rpc", {{"service", service}, {"method", method}, {"request", req}},
                             headers);
        if (status) *status = r.status;
        return r.json();
    }
    static std::string refusal(const std::string& file) {
        std::string log = host->log();
        auto at = log.find("plugins/abi/" + file + " refused: ");
        if (at == std::string::npos) at = log.find("/" + file + " refused: ");
        if (at == std::string::npos) return "";
        return log.substr(at, log.find('\n', at) - at);
    }
};

TEST_F(AbiLoading, BrokenPluginsAreRefusedWithOneClearLine) {
    const std::pair<const char*, const char*> cases[] = {
        {"abi-newer-minor.so", "newer than this host's"},
        {"abi-wrong-major.so", "majors must match"},
        {"abi-missing-entry.so", "missing entry symbol platform_plugin_entry"},
        {"abi-null-descriptor.so", "null-descriptor plugin refuses to load"},
        {"abi-bad-schema.so", "invalid schema"},
        {"truncated.so", "truncated ELF file"},
        {"garbage.so", "not an ELF file"},
    };
    for (const auto& [file, reason] : cases) {
        std::string line = refusal(file);
        EXPECT_NE(line.find(reason), std::string::npos) << file << ": '" << line << "'\n"
                                                        << host->log();
    }
}

TEST_F(AbiLoading, OlderMinorLoadsAndNotesStillServe) {
    int status = 0;
    auto pong = rpc("abi.older", "Older.Ping", json::object(), &status);
    EXPECT_EQ(status, 200);
    EXPECT_EQ(pong, json({{"pong", true}}));
    HttpClient c("127.0.0.1", host->api_port());
    EXPECT_EQ(c.post_json("/api/v1/notes/add", {{"title", "t"}, {"text", "x"}},
                          {{"Authorization", "Bearer a"}})
                  .status,
              200);
}

TEST_F(AbiLoading, ThrowingHandlersAre500AndTheHostLives) {
    int status = 0;
    auto boom = rpc("abi.throwing", "Throwing.Std", json::object(), &status);
    EXPECT_EQ(status, 500);
    EXPECT_EQ(boom["Detail"], "boom");
    rpc("abi.throwing", "Throwing.Other", json::object(), &status);
    EXPECT_EQ(status, 500);
    auto typed = rpc("abi.throwing", "Throwing.Typed", json::object(), &status);
    EXPECT_EQ(status, 409);
    EXPECT_EQ(typed["Detail"], "typed conflict");
    HttpClient c("127.0.0.1", host->api_port());
    EXPECT_EQ(c.get("/").status, 200);
}

TEST_F(AbiLoading, AHandlerThatNeverAnswersIs504AndIsCancelled) {
    int status = 0;
    auto r = rpc("abi.silent", "Silent.Wait", json::object(), &status, {{"Timeout", "1"}});
    EXPECT_EQ(status, 504);
    EXPECT_NE(r["Detail"].get<std::string>().find("did not answer within 1000 ms"),
              std::string::npos);
    EXPECT_TRUE(host->wait_for_log("[abi-never-responds] cancelled")) << host->log();
    auto count = rpc("abi.silent", "Silent.Cancelled", json::object(), &status);
    EXPECT_EQ(status, 200);
    EXPECT_GE(count["count"].get<int>(), 1);
}

TEST_F(AbiLoading, ASlowPluginDoesNotStallOtherCalls) {
    auto slow = std::async(std::launch::async, [&] {
        int status = 0;
        rpc("abi.slow", "Slow.Sleep", {{"ms", 2000}}, &status);
        return status;
    });
    ASSERT_TRUE(host->wait_for_log("[abi-slow] sleeping")) << host->log();
    // While the slow call sleeps on a worker, other calls are answered.
    for (int i = 0; i < 5; ++i) {
        int status = 0;
        rpc("abi.older", "Older.Ping", json::object(), &status);
        EXPECT_EQ(status, 200);
    }
    EXPECT_EQ(slow.wait_for(std::chrono::seconds(0)), std::future_status::timeout);
    EXPECT_EQ(slow.get(), 200);
    int status = 0;
    rpc("abi.slow", "Slow.Sleep", {{"ms", 5000}}, &status, {{"Timeout", "1"}});
    EXPECT_EQ(status, 504);
    rpc("abi.slow", "Slow.Sleep", {{"ms", 60001}}, &status);
    EXPECT_EQ(status, 400);
}

}  // namespace
