// OperatorConsole (host operator_console.hpp): notices held until the server listens, boxed, once;
// the operator credential file and token.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <platform/host/core/operator_console.hpp>
#include <sstream>

using platform::host::operator_box;
using platform::host::OperatorConsole;

namespace {

// What the console wrote to its temporary file so far.
std::string written(std::FILE* f) {
    std::fflush(f);
    std::rewind(f);
    std::string out(1 << 16, '\0');
    out.resize(std::fread(out.data(), 1, out.size(), f));
    std::fseek(f, 0, SEEK_END);
    return out;
}

TEST(OperatorBox, EveryLineIsPaddedToTheWidestBetweenRules) {
    EXPECT_EQ(operator_box("auth-local", "created admin\n\n    s3cret\nbye"),
              "\n"
              "+---------------------------+\n"
              "| auth-local: created admin |\n"
              "|                           |\n"
              "|     s3cret                |\n"
              "| bye                       |\n"
              "+---------------------------+\n"
              "\n");
}

TEST(OperatorConsole, NoticesWaitForTheListeningLineThenPrintOnceAndAtOnceAfter) {
    std::FILE* f = std::tmpfile();
    ASSERT_NE(f, nullptr);
    OperatorConsole console(f);
    console.notice("a", "first");
    console.notice("b", "second");
    EXPECT_EQ(written(f), "");
    console.open();
    const std::string opened = written(f);
    EXPECT_LT(opened.find("| a: first"), opened.find("| b: second")) << opened;
    console.open();  // held notices are gone once printed
    EXPECT_EQ(written(f), opened);
    console.notice("c", "later");
    EXPECT_NE(written(f).find("| c: later |"), std::string::npos);
    std::fclose(f);
}

TEST(OperatorConsole, TheCredentialIsPrivateFreshEachTimeAndRemovedAtStop) {
    const auto home =
        std::filesystem::temp_directory_path() / ("operator-console-" + std::to_string(::getpid()));
    std::filesystem::remove_all(home);
    OperatorConsole console;
    EXPECT_FALSE(console.is_operator(""));
    ASSERT_EQ(console.write_credential(home.string(), "127.0.0.1:1", "127.0.0.1:2"), "");
    const std::string path = (home / "keys" / "operator.json").string();
    struct stat st {};
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    ASSERT_EQ(::stat((home / "keys").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0700u);
    std::ifstream in(path);
    const auto j = nlohmann::json::parse(in);
    const std::string token = j["token"];
    EXPECT_EQ(token.size(), 43u);
    EXPECT_EQ(j["proxy"], "127.0.0.1:2");
    EXPECT_EQ(j["api"], "127.0.0.1:1");
    EXPECT_TRUE(console.is_operator(token));
    EXPECT_FALSE(console.is_operator(token.substr(1)));
    EXPECT_FALSE(console.is_operator(std::string(43, 'A')));

    OperatorConsole next;  // a second start: another token
    ASSERT_EQ(next.write_credential(home.string(), "a", "b"), "");
    std::ifstream again(path);
    EXPECT_NE(nlohmann::json::parse(again)["token"], token);
    console.remove_credential();  // not ours any more: left alone
    EXPECT_TRUE(std::filesystem::exists(path));
    EXPECT_FALSE(console.is_operator(token));
    next.remove_credential();
    EXPECT_FALSE(std::filesystem::exists(path));
    std::filesystem::remove_all(home);
}

}  // namespace
