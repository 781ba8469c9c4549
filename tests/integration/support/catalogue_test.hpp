// A gtest suite against one catalogue service on a host shared by the suite, started on the
// `test` profile (everything in memory, manual clock; the bearer token's text is the account id):
//
//   class DocsApi : public platform::test::CatalogueTest {
//   protected:
//       DocsApi() : CatalogueTest("docs") {}
//   };
//   TEST_F(DocsApi, Writes) { EXPECT_EQ(post("write", {...}, "alice").status, 200); }
//   TEST_F(DocsApi, Lists) { EXPECT_EQ(listed(get("list", "alice"), "documents", "title"), ...); }
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "api_answers.hpp"
#include "shared_host_test.hpp"

namespace platform::test {

class CatalogueTest : public SharedHostTest {
protected:
    explicit CatalogueTest(std::string service) : service_(std::move(service)) {}

    // POST /api/v1/<service>/<method> with a JSON body, as `who`.
    HttpResult post(const std::string& method, const nlohmann::json& body, const std::string& who);
    // GET /api/v1/<service>/<method_and_query>, as `who`.
    HttpResult get(const std::string& method_and_query, const std::string& who);
    // POST that must answer 200: its data (null, and a test failure, otherwise).
    nlohmann::json ok(const std::string& method, const nlohmann::json& body,
                      const std::string& who);
    // Moves the business clock on (clock/advance).
    void tick(int64_t ms = 1000);

private:
    std::string service_;
};

}  // namespace platform::test
