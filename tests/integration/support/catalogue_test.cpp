#include "catalogue_test.hpp"

namespace platform::test {

HostProcess* CatalogueTest::host = nullptr;

void CatalogueTest::SetUpTestSuite() {
    host = new HostProcess();
    host->start();
}

void CatalogueTest::TearDownTestSuite() {
    EXPECT_EQ(host->stop(), 0) << host->log();
    delete host;
    host = nullptr;
}

std::map<std::string, std::string> CatalogueTest::as(const std::string& account) {
    return {{"Authorization", "Bearer " + account}};
}

HttpResult CatalogueTest::post(const std::string& method, const nlohmann::json& body,
                               const std::string& who) {
    return api.post_json("/api/v1/" + service_ + "/" + method, body, as(who));
}

HttpResult CatalogueTest::get(const std::string& method_and_query, const std::string& who) {
    return api.get("/api/v1/" + service_ + "/" + method_and_query, as(who));
}

void CatalogueTest::tick(int64_t ms) {
    ASSERT_EQ(api.post_json("/clock/advance", {{"ms", ms}}).status, 200);
}

void CatalogueTest::expect_400(const HttpResult& r, const std::string& text) {
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_NE(r.body.find(text), std::string::npos) << r.body;
}

}  // namespace platform::test
