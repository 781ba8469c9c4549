// The calendar plugin (the `events` service, plugins/calendar) through the fake host: repeats
// unrolled into occurrences, and the handlers — free slots in the owner's time zone (asked of a
// fake `auth/me`) across the Europe/London DST change. Zones and RFC 3339 themselves:
// tests/unit/common.
#include <gtest/gtest.h>

#include "../support/plugin_under_test.hpp"
#include "schedule.hpp"

namespace {

using namespace plugin_test;
using namespace calendar;

int64_t at(const std::string& rfc3339) {
    return parse_rfc3339(rfc3339).value().utc_s;
}

TEST(ScheduleTest, DailyKeepsLocalTimeAcrossDstAndMonthlyClamps) {
    auto london = TimeZone::load("Europe/London");
    std::vector<std::string> starts;
    occurrences({at("2027-03-26T12:00:00Z"), 60, "daily"}, *london, at("2027-03-27T00:00:00Z"),
                at("2027-03-30T00:00:00Z"), [&](int64_t s) {
                    starts.push_back(format_rfc3339(s, 0));
                    return true;
                });
    EXPECT_EQ(starts, (std::vector<std::string>{"2027-03-27T12:00:00Z", "2027-03-28T11:00:00Z",
                                                "2027-03-29T11:00:00Z"}));
    starts.clear();
    occurrences({at("2027-01-31T10:00:00Z"), 30, "monthly"}, *TimeZone::utc(),
                at("2027-02-01T00:00:00Z"), at("2027-05-01T00:00:00Z"), [&](int64_t s) {
                    starts.push_back(format_rfc3339(s, 0));
                    return true;
                });
    EXPECT_EQ(starts, (std::vector<std::string>{"2027-02-28T10:00:00Z", "2027-03-31T10:00:00Z",
                                                "2027-04-30T10:00:00Z"}));
    auto next = next_occurrence({at("2027-01-01T10:00:00Z"), 30, "hourly"}, *TimeZone::utc(),
                                at("2027-06-01T12:10:00Z"));
    EXPECT_EQ(format_rfc3339(next.value(), 0), "2027-06-01T12:00:00Z");  // still running
    EXPECT_FALSE(next_occurrence({at("2027-01-01T10:00:00Z"), 30, ""}, *TimeZone::utc(),
                                 at("2027-01-02T00:00:00Z")));
}

class CalendarTest : public ::testing::Test {
protected:
    void SetUp() override {
        host.on_call = [this](const std::string& service, const std::string& method, const json&,
                              const std::string& account) {
            Reply r;
            if (service != "auth" || method != "me") return r.code = PLATFORM_NOT_FOUND, r;
            r.code = PLATFORM_OK;
            r.body =
                json{{"account", {{"id", account}, {"metadata", {{"timezone", zones[account]}}}}}}
                    .dump();
            return r;
        };
    }
    json ok(const std::string& method, const json& args, const std::string& who = "alice") {
        Reply r = plugin.call(method, args, who);
        EXPECT_EQ(r.code, PLATFORM_OK) << method << ": " << r.body;
        return r.code == PLATFORM_OK ? r.json() : json();
    }
    // "start-end" of each slot, as strings.
    std::vector<std::string> slots(const json& free) {
        std::vector<std::string> out;
        for (const auto& s : free["slots"])
            out.push_back(s["start"].get<std::string>() + " " + s["end"].get<std::string>());
        return out;
    }

