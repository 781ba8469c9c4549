// transit's Timetables (plugins/transit/timetables.hpp) over the SDK's fake host: the feed loads
// once on first need and is held; a load that outlasts the wait is a 503 "still loading" and the
// next call finds it done; a day-old timetable answers while the next one loads; a failed load
// is thrown to the caller and not kept; the profile without a feed is told apart (unset()).
#include "../../../plugins/transit/timetables.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <platform/testing/fake_host.hpp>
#include <string>
#include <thread>

#include "fixtures.hpp"

using nlohmann::json;
using platform::Code;
using platform::testing::FakeHost;
using transit::GtfsTimetable;
using transit::Timetables;

namespace {

class TimetablesTest : public ::testing::Test {
protected:
    FakeHost fake;
    platform::Host host{fake.api(), fake.ctx()};
    std::mutex m;
    std::condition_variable cv;
    bool open = true;  // whether the fake upstream answers now
    int fetches = 0;
    FakeHost::FakeHttp answer{PLATFORM_OK, 200, json::object(),
                              platform::test::fixture_text("gtfs", "sample-feed.zip"), ""};
    std::unique_ptr<Timetables> timetables;

    void SetUp() override {
        fake.on_fetch = [this](const platform_http_request_t& r) {
            std::unique_lock<std::mutex> lock(m);
            ++fetches;
            EXPECT_EQ(platform::copy(r.provider), "gtfs");
            EXPECT_EQ(r.max_response_bytes, transit::kMaxFeedBytes);
            cv.wait(lock, [&] { return open; });
            return answer;
        };
        timetables = std::make_unique<Timetables>(host);
        timetables->start();
    }
    void TearDown() override {
        let_through();
        timetables->stop();
    }
    void hold_back() {
        std::lock_guard<std::mutex> lock(m);
        open = false;
    }
    void let_through() {
        {
            std::lock_guard<std::mutex> lock(m);
            open = true;
        }
        cv.notify_all();
    }
    int fetched() {
        std::lock_guard<std::mutex> lock(m);
        return fetches;
    }
    // The error get() throws.
    platform::Error error_of(int64_t wait_ms) {
        try {
            timetables->get(wait_ms);
        } catch (const platform::Error& e) {
            return e;
        }
        ADD_FAILURE() << "no error";
        return platform::Error(Code::ok, "");
    }
};

}  // namespace

TEST_F(TimetablesTest, LoadsOnFirstNeedAndHoldsIt) {
    EXPECT_EQ(fetched(), 0);  // nothing before it is needed
    auto t = timetables->get(10000);
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->summary()["stops"], 9);
    EXPECT_EQ(timetables->get(10000), t);
    EXPECT_EQ(fetched(), 1);
}

TEST_F(TimetablesTest, ALoadThatOutlastsTheWaitIsStillLoadingAndTheNextCallFindsItDone) {
    hold_back();
    platform::Error e = error_of(20);
    EXPECT_EQ(e.code(), Code::unavailable);
    EXPECT_NE(std::string(e.what()).find("still loading"), std::string::npos) << e.what();
    EXPECT_FALSE(Timetables::unset(e));
    let_through();
    ASSERT_NE(timetables->get(10000), nullptr);
    EXPECT_EQ(fetched(), 1);  // the one load, not a second
}

TEST_F(TimetablesTest, ADayOldTimetableAnswersWhileTheNextLoads) {
    auto first = timetables->get(10000);
    fake.now_ms += transit::kFeedLifetimeMs + 1;
    hold_back();
    EXPECT_EQ(timetables->get(0), first);  // at once, the old one
    let_through();
    std::shared_ptr<const GtfsTimetable> next = first;  // the old one answers until the new is in
    for (int i = 0; i < 1000 && next == first; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        next = timetables->get(0);
    }
    EXPECT_NE(next, first);
    EXPECT_EQ(fetched(), 2);
}

TEST_F(TimetablesTest, AFailedLoadIsTheCallersErrorAndIsNotKept) {
    answer = {PLATFORM_OK, 200, json::object(), "<html>moved</html>", ""};
    platform::Error bad = error_of(10000);
    EXPECT_EQ(bad.code(), Code::bad_gateway);
    EXPECT_NE(std::string(bad.what()).find("not a ZIP archive"), std::string::npos) << bad.what();
    answer = {PLATFORM_UNAVAILABLE, 0, json::object(), "", "providers.gtfs.base_url is not set"};
    EXPECT_TRUE(Timetables::unset(error_of(10000)));
    answer = {PLATFORM_OK, 200, json::object(),
              platform::test::fixture_text("gtfs", "sample-feed.zip"), ""};
    EXPECT_NE(timetables->get(10000), nullptr);
    EXPECT_EQ(fetched(), 3);
}
