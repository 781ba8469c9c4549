#include "api_answers.hpp"

#include <gtest/gtest.h>

namespace platform::test {

nlohmann::json data_of(const HttpResult& r) {
    EXPECT_EQ(r.status, 200) << r.body;
    return r.status == 200 ? r.json()["data"] : nlohmann::json();
}

std::vector<std::string> listed(const HttpResult& r, const std::string& list,
                                const std::string& field) {
    std::vector<std::string> out;
    const nlohmann::json data = data_of(r);  // alive for the loop: it holds the items
    if (data.is_object())
        for (const auto& item : data.value(list, nlohmann::json::array()))
            out.push_back(item.at(field).get<std::string>());
    return out;
}

void expect_400(const HttpResult& r, const std::string& text) {
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_NE(r.body.find(text), std::string::npos) << r.body;
}

}  // namespace platform::test
