// The host's state shared between replicas through the store provider (decision 72), over a real
// Runtime whose store is store-memory: two rate limiters, registries or node-record writers on one
// store are two replicas on one PostgreSQL. Shared rate-limit counters (rate_limiter.hpp), the
// registered services in `_registry` (service_registry.hpp share_externals), the node records in
// `_nodes` (node_records.hpp, Runtime::network_nodes) and the node id plugins read.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <platform/host/core/host_store_table.hpp>
#include <platform/host/core/node_records.hpp>
#include <platform/host/core/rate_limiter.hpp>
#include <platform/host/core/runtime.hpp>
#include <platform/sdk/str.hpp>
#include <string>
#include <thread>
#include <vector>

#include "build_tree.hpp"

namespace host = platform::host;
using nlohmann::json;

namespace {

// A started runtime whose store provider is `store` (no service plugins), on a manual clock.
class Replica {
public:
    explicit Replica(const std::string& store = "store-memory",
                     host::HttpSettings http = host::HttpSettings{}, bool broker = false) {
        char tmpl[] = "/tmp/shared-state-test-XXXXXX";
        if (!mkdtemp(tmpl)) throw std::runtime_error("mkdtemp failed");
        home_ = tmpl;
        host::Settings settings;
        settings.exe_dir = platform::test::build_dir();
        settings.home = home_;
        settings.config_secret_key = "shared-state-test";
        settings.plugin_path = {platform::test::test_plugin_dir() + "/store-minimal"};
        host::Profile profile;
        profile.name = "shared-state-test";
        profile.file = "shared-state-test.yaml";
        profile.manual_clock = true;
        profile.all_plugins = false;
        profile.http = http;
        if (!store.empty())
            profile.providers["store"] =
                host::ProviderChoice{store, nlohmann::json::object(), "test"};
        if (broker)
            profile.providers["broker"] =
                host::ProviderChoice{"broker-memory", nlohmann::json::object(), "test"};
        rt_ = std::make_unique<host::Runtime>(settings, profile);
        rt_->start();
        rt_->clock().set_ms(1767225600000);
    }
    ~Replica() {
        rt_.reset();
        std::error_code ec;
        std::filesystem::remove_all(home_, ec);
    }
    host::Runtime& rt() { return *rt_; }
    const std::string& home() const { return home_; }
    int64_t now() const { return rt_->clock().now_ms(); }

private:
    std::string home_;
    std::unique_ptr<host::Runtime> rt_;
};

// A store that fails (or conflicts) until told otherwise: the shared limiter's fail-open path.
class BrokenStore : public host::RateLimitStore {
public:
    std::atomic<platform_status_t> answer{PLATFORM_UNAVAILABLE};
    std::shared_ptr<host::RateLimitStore> healthy;
    platform_status_t get(const std::string& k, int64_t now, std::string& out) override {
        const platform_status_t a = answer;
        return a == PLATFORM_OK ? healthy->get(k, now, out) : a;
    }
    platform_status_t cas(const std::string& k, const std::string* e, const std::string& v,
                          int64_t x, int64_t now) override {
        const platform_status_t a = answer;
        return a == PLATFORM_OK ? healthy->cas(k, e, v, x, now) : a;
    }
};

// Counts the round trips a limiter makes to a working store.
class CountingStore : public host::RateLimitStore {
public:
    explicit CountingStore(std::shared_ptr<host::RateLimitStore> s) : store(std::move(s)) {}
    std::shared_ptr<host::RateLimitStore> store;
    std::atomic<int> gets{0}, sets{0};
    platform_status_t get(const std::string& k, int64_t now, std::string& out) override {
        ++gets;
        return store->get(k, now, out);
    }
    platform_status_t cas(const std::string& k, const std::string* e, const std::string& v,
                          int64_t x, int64_t now) override {
        ++sets;
        return store->cas(k, e, v, x, now);
    }
};

int admitted(host::RateLimiter& a, host::RateLimiter& b, int tries,
             const std::string& client = "10.0.0.1") {
    int n = 0;
    for (int i = 0; i < tries; ++i) n += (i % 2 ? b : a).check(client).allowed;
    return n;
}

json service(const std::string& node, const std::string& address = "127.0.0.1:9") {
    return {{"name", "go.core.api.greeter"},
            {"version", "1.2.0"},
            {"nodes", {{{"id", node}, {"address", address}}}}};
}

}  // namespace