    FakeHost host;
    std::map<std::string, std::string> zones{{"alice", "Europe/London"}, {"bob", "UTC"}};
    FakePlugin plugin = host.load(platform_plugin_entry);
};

TEST_F(CalendarTest, CreateReadUpdateDelete) {
    json e = ok("create",
                {{"title", "Dentist"}, {"when", "2027-03-28T09:30:00+01:00"}, {"minutes", 30}});
    EXPECT_EQ(e["when"], "2027-03-28T09:30:00+01:00");
    EXPECT_EQ(e["repeat"], "");
    EXPECT_TRUE(e["advance"].is_null());
    EXPECT_EQ(ok("read", {{"id", e["id"]}}), e);
    EXPECT_EQ(plugin.call("read", {{"id", e["id"]}}, "bob").code, PLATFORM_NOT_FOUND);

    json u = ok("update", {{"id", e["id"]},
                           {"note", "bring card"},
                           {"repeat", "weekly"},
                           {"advance", {{"minutes", 60}, {"recipient", "agent"}}}});
    EXPECT_EQ(u["note"], "bring card");
    EXPECT_EQ(u["title"], "Dentist");
    EXPECT_EQ(u["advance"], (json{{"minutes", 60}, {"recipient", "agent"}}));
    EXPECT_EQ(plugin.call("update", {{"id", e["id"]}, {"advance", {{"minutes", 0}}}}, "alice").code,
              PLATFORM_INVALID_ARGUMENT);
    u = ok("update", {{"id", e["id"]},
                      {"note", ""},
                      {"repeat", ""},
                      {"advance", {{"minutes", 0}, {"recipient", ""}}}});
    EXPECT_EQ(u["note"], "");
    EXPECT_EQ(u["repeat"], "");
    EXPECT_TRUE(u["advance"].is_null());
    EXPECT_EQ(
        plugin.call("update", {{"id", e["id"]}, {"when", "2025-01-01T00:00:00Z"}}, "alice").code,
        PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(plugin.call("delete", {{"id", e["id"]}}, "bob").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(ok("delete", {{"id", e["id"]}})["deleted"], e["id"]);
    EXPECT_EQ(plugin.call("read", {{"id", e["id"]}}, "alice").code, PLATFORM_NOT_FOUND);
}

TEST_F(CalendarTest, ListIsUpcomingSoonestFirst) {
    ok("create", {{"title", "later"}, {"when", "2026-03-01T10:00:00Z"}, {"minutes", 30}});
    ok("create", {{"title", "sooner"}, {"when", "2026-02-01T10:00:00Z"}, {"minutes", 30}});
    ok("create", {{"title", "daily"},
                  {"when", "2026-01-01T08:00:00Z"},
                  {"minutes", 30},
                  {"repeat", "daily"}});
    host.now_ms += 40LL * 86400 * 1000;  // 2026-02-10: "sooner" is over
    json l = ok("list", {{"offset", 0}, {"limit", 20}});
    ASSERT_EQ(l["events"].size(), 2u);
    EXPECT_EQ(l["events"][0]["title"], "daily");
    EXPECT_EQ(l["events"][0]["next"], "2026-02-10T08:00:00Z");
    EXPECT_EQ(l["events"][1]["title"], "later");
    EXPECT_EQ(ok("list", {{"offset", 1}, {"limit", 1}})["events"][0]["title"], "later");
    EXPECT_TRUE(ok("list", {{"offset", 0}, {"limit", 20}}, "bob")["events"].empty());
}

TEST_F(CalendarTest, FreeAcrossTheDstChangeAroundEvents) {
    ok("create", {{"title", "lunch"},
                  {"when", "2027-03-26T12:00:00Z"},
                  {"minutes", 60},
                  {"repeat", "daily"}});
    ok("create", {{"title", "call"}, {"when", "2027-03-29T10:00:00+01:00"}, {"minutes", 30}});
    json f = ok("free", {{"from", "2027-03-27T00:00:00Z"},
                         {"to", "2027-03-30T00:00:00+01:00"},
                         {"minutes", 30},
                         {"day_start", 9},
                         {"day_end", 18}});
    EXPECT_EQ(f["timezone"], "Europe/London");
    EXPECT_EQ(slots(f),
              (std::vector<std::string>{
                  "2027-03-27T09:00:00Z 2027-03-27T12:00:00Z",
                  "2027-03-27T13:00:00Z 2027-03-27T18:00:00Z",
                  "2027-03-28T09:00:00+01:00 2027-03-28T12:00:00+01:00",  // BST from 01:00 UTC
                  "2027-03-28T13:00:00+01:00 2027-03-28T18:00:00+01:00",
                  "2027-03-29T09:00:00+01:00 2027-03-29T10:00:00+01:00",
                  "2027-03-29T10:30:00+01:00 2027-03-29T12:00:00+01:00",
                  "2027-03-29T13:00:00+01:00 2027-03-29T18:00:00+01:00"}));
    EXPECT_EQ(f["slots"][0]["minutes"], 180);
    // A longer minimum drops the 60-minute gap; another account's events do not count.
    json g = ok("free", {{"from", "2027-03-29T00:00:00+01:00"},
                         {"to", "2027-03-30T00:00:00+01:00"},
                         {"minutes", 90},
                         {"day_start", 9},
                         {"day_end", 18}});
    EXPECT_EQ(slots(g),
              (std::vector<std::string>{"2027-03-29T10:30:00+01:00 2027-03-29T12:00:00+01:00",
                                        "2027-03-29T13:00:00+01:00 2027-03-29T18:00:00+01:00"}));
    json b = ok("free",
                {{"from", "2027-03-29T00:00:00Z"},
                 {"to", "2027-03-30T00:00:00Z"},
                 {"minutes", 30},
                 {"day_start", 9},
                 {"day_end", 18}},
                "bob");
    EXPECT_EQ(slots(b), (std::vector<std::string>{"2027-03-29T09:00:00Z 2027-03-29T18:00:00Z"}));
}

TEST_F(CalendarTest, FreeChecksItsRangeAndFallsBackToUtc) {
    EXPECT_EQ(plugin
                  .call("free", {{"from", "2027-03-29T00:00:00Z"}, {"to", "2027-03-28T00:00:00Z"}},
                        "alice")
                  .code,
              PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(plugin
                  .call("free", {{"from", "2027-01-01T00:00:00Z"}, {"to", "2027-06-01T00:00:00Z"}},
                        "alice")
                  .code,
              PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(plugin.call("free", {{"day_start", 18}, {"day_end", 9}}, "alice").code,
              PLATFORM_INVALID_ARGUMENT);
    host.on_call = nullptr;  // no auth service
    json f = ok("free", {{"from", "2027-03-29T00:00:00Z"},
                         {"to", "2027-03-30T00:00:00Z"},
                         {"minutes", 30},
                         {"day_start", 9},
                         {"day_end", 17}});
    EXPECT_EQ(f["timezone"], "UTC");
    EXPECT_EQ(slots(f), (std::vector<std::string>{"2027-03-29T09:00:00Z 2027-03-29T17:00:00Z"}));
    EXPECT_EQ(plugin.call("free", json::object(), "").code, PLATFORM_UNAUTHENTICATED);
}

}  // namespace
