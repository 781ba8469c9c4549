// The mail settings (settings.hpp): PLATFORM_MAIL_DOMAIN, PLATFORM_SMTP_RELAY and
// PLATFORM_SMTP_ADDRESS read and checked by Settings::from_environment, and the relay as plugins
// are told it (without its credentials).
#include <gtest/gtest.h>

#include <cstdlib>
#include <platform/host/core/settings.hpp>
#include <stdexcept>
#include <string>

namespace {

using namespace platform::host;

class MailSettings : public ::testing::Test {
protected:
    void SetUp() override {
        unsetenv("PLATFORM_MAIL_DOMAIN");
        unsetenv("PLATFORM_SMTP_RELAY");
        unsetenv("PLATFORM_SMTP_ADDRESS");
    }
    void TearDown() override { SetUp(); }
    // The message from_environment stops with, or "" when it does not.
    static std::string refusal() {
        try {
            Settings::from_environment();
        } catch (const std::invalid_argument& e) {
            return e.what();
        }
        return "";
    }
};

TEST_F(MailSettings, DefaultsAreEmptyAndTheDomainIsKeptInLowerCase) {
    Settings s = Settings::from_environment();
    EXPECT_EQ(s.mail_domain, "");
    EXPECT_EQ(s.smtp_relay, "");
    EXPECT_EQ(s.smtp_address, ":2525");
    setenv("PLATFORM_SMTP_ADDRESS", "127.0.0.1:0", 1);
    EXPECT_EQ(Settings::from_environment().smtp_address, "127.0.0.1:0");
    setenv("PLATFORM_MAIL_DOMAIN", "Mail.Example.ORG", 1);
    setenv("PLATFORM_SMTP_RELAY", "smtps://ann:s3cret@smtp.example.org:465", 1);
    s = Settings::from_environment();
    EXPECT_EQ(s.mail_domain, "mail.example.org");
    EXPECT_EQ(s.smtp_relay, "smtps://ann:s3cret@smtp.example.org:465");
}

TEST_F(MailSettings, BadValuesStopTheServerNamingTheVariable) {
    for (const char* bad : {"-x.org", "a..b", "under_score.org", "sp ace.org"}) {
        setenv("PLATFORM_MAIL_DOMAIN", bad, 1);
        EXPECT_EQ(refusal().rfind("PLATFORM_MAIL_DOMAIN: ", 0), 0u) << bad << ": " << refusal();
    }
    unsetenv("PLATFORM_MAIL_DOMAIN");
    for (const char* bad : {"http://mx:25", "smtp://", "smtp://mx:0", "smtp://mx:99999",
                            "smtp://mx:25/path", "mx.example.org:25"}) {
        setenv("PLATFORM_SMTP_RELAY", bad, 1);
        EXPECT_EQ(refusal().rfind("PLATFORM_SMTP_RELAY: ", 0), 0u) << bad << ": " << refusal();
    }
    unsetenv("PLATFORM_SMTP_RELAY");
    for (const char* bad : {":smtp", "127.0.0.1:70000", "mx:"}) {
        setenv("PLATFORM_SMTP_ADDRESS", bad, 1);
        EXPECT_EQ(refusal().rfind("PLATFORM_SMTP_ADDRESS: ", 0), 0u) << bad << ": " << refusal();
    }
}

TEST_F(MailSettings, PluginsSeeTheRelayWithoutItsCredentials) {
    EXPECT_EQ(smtp_relay_without_credentials("smtps://ann:s3cret@smtp.example.org:465"),
              "smtps://smtp.example.org:465");
    EXPECT_EQ(smtp_relay_without_credentials("smtp://relay.local"), "smtp://relay.local");
    EXPECT_EQ(smtp_relay_without_credentials("SMTP://u:p@[::1]:2525"), "smtp://[::1]:2525");
    EXPECT_EQ(smtp_relay_without_credentials(""), "");
    EXPECT_EQ(smtp_relay_without_credentials("http://u:p@mx"), "");
    EXPECT_EQ(mail_domain_problem(""), std::nullopt);
    EXPECT_EQ(smtp_relay_problem(""), std::nullopt);
}

}  // namespace