TEST(SharedRateLimit, TwoReplicasTogetherAdmitTheRateNotTwiceIt) {
    Replica r;
    int64_t wall = 1767225600000;
    auto store = host::store_rate_counters(r.rt());
    host::RateLimiter a(1, 3), b(1, 3);
    a.share(store, "address", [&] { return wall; });
    b.share(store, "address", [&] { return wall; });
    EXPECT_EQ(admitted(a, b, 10), 3);  // one bucket of 3 between them
    auto refused = b.check("10.0.0.1");
    EXPECT_FALSE(refused.allowed);
    EXPECT_EQ(refused.retry_after_seconds, 1);
    wall += 1000;  // one token back, for whichever replica asks first
    EXPECT_EQ(admitted(a, b, 10), 1);
    wall += 60'000;  // full again
    EXPECT_EQ(admitted(b, a, 10), 3);
    // Another client, and the same client under another scope, have buckets of their own.
    EXPECT_EQ(admitted(a, b, 10, "10.0.0.2"), 3);
    host::RateLimiter account(1, 3);
    account.share(store, "account", [&] { return wall; });
    EXPECT_TRUE(account.check("10.0.0.1").allowed);
    EXPECT_FALSE(a.failing_open());
    EXPECT_EQ(a.clients(), 0u);  // nothing counted in the process

    // Unshared, the same two limiters admit twice the burst.
    host::RateLimiter la(1, 3), lb(1, 3);
    EXPECT_EQ(admitted(la, lb, 10), 6);
}

// A replica alone on a client costs one compare-and-set per admitted request (against the record
// it wrote last) and nothing per refusal; a read only when another replica wrote in between.
TEST(SharedRateLimit, OneRoundTripPerAdmissionWhileNoOtherReplicaWrites) {
    Replica r;
    int64_t wall = 1767225600000;
    auto counting = std::make_shared<CountingStore>(host::store_rate_counters(r.rt()));
    host::RateLimiter a(1, 3), b(1, 3);
    a.share(counting, "address", [&] { return wall; });
    b.share(host::store_rate_counters(r.rt()), "address", [&] { return wall; });
    EXPECT_TRUE(a.check("c").allowed);  // nothing seen yet: a read, then the write
    EXPECT_EQ(counting->gets.load(), 1);
    EXPECT_TRUE(a.check("c").allowed);
    EXPECT_TRUE(a.check("c").allowed);
    EXPECT_EQ(counting->gets.load(), 1);
    EXPECT_EQ(counting->sets.load(), 3);
    EXPECT_FALSE(a.check("c").allowed);  // refused from the record it wrote: no round trip
    EXPECT_EQ(counting->gets.load() + counting->sets.load(), 4);
    wall += 2000;
    EXPECT_TRUE(b.check("c").allowed);  // the other replica takes a token
    EXPECT_TRUE(a.check("c").allowed);  // conflict, read, write: still one bucket
    EXPECT_EQ(counting->gets.load(), 2);
    EXPECT_EQ(counting->sets.load(), 5);
    EXPECT_FALSE(a.check("c").allowed);
    EXPECT_FALSE(b.check("c").allowed);
}

// Without a clock of its own, a limiter on the runtime's store counts on the runtime's business
// clock (as every store call must: stores purge by the latest time they were given).
TEST(SharedRateLimit, CountsOnTheRuntimesClock) {
    Replica r;
    host::RateLimiter a(1, 1);
    a.share(host::store_rate_counters(r.rt()), "address");
    EXPECT_TRUE(a.check("c").allowed);
    EXPECT_FALSE(a.check("c").allowed);
    r.rt().clock().advance_ms(1000);
    EXPECT_TRUE(a.check("c").allowed);
    EXPECT_FALSE(a.check("c").allowed);
}

