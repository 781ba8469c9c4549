// `platform ask` against a real server (test profile: the offline model-builtin answers, the agent
// calls notes as the caller). The conversation carries on with --continue / --thread.
#include <regex>

#include "catalogue_test.hpp"
#include "command.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

class CliAssistant : public platform::test::CatalogueTest {
protected:
    CliAssistant() : CatalogueTest("agent") {}
    CommandResult platform(std::vector<std::string> args, const std::string& token = "ann") {
        return run_cli(*host, home_.path(), token, std::move(args), {}, 120);
    }
    static std::string thread_of(const CommandResult& r) {
        std::smatch m;
        return std::regex_search(r.err, m, std::regex("thread (\\S+)")) ? m[1].str() : "";
    }
    TempDir home_;
};

TEST_F(CliAssistant, AskNotesAndContinuesTheConversation) {
    auto first = platform({"ask", "note that the boiler code is 4512"});
    ASSERT_EQ(first.code, 0) << first.err;
    const std::string thread = thread_of(first);
    ASSERT_FALSE(thread.empty()) << first.err;
    EXPECT_FALSE(first.out.empty());

    // The agent stored the note as ann, through the notes service.
    auto notes = api.get("/api/v1/notes/list", as("ann"));
    ASSERT_EQ(notes.status, 200) << notes.body;
    EXPECT_NE(notes.body.find("4512"), std::string::npos) << notes.body;

    auto second = platform({"ask", "--continue", "what are my notes"});
    ASSERT_EQ(second.code, 0) << second.err;
    EXPECT_NE(second.out.find("4512"), std::string::npos) << second.out;
    EXPECT_EQ(thread_of(second), thread);

    auto as_json = platform({"ask", "--json", "--thread", thread, "what are my notes"});
    ASSERT_EQ(as_json.code, 0) << as_json.err;
    json body = json::parse(as_json.out);
    EXPECT_EQ(body["thread"], thread);
    EXPECT_NE(body["text"].get<std::string>().find("4512"), std::string::npos) << body;
}

TEST_F(CliAssistant, BadUseExitsWithTheRightCode) {
    auto none = platform({"ask"});  // stdin is empty
    EXPECT_EQ(none.code, 2);
    EXPECT_NE(none.err.find("prompt"), std::string::npos) << none.err;
    auto both = platform({"ask", "--continue", "--thread", "x", "hi"});
    EXPECT_EQ(both.code, 2);
    auto nothing_yet = platform({"ask", "--continue", "hi"});
    EXPECT_EQ(nothing_yet.code, 2);
    EXPECT_NE(nothing_yet.err.find("no earlier conversation"), std::string::npos)
        << nothing_yet.err;
    auto unknown = platform({"ask", "--thread", "no-such-thread", "hi"});
    EXPECT_EQ(unknown.code, 5) << unknown.err;
    auto someone_elses = platform({"ask", "hello"}, "bob");
    ASSERT_EQ(someone_elses.code, 0) << someone_elses.err;
    EXPECT_EQ(platform({"ask", "--thread", thread_of(someone_elses), "hi"}).code,
              5);  // ann asks in bob's
    auto anonymous = platform({"ask", "hi"}, "");
    EXPECT_EQ(anonymous.code, 3) << anonymous.err;
    auto help = platform({"ask", "--help"});
    EXPECT_EQ(help.code, 0);
    EXPECT_NE(help.out.find("Usage: platform ask"), std::string::npos);
}

}  // namespace
