// A gtest suite against one catalogue service on a host shared by the suite, started on the
// `test` profile (everything in memory, manual clock; the bearer token's text is the account id):
//
//   class DocsApi : public platform::test::CatalogueTest {
//   protected:
//       DocsApi() : CatalogueTest("docs") {}
//   };
//   TEST_F(DocsApi, Writes) { EXPECT_EQ(post("write", {...}, "alice").status, 200); }
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "host_process.hpp"
#include "http_client.hpp"

namespace platform::test {

class CatalogueTest : public ::testing::Test {
protected:
    explicit CatalogueTest(std::string service) : service_(std::move(service)) {}

    static void SetUpTestSuite();
    static void TearDownTestSuite();  // expects the host to exit 0

    // Headers that make the call as `account` (test profile: Bearer <account>).
    static std::map<std::string, std::string> as(const std::string& account);
    // POST /api/v1/<service>/<method> with a JSON body, as `who`.
    HttpResult post(const std::string& method, const nlohmann::json& body, const std::string& who);
    // GET /api/v1/<service>/<method_and_query>, as `who`.
    HttpResult get(const std::string& method_and_query, const std::string& who);
    // Moves the business clock on (clock/advance).
    void tick(int64_t ms = 1000);
    // A 400 whose body mentions `text` (the argument it names, or the rule).
    static void expect_400(const HttpResult& r, const std::string& text);

    static HostProcess* host;
    HttpClient api{"127.0.0.1", host->api_port()};

private:
    std::string service_;
};

}  // namespace platform::test
