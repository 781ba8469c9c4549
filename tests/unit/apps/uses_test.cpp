// A priced app's charge per use (plugins/apps/uses.cpp) through the fake host with a fake billing
// service: the day and key of a use, the first opening of the day charged once and credited to the
// owner, the frame only with a use, 401 and 402, the owner and free apps never charged, a failed
// charge leaving no use, and everything free without a billing service.
#include "../../../plugins/apps/uses.hpp"

#include <gtest/gtest.h>

#include <map>
#include <mutex>

#include "../support/plugin_under_test.hpp"

namespace {

using namespace plugin_test;

TEST(AppsUses, DayIsTheUtcDateAndKeyEndsWithIt) {
    const int64_t midnight = 1767225600000;  // 2026-01-01T00:00:00Z
    EXPECT_EQ(apps_uses::use_day(midnight), "2026-01-01");
    EXPECT_EQ(apps_uses::use_day(midnight + 86400000 - 1), "2026-01-01");
    EXPECT_EQ(apps_uses::use_day(midnight + 86400000), "2026-01-02");
    EXPECT_EQ(apps_uses::use_day(midnight - 1), "2025-12-31");
    EXPECT_EQ(apps_uses::use_key("calc", "bob", "2026-01-02"), "uses/calc/bob/2026-01-02");
    EXPECT_GT(apps_uses::kUseTtlMs, 86400000);
}

class AppsUsesTest : public ::testing::Test {
protected:
    void SetUp() override {
        host.on_call = [this](const std::string& service, const std::string& method,
                              const json& req, const std::string&) {
            std::lock_guard<std::mutex> g(m);
            if (service != "billing") return reply(PLATFORM_NOT_FOUND, "");
            const std::string account = req.value("account", "");
            const int64_t amount = req.value("amount", int64_t{0});
            if (method == "charge" && failing) return reply(PLATFORM_UNAVAILABLE, "down");
            if (method == "charge") {
                credits[account] -= amount;
                charges.push_back(account + ":" + std::to_string(amount));
            } else if (method == "addCredit") {
                credits[account] += amount;
                added.push_back(account + ":" + std::to_string(amount));
            }
            return reply(PLATFORM_OK, json{{"enough", credits[account] >= amount},
                                           {"available", credits[account]}}
                                          .dump());
        };
        credits = {{"bob", 100}, {"alice", 0}};
        ok("create", {{"name", "Calc"}, {"html", "<p>1</p>"}, {"public", true}, {"price", 7}});
        ok("create", {{"name", "Free"}, {"html", "<p>2</p>"}, {"public", true}});
    }
    json ok(const std::string& method, const json& args, const std::string& who = "alice") {
        return ok_json(plugin.call(method, args, who), method);
    }
    Reply page(const std::string& who, const std::string& slug = "calc") {
        return plugin.call("page", {{"slug", slug}}, who);
    }
    Reply frame(const std::string& who, const std::string& slug = "calc") {
        return plugin.call("frame", {{"slug", slug}}, who);
    }