TEST(SharedRateLimit, ABucketLeavesNoRecordOnceItIsFullAgain) {
    Replica r;
    int64_t wall = 1767225600000;
    host::RateLimiter a(2, 4);
    a.share(host::store_rate_counters(r.rt()), "address", [&] { return wall; });
    EXPECT_TRUE(a.check("c").allowed);
    EXPECT_TRUE(a.check("c").allowed);
    host::HostStoreTable table(r.rt(), "_ratelimit");
    std::string raw;
    ASSERT_EQ(table.get("address/c", wall, raw), PLATFORM_OK);
    EXPECT_EQ(raw.rfind("2.000000 ", 0), 0u) << raw;
    // Two tokens at 2/s: full 1 s later, and the record is gone then.
    EXPECT_EQ(table.get("address/c", wall + 999, raw), PLATFORM_OK);
    EXPECT_EQ(table.get("address/c", wall + 1001, raw), PLATFORM_NOT_FOUND);
}

TEST(SharedRateLimit, ConcurrentChecksOnTwoReplicasAdmitExactlyTheBurst) {
    Replica r;
    auto store = host::store_rate_counters(r.rt());
    host::RateLimiter a(0.001, 40), b(0.001, 40);  // no refill within the test
    const int64_t wall = 1767225600000;
    a.share(store, "address", [&] { return wall; });
    b.share(store, "address", [&] { return wall; });
    std::atomic<int> allowed{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 6; ++t)
        threads.emplace_back([&, t] {
            for (int i = 0; i < 25; ++i) allowed += (t % 2 ? b : a).check("hot").allowed;
        });
    for (auto& t : threads) t.join();
    // A check that met too many conflicts falls back to the local bucket, which admits more; with
    // 8 attempts each that does not happen here.
    EXPECT_FALSE(a.failing_open() || b.failing_open());
    EXPECT_EQ(allowed.load(), 40);
}

TEST(SharedRateLimit, AFailingStoreFailsOpenToTheLocalBucketUntilItAnswers) {
    Replica r;
    auto broken = std::make_shared<BrokenStore>();
    broken->healthy = host::store_rate_counters(r.rt());
    int64_t wall = 1767225600000;
    host::RateLimiter a(0.001, 2);
    a.share(broken, "address", [&] { return wall; });
    // The store fails: this process's bucket still limits (fail open, not unlimited).
    EXPECT_TRUE(a.check("c").allowed);
    EXPECT_TRUE(a.failing_open());
    EXPECT_TRUE(a.check("c").allowed);
    EXPECT_FALSE(a.check("c").allowed);
    EXPECT_EQ(a.clients(), 1u);
    // It answers again: the shared bucket counts (a fresh, full one).
    broken->answer = PLATFORM_OK;
    EXPECT_TRUE(a.check("c").allowed);
    EXPECT_FALSE(a.failing_open());
    // A store that keeps conflicting is given up on after a few attempts, the same way.
    broken->answer = PLATFORM_CONFLICT;
    host::RateLimiter b(0.001, 1);
    b.share(broken, "address", [&] { return wall; });
    EXPECT_TRUE(b.check("d").allowed);
    EXPECT_TRUE(b.failing_open());
    EXPECT_FALSE(b.check("d").allowed);
}

TEST(SharedRateLimit, AStoreWithoutCompareAndSetIsRefusedAtStart) {
    host::HttpSettings http;
    http.account_rate_limit.requests_per_second = 5;
    http.account_rate_limit.shared = true;
    try {
        Replica r("store-minimal", http);
        FAIL() << "shared counters started on a store without compare-and-set";
    } catch (const host::ProfileError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("http.account_rate_limit.shared"), std::string::npos) << what;
        EXPECT_NE(what.find("store-minimal"), std::string::npos) << what;
        EXPECT_NE(what.find("compare-and-set"), std::string::npos) << what;
    }
    http.account_rate_limit.shared = false;
    Replica fine("store-minimal", http);  // in the process: any store
}

