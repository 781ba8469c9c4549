// Host replicas as the kubernetes profile runs them (support/replicas.hpp): two `platform server`
// processes, each with its own PLATFORM_HOME and ports, on store-postgres (one database of the
// test's own), broker-nats and events-nats (one nats-server), sharing PLATFORM_CONFIG_SECRET_KEY.
// What one replica is told, the other knows: a note, an account's tokens, a broker message to a
// subscriber, an event at its offset, a rule change and a revoked token (within 5 s), the node
// list; an event scheduled through one fires once, whichever replica's scheduler takes it. Work across replicas is replicas_work_test.cpp. Without PostgreSQL or nats-server the
// tests skip, saying why.
#include "replicas.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <ctime>
#include <functional>
#include <future>
#include <map>
#include <set>
#include <thread>

#include "http_client.hpp"
#include "local_accounts.hpp"
#include "stream_reader.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

// Polls `condition` every 100 ms (10 requests a second: well inside the profile's per-account rate
// limit) until it holds or `seconds` pass; answers its last value. The wait is for the condition.
bool within(int seconds, const std::function<bool()>& condition) {
    const auto until = Clock::now() + std::chrono::seconds(seconds);
    while (Clock::now() < until) {
        if (condition()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return condition();
}

// A unique name per test process and call, for topics on the shared nats-server.
std::string unique(const std::string& base) {
    static int n = 0;
    return base + "-" + std::to_string(::getpid()) + "-" + std::to_string(++n);
}

// Two replicas on the kubernetes profile (auth-local), started one after the other, with the
// admin's access token from replica 0.
class Replicas : public ::testing::Test {
protected:
    void SetUp() override {
        if (auto why = replicas_skip_reason(); !why.empty()) GTEST_SKIP() << why;
        set_ = std::make_unique<ReplicaSet>(options());
        set_->start(0);
        set_->start(1);
        a_ = std::make_unique<HttpClient>("127.0.0.1", (*set_)[0].api_port());
        b_ = std::make_unique<HttpClient>("127.0.0.1", (*set_)[1].api_port());
        if (auth() == "auth-local") admin_ = access_token(*a_, "admin", ReplicaSet::kAdminSecret);
    }
    virtual std::string auth() const { return "auth-local"; }
    ReplicaSet::Options options() const {
        ReplicaSet::Options o;
        o.auth = auth();
        return o;
    }

    // Account `id` made through replica 0; its access token, signed in through `via`.
    std::string account(const std::string& id, HttpClient& via) {
        auto r = a_->post_json("/auth/createAccount", {{"id", id}, {"secret", id + "-secret-1"}},
                               bearer(admin_));
        EXPECT_EQ(r.status, 200) << r.body;
        return access_token(via, id, id + "-secret-1");
    }

    std::unique_ptr<ReplicaSet> set_;
    std::unique_ptr<HttpClient> a_, b_;
    std::string admin_;
};

class ReplicasWithoutAccounts : public Replicas {
protected:
    std::string auth() const override { return "auth-noop"; }
};

TEST_F(ReplicasWithoutAccounts, ANoteWrittenThroughOneIsReadThroughTheOther) {
    HttpClient& a = *a_;
    HttpClient& b = *b_;
    auto added = a.post_json("/api/v1/notes/add", {{"title", "shared"}, {"text", "from a"}},
                             bearer("alice"));
    ASSERT_EQ(added.status, 200) << added.body;
    auto got = b.get("/api/v1/notes/get?title=shared", bearer("alice"));
    ASSERT_EQ(got.status, 200) << got.body;
    EXPECT_EQ(got.json()["data"]["text"], "from a");
    // Another account sees nothing of it on either replica.
    EXPECT_EQ(b.get("/api/v1/notes/get?title=shared", bearer("bob")).status, 404);
    // Written again through b, read through a.
    auto updated = b.post_json("/api/v1/notes/add", {{"title", "shared"}, {"text", "from b"}},
                               bearer("alice"));
    ASSERT_EQ(updated.status, 200) << updated.body;
    auto again = a.get("/api/v1/notes/get?title=shared", bearer("alice"));
    ASSERT_EQ(again.status, 200) << again.body;
    EXPECT_EQ(again.json()["data"]["text"], "from b");
    // Both on the one database, each through its own connection pool.
    EXPECT_TRUE((*set_)[0].wait_for_log("store-postgres: connected to")) << set_->logs();
    EXPECT_TRUE((*set_)[1].wait_for_log("store-postgres: connected to")) << set_->logs();
}

TEST_F(Replicas, ATokenIssuedByOneWorksOnTheOther) {
    // Signed in through a; the access token (signed with the key both unseal) works on b.
    const std::string alice = account("alice", *a_);
    ASSERT_FALSE(alice.empty());
    auto added =
        b_->post_json("/api/v1/notes/add", {{"title", "shared"}, {"text", "via b"}}, bearer(alice));
    ASSERT_EQ(added.status, 200) << added.body << set_->logs();
    auto got = a_->get("/api/v1/notes/get?title=shared", bearer(alice));
    ASSERT_EQ(got.status, 200) << got.body;
    EXPECT_EQ(got.json()["data"]["text"], "via b");
    auto me = b_->post_json("/auth/me", json::object(), bearer(alice));
    ASSERT_EQ(me.status, 200) << me.body;
    EXPECT_EQ(me.json()["account"]["id"], "alice");

    // Signed in through b, the other way round; a personal token made on b works on a.
    const std::string from_b = access_token(*b_, "alice", "alice-secret-1");
    EXPECT_EQ(a_->get("/api/v1/notes/get?title=shared", bearer(from_b)).status, 200);
    auto personal = b_->post_json("/auth/createToken", {{"name", "ci"}}, bearer(from_b));
    ASSERT_EQ(personal.status, 200) << personal.body;
    EXPECT_EQ(a_->get("/api/v1/notes/get?title=shared", bearer(personal.json().value("token", "")))
                  .status,
              200);
    // The admin account exists once: the admin signs in through either with the one secret.
    EXPECT_FALSE(access_token(*b_, "admin", ReplicaSet::kAdminSecret).empty());
    // Wrong secrets are refused by both.
    EXPECT_EQ(b_->post_json("/auth/token", {{"id", "alice"}, {"secret", "not-hers-1"}}).status,
              401);
}

TEST_F(Replicas, ABrokerMessagePublishedOnOneReachesASubscriberOnTheOther) {
    const std::string alice = account("alice", *a_);
    const std::string topic = unique("replicas.broker");
    auto sub = std::async(std::launch::async, [port = (*set_)[1].api_port(), topic, alice] {
        return stream_messages(port, "/broker/subscribe?topic=" + topic + "&limit=1&wait_ms=20000",
                               alice, 25000);
    });
    // The subscription exists some time after the request: publish on a until b's subscriber
    // answers (a message nobody is subscribed to yet is dropped: the broker keeps nothing).
    bool received = false;
    int published = 0;
    for (; published < 150 && !received; ++published) {
        auto r = a_->post_json("/broker/publish",
                               {{"topic", topic}, {"body", "from-a-" + std::to_string(published)}},
                               bearer(alice));
        ASSERT_EQ(r.status, 200) << r.body;
        received = sub.wait_for(std::chrono::milliseconds(100)) == std::future_status::ready;
    }
    ASSERT_TRUE(received) << "no message published on replica 0 reached replica 1's subscriber\n"
                          << set_->logs();
    std::vector<json> chunks = sub.get();
    ASSERT_EQ(chunks.size(), 1u);
    EXPECT_EQ(chunks[0]["topic"], topic);
    EXPECT_EQ(chunks[0]["body"].get<std::string>().rfind("from-a-", 0), 0u) << chunks[0];
    EXPECT_EQ(chunks[0]["headers"]["Platform-Account"], "alice") << chunks[0];
}

TEST_F(Replicas, AnEventAppendedOnOneIsReadAtItsOffsetOnTheOther) {
    const std::string alice = account("alice", *a_);
    const std::string topic = unique("replicas.events");
    // Appends alternating between the replicas: one log, gapless offsets from 1.
    std::vector<int64_t> offsets;
    for (int i = 0; i < 6; ++i) {
        HttpClient& via = i % 2 == 0 ? *a_ : *b_;
        auto r = via.post_json("/events/publish",
                               {{"topic", topic}, {"payload", {{"n", i}, {"via", i % 2}}}},
                               bearer(alice));
        ASSERT_EQ(r.status, 200) << r.body << set_->logs();
        offsets.push_back(r.json().value("offset", int64_t(0)));
    }
    EXPECT_EQ(offsets, (std::vector<int64_t>{1, 2, 3, 4, 5, 6}));
    // Each replica reads every event at the offset it was given, whichever took the append.
    for (HttpClient* reader : {b_.get(), a_.get()}) {
        auto r = reader->get("/events/read?topic=" + topic + "&offset=3&limit=10", bearer(alice));
        ASSERT_EQ(r.status, 200) << r.body;
        const json events = r.json()["events"];
        ASSERT_EQ(events.size(), 4u) << r.body;
        for (size_t i = 0; i < events.size(); ++i) {
            EXPECT_EQ(events[i]["offset"], 3 + static_cast<int>(i)) << r.body;
            EXPECT_EQ(events[i]["payload"]["n"], 2 + static_cast<int>(i)) << r.body;
        }
        EXPECT_EQ(r.json()["next_offset"], 7) << r.body;
    }
    // A consumer on b from offset 1 gets the events a and b appended, in order.
    auto consumed =
        stream_messages((*set_)[1].api_port(),
                        "/events/consume?topic=" + topic + "&offset=1&limit=6", alice, 20000);
    ASSERT_EQ(consumed.size(), 6u);
    for (size_t i = 0; i < consumed.size(); ++i) EXPECT_EQ(consumed[i]["offset"], int(i) + 1);
}

TEST_F(Replicas, ARuleChangeOnOneIsEnforcedByTheOtherWithinFiveSeconds) {
    const std::string bob = account("bob", *a_);
    ASSERT_EQ(b_->post_json("/api/v1/notes/list", json::object(), bearer(bob)).status, 200);
    auto made = a_->post_json("/auth/createRule",
                              {{"id", "no-notes"},
                               {"scope", "*"},
                               {"resource", "service:v1.notes:*"},
                               {"access", "denied"},
                               {"priority", 10}},
                              bearer(admin_));
    ASSERT_EQ(made.status, 200) << made.body;
    const auto changed = Clock::now();
    // At once on a, within 5 s on b: polled until b refuses (a condition, with a 5 s deadline).
    EXPECT_EQ(a_->post_json("/api/v1/notes/list", json::object(), bearer(bob)).status, 403);
    const bool refused = within(5, [&] {
        return b_->post_json("/api/v1/notes/list", json::object(), bearer(bob)).status == 403;
    });
    const double took = seconds_since(changed);
    std::printf("[replicas] a DENIED rule made on replica 0 refused by replica 1 after %.2f s\n",
                took);
    ASSERT_TRUE(refused) << "replica 1 still serves bob " << took << " s after the rule\n"
                         << set_->logs();
    EXPECT_LE(took, 5.0);
    // Other services still answer bob on b; the rule deleted on b lets notes through on a again.
    EXPECT_EQ(b_->post_json("/api/v1/tasks/list", json::object(), bearer(bob)).status, 200);
    ASSERT_EQ(b_->post_json("/auth/deleteRule", {{"id", "no-notes"}}, bearer(admin_)).status, 200);
    const auto lifted = Clock::now();
    EXPECT_TRUE(within(5, [&] {
        return a_->post_json("/api/v1/notes/list", json::object(), bearer(bob)).status == 200;
    })) << set_->logs();
    EXPECT_LE(seconds_since(lifted), 5.0);
}

TEST_F(Replicas, ARevokedTokenOnOneIsRefusedByTheOtherWithinFiveSeconds) {
    const std::string carol = account("carol", *a_);
    // A personal token and a login (refresh + access token) made on a, both used on b.
    auto personal = a_->post_json("/auth/createToken", {{"name", "ci"}}, bearer(carol));
    ASSERT_EQ(personal.status, 200) << personal.body;
    const std::string token = personal.json().value("token", "");
    const std::string token_id = personal.json().value("id", "");
    auto login = a_->post_json("/auth/token", {{"id", "carol"}, {"secret", "carol-secret-1"}});
    ASSERT_EQ(login.status, 200) << login.body;
    const std::string access = login.json().value("access_token", "");
    const std::string refresh = login.json().value("refresh_token", "");
    auto list = [&](const std::string& t) {
        return b_->post_json("/api/v1/notes/list", json::object(), bearer(t)).status;
    };
    ASSERT_EQ(list(token), 200);
    ASSERT_EQ(list(access), 200);

    // The personal token deleted on a: b refuses it within 5 s.
    ASSERT_EQ(a_->post_json("/auth/deleteToken", {{"id", token_id}}, bearer(carol)).status, 200);
    auto revoked = Clock::now();
    EXPECT_EQ(a_->post_json("/api/v1/notes/list", json::object(), bearer(token)).status, 401);
    bool refused = within(5, [&] { return list(token) == 401; });
    double took = seconds_since(revoked);
    std::printf(
        "[replicas] a personal token deleted on replica 0 refused by replica 1 after %.2f s\n",
        took);
    EXPECT_TRUE(refused) << "replica 1 still takes the deleted token after " << took << " s";
    EXPECT_LE(took, 5.0);

    // The login revoked (logout) on a: its access token is refused by b within 5 s.
    ASSERT_EQ(a_->post_json("/auth/revoke", {{"refresh_token", refresh}}, bearer(access)).status,
              200);
    revoked = Clock::now();
    refused = within(5, [&] { return list(access) == 401; });
    took = seconds_since(revoked);
    std::printf(
        "[replicas] a login revoked on replica 0: its access token refused by replica 1 "
        "after %.2f s\n",
        took);
    EXPECT_TRUE(refused) << "replica 1 still takes the revoked login's access token after " << took
                         << " s\n"
                         << set_->logs();
    EXPECT_LE(took, 5.0);
    // carol's other credentials are untouched: a new sign-in through b works on a.
    EXPECT_EQ(a_->post_json("/api/v1/notes/list", json::object(),
                            bearer(access_token(*b_, "carol", "carol-secret-1")))
                  .status,
              200);
}

// Two replicas started at the same moment on an empty database race to create what the first start
// makes (auth-local's signing key, the admin account, the default rule): they must end up with one
// of each — a token signed by either is taken by the other, the admin's one secret works on both.
TEST(ReplicasStartingTogether, ShareOneSigningKeyAndOneAdmin) {
    if (auto why = replicas_skip_reason(); !why.empty()) GTEST_SKIP() << why;
    ReplicaSet set;
    set.start_together(2);
    HttpClient a("127.0.0.1", set[0].api_port()), b("127.0.0.1", set[1].api_port());
    const std::string from_a = access_token(a, "admin", ReplicaSet::kAdminSecret);
    const std::string from_b = access_token(b, "admin", ReplicaSet::kAdminSecret);
    ASSERT_FALSE(from_a.empty() || from_b.empty()) << set.logs();
    EXPECT_EQ(b.get("/auth/listRules", bearer(from_a)).status, 200) << set.logs();
    auto rules = a.get("/auth/listRules", bearer(from_b));
    ASSERT_EQ(rules.status, 200) << rules.body << set.logs();
    int defaults = 0;
    const json listed = rules.json()["rules"];
    for (const auto& r : listed) defaults += r.value("id", "") == "default";
    EXPECT_EQ(defaults, 1) << rules.body;
    // The default rule is public: anonymous callers reach public endpoints through both.
    EXPECT_EQ(a.post_json("/registry/listServices", json::object()).status, 200);
    EXPECT_EQ(b.post_json("/registry/listServices", json::object()).status, 200);
}

// network/nodes reads the node records every replica keeps in the shared store (decision 72), so
// each lists both (a host without them lists only itself).
TEST_F(Replicas, NetworkNodesListsBothReplicas) {
    std::set<std::string> ids;
    json nodes;
    const bool both = within(10, [&] {
        auto r = b_->get("/network/nodes", bearer(admin_));
        if (r.status != 200) return false;
        nodes = r.json()["nodes"];
        ids.clear();
        for (const auto& n : nodes) ids.insert(n.value("id", ""));
        return ids.size() >= 2;
    });
    ASSERT_TRUE(both) << "network/nodes on replica 1: " << nodes.dump();
    EXPECT_EQ(ids.size(), 2u) << nodes.dump();
    // Each node's address is its own gateway: both api ports appear, and each serves notes.
    std::string all = nodes.dump();
    for (size_t i = 0; i < 2; ++i)
        EXPECT_NE(all.find(":" + std::to_string((*set_)[i].api_port())), std::string::npos)
            << "replica " << i << " (port " << (*set_)[i].api_port() << ") missing: " << all;
    for (const auto& n : nodes) EXPECT_NE(n.dump().find("notes"), std::string::npos) << n.dump();
    // Replica 0 answers the same list.
    auto r = a_->get("/network/nodes", bearer(admin_));
    ASSERT_EQ(r.status, 200) << r.body;
    std::set<std::string> from_a;
    const json listed = r.json()["nodes"];
    for (const auto& n : listed) from_a.insert(n.value("id", ""));
    EXPECT_EQ(from_a, ids);
}

// Both replicas run the calendar's scheduler over the one due index: each event claimed by
// compare-and-set on its record, so every reminder is delivered once — not once per replica.
TEST_F(ReplicasWithoutAccounts, ScheduledEventsFireOnceAcrossReplicas) {
    constexpr int kEvents = 6;
    const std::time_t soon = std::time(nullptr) + 3;
    char when[32];
    std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&soon));
    std::vector<std::string> ids, markers;
    for (int i = 0; i < kEvents; ++i) {
        HttpClient& via = i % 2 ? *b_ : *a_;
        markers.push_back(unique("reminder-" + std::to_string(i)));
        auto r = via.post_json("/api/v1/events/create", {{"title", markers.back()}, {"when", when}},
                               bearer("alice"));
        ASSERT_EQ(r.status, 200) << r.body;
        ids.push_back(r.json()["data"].value("id", ""));
    }
    const bool fired = within(30, [&] {
        for (size_t i = 0; i < ids.size(); ++i) {
            auto r = (i % 2 ? *a_ : *b_).get("/api/v1/events/read?id=" + ids[i], bearer("alice"));
            if (r.status != 200 || r.json()["data"].value("fired", false) != true) return false;
        }
        return true;
    });
    ASSERT_TRUE(fired) << set_->logs();
    // One reminder per event in the inbox: a conversation "Reminder: <title>" each.
    auto list = a_->get("/api/v1/inbox/list?limit=100", bearer("alice"));
    ASSERT_EQ(list.status, 200) << list.body;
    const json conversations = list.json()["data"]["items"];
    std::map<std::string, int> seen;
    for (const auto& c : conversations) seen[c.value("title", "")] += 1;
    for (const auto& m : markers)
        EXPECT_EQ(seen["Reminder: " + m], 1) << m << " in " << conversations.dump();
    EXPECT_EQ(conversations.size(), size_t(kEvents)) << conversations.dump();
}

}  // namespace
