// The fake host's model and tools (ABI 1.5, platform/testing/fake_host.hpp) through the test-only
// modelprobe plugin: scripted answers in order with the requests recorded, UNAVAILABLE once they
// run out, failures passed through, and call_tools lending the array a test sets.
#include <gtest/gtest.h>

#include "../support/plugin_under_test.hpp"

using namespace plugin_test;

namespace {

json ask(const std::string& text) {
    return {{"request", {{"messages", {{{"role", "user"}, {"content", text}}}}}}};
}

}  // namespace

TEST(FakeHostModel, AnswersInOrderAndRecordsTheRequests) {
    FakeHost host;
    auto probe = host.load(platform_plugin_entry);
    host.push_model_answer({{"text", "one"}, {"stop", "end"}});
    host.push_model_failure(PLATFORM_BAD_GATEWAY, "upstream answered 500");
    auto first = probe.call("complete", ask("a"), "ann");
    ASSERT_EQ(first.code, PLATFORM_OK) << first.body;
    EXPECT_EQ(first.json()["text"], "one");
    auto second = probe.call("complete", ask("b"), "ann");
    EXPECT_EQ(second.code, PLATFORM_BAD_GATEWAY);
    EXPECT_NE(second.body.find("upstream answered 500"), std::string::npos) << second.body;
    auto third = probe.call("complete", ask("c"), "ann");
    EXPECT_EQ(third.code, PLATFORM_UNAVAILABLE) << third.body;
    ASSERT_EQ(host.model_requests.size(), 3u);
    EXPECT_EQ(host.model_requests[0]["messages"][0]["content"], "a");
    EXPECT_EQ(host.model_requests[2]["messages"][0]["content"], "c");
}

TEST(FakeHostModel, ToolsAreWhatTheTestSets) {
    FakeHost host;
    auto probe = host.load(platform_plugin_entry);
    auto none = probe.call("tools", json::object(), "ann");
    ASSERT_EQ(none.code, PLATFORM_OK) << none.body;
    EXPECT_EQ(none.json()["tools"], json::array());
    host.tools =
        json::array({{{"name", "notes_add"}, {"service", "v1.notes"}, {"method", "Notes.Add"}}});
    auto some = probe.call("tools", json::object(), "ann");
    ASSERT_EQ(some.code, PLATFORM_OK) << some.body;
    EXPECT_EQ(some.json()["tools"][0]["method"], "Notes.Add");
}