    FakeHost host;
    FakePlugin plugin = host.load(platform_plugin_entry);
    std::mutex m;
    std::map<std::string, int64_t> credits;
    std::vector<std::string> charges, added;
    bool failing = false;
};

TEST_F(AppsUsesTest, FirstOpeningOfTheDayIsChargedAndCreditedOnce) {
    EXPECT_EQ(ok("read", {{"slug", "calc"}}, "bob")["paid_today"], false);
    EXPECT_EQ(frame("bob").code, PLATFORM_PAYMENT_REQUIRED);
    ASSERT_EQ(page("bob").code, PLATFORM_OK);
    EXPECT_EQ(charges, std::vector<std::string>{"bob:7"});
    EXPECT_EQ(added, std::vector<std::string>{"alice:7"});
    EXPECT_EQ(credits["bob"], 93);
    EXPECT_EQ(credits["alice"], 7);
    EXPECT_EQ(ok("read", {{"slug", "calc"}}, "bob")["paid_today"], true);
    EXPECT_EQ(ok("embed", {{"slug", "calc"}}, "bob")["app"]["paid_today"], true);
    EXPECT_TRUE(host.store.count("uses/calc/bob/2026-01-01")) << "the use record";

    // The same day: free, the frame too.
    host.now_ms += 86400000 - 1;
    ASSERT_EQ(page("bob").code, PLATFORM_OK);
    ASSERT_EQ(frame("bob").code, PLATFORM_OK);
    EXPECT_EQ(charges.size(), 1u);

    // The next day: charged again; the frame needs the new day's use.
    host.now_ms += 1;
    EXPECT_EQ(ok("read", {{"slug", "calc"}}, "bob")["paid_today"], false);
    EXPECT_EQ(frame("bob").code, PLATFORM_PAYMENT_REQUIRED);
    ASSERT_EQ(page("bob").code, PLATFORM_OK);
    EXPECT_EQ(charges, (std::vector<std::string>{"bob:7", "bob:7"}));
    EXPECT_EQ(credits["alice"], 14);
    EXPECT_EQ(frame("bob").code, PLATFORM_OK);
}

TEST_F(AppsUsesTest, OwnerAndFreeAppsAreNeverCharged) {
    ASSERT_EQ(page("alice").code, PLATFORM_OK);
    ASSERT_EQ(frame("alice").code, PLATFORM_OK);
    ASSERT_EQ(page("bob", "free").code, PLATFORM_OK);
    ASSERT_EQ(frame("bob", "free").code, PLATFORM_OK);
    ASSERT_EQ(page("", "free").code, PLATFORM_OK);
    EXPECT_TRUE(charges.empty());
    EXPECT_TRUE(added.empty());
    EXPECT_FALSE(ok("read", {{"slug", "calc"}}).contains("paid_today"));  // the owner's view
    EXPECT_EQ(ok("read", {{"slug", "free"}}, "bob")["paid_today"], true);
}

TEST_F(AppsUsesTest, AnonymousNeedsAnAccountAndShortIsRefused) {
    auto anon = page("");
    EXPECT_EQ(anon.code, PLATFORM_UNAUTHENTICATED);
    EXPECT_NE(anon.body.find("an account is needed to use a priced app"), std::string::npos)
        << anon.body;
    EXPECT_EQ(frame("").code, PLATFORM_UNAUTHENTICATED);
    EXPECT_EQ(ok("read", {{"slug", "calc"}}, "")["paid_today"], false);

    credits["carol"] = 6;
    auto shortly = page("carol");
    EXPECT_EQ(shortly.code, PLATFORM_PAYMENT_REQUIRED);
    EXPECT_NE(shortly.body.find("costs 7 credit(s); you have 6"), std::string::npos)
        << shortly.body;
    EXPECT_TRUE(charges.empty());
    EXPECT_TRUE(added.empty());
    EXPECT_EQ(frame("carol").code, PLATFORM_PAYMENT_REQUIRED);
}

TEST_F(AppsUsesTest, AFailedChargeLeavesNoUse) {
    failing = true;
    EXPECT_EQ(page("bob").code, PLATFORM_UNAVAILABLE);
    EXPECT_FALSE(host.store.count("uses/calc/bob/2026-01-01"));
    EXPECT_EQ(frame("bob").code, PLATFORM_PAYMENT_REQUIRED);
    EXPECT_TRUE(added.empty());
    failing = false;
    ASSERT_EQ(page("bob").code, PLATFORM_OK);
    EXPECT_EQ(charges, std::vector<std::string>{"bob:7"});
}

TEST_F(AppsUsesTest, WithoutBillingPricedAppsAreFree) {
    host.on_call = nullptr;
    EXPECT_EQ(page("bob").code, PLATFORM_OK);
    EXPECT_EQ(frame("carol").code, PLATFORM_OK);
    EXPECT_EQ(page("").code, PLATFORM_OK);
    EXPECT_EQ(frame("").code, PLATFORM_OK);
    EXPECT_FALSE(host.store.count("uses/calc/bob/2026-01-01"));
}

}  // namespace
