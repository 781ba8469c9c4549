// The events service (plugins/events) through the SDK's fake host: publish, read, consume
// (replay, limit, live), consumer groups (sharing, nack, redelivery after ack_ms of business
// time, committed position), ack/nack errors and topics.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <thread>
#include <vector>

#include "../support/plugin_under_test.hpp"

namespace {

using namespace plugin_test;

constexpr const char* kUser = "alice";

class EventsService : public ::testing::Test {
protected:
    Reply publish(const std::string& topic, const json& payload, json extra = json::object()) {
        extra["topic"] = topic;
        extra["payload"] = payload;
        return plugin->call("publish", extra, kUser);
    }
    // Publishes and checks it worked; returns the answer.
    json must_publish(const std::string& topic, const json& payload) {
        Reply r = publish(topic, payload);
        EXPECT_EQ(r.code, PLATFORM_OK) << r.body;
        return r.code == PLATFORM_OK ? r.json() : json();
    }
    Reply consume(json args) { return plugin->call("consume", args, kUser); }
    // The events a consume streamed, one chunk each.
    static std::vector<json> chunks(const Reply& r) {
        std::vector<json> out;
        for (const auto& c : r.chunks) out.push_back(json::parse(c));
        return out;
    }
    static std::vector<uint64_t> offsets(const Reply& r) {
        std::vector<uint64_t> out;
        for (const auto& e : chunks(r)) out.push_back(e.at("offset").get<uint64_t>());
        return out;
    }
    Reply settle(const char* what, const std::string& topic, const std::string& group,
                 uint64_t offset) {
        return plugin->call(what, {{"topic", topic}, {"group", group}, {"offset", offset}}, kUser);
    }
    void reload() {
        plugin.reset();
        plugin = std::make_unique<FakePlugin>(host.load(platform_plugin_entry));
    }

