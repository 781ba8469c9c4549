// plugin_under_test.hpp — what the unit tests of one plugin share: the entry point of the plugin
// whose objects are linked into the test executable, and the checks on the replies of calls made
// through the SDK's fake host (platform/testing/fake_host.hpp).
//
//   using namespace plugin_test;
//   FakeHost host;
//   FakePlugin docs = host.load(platform_plugin_entry);
//   json doc = ok_json(docs.call("write", {{"title", "a"}}, "alice"));  // a failure if not OK
//   EXPECT_EQ(listed(docs.call("list", {}, "alice"), "documents", "title"), {"a"});
//
// Header-only (included by a relative path). The checks report through gtest and never throw on a
// failed call: a test goes on with an empty answer and fails once.
#pragma once

#include <gtest/gtest.h>

#include <platform/testing/fake_host.hpp>
#include <string>
#include <utility>
#include <vector>

#include "entry_args.hpp"

// The entry point of the plugin under test (its objects are linked into the executable).
extern "C" const platform_plugin_desc_t* platform_plugin_entry(const platform_entry_args_t*);

namespace plugin_test {

using nlohmann::json;
using platform::testing::FakeHost;
using platform::testing::FakePlugin;
using platform::testing::Reply;

// The parsed body of a reply that must be PLATFORM_OK; a test failure naming `what` (the call)
// and null otherwise.
inline json ok_json(const Reply& r, const std::string& what = "") {
    EXPECT_EQ(r.code, PLATFORM_OK) << what << (what.empty() ? "" : ": ") << r.body;
    return r.code == PLATFORM_OK ? r.json() : json();
}

// The string `field` of every element of the array `list` in a reply that must be PLATFORM_OK
// (empty, and a test failure, otherwise).
inline std::vector<std::string> listed(const Reply& r, const std::string& list,
                                       const std::string& field) {
    std::vector<std::string> out;
    const json body = ok_json(r);  // alive through the loop: at() returns references into it
    if (r.code != PLATFORM_OK) return out;
    for (const auto& item : body.at(list)) out.push_back(item.at(field).get<std::string>());
    return out;
}

// A reply as another service gives it through the fake host's on_call hook.
inline Reply reply(platform_status_t code, std::string body) {
    Reply r;
    r.code = code;
    r.body = std::move(body);
    return r;
}

}  // namespace plugin_test
