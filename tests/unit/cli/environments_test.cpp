// environments.hpp: the built-ins, which one is selected (-e > PLATFORM_ENV > config.json >
// local), add/set/del rules, and config.json's mode.
#include "environments.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>

#include "dynamic.hpp"
#include "state_files.hpp"

using namespace platform::cli;

namespace {

class Environments : public ::testing::Test {
protected:
    void SetUp() override {
        home_ =
            std::filesystem::temp_directory_path() / ("cli-env-test-" + std::to_string(::getpid()));
        std::filesystem::remove_all(home_);
        setenv("PLATFORM_HOME", home_.c_str(), 1);
        unsetenv("PLATFORM_ENV");
        unsetenv("PLATFORM_PROXY");
        set_environment_flag("");
    }
    void TearDown() override { std::filesystem::remove_all(home_); }
    std::filesystem::path home_;
};

TEST_F(Environments, ThreeBuiltInsAndLocalSelected) {
    auto all = environments();
    ASSERT_EQ(all.size(), 3u);
    EXPECT_EQ(all[0].name, "cluster");
    EXPECT_EQ(all[1].name, "dev");
    EXPECT_EQ(all[2].name, "local");
    EXPECT_EQ(all[2].address, "127.0.0.1:8081");
    EXPECT_EQ(selected_environment(), "local");
    EXPECT_EQ(selected_address(), "127.0.0.1:8081");
}

TEST_F(Environments, SelectionOrder) {
    add_environment("staging", "10.0.0.5:8081", "");
    select_environment("staging");
    EXPECT_EQ(selected_environment(), "staging");
    EXPECT_EQ(selected_address(), "10.0.0.5:8081");
    setenv("PLATFORM_ENV", "dev", 1);
    EXPECT_EQ(selected_address(), "127.0.0.1:18081");
    set_environment_flag("local");
    EXPECT_EQ(selected_address(), "127.0.0.1:8081");
    setenv("PLATFORM_PROXY", "127.0.0.1:9", 1);
    EXPECT_EQ(selected_address(), "127.0.0.1:9");
    for (const char* url :
         {"http://127.0.0.1:9", "http://127.0.0.1:9/", "http://127.0.0.1:9/rpc"}) {
        setenv("PLATFORM_PROXY", url, 1);
        EXPECT_EQ(selected_address(), "127.0.0.1:9") << url;
    }
    for (const char* bad : {"https://127.0.0.1:9", "127.0.0.1", "http://:9", "localhost:99999"}) {
        setenv("PLATFORM_PROXY", bad, 1);
        try {
            selected_address();
            ADD_FAILURE() << bad << " accepted";
        } catch (const UsageError& e) {
            EXPECT_NE(std::string(e.what()).find("PLATFORM_PROXY: '" + std::string(bad) + "'"),
                      std::string::npos)
                << e.what();
        }
    }
    unsetenv("PLATFORM_PROXY");
    set_environment_flag("nowhere");
    EXPECT_THROW(selected_address(), UsageError);
}

TEST_F(Environments, AddSetDelRules) {
    EXPECT_THROW(add_environment("x", "nohost", ""), EnvError);
    EXPECT_THROW(add_environment("x", "h:70000", ""), EnvError);
    EXPECT_THROW(add_environment("bad name", "h:1", ""), EnvError);
    EXPECT_THROW(add_environment("local", "h:1", ""), EnvError);
    add_environment("v6", "[::1]:8081", "loopback");
    EXPECT_EQ(find_environment("v6")->description, "loopback");
    try {
        select_environment("nope");
        FAIL();
    } catch (const EnvError& e) {
        EXPECT_EQ(e.message, "Environment 'nope' does not exist");
        EXPECT_EQ(e.code, 5);
    }
    select_environment("v6");
    EXPECT_THROW(delete_environment("v6"), EnvError);   // the current one
    EXPECT_THROW(delete_environment("dev"), EnvError);  // built in
    select_environment("local");
    delete_environment("v6");
    EXPECT_FALSE(find_environment("v6"));
    struct stat st {};
    ASSERT_EQ(stat(config_path().c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
}

}  // namespace