TEST(SharedRegistry, EveryReplicaListsGetsAndResolvesTheSameServices) {
    Replica r;
    host::ServiceRegistry a("go.core.api", "a"), b("go.core.api", "b");
    a.share_externals(std::make_unique<host::HostStoreTable>(r.rt(), "_registry"));
    b.share_externals(std::make_unique<host::HostStoreTable>(r.rt(), "_registry"));
    std::vector<json> a_events, b_events;
    a.watch([&](const json& e) { a_events.push_back(e); });
    b.watch([&](const json& e) { b_events.push_back(e); });
    const int64_t t0 = r.now();
    std::string error;
    ASSERT_EQ(a.register_external(service("n1"), 90'000, t0, error), PLATFORM_OK) << error;
    ASSERT_EQ(a_events.size(), 1u);
    EXPECT_EQ(a_events[0]["action"], "create");
    // Replica b lists it, gets it by its short name and proxies to its node.
    json listed = b.list(t0);
    ASSERT_EQ(listed.size(), 1u);
    EXPECT_EQ(listed[0]["name"], "go.core.api.greeter");
    EXPECT_EQ(listed[0]["version"], "1.2.0");
    ASSERT_TRUE(b.get("greeter", t0).is_array());
    EXPECT_EQ(b.node_addresses("go.core.api.greeter", t0), std::vector<std::string>{"127.0.0.1:9"});
    // A heartbeat of another node through b adds to the same record.
    ASSERT_EQ(b.register_external(service("n2", "127.0.0.1:10"), 30'000, t0 + 1000, error),
              PLATFORM_OK);
    EXPECT_EQ(b_events.back()["action"], "update");
    EXPECT_EQ(a.get("go.core.api.greeter", t0 + 1000)[0]["nodes"].size(), 2u);
    // n2's TTL passes first: b's sweep drops it from the store, and a no longer sees it.
    b.expire(t0 + 31'000);
    EXPECT_EQ(b_events.back()["action"], "update");
    EXPECT_EQ(a.node_addresses("go.core.api.greeter", t0 + 31'000),
              std::vector<std::string>{"127.0.0.1:9"});
    // Deregistered through b: gone for a; a second time NOT_FOUND on either.
    ASSERT_EQ(b.deregister_external({{"name", "go.core.api.greeter"}}, error), PLATFORM_OK);
    EXPECT_EQ(b_events.back()["action"], "delete");
    EXPECT_TRUE(a.get("go.core.api.greeter", t0 + 31'000).is_null());
    EXPECT_EQ(a.deregister_external({{"name", "go.core.api.greeter"}}, error), PLATFORM_NOT_FOUND);
    EXPECT_NE(error.find("service.name"), std::string::npos);
    // Registered again with a short TTL: expiry is in the record, whoever sweeps.
    ASSERT_EQ(a.register_external(service("n3"), 5'000, t0, error), PLATFORM_OK);
    EXPECT_TRUE(b.list(t0 + 5'000).empty());  // listed by nobody once its TTL passed
    b.expire(t0 + 5'000);
    EXPECT_EQ(b_events.back()["action"], "delete");
    a.expire(t0 + 5'000);  // nothing left to expire: no second event
    EXPECT_EQ(a_events.back()["action"], "create");
}

TEST(SharedRegistry, ConcurrentRegistrationsOnTwoReplicasKeepEveryNode) {
    Replica r;
    host::ServiceRegistry a("go.core.api", "a"), b("go.core.api", "b");
    a.share_externals(std::make_unique<host::HostStoreTable>(r.rt(), "_registry"));
    b.share_externals(std::make_unique<host::HostStoreTable>(r.rt(), "_registry"));
    const int64_t t0 = r.now();
    std::vector<std::thread> threads;
    std::atomic<int> failed{0};
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            for (int i = 0; i < 10; ++i) {
                std::string error;
                const std::string node = "n" + std::to_string(t) + "-" + std::to_string(i);
                if ((t % 2 ? b : a).register_external(service(node), 90'000, t0, error) !=
                    PLATFORM_OK)
                    ++failed;
            }
        });
    for (auto& t : threads) t.join();
    EXPECT_EQ(failed.load(), 0);
    EXPECT_EQ(a.get("go.core.api.greeter", t0)[0]["nodes"].size(), 40u);
}

TEST(SharedRegistry, APluginsNameIsStillRefusedAndBadRecordsNamed) {
    Replica r;
    host::ServiceRegistry a("go.core.api", "a");
    a.share_externals(std::make_unique<host::HostStoreTable>(r.rt(), "_registry"));
    std::string error;
    EXPECT_EQ(a.register_external({{"name", "x"}}, 0, r.now(), error), PLATFORM_INVALID_ARGUMENT);
    EXPECT_NE(error.find("service.nodes"), std::string::npos) << error;
}

// Registry watchers hear the changes other replicas make: each host publishes its own on the
// broker, and one told of another's change reads the service back from the store.
TEST(SharedRegistry, WatchersHearChangesMadeThroughOtherReplicas) {
    Replica r("store-memory", host::HttpSettings{}, true);
    host::Runtime& rt = r.rt();
    std::mutex m;
    std::condition_variable cv;
    std::vector<json> seen;
    struct Published {
        std::mutex m;
        std::condition_variable cv;
        std::vector<json> messages;
    } published;
    rt.registry().watch([&](const json& e) {
        std::lock_guard<std::mutex> g(m);
        seen.push_back(e);
        cv.notify_all();
    });
    host::Plugin* broker = rt.provider("broker");
    ASSERT_NE(broker, nullptr);
    const auto* bt = static_cast<const platform_broker_provider_t*>(broker->desc->provider);
    const std::string topic = "_platform.registry", headers = "{}";
    uint64_t sub = 0;
    ASSERT_EQ(bt->subscribe(
                  broker->instance, platform::view(topic), platform_str_t{},
                  [](void* user, platform_str_t, platform_str_t body, platform_str_t) {
                      auto* out = static_cast<Published*>(user);
                      std::lock_guard<std::mutex> g(out->m);
                      out->messages.push_back(json::parse(std::string(body.ptr, body.len)));
                      out->cv.notify_all();
                  },
                  &published, &sub),
              PLATFORM_OK);
    auto wait_for = [&](size_t n) {
        std::unique_lock<std::mutex> g(m);
        return cv.wait_for(g, std::chrono::seconds(10), [&] { return seen.size() >= n; });
    };
    auto tell = [&](const json& message) {
        const std::string body = message.dump();
        ASSERT_EQ(bt->publish(broker->instance, platform::view(topic), platform::view(body),
                              platform::view(headers)),
                  PLATFORM_OK);
    };
    // Replica "b" (same store, no host of its own here) registers, then says so on the broker.
    host::ServiceRegistry b("go.core.api", "node-b");
    b.share_externals(std::make_unique<host::HostStoreTable>(rt, "_registry"));
    std::string error;
    ASSERT_EQ(b.register_external(service("n1"), 90'000, r.now(), error), PLATFORM_OK);
    tell({{"node", "node-b"}, {"action", "create"}, {"service", "go.core.api.greeter"}});
    ASSERT_TRUE(wait_for(1));
    {
        std::lock_guard<std::mutex> g(m);
        EXPECT_EQ(seen[0]["action"], "create");
        EXPECT_EQ(seen[0]["service"]["nodes"][0]["id"], "n1");
    }
    // A message about a service the store does not hold is heard as what the store says: gone.
    tell({{"node", "node-b"}, {"action", "create"}, {"service", "go.core.api.forged"}});
    ASSERT_TRUE(wait_for(2));
    {
        std::lock_guard<std::mutex> g(m);
        EXPECT_EQ(seen[1]["action"], "delete");
        EXPECT_TRUE(seen[1]["service"]["nodes"].empty());
    }
    // A change made through this host is published for the others, naming this node.
    ASSERT_EQ(rt.registry().deregister_external({{"name", "go.core.api.greeter"}}, error),
              PLATFORM_OK);
    std::unique_lock<std::mutex> g(published.m);
    ASSERT_TRUE(published.cv.wait_for(g, std::chrono::seconds(10), [&] {
        return !published.messages.empty() &&
               published.messages.back()["node"] == rt.registry().node_id();
    }));
    EXPECT_EQ(published.messages.back()["action"], "delete");
    EXPECT_EQ(published.messages.back()["service"], "go.core.api.greeter");
    g.unlock();
    bt->unsubscribe(broker->instance, sub);
}

TEST(NodeRecords, EveryLiveReplicaIsListedThisOneFirst) {
    Replica r;
    const std::string self = r.rt().registry().node_id();
    json nodes = r.rt().network_nodes();
    ASSERT_EQ(nodes.size(), 1u);
    EXPECT_EQ(nodes[0]["id"], self);
    // Listening: its own record is in the store for the others.
    r.rt().set_addresses("127.0.0.1:8080", "127.0.0.1:8081");
    host::HostStoreTable table(r.rt(), "_nodes");
    std::string raw;
    const int64_t now = r.now();  // the business clock, as every store call
    ASSERT_EQ(table.get(self, now, raw), PLATFORM_OK);
    json own = json::parse(raw);
    EXPECT_EQ(own["address"], "127.0.0.1:8080");
    EXPECT_EQ(own["metadata"]["proxy"], "127.0.0.1:8081");
    EXPECT_EQ(own["metadata"]["profile"], "shared-state-test");
    EXPECT_TRUE(own["started"].is_number_integer());
    // Another replica's record (written as it would write it) is listed after this one.
    host::NodeRecords other(r.rt());
    ASSERT_TRUE(other.write({{"id", "node-b"},
                             {"address", "10.0.0.2:8080"},
                             {"metadata", {{"proxy", "10.0.0.2:8081"}, {"profile", "kubernetes"}}},
                             {"services", {"go.core.api.v1.notes"}},
                             {"started", now}},
                            now));
    nodes = r.rt().network_nodes();
    ASSERT_EQ(nodes.size(), 2u);
    EXPECT_EQ(nodes[0]["id"], self);
    EXPECT_EQ(nodes[1]["id"], "node-b");
    EXPECT_EQ(nodes[1]["services"][0], "go.core.api.v1.notes");
    // One not refreshed for kLiveMs is not listed (a killed replica); a removed one neither.
    ASSERT_TRUE(other.write({{"id", "node-stale"}}, now - host::NodeRecords::kLiveMs));
    EXPECT_EQ(r.rt().network_nodes().size(), 2u);
    other.remove("node-b");
    EXPECT_EQ(r.rt().network_nodes().size(), 1u);
}

TEST(NodeRecords, WithoutAStoreOnlyThisNodeIsListed) {
    Replica r("");
    r.rt().set_addresses("127.0.0.1:8080", "127.0.0.1:8081");
    json nodes = r.rt().network_nodes();
    ASSERT_EQ(nodes.size(), 1u);
    EXPECT_EQ(nodes[0]["address"], "127.0.0.1:8080");
}

TEST(NodeId, IsKeptInTheHomeAndPluginsReadItAsPlatformNode) {
    Replica r;
    const std::string id = r.rt().registry().node_id();
    std::ifstream in(r.home() + "/node-id");
    std::string kept;
    in >> kept;
    EXPECT_EQ(kept, id);
    host::Plugin* store = r.rt().provider("store");
    ASSERT_NE(store, nullptr);
    std::string out;
    const std::string path = "platform.node";
    ASSERT_EQ(r.rt().api()->config_get(reinterpret_cast<platform_host_ctx_t*>(&store->ctx),
                                       platform::view(path), platform::append_sink, &out),
              PLATFORM_OK);
    EXPECT_EQ(out, json(id).dump());
}
