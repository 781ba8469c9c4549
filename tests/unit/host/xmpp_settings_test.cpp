// The profile's `xmpp:` section (Profile::xmpp) and the environment over it
// (effective_xmpp_settings): defaults, every key, errors naming file:line: xmpp.<key> or the
// variable.
#include <gtest/gtest.h>

#include <cstdlib>
#include <platform/host/xmpp/chat_bridge.hpp>
#include <string>

#include "../support/profile_section_test.hpp"

namespace {

using platform::host::effective_xmpp_settings;
using platform::host::XmppSettings;

class XmppProfile : public plugin_test::ProfileSectionTest {
protected:
    void SetUp() override {
        for (const char* v : {"PLATFORM_XMPP_DOMAIN", "PLATFORM_XMPP_COMPONENT_PORT",
                              "PLATFORM_XMPP_COMPONENT_SECRET"})
            unsetenv(v);
    }
    void TearDown() override { SetUp(); }
};

TEST_F(XmppProfile, DefaultsWithoutTheSection) {
    ASSERT_EQ(error_of(""), "");
    EXPECT_EQ(profile_.xmpp.domain, "localhost");
    EXPECT_EQ(profile_.xmpp.server, "127.0.0.1:5347");
    EXPECT_EQ(profile_.xmpp.secret, "");
    EXPECT_EQ(profile_.xmpp.prosody, "scripts");
}

TEST_F(XmppProfile, EveryKey) {
    setenv("XMPP_PROFILE_TEST_SECRET", "s3cret-from-env", 1);
    ASSERT_EQ(error_of("xmpp:\n"
                       "  domain: chat.example.org\n"
                       "  server: \"10.0.0.5:5348\"\n"
                       "  secret: \"${XMPP_PROFILE_TEST_SECRET}\"\n"
                       "  prosody: operator\n"),
              "");
    EXPECT_EQ(profile_.xmpp.domain, "chat.example.org");
    EXPECT_EQ(profile_.xmpp.server, "10.0.0.5:5348");
    EXPECT_EQ(profile_.xmpp.secret, "s3cret-from-env");
    EXPECT_EQ(profile_.xmpp.prosody, "operator");
    unsetenv("XMPP_PROFILE_TEST_SECRET");
}

TEST_F(XmppProfile, ErrorsNameFileLineAndKey) {
    EXPECT_EQ(error_of("xmpp: 3\n"), file_ + ":6: xmpp: must be a mapping");
    EXPECT_EQ(error_of("xmpp:\n  colour: blue\n"),
              file_ + ":7: xmpp.colour: unknown key (expected domain, server, secret, prosody)");
    EXPECT_EQ(error_of("xmpp:\n  prosody: docker\n"),
              file_ + ":7: xmpp.prosody: must be scripts or operator");
}

TEST_F(XmppProfile, TheEnvironmentOverridesTheSection) {
    XmppSettings x;
    x.secret = "from-profile";
    setenv("PLATFORM_XMPP_DOMAIN", "chat.example.org", 1);
    setenv("PLATFORM_XMPP_COMPONENT_PORT", "15347", 1);
    setenv("PLATFORM_XMPP_COMPONENT_SECRET", "from-env", 1);
    const XmppSettings e = effective_xmpp_settings(x);
    EXPECT_EQ(e.domain, "chat.example.org");
    EXPECT_EQ(e.server, "127.0.0.1:15347");
    EXPECT_EQ(e.secret, "from-env");
}

TEST_F(XmppProfile, EffectiveSettingsRefuseWhatCannotWork) {
    XmppSettings x;
    auto problem = [](const XmppSettings& s) -> std::string {
        try {
            effective_xmpp_settings(s);
            return "";
        } catch (const std::exception& e) {
            return e.what();
        }
    };
    EXPECT_NE(problem(x).find("PLATFORM_XMPP_COMPONENT_SECRET"), std::string::npos) << problem(x);
    x.secret = "s";
    EXPECT_EQ(problem(x), "");
    x.domain = "Not A Domain";
    EXPECT_NE(problem(x).find("PLATFORM_XMPP_DOMAIN"), std::string::npos) << problem(x);
    x.domain = "localhost";
    x.server = "127.0.0.1:0";
    EXPECT_NE(problem(x).find("needs a port"), std::string::npos) << problem(x);
    x.server = "127.0.0.1:http";
    EXPECT_NE(problem(x).find("port must be a number"), std::string::npos) << problem(x);
}

}  // namespace
