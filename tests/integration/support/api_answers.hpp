// api_answers.hpp — checks on the answers of /api/v1 calls ({"data": ...} on success), shared by
// the suites that call the catalogue services:
//
//   json doc = data_of(api.post_json("/api/v1/docs/write", body, bearer("alice")));
//   EXPECT_EQ(listed(api.get("/api/v1/docs/list", bearer("alice")), "documents", "title"),
//             (std::vector<std::string>{"Plan"}));
//
// A check that fails reports through gtest and answers an empty value, so a test goes on and
// fails once; nothing here throws on a failed call.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "http_client.hpp"

namespace platform::test {

// The `data` of an answer that must be 200; null (and a test failure with the body) otherwise.
nlohmann::json data_of(const HttpResult& r);

// The string `field` of every element of data[`list`] in an answer that must be 200.
std::vector<std::string> listed(const HttpResult& r, const std::string& list,
                                const std::string& field);

// A 400 whose body mentions `text` (the argument it names, or the rule).
void expect_400(const HttpResult& r, const std::string& text);

}  // namespace platform::test
