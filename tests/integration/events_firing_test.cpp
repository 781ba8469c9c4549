// Events firing (plugins/calendar scheduler) through the real host on the test profile: the
// business clock is manual, so the test moves it (clock/set) past an event's time and then waits
// — polling with a deadline — for the answer in the owner's inbox (GET /api/v1/inbox/list and
// /inbox/read, the inbox service). The agent runs on model-builtin (offline): "what are my notes"
// lists the owner's notes, so the conversation the event left must quote the note, and so must the
// letter the answer is mailed in (mail/inbox, the mail service). A daily
// repeat fires again one day later; an event without a prompt leaves a reminder; another account
// sees none of it.
#include <gtest/gtest.h>

#include <chrono>
#include <ctime>
#include <functional>
#include <thread>

#include "eventually.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "shared_host_test.hpp"
#include "text_search.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

int64_t ms(const std::string& rfc3339_utc) {  // "2027-03-01T01:00:00Z" only
    std::tm tm{};
    strptime(rfc3339_utc.c_str(), "%Y-%m-%dT%H:%M:%SZ", &tm);
    return static_cast<int64_t>(timegm(&tm)) * 1000;
}

class EventsFiring : public SharedHostTest {
protected:
    void set_clock(const std::string& rfc3339_utc) {
        ASSERT_EQ(api.post_json("/clock/set", {{"unix_ms", ms(rfc3339_utc)}}).status, 200);
    }
    json data(const HttpResult& r) {
        EXPECT_EQ(r.status, 200) << r.body;
        return r.status == 200 ? r.json()["data"] : json();
    }
    json event(const std::string& id, const std::string& who) {
        return data(api.get("/api/v1/events/read?id=" + id, bearer(who)));
    }

    // The inbox's conversations of `who` (the first array in inbox/list's data), each with
    // "latest": the text of its latest message, read with inbox/read.
    std::vector<json> conversations(const std::string& who) {
        const auto r = api.get("/api/v1/inbox/list?limit=100", bearer(who));
        if (r.status == 404)
            ADD_FAILURE() << "the inbox service is not built or not loaded: " << r.body;
        if (r.status != 200) return {};
        const json body = r.json()["data"];
        json list = body.is_array() ? body : json::array();
        if (body.is_object())
            for (const auto& [k, v] : body.items())
                if (v.is_array()) {
                    list = v;
                    break;
                }
        std::vector<json> out;
        for (json c : list) {
            const std::string id =
                c.contains("id") ? c["id"].get<std::string>() : c.value("thread", "");
            const auto latest = api.get("/api/v1/inbox/read?id=" + id + "&limit=1", bearer(who));
            c["latest"] = latest.status == 200 ? latest.json()["data"].dump() : "";
            out.push_back(c);
        }
        return out;
    }
    static bool unread(const json& c) {
        const json u = c.value("unread", json(nullptr));
        return (u.is_boolean() && u.get<bool>()) || (u.is_number() && u.get<double>() > 0);
    }
    // Conversations whose latest message contains `text`, unread.
    size_t unread_with(const std::string& who, const std::string& text) {
        size_t n = 0;
        for (const auto& c : conversations(who))
            n += unread(c) && has(c["latest"].get<std::string>(), text);
        return n;
    }
    // The agent runs in the scheduler's pass: up to 60 s.
    static bool eventually(const std::function<bool()>& done) {
        return platform::test::eventually(done, 60);
    }
};

TEST_F(EventsFiring, PromptReminderAndDailyRepeatLandInTheOwnersInbox) {
    set_clock("2027-03-01T00:00:00Z");
    ASSERT_EQ(
        api.post_json("/api/v1/notes/add",
                      {{"title", "boiler"}, {"text", "the boiler code is 4512"}}, bearer("ann"))
            .status,
        200);
    const json digest = data(api.post_json("/api/v1/events/create",
                                           {{"title", "Notes digest"},
                                            {"when", "2027-03-01T01:00:00Z"},
                                            {"prompt", "what are my notes"},
                                            {"repeat", "daily"}},
                                           bearer("ann")));
    const json dentist = data(api.post_json(
        "/api/v1/events/create",
        {{"title", "Dentist"}, {"when", "2027-03-01T02:00:00Z"}, {"note", "bring card"}},
        bearer("ann")));
    ASSERT_TRUE(digest["id"].is_string());
    ASSERT_TRUE(dentist["id"].is_string());
    EXPECT_FALSE(digest.contains("_sched"));
    EXPECT_EQ(unread_with("ann", "4512"), 0u);

    // Not yet: one second before.
    set_clock("2027-03-01T00:59:59Z");
    EXPECT_TRUE(event(digest["id"], "ann")["last_fired"].is_null());

    // The prompt's answer: a new unread conversation quoting the note.
    set_clock("2027-03-01T01:00:01Z");
    ASSERT_TRUE(eventually([&] { return event(digest["id"], "ann")["last_fired"].is_string(); }))
        << host->log();
    const json fired = event(digest["id"], "ann");
    EXPECT_TRUE(fired["last_error"].is_null()) << fired;
    EXPECT_EQ(fired["when"], "2027-03-02T01:00:00Z") << fired;  // the next day's
    EXPECT_TRUE(eventually([&] { return unread_with("ann", "4512") == 1; }))
        << api.get("/api/v1/inbox/list", bearer("ann")).body;
    // ... and mailed to her (the mail service's mail/post): a letter from the agent holding the
    // answer and the conversation's id.
    json letters = json::array();
    ASSERT_TRUE(eventually([&] {
        const auto r = api.get("/api/v1/mail/inbox", bearer("ann"));
        if (r.status == 200) letters = r.json()["data"]["messages"];
        return letters.size() == 1;
    })) << letters;
    EXPECT_EQ(letters[0]["from"], "agent");
    EXPECT_EQ(letters[0]["subject"], "Notes digest");
    const json letter =
        data(api.get("/api/v1/mail/read?id=" + letters[0]["id"].get<std::string>(), bearer("ann")));
    EXPECT_TRUE(has(letter["body"].get<std::string>(), "4512")) << letter;
    EXPECT_TRUE(letter["thread"].is_string()) << letter;

    // No prompt: a reminder.
    set_clock("2027-03-01T02:00:01Z");
    ASSERT_TRUE(eventually([&] { return event(dentist["id"], "ann")["fired"] == true; }))
        << event(dentist["id"], "ann");
    EXPECT_TRUE(event(dentist["id"], "ann")["last_error"].is_null()) << event(dentist["id"], "ann");
    EXPECT_TRUE(eventually([&] { return unread_with("ann", "bring card") == 1; }))
        << api.get("/api/v1/inbox/list", bearer("ann")).body;

    // The daily repeat, one day later: a second conversation.
    set_clock("2027-03-02T01:00:01Z");
    EXPECT_TRUE(eventually([&] { return unread_with("ann", "4512") == 2; }))
        << api.get("/api/v1/inbox/list", bearer("ann")).body;
    EXPECT_EQ(event(digest["id"], "ann")["when"], "2027-03-03T01:00:00Z");

    // Bob: none of it.
    EXPECT_EQ(unread_with("bob", "4512"), 0u);
    EXPECT_EQ(unread_with("bob", "bring card"), 0u);
    EXPECT_TRUE(conversations("bob").empty());
    EXPECT_EQ(
        api.get("/api/v1/events/read?id=" + digest["id"].get<std::string>(), bearer("bob")).status,
        404);
}

}  // namespace
