// shared_host_test.hpp — a gtest suite whose tests share one `platform server`, started before the
// suite's first test and stopped after its last (the `test` profile unless the suite says):
//
//   class Gateway : public platform::test::SharedHostTest {};
//   TEST_F(Gateway, RootAnswers) { EXPECT_EQ(api.get("/").status, 200); }
//
//   class Timeouts : public platform::test::SharedHostTest {
//   protected:
//       static void SetUpTestSuite() {
//           HostProcess::Options o;
//           o.profile = suite_dir() + "/timeouts.yaml";  // written here first
//           start_host(o);
//       }
//   };
//
// gtest runs the suites of an executable one after another, so the one `host` serves each in turn.
// Everything here runs on the test's main thread.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "host_process.hpp"
#include "http_client.hpp"

namespace platform::test {

class SharedHostTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() { start_host(); }
    static void TearDownTestSuite() { stop_host(); }

    // Starts the suite's host with `options` and waits for its listening line (throws with the
    // log when it does not come).
    static void start_host(HostProcess::Options options = {});
    // Stops the host; with `expect_clean`, a test failure (with the log) unless it exits 0. Removes
    // suite_dir.
    static void stop_host(bool expect_clean = true);
    // A temporary directory for what the suite writes before starting its host (profiles,
    // certificates, plugins); it lives until stop_host.
    static const std::string& suite_dir();

    // Headers that make the call as `account` (test profile: Bearer <account>).
    static Headers as(const std::string& account) { return bearer(account); }

    static HostProcess* host;
    HttpClient api{"127.0.0.1", host->api_port()};
    HttpClient proxy{"127.0.0.1", host->proxy_port()};

private:
    static TempDir* dir_;
};

}  // namespace platform::test
