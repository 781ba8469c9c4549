#include "catalogue_test.hpp"

namespace platform::test {

HttpResult CatalogueTest::post(const std::string& method, const nlohmann::json& body,
                               const std::string& who) {
    return api.post_json("/api/v1/" + service_ + "/" + method, body, as(who));
}

HttpResult CatalogueTest::get(const std::string& method_and_query, const std::string& who) {
    return api.get("/api/v1/" + service_ + "/" + method_and_query, as(who));
}

nlohmann::json CatalogueTest::ok(const std::string& method, const nlohmann::json& body,
                                 const std::string& who) {
    return data_of(post(method, body, who));
}

void CatalogueTest::tick(int64_t ms) {
    ASSERT_EQ(api.post_json("/clock/advance", {{"ms", ms}}).status, 200);
}

}  // namespace platform::test