    FakeHost host;
    std::unique_ptr<FakePlugin> plugin =
        std::make_unique<FakePlugin>(host.load(platform_plugin_entry));
};

TEST_F(EventsService, DescriptorIsTheBuiltInEventsService) {
    const auto* d = plugin->descriptor();
    EXPECT_EQ(platform::view(d->id), "events");
    EXPECT_EQ(platform::view(d->service), "events");
    std::set<std::string> names;
    for (uint32_t i = 0; i < d->endpoint_count; ++i) {
        const auto& e = d->endpoints[i];
        names.insert(platform::copy(e.name));
        EXPECT_EQ(e.access, PLATFORM_ACCESS_ACCOUNT) << platform::view(e.name);
        auto schema = json::parse(platform::view(e.input_schema));  // every schema is valid JSON
        EXPECT_EQ(schema.at("additionalProperties"), false) << platform::view(e.name);
        if (platform::view(e.name) == "consume") {
            EXPECT_TRUE(e.flags & PLATFORM_FLAG_STREAMING);
        }
        if (platform::view(e.name) == "read") {
            EXPECT_TRUE(e.flags & PLATFORM_FLAG_READ_ONLY);
        }
    }
    EXPECT_EQ(names,
              (std::set<std::string>{"publish", "read", "consume", "ack", "nack", "topics"}));
}

TEST_F(EventsService, PublishThenReadInOrder) {
    json a = must_publish("orders", {{"item", "tea"}, {"qty", 2}});
    json b = must_publish("orders", "plain text");
    json c = must_publish("orders", 42);
    EXPECT_EQ(a.at("offset"), 1);
    EXPECT_EQ(b.at("offset"), 2);
    EXPECT_EQ(c.at("offset"), 3);
    EXPECT_EQ(a.at("topic"), "orders");
    EXPECT_EQ(a.at("timestamp"), "2026-01-01T00:00:00Z");  // the fake host's business time
    EXPECT_NE(a.at("id"), b.at("id"));
    EXPECT_EQ(a.at("id").get<std::string>().size(), 36u);

    Reply r = plugin->call("read", {{"topic", "orders"}}, kUser);
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    json events = r.json().at("events");
    ASSERT_EQ(events.size(), 3u);
    EXPECT_EQ(events[0].at("payload"), json({{"item", "tea"}, {"qty", 2}}));
    EXPECT_EQ(events[1].at("payload"), "plain text");
    EXPECT_EQ(events[2].at("payload"), 42);
    EXPECT_EQ(events[0].at("id"), a.at("id"));
    EXPECT_EQ(events[0].at("metadata"), json::object());
    EXPECT_EQ(r.json().at("next_offset"), 4);

    r = plugin->call("read", {{"topic", "orders"}, {"offset", 2}, {"limit", 1}}, kUser);
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    ASSERT_EQ(r.json().at("events").size(), 1u);
    EXPECT_EQ(r.json().at("events")[0].at("offset"), 2);
    EXPECT_EQ(r.json().at("next_offset"), 3);

    r = plugin->call("read", {{"topic", "nothing-here"}}, kUser);
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    EXPECT_EQ(r.json().at("events"), json::array());
}

TEST_F(EventsService, MetadataIsKept) {
    Reply p = publish("t", nullptr, {{"metadata", {{"source", "test"}, {"trace", "abc"}}}});
    ASSERT_EQ(p.code, PLATFORM_OK) << p.body;
    json e = plugin->call("read", {{"topic", "t"}}, kUser).json().at("events").at(0);
    EXPECT_EQ(e.at("metadata"), json({{"source", "test"}, {"trace", "abc"}}));
    EXPECT_TRUE(e.at("payload").is_null());
}

TEST_F(EventsService, TimestampOverridesTheTime) {
    Reply r = publish("t", 1, {{"timestamp", "2024-02-29T12:30:00.250+02:00"}});
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    EXPECT_EQ(r.json().at("timestamp"), "2024-02-29T10:30:00.250Z");
    r = publish("t", 2, {{"timestamp", 1700000000000}});
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    EXPECT_EQ(r.json().at("timestamp"), "2023-11-14T22:13:20Z");
    json events = plugin->call("read", {{"topic", "t"}}, kUser).json().at("events");
    EXPECT_EQ(events[0].at("timestamp"), "2024-02-29T10:30:00.250Z");
    EXPECT_EQ(events[1].at("timestamp"), "2023-11-14T22:13:20Z");
    EXPECT_EQ(host.events["t"][1].timestamp_ms, 1700000000000);

    r = publish("t", 3, {{"timestamp", "yesterday"}});
    EXPECT_EQ(r.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_NE(r.body.find("timestamp"), std::string::npos) << r.body;
    r = publish("t", 3, {{"timestamp", "2024-02-30T00:00:00Z"}});
    EXPECT_EQ(r.code, PLATFORM_INVALID_ARGUMENT) << r.body;
    r = publish("t", 3, {{"timestamp", -5}});
    EXPECT_EQ(r.code, PLATFORM_INVALID_ARGUMENT) << r.body;
}

TEST_F(EventsService, BadArgumentsAreNamed) {
    struct Case {
        json args;
        const char* names;
    } cases[] = {
        {{{"topic", "a/b"}, {"payload", 1}}, "topic"},
        {{{"topic", ""}, {"payload", 1}}, "topic"},
        {{{"topic", std::string(201, 'x')}, {"payload", 1}}, "topic"},
        {{{"topic", "t"}}, "payload"},
        {{{"topic", "t"}, {"payload", 1}, {"metadata", {{"n", 1}}}}, "metadata.n"},
        {{{"topic", "t"}, {"payload", 1}, {"metadata", "x"}}, "metadata"},
    };
    for (const auto& c : cases) {
        Reply r = plugin->call("publish", c.args, kUser);
        EXPECT_EQ(r.code, PLATFORM_INVALID_ARGUMENT) << c.args.dump();
        EXPECT_NE(r.body.find(c.names), std::string::npos) << r.body;
    }
    json many = json::object();
    for (int i = 0; i < 51; ++i) many["k" + std::to_string(i)] = "v";
    Reply r = publish("t", 1, {{"metadata", many}});
    EXPECT_EQ(r.code, PLATFORM_INVALID_ARGUMENT);
    r = plugin->call("read", {{"topic", "t"}, {"limit", 1001}}, kUser);
    EXPECT_EQ(r.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_NE(r.body.find("limit"), std::string::npos) << r.body;
    r = consume({{"topic", "t"}, {"wait_ms", 300001}});
    EXPECT_EQ(r.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_NE(r.body.find("wait_ms"), std::string::npos) << r.body;
}

TEST_F(EventsService, ConsumeReplaysFromAnOffsetInOrder) {
    for (int i = 1; i <= 3; ++i) must_publish("t", {{"n", i}});
    Reply r = consume({{"topic", "t"}, {"offset", 1}, {"wait_ms", 0}});
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    auto evs = chunks(r);
    ASSERT_EQ(evs.size(), 3u);
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(evs[i].at("offset"), i + 1);
        EXPECT_EQ(evs[i].at("payload"), json({{"n", i + 1}}));
        EXPECT_EQ(evs[i].at("topic"), "t");
    }
    EXPECT_EQ(offsets(consume({{"topic", "t"}, {"offset", 2}, {"wait_ms", 0}})),
              (std::vector<uint64_t>{2, 3}));
}

TEST_F(EventsService, ConsumeStopsAfterLimit) {
    for (int i = 1; i <= 5; ++i) must_publish("t", i);
    Reply r =
        consume({{"topic", "t"}, {"offset", 2}, {"limit", 2}});  // default wait: ends on the limit
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    EXPECT_EQ(offsets(r), (std::vector<uint64_t>{2, 3}));
}

TEST_F(EventsService, ConsumeWithoutOffsetSendsOnlyNewEvents) {
    must_publish("t", 1);
    must_publish("t", 2);
    Reply r = consume({{"topic", "t"}, {"wait_ms", 0}});
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    EXPECT_TRUE(r.chunks.empty());
}

TEST_F(EventsService, ConsumeWaitsForALiveEvent) {
    must_publish("t", 1);
    Reply r;
    std::thread consumer([&] {
        r = consume({{"topic", "t"}, {"offset", 2}, {"limit", 1}, {"wait_ms", 60000}});
    });
    must_publish("t", 2);  // before or during the consumer's wait: either way it is delivered
    consumer.join();
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    EXPECT_EQ(offsets(r), (std::vector<uint64_t>{2}));
}

TEST_F(EventsService, GroupMembersShareTheStream) {
    must_publish("t", 1);
    must_publish("t", 2);
    Reply first =
        consume({{"topic", "t"}, {"group", "g"}, {"offset", 1}, {"limit", 1}, {"wait_ms", 0}});
    ASSERT_EQ(first.code, PLATFORM_OK) << first.body;
    EXPECT_EQ(offsets(first), (std::vector<uint64_t>{1}));
    EXPECT_EQ(chunks(first)[0].at("group"), "g");
    EXPECT_EQ(chunks(first)[0].at("delivery"), 1);
    Reply second = consume({{"topic", "t"}, {"group", "g"}, {"limit", 1}, {"wait_ms", 0}});
    EXPECT_EQ(offsets(second), (std::vector<uint64_t>{2}));  // not event 1: it is in flight
    Reply third = consume({{"topic", "t"}, {"group", "g"}, {"wait_ms", 0}});
    EXPECT_TRUE(third.chunks.empty()) << third.body;  // both in flight, none due
    // Another group sees everything.
    EXPECT_EQ(offsets(consume({{"topic", "t"}, {"group", "h"}, {"offset", 1}, {"wait_ms", 0}})),
              (std::vector<uint64_t>{1, 2}));
}

TEST_F(EventsService, ConcurrentGroupMembersGetDifferentEvents) {
    ASSERT_EQ(consume({{"topic", "t"}, {"group", "g"}, {"offset", 1}, {"wait_ms", 0}}).code,
              PLATFORM_OK);
    Reply a, b;
    std::thread ta([&] {
        a = consume({{"topic", "t"}, {"group", "g"}, {"limit", 1}, {"wait_ms", 60000}});
    });
    std::thread tb([&] {
        b = consume({{"topic", "t"}, {"group", "g"}, {"limit", 1}, {"wait_ms", 60000}});
    });
    must_publish("t", 1);
    must_publish("t", 2);
    ta.join();
    tb.join();
    ASSERT_EQ(a.chunks.size(), 1u) << a.body;
    ASSERT_EQ(b.chunks.size(), 1u) << b.body;
    std::set<uint64_t> got{offsets(a)[0], offsets(b)[0]};
    EXPECT_EQ(got, (std::set<uint64_t>{1, 2}));
}

TEST_F(EventsService, NackedEventIsRedelivered) {
    must_publish("t", "x");
    must_publish("t", "y");
    EXPECT_EQ(offsets(consume({{"topic", "t"}, {"group", "g"}, {"offset", 1}, {"wait_ms", 0}})),
              (std::vector<uint64_t>{1, 2}));
    Reply n = settle("nack", "t", "g", 1);
    ASSERT_EQ(n.code, PLATFORM_OK) << n.body;
    EXPECT_EQ(n.json(), json({{"nacked", 1}}));
    Reply again = consume({{"topic", "t"}, {"group", "g"}, {"wait_ms", 0}});
    EXPECT_EQ(offsets(again), (std::vector<uint64_t>{1}));
    EXPECT_EQ(chunks(again)[0].at("delivery"), 2);
    EXPECT_EQ(chunks(again)[0].at("payload"), "x");
}

// ack_ms is business time (the host's clock), so the manual clock of tests drives redelivery.
TEST_F(EventsService, UnackedEventIsRedeliveredAfterAckMs) {
    must_publish("t", "x");
    EXPECT_EQ(
        offsets(consume(
            {{"topic", "t"}, {"group", "g"}, {"offset", 1}, {"ack_ms", 5000}, {"wait_ms", 0}})),
        (std::vector<uint64_t>{1}));
    EXPECT_TRUE(consume({{"topic", "t"}, {"group", "g"}, {"wait_ms", 0}}).chunks.empty());
    host.now_ms += 4999;
    EXPECT_TRUE(consume({{"topic", "t"}, {"group", "g"}, {"wait_ms", 0}}).chunks.empty());
    host.now_ms += 1;
    Reply again = consume({{"topic", "t"}, {"group", "g"}, {"wait_ms", 0}});
    EXPECT_EQ(offsets(again), (std::vector<uint64_t>{1}));
    EXPECT_EQ(chunks(again)[0].at("delivery"), 2);
    // Acked: never again.
    ASSERT_EQ(settle("ack", "t", "g", 1).code, PLATFORM_OK);
    host.now_ms += 3600000;
    EXPECT_TRUE(consume({{"topic", "t"}, {"group", "g"}, {"wait_ms", 0}}).chunks.empty());
}

TEST_F(EventsService, AckAdvancesTheCommittedOffset) {
    for (int i = 1; i <= 3; ++i) must_publish("t", i);
    EXPECT_EQ(offsets(consume(
                  {{"topic", "t"}, {"group", "g"}, {"offset", 1}, {"limit", 2}, {"wait_ms", 0}})),
              (std::vector<uint64_t>{1, 2}));
    Reply r = settle("ack", "t", "g", 2);
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    EXPECT_EQ(r.json(), json({{"acked", 2}, {"committed", 0}}));  // 1 is still in flight
    r = settle("ack", "t", "g", 1);
    EXPECT_EQ(r.json(), json({{"acked", 1}, {"committed", 2}}));
    // The group's position is stored: a new instance (a restart) starts after it.
    reload();
    EXPECT_EQ(offsets(consume({{"topic", "t"}, {"group", "g"}, {"wait_ms", 0}})),
              (std::vector<uint64_t>{3}));
}

TEST_F(EventsService, NewGroupWithoutOffsetStartsAtTheEnd) {
    must_publish("t", 1);
    EXPECT_TRUE(consume({{"topic", "t"}, {"group", "g"}, {"wait_ms", 0}}).chunks.empty());
    must_publish("t", 2);
    EXPECT_EQ(offsets(consume({{"topic", "t"}, {"group", "g"}, {"wait_ms", 0}})),
              (std::vector<uint64_t>{2}));
}

TEST_F(EventsService, OffsetMovesAGroup) {
    for (int i = 1; i <= 3; ++i) must_publish("t", i);
    consume({{"topic", "t"}, {"group", "g"}, {"offset", 1}, {"wait_ms", 0}});
    EXPECT_EQ(offsets(consume({{"topic", "t"}, {"group", "g"}, {"offset", 2}, {"wait_ms", 0}})),
              (std::vector<uint64_t>{2, 3}));
    EXPECT_EQ(settle("ack", "t", "g", 1).code,
              PLATFORM_OK);  // before the new position: already done
}

TEST_F(EventsService, AckAndNackErrors) {
    must_publish("t", 1);
    must_publish("t", 2);
    Reply r = settle("ack", "t", "nobody", 1);
    EXPECT_EQ(r.code, PLATFORM_NOT_FOUND);
    EXPECT_NE(r.body.find("group"), std::string::npos) << r.body;
    r = settle("nack", "t", "nobody", 1);
    EXPECT_EQ(r.code, PLATFORM_NOT_FOUND);

    consume({{"topic", "t"}, {"group", "g"}, {"offset", 1}, {"limit", 1}, {"wait_ms", 0}});
    r = settle("ack", "t", "g", 2);  // never delivered to g
    EXPECT_EQ(r.code, PLATFORM_NOT_FOUND);
    EXPECT_NE(r.body.find("offset"), std::string::npos) << r.body;
    EXPECT_EQ(settle("ack", "t", "g", 1).code, PLATFORM_OK);
    EXPECT_EQ(settle("ack", "t", "g", 1).code, PLATFORM_OK);  // idempotent
    r = settle("nack", "t", "g", 1);
    EXPECT_EQ(r.code, PLATFORM_CONFLICT) << r.body;
    r = settle("ack", "other-topic", "g", 1);
    EXPECT_EQ(r.code, PLATFORM_NOT_FOUND);
}

TEST_F(EventsService, TopicsListsPublishedTopics) {
    Reply r = plugin->call("topics", json::object(), kUser);
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    EXPECT_EQ(r.json(), json({{"topics", json::array()}}));
    must_publish("b", 1);
    for (int i = 0; i < 5; ++i) must_publish("a", i);
    reload();  // the list is stored, and counts come from the provider
    r = plugin->call("topics", json::object(), kUser);
    EXPECT_EQ(r.json(), json::parse(R"({"topics":[{"topic":"a","events":5,"last_offset":5},
                                                  {"topic":"b","events":1,"last_offset":1}]})"));
}

}  // namespace
