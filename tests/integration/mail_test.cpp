// The mail service (plugins/mail/) through the real host on the `test` profile (auth-noop: the
// bearer token is the account): a letter between two accounts over /api/v1, plus tags filtering
// the inbox, a 5000-character body read in three pages, markread, and mail to an outside address
// refused while the instance has no mail domain.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "http_client.hpp"
#include "shared_host_test.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

class Mail : public SharedHostTest {
protected:
    static void SetUpTestSuite() { start_host(); }

    json ok(const HttpResult& r) {
        EXPECT_EQ(r.status, 200) << r.body;
        return r.status == 200 ? r.json()["data"] : json();
    }
    HttpResult post(const std::string& who, const std::string& method, const json& args) {
        return api.post_json("/api/v1/mail/" + method, args, as(who));
    }
    HttpResult get(const std::string& who, const std::string& target) {
        return api.get("/api/v1/mail/" + target, as(who));
    }
    std::vector<std::string> subjects(const json& answer) {
        std::vector<std::string> out;
        for (const auto& m : answer.at("messages")) out.push_back(m.at("subject"));
        return out;
    }
};

TEST_F(Mail, LettersBetweenTwoAccountsWithTagsAndPagedBodies) {
    const json copy = ok(
        post("mail-ann", "send", {{"to", "mail-bob"}, {"subject", "Hello"}, {"body", "Hi Bob"}}));
    ASSERT_TRUE(copy.contains("id")) << copy;
    ok(post("mail-ann", "send",
            {{"to", "mail-bob+travel"}, {"subject", "Tickets"}, {"body", "Gate 4"}}));
    std::string body;
    for (int i = 0; i < 1000; ++i)
        body +=
            "ab\xC3\xA9"
            "cd";  // 5000 characters
    ok(post("mail-ann", "send",
            {{"to", "mail-bob+travel"}, {"subject", "Itinerary"}, {"body", body}}));

    const json inbox = ok(get("mail-bob", "inbox"));
    EXPECT_EQ(subjects(inbox), (std::vector<std::string>{"Itinerary", "Tickets", "Hello"}));
    EXPECT_EQ(inbox.at("messages")[2].at("from"), "mail-ann");
    EXPECT_EQ(inbox.at("messages")[2].at("read"), false);
    const json travel = ok(get("mail-bob", "inbox?tag=travel"));
    EXPECT_EQ(subjects(travel), (std::vector<std::string>{"Itinerary", "Tickets"}));
    EXPECT_EQ(travel.at("messages")[0].at("tag"), "travel");
    EXPECT_EQ(ok(get("mail-ann", "inbox")).at("messages"), json::array());

    const std::string id = travel.at("messages")[0].at("id");
    std::string joined;
    std::vector<int64_t> next;
    for (int64_t offset = 0, pages = 0; pages < 4; ++pages) {
        const json page =
            ok(get("mail-bob", "read?id=" + id + "&offset=" + std::to_string(offset)));
        joined += page.at("body").get<std::string>();
        if (!page.contains("next_offset")) break;
        offset = page.at("next_offset");
        next.push_back(offset);
    }
    EXPECT_EQ(next, (std::vector<int64_t>{2000, 4000}));  // three pages, the last without one
    EXPECT_EQ(joined, body);
    EXPECT_EQ(get("mail-ann", "read?id=" + id).status, 404);

    const json marked = ok(post("mail-bob", "markread", {{"ids", {id}}}));
    EXPECT_EQ(marked.at("marked"), 1);
    const json summary = ok(get("mail-bob", "read"));
    EXPECT_EQ(summary.at("total"), 3);
    EXPECT_EQ(summary.at("unread"), 2);
    EXPECT_EQ(subjects(ok(post("mail-bob", "search", {{"query", "GATE"}}))),
              (std::vector<std::string>{"Tickets"}));

    const json sources = ok(get("mail-ann", "sources"));
    EXPECT_EQ(sources.at("total"), 3);
    EXPECT_EQ(ok(get("mail-ann", "source?id=" + copy.at("id").get<std::string>())).at("subject"),
              "Hello");
}

TEST_F(Mail, OutsideMailNeedsTheMailDomain) {
    const HttpResult r =
        post("mail-ann", "send", {{"to", "someone@example.net"}, {"subject", "Hi"}, {"body", "x"}});
    EXPECT_EQ(r.status, 503) << r.body;
    EXPECT_NE(r.body.find("PLATFORM_MAIL_DOMAIN"), std::string::npos) << r.body;
    const json info = ok(get("mail-ann", "info"));
    EXPECT_EQ(info.at("handle"), "mail-ann");
    EXPECT_EQ(info.at("address"), nullptr);
    EXPECT_EQ(info.at("outside_mail"), false);
    EXPECT_EQ(post("mail-ann", "send", {{"to", "mail-bob"}, {"subject", "x"}}).status, 400);
}

}  // namespace
