// The SMTP listener's internal endpoints (plugins/mail/inbound.cpp) refuse every caller but the
// host's own service identity, and `attachment` finds nothing that was not delivered; the
// delivery itself runs end to end in tests/integration/smtp_test.cpp.
#include <string>

#include "../support/plugin_under_test.hpp"

namespace {

using namespace plugin_test;

TEST(MailInbound, OnlyTheHostMayDeliverOrAskAboutRecipients) {
    FakeHost host;
    host.platform_facts["mail_domain"] = "example.org";
    FakePlugin mail = host.load(platform_plugin_entry);
    const json deliver = {{"mail_from", "a@example.net"},
                          {"rcpt_to", {"bob@example.org"}},
                          {"message_base64", "U3ViamVjdDogeA0KDQpoaQ0K"}};
    for (const std::string who : {"bob", "go.core.api.v1.chat", "go.core.api.host"}) {
        EXPECT_EQ(mail.call("deliver", deliver, who).code, PLATFORM_PERMISSION_DENIED) << who;
        EXPECT_EQ(mail.call("recipient", {{"address", "bob@example.org"}}, who).code,
                  PLATFORM_PERMISSION_DENIED)
            << who;  // the fake host gives no scopes: not even "<ns>.host" is the host then
    }
    EXPECT_EQ(mail.call("deliver", {{"rcpt_to", json::array()}}, "bob").code,
              PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(ok_json(mail.call("inbox", json::object(), "bob")).at("total"), 0);
    EXPECT_EQ(mail.call("attachment", {{"id", "m1"}, {"n", 1}}, "bob").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(mail.call("attachment", {{"id", "m1"}, {"n", 0}}, "bob").code,
              PLATFORM_INVALID_ARGUMENT);
}

}  // namespace
