// The store conformance suite, run against every store provider through its built .so.
//
// It tests exactly what a provider declares: the basic contract (get, put, del, scan in some
// order, isolation of tables, awkward bytes, concurrency) runs everywhere, and every test of a
// feature (PLATFORM_STORE_TTL, PREFIX, ORDER, PERSISTENT, CAS, TRANSACTIONS) starts by skipping
// when the provider does not declare it. store-minimal (tests/plugins/store-minimal) declares no
// feature, so its feature tests skip and its basic tests must pass: that proves the gating.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include "build_tree.hpp"
#include "store_client.hpp"

using namespace providers_test;
using platform::testing::FakeHost;

namespace {

// `label` names the typed suite; it must not contain '-', which a gtest filter reads as "exclude".
// `features` is what the provider must declare, exactly.
struct MemoryStore {
    static constexpr const char* name = "store-memory";
    static constexpr const char* label = "Memory";
    static constexpr uint64_t features = PLATFORM_STORE_TTL | PLATFORM_STORE_PREFIX |
                                         PLATFORM_STORE_ORDER | PLATFORM_STORE_CAS |
                                         PLATFORM_STORE_TRANSACTIONS;
    std::string dir() const { return ""; }
    nlohmann::json config() const { return nlohmann::json::object(); }
};

struct SqliteStore {
    static constexpr const char* name = "store-sqlite";
    static constexpr const char* label = "Sqlite";
    static constexpr uint64_t features = MemoryStore::features | PLATFORM_STORE_PERSISTENT;
    TempDir tmp;
    std::string dir() const { return ""; }
    nlohmann::json config() const { return {{"path", (tmp.path() / "store.db").string()}}; }
};

// Test-only: get, put, del and unordered scans of whole tables, nothing else.
struct MinimalStore {
    static constexpr const char* name = "store-minimal";
    static constexpr const char* label = "Minimal";
    static constexpr uint64_t features = 0;
    std::string dir() const { return platform::test::test_plugin_dir() + "/store-minimal"; }
    nlohmann::json config() const { return nlohmann::json::object(); }
};

const char* feature_name(uint64_t f) {
    switch (f) {
        case PLATFORM_STORE_TTL:
            return "PLATFORM_STORE_TTL";
        case PLATFORM_STORE_PREFIX:
            return "PLATFORM_STORE_PREFIX";
        case PLATFORM_STORE_ORDER:
            return "PLATFORM_STORE_ORDER";
        case PLATFORM_STORE_PERSISTENT:
            return "PLATFORM_STORE_PERSISTENT";
        case PLATFORM_STORE_CAS:
            return "PLATFORM_STORE_CAS";
        case PLATFORM_STORE_TRANSACTIONS:
            return "PLATFORM_STORE_TRANSACTIONS";
        default:
            return "an unknown feature";
    }
}

template <class P>
class StoreConformance : public ::testing::Test {
protected:
    // The first of `features` the provider does not declare, or 0.
    uint64_t missing(uint64_t features) const {
        for (uint64_t bit = 1; bit && bit <= features; bit <<= 1)
            if ((features & bit) && !store().declares(bit)) return bit;
        return 0;
    }
    const StoreClient& store() const { return *client; }
    // A new instance over the same configuration (the same file, for a file-backed store).
    void reopen() {
        client.reset();
        client = std::make_unique<StoreClient>(host, P::name, provider.config(), provider.dir());
    }

    P provider;
    FakeHost host;
    std::unique_ptr<StoreClient> client =
        std::make_unique<StoreClient>(host, P::name, provider.config(), provider.dir());
};

// Skips the test unless the provider declares every feature named (PLATFORM_STORE_* bits).
#define REQUIRE_FEATURES(features)                                            \
    do {                                                                      \
        if (uint64_t m_ = this->missing(features))                            \
            GTEST_SKIP() << "provider does not declare " << feature_name(m_); \
    } while (0)

using Providers = ::testing::Types<MemoryStore, SqliteStore, MinimalStore>;
class ProviderNames {
public:
    template <class P>
    static std::string GetName(int) {
        return P::label;
    }
};
TYPED_TEST_SUITE(StoreConformance, Providers, ProviderNames);

// Bytewise (unsigned) order, written out without relying on std::string's comparison.
bool bytewise_less(const std::string& a, const std::string& b) {
    size_t n = std::min(a.size(), b.size());
    int c = n ? std::memcmp(a.data(), b.data(), n) : 0;
    return c < 0 || (c == 0 && a.size() < b.size());
}

std::string bin(const char* s, size_t n) {
    return std::string(s, n);
}

std::vector<std::string> sorted(std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
}

// Keys no store may mangle: quotes, path tricks, NUL bytes, emoji, 0x7F/0x80/0xFF, escapes.
const std::vector<std::string>& awkward_keys() {
    static const std::vector<std::string> keys = {"",
                                                  "\"quoted\" 'key'",
                                                  "../../etc/passwd",
                                                  bin("a\0b", 3),
                                                  bin("a\0", 2),
                                                  "a",
                                                  "a\x01",
                                                  "\xF0\x9F\x98\x80",
                                                  "\xF0\x9F\x98\x80/child",
                                                  "\xFF",
                                                  "\xFF\xFF",
                                                  "\x7F",
                                                  "\x80",
                                                  "Z",
                                                  "back\\slash",
                                                  "new\nline",
                                                  bin("\0", 1),
                                                  "%00%2F"};
    return keys;
}

std::string random_bytes(size_t n, unsigned seed) {
    std::string out(n, '\0');
    std::mt19937 rng(seed);
    for (auto& c : out) c = static_cast<char>(rng());
    return out;
}

// Lets threads start together.
class StartLine {
public:
    void wait() {
        std::unique_lock<std::mutex> lock(m_);
        cv_.wait(lock, [&] { return go_; });
    }
    void open() {
        std::lock_guard<std::mutex> g(m_);
        go_ = true;
        cv_.notify_all();
    }

private:
    std::mutex m_;
    std::condition_variable cv_;
    bool go_ = false;
};

}  // namespace

TEST(StoreOrdering, StdStringComparesAsUnsignedBytes) {
    EXPECT_LT(std::string("z"), std::string("\x80"));
    EXPECT_LT(std::string("\x7F"), std::string("\xFF"));
    EXPECT_LT(std::string("a"), bin("a\0", 2));
    EXPECT_LT(bin("a\0", 2), std::string("a\x01"));
    EXPECT_TRUE(bytewise_less("z", "\xFF"));
}

// ---- the basic contract: every provider ---------------------------------------------------------

TYPED_TEST(StoreConformance, DeclaresItsKindAndFeatures) {
    const auto& s = this->store();
    EXPECT_EQ(s.plugin().desc()->kind, PLATFORM_KIND_STORE);
    EXPECT_EQ(platform::view(s.plugin().desc()->id), TypeParam::name);
    EXPECT_EQ(s.table()->features, TypeParam::features);
    EXPECT_GE(s.table()->struct_size, sizeof(platform_store_provider_t));
    // cas and batch are in the table exactly when declared.
    EXPECT_EQ(s.table()->cas != nullptr, s.declares(PLATFORM_STORE_CAS));
    EXPECT_EQ(s.table()->batch != nullptr, s.declares(PLATFORM_STORE_TRANSACTIONS));
}

TYPED_TEST(StoreConformance, PutGetOverwriteDelete) {
    const auto& s = this->store();
    EXPECT_EQ(s.get_status("t", "k"), PLATFORM_NOT_FOUND);
    EXPECT_EQ(s.del("t", "k"), PLATFORM_NOT_FOUND);
    ASSERT_EQ(s.put("t", "k", "v1"), PLATFORM_OK);
    EXPECT_EQ(s.get("t", "k"), "v1");
    ASSERT_EQ(s.put("t", "k", "v2"), PLATFORM_OK);
    EXPECT_EQ(s.get("t", "k"), "v2");
    EXPECT_EQ(s.scan("t").size(), 1u);
    ASSERT_EQ(s.put("t", "empty", ""), PLATFORM_OK);
    EXPECT_EQ(s.get("t", "empty"), "");
    EXPECT_EQ(s.del("t", "k"), PLATFORM_OK);
    EXPECT_EQ(s.get_status("t", "k"), PLATFORM_NOT_FOUND);
    EXPECT_EQ(s.del("t", "k"), PLATFORM_NOT_FOUND);
}

TYPED_TEST(StoreConformance, TablesAreIsolated) {
    const auto& s = this->store();
    ASSERT_EQ(s.put("a", "k", "in-a"), PLATFORM_OK);
    ASSERT_EQ(s.put("ab", "k", "in-ab"), PLATFORM_OK);
    ASSERT_EQ(s.put(bin("a\0b", 3), "k", "in-a0b"), PLATFORM_OK);
    EXPECT_EQ(s.get("a", "k"), "in-a");
    EXPECT_EQ(s.get("ab", "k"), "in-ab");
    EXPECT_EQ(s.get(bin("a\0b", 3), "k"), "in-a0b");
    EXPECT_EQ(s.get_status("b", "k"), PLATFORM_NOT_FOUND);
    EXPECT_EQ(s.scan("a"), (Rows{{"k", "in-a"}}));
    EXPECT_EQ(s.del("a", "k"), PLATFORM_OK);
    EXPECT_EQ(s.get("ab", "k"), "in-ab");
    EXPECT_TRUE(s.scan("a").empty());
}

TYPED_TEST(StoreConformance, LimitCapsAndOffsetSkipsInAnyOrder) {
    const auto& s = this->store();
    for (int i = 0; i < 10; ++i)
        ASSERT_EQ(s.put("t", "k" + std::to_string(i), std::to_string(i)), PLATFORM_OK);
    EXPECT_EQ(s.keys("t").size(), 10u);
    EXPECT_EQ(s.keys("t", "", false, 3).size(), 3u);
    EXPECT_EQ(s.keys("t", "", false, 0, 8).size(), 2u);
    EXPECT_EQ(s.keys("t", "", false, 100, 7).size(), 3u);
    EXPECT_TRUE(s.keys("t", "", false, 5, 10).empty());
    EXPECT_TRUE(s.keys("t", "", false, 0, 4000000000u).empty());
    auto all = s.keys("t");
    EXPECT_EQ(std::set<std::string>(all.begin(), all.end()).size(), 10u);  // no duplicates
}

TYPED_TEST(StoreConformance, SinkCanStopTheScan) {
    const auto& s = this->store();
    for (const char* k : {"a", "b", "c", "d"}) ASSERT_EQ(s.put("t", k, k), PLATFORM_OK);
    std::vector<std::string> seen;
    platform_scan_t q{};
    q.struct_size = sizeof q;
    auto sink = [](void* user, platform_str_t k, platform_str_t) -> bool {
        auto* v = static_cast<std::vector<std::string>*>(user);
        v->push_back(platform::copy(k));
        return v->size() < 2;
    };
    auto st = s.table()->scan(s.plugin().inst(), bytes("t"), &q, kNow, sink, &seen);
    EXPECT_EQ(st, PLATFORM_OK);
    EXPECT_EQ(seen.size(), 2u);
    if (s.declares(PLATFORM_STORE_ORDER)) {
        EXPECT_EQ(seen, (std::vector<std::string>{"a", "b"}));
    }
}

TYPED_TEST(StoreConformance, MissingScanRequestIsInvalid) {
    const auto& s = this->store();
    EXPECT_EQ(s.table()->scan(s.plugin().inst(), bytes("t"), nullptr, kNow, nullptr, nullptr),
              PLATFORM_INVALID_ARGUMENT);
}

TYPED_TEST(StoreConformance, AwkwardKeysRoundTrip) {
    const auto& s = this->store();
    const auto& keys = awkward_keys();
    for (size_t i = 0; i < keys.size(); ++i)
        ASSERT_EQ(s.put("t", keys[i], "value:" + keys[i] + bin("\0end", 4)), PLATFORM_OK) << i;
    for (const auto& k : keys) EXPECT_EQ(s.get("t", k), "value:" + k + bin("\0end", 4));
    EXPECT_EQ(sorted(s.keys("t")), sorted(keys));
    EXPECT_EQ(s.del("t", bin("a\0", 2)), PLATFORM_OK);
    EXPECT_EQ(s.get("t", "a"), "value:a" + bin("\0end", 4));
    EXPECT_EQ(s.get("t", bin("a\0b", 3)), "value:" + bin("a\0b", 3) + bin("\0end", 4));
    EXPECT_EQ(s.get_status("t", bin("a\0", 2)), PLATFORM_NOT_FOUND);
}

TYPED_TEST(StoreConformance, OneMebibyteValueRoundTrips) {
    const auto& s = this->store();
    std::string big = random_bytes(1 << 20, 42);
    ASSERT_EQ(s.put("t", "big", big), PLATFORM_OK);
    auto got = s.get("t", "big");
    ASSERT_TRUE(got.has_value());
    EXPECT_EQ(got->size(), big.size());
    EXPECT_TRUE(*got == big);
    auto rows = s.scan("t");
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_TRUE(rows[0].second == big);
}

TYPED_TEST(StoreConformance, ConcurrentPutsFromFourThreadsAreAllVisible) {
    const auto& s = this->store();
    constexpr int kThreads = 4, kEach = 50;
    std::vector<std::thread> threads;
    std::atomic<int> failures{0};
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            for (int i = 0; i < kEach; ++i) {
                std::string k = "t" + std::to_string(t) + "/" + std::to_string(i);
                if (s.put("t", k, k) != PLATFORM_OK) ++failures;
                if (s.get("t", k) != k) ++failures;
            }
        });
    for (auto& th : threads) th.join();
    EXPECT_EQ(failures.load(), 0);
    auto rows = s.scan("t");
    ASSERT_EQ(rows.size(), size_t{kThreads * kEach});
    for (const auto& [k, v] : rows) EXPECT_EQ(k, v);
}

// ---- PLATFORM_STORE_PREFIX ----------------------------------------------------------------------

TYPED_TEST(StoreConformance, PrefixScanReturnsOnlyMatchingKeys) {
    REQUIRE_FEATURES(PLATFORM_STORE_PREFIX);
    const auto& s = this->store();
    for (const char* k : {"user/b", "user/a", "user/c", "userx", "use", "zzz", "a"})
        ASSERT_EQ(s.put("t", k, k), PLATFORM_OK);
    EXPECT_EQ(sorted(s.keys("t", "user/")),
              (std::vector<std::string>{"user/a", "user/b", "user/c"}));
    EXPECT_EQ(sorted(s.keys("t", "user")),
              (std::vector<std::string>{"user/a", "user/b", "user/c", "userx"}));
    EXPECT_EQ(s.keys("t").size(), 7u);
    EXPECT_TRUE(s.keys("t", "nothing").empty());
    EXPECT_EQ(s.scan("t", "user/a"), (Rows{{"user/a", "user/a"}}));
    EXPECT_EQ(sorted(s.keys("t", bin("user/\0", 6))), std::vector<std::string>{});
}

TYPED_TEST(StoreConformance, PrefixWithNulAndFFBytes) {
    REQUIRE_FEATURES(PLATFORM_STORE_PREFIX);
    const auto& s = this->store();
    for (const auto& k :
         {std::string("a\xFE"), std::string("a\xFF"), bin("a\xFF\0", 3), std::string("a\xFF\xFF"),
          std::string("b"), std::string("\xFF"), std::string("\xFF\x01"), std::string("\xFF\xFF"),
          std::string("\xFF\xFF\xFF"), bin("a\0", 2), bin("a\0b", 3), std::string("a")})
        ASSERT_EQ(s.put("t", k, "v"), PLATFORM_OK);
    EXPECT_EQ(sorted(s.keys("t", "a\xFF")), sorted({"a\xFF", bin("a\xFF\0", 3), "a\xFF\xFF"}));
    EXPECT_EQ(sorted(s.keys("t", "\xFF")),
              sorted({"\xFF", "\xFF\x01", "\xFF\xFF", "\xFF\xFF\xFF"}));
    EXPECT_EQ(sorted(s.keys("t", "\xFF\xFF")), sorted({"\xFF\xFF", "\xFF\xFF\xFF"}));
    EXPECT_TRUE(s.keys("t", "\xFF\xFF\xFF\xFF").empty());
    EXPECT_EQ(s.keys("t", "a\xFE"), (std::vector<std::string>{"a\xFE"}));
    EXPECT_EQ(sorted(s.keys("t", bin("a\0", 2))), sorted({bin("a\0", 2), bin("a\0b", 3)}));
}

// ---- PLATFORM_STORE_ORDER (with PREFIX) -------------------------------------------------------

TYPED_TEST(StoreConformance, PrefixScanAscendingAndDescending) {
    REQUIRE_FEATURES(PLATFORM_STORE_PREFIX | PLATFORM_STORE_ORDER);
    const auto& s = this->store();
    for (const char* k : {"user/b", "user/a", "user/c", "userx", "use", "zzz", "a"})
        ASSERT_EQ(s.put("t", k, k), PLATFORM_OK);
    EXPECT_EQ(s.keys("t", "user/"), (std::vector<std::string>{"user/a", "user/b", "user/c"}));
    EXPECT_EQ(s.keys("t", "user/", true), (std::vector<std::string>{"user/c", "user/b", "user/a"}));
    EXPECT_EQ(s.keys("t", "user"),
              (std::vector<std::string>{"user/a", "user/b", "user/c", "userx"}));
    EXPECT_EQ(s.keys("t"),
              (std::vector<std::string>{"a", "use", "user/a", "user/b", "user/c", "userx", "zzz"}));
    EXPECT_EQ(s.keys("t", "", true),
              (std::vector<std::string>{"zzz", "userx", "user/c", "user/b", "user/a", "use", "a"}));
}

TYPED_TEST(StoreConformance, LimitAndOffsetInKeyOrder) {
    REQUIRE_FEATURES(PLATFORM_STORE_PREFIX | PLATFORM_STORE_ORDER);
    const auto& s = this->store();
    for (int i = 0; i < 10; ++i)
        ASSERT_EQ(s.put("t", "k" + std::to_string(i), std::to_string(i)), PLATFORM_OK);
    EXPECT_EQ(s.keys("t", "k", false, 3), (std::vector<std::string>{"k0", "k1", "k2"}));
    EXPECT_EQ(s.keys("t", "k", false, 3, 2), (std::vector<std::string>{"k2", "k3", "k4"}));
    EXPECT_EQ(s.keys("t", "k", true, 3, 2), (std::vector<std::string>{"k7", "k6", "k5"}));
    EXPECT_EQ(s.keys("t", "k", false, 0, 8), (std::vector<std::string>{"k8", "k9"}));
    EXPECT_EQ(s.keys("t", "k", true, 100, 8), (std::vector<std::string>{"k1", "k0"}));
    EXPECT_TRUE(s.keys("t", "k", false, 5, 10).empty());
}

TYPED_TEST(StoreConformance, OlderScanStructReadsDefaults) {
    REQUIRE_FEATURES(PLATFORM_STORE_PREFIX | PLATFORM_STORE_ORDER);
    const auto& s = this->store();
    for (const char* k : {"p1", "p2", "q1"}) ASSERT_EQ(s.put("t", k, k), PLATFORM_OK);
    const std::string prefix = "p";
    platform_scan_t q{};
    q.prefix = bytes(prefix);
    q.order = PLATFORM_ORDER_DESC;
    q.limit = 1;
    q.struct_size = offsetof(platform_scan_t, order);  // a host that knew only `prefix`
    EXPECT_EQ(s.scan_raw("t", &q), (Rows{{"p1", "p1"}, {"p2", "p2"}}));
}

TYPED_TEST(StoreConformance, AwkwardKeysSortBytewise) {
    REQUIRE_FEATURES(PLATFORM_STORE_PREFIX | PLATFORM_STORE_ORDER);
    const auto& s = this->store();
    auto keys = awkward_keys();
    for (const auto& k : keys) ASSERT_EQ(s.put("t", k, "v"), PLATFORM_OK);
    std::sort(keys.begin(), keys.end(), bytewise_less);
    EXPECT_EQ(s.keys("t"), keys);
    std::reverse(keys.begin(), keys.end());
    EXPECT_EQ(s.keys("t", "", true), keys);
    EXPECT_EQ(s.keys("t", "a"),
              (std::vector<std::string>{"a", bin("a\0", 2), bin("a\0b", 3), "a\x01"}));
    EXPECT_EQ(s.keys("t", bin("a\0", 2)),
              (std::vector<std::string>{bin("a\0", 2), bin("a\0b", 3)}));
    EXPECT_EQ(s.keys("t", "\xF0\x9F"),
              (std::vector<std::string>{"\xF0\x9F\x98\x80", "\xF0\x9F\x98\x80/child"}));
}

TYPED_TEST(StoreConformance, PrefixWithFFBytesInOrder) {
    REQUIRE_FEATURES(PLATFORM_STORE_PREFIX | PLATFORM_STORE_ORDER);
    const auto& s = this->store();
    for (const auto& k :
         {std::string("a\xFE"), std::string("a\xFF"), bin("a\xFF\0", 3), std::string("a\xFF\xFF"),
          std::string("b"), std::string("\xFF"), std::string("\xFF\x01"), std::string("\xFF\xFF"),
          std::string("\xFF\xFF\xFF")})
        ASSERT_EQ(s.put("t", k, "v"), PLATFORM_OK);
    EXPECT_EQ(s.keys("t", "a\xFF"),
              (std::vector<std::string>{"a\xFF", bin("a\xFF\0", 3), "a\xFF\xFF"}));
    EXPECT_EQ(s.keys("t", "a\xFF", true),
              (std::vector<std::string>{"a\xFF\xFF", bin("a\xFF\0", 3), "a\xFF"}));
    EXPECT_EQ(s.keys("t", "\xFF"),
              (std::vector<std::string>{"\xFF", "\xFF\x01", "\xFF\xFF", "\xFF\xFF\xFF"}));
    EXPECT_EQ(s.keys("t", "\xFF\xFF", true),
              (std::vector<std::string>{"\xFF\xFF\xFF", "\xFF\xFF"}));
}

// ---- PLATFORM_STORE_TTL -------------------------------------------------------------------------

TYPED_TEST(StoreConformance, TtlExpiresAgainstNow) {
    REQUIRE_FEATURES(PLATFORM_STORE_TTL);
    const auto& s = this->store();
    ASSERT_EQ(s.put("t", "ttl", "soon", kNow + 1000), PLATFORM_OK);
    ASSERT_EQ(s.put("t", "forever", "always", 0), PLATFORM_OK);
    ASSERT_EQ(s.put("t", "past", "gone", kNow - 1), PLATFORM_OK);
    EXPECT_EQ(s.get("t", "ttl", kNow), "soon");
    EXPECT_EQ(s.get("t", "ttl", kNow + 999), "soon");
    EXPECT_EQ(s.get_status("t", "ttl", kNow + 1000), PLATFORM_NOT_FOUND);
    EXPECT_EQ(s.get_status("t", "past", kNow), PLATFORM_NOT_FOUND);
    EXPECT_EQ(s.get("t", "forever", kNow + 1000000000), "always");
    EXPECT_EQ(sorted(s.keys("t", "", false, 0, 0, kNow)),
              (std::vector<std::string>{"forever", "ttl"}));
    EXPECT_EQ(s.keys("t", "", false, 0, 0, kNow + 1000), (std::vector<std::string>{"forever"}));
    // A put brings an expired key back, and a new expiry replaces the old one.
    ASSERT_EQ(s.put("t", "ttl", "again", 0), PLATFORM_OK);
    EXPECT_EQ(s.get("t", "ttl", kNow + 5000), "again");
    ASSERT_EQ(s.put("t", "ttl", "short", kNow + 10), PLATFORM_OK);
    EXPECT_EQ(s.get_status("t", "ttl", kNow + 10), PLATFORM_NOT_FOUND);
}

// A business clock set back (the manual clock): a record written with an expiry ahead of the new
// time stays readable, even though a later time was seen before. (put carries no time: the store
// judges expiry on writes by the most recent call's time.)
TYPED_TEST(StoreConformance, TtlAfterTheClockWentBack) {
    REQUIRE_FEATURES(PLATFORM_STORE_TTL);
    const auto& s = this->store();
    EXPECT_EQ(s.get_status("t", "none", kNow + 1000000),
              PLATFORM_NOT_FOUND);                                   // a far later time seen
    EXPECT_EQ(s.get_status("t", "none", kNow), PLATFORM_NOT_FOUND);  // then the clock goes back
    ASSERT_EQ(s.put("t", "session", "live", kNow + 1000), PLATFORM_OK);
    ASSERT_EQ(s.put("t", "other", "x", 0), PLATFORM_OK);  // another write, which may purge
    EXPECT_EQ(s.get("t", "session", kNow), "live");
    EXPECT_EQ(s.get_status("t", "session", kNow + 1000), PLATFORM_NOT_FOUND);
}

TYPED_TEST(StoreConformance, ExpiredRecordsCountForNeitherLimitNorOffset) {
    REQUIRE_FEATURES(PLATFORM_STORE_TTL | PLATFORM_STORE_ORDER);
    const auto& s = this->store();
    ASSERT_EQ(s.put("t", "a", "x", kNow + 10), PLATFORM_OK);
    ASSERT_EQ(s.put("t", "forever", "always", 0), PLATFORM_OK);
    ASSERT_EQ(s.put("t", "ttl", "soon", kNow + 1000), PLATFORM_OK);
    ASSERT_EQ(s.put("t", "zz", "z", 0), PLATFORM_OK);
    EXPECT_EQ(s.keys("t", "", true, 1, 0, kNow + 1000), (std::vector<std::string>{"zz"}));
    EXPECT_EQ(s.keys("t", "", false, 1, 1, kNow + 5000), (std::vector<std::string>{"zz"}));
}

TYPED_TEST(StoreConformance, ExpiredRecordsArePurgedWithoutLosingLiveOnes) {
    REQUIRE_FEATURES(PLATFORM_STORE_TTL);
    const auto& s = this->store();
    EXPECT_EQ(s.get_status("t", "x", kNow + 10000),
              PLATFORM_NOT_FOUND);  // the store has seen this time
    for (int i = 0; i < 300; ++i)
        ASSERT_EQ(s.put("t", "k" + std::to_string(i), "v", i % 2 ? kNow + 1 : kNow + 20000),
                  PLATFORM_OK);
    EXPECT_EQ(s.scan("t", "", false, 0, 0, kNow + 10000).size(), 150u);
    EXPECT_EQ(s.get("t", "k0", kNow + 10000), "v");
    EXPECT_EQ(s.get_status("t", "k1", kNow + 10000), PLATFORM_NOT_FOUND);
    EXPECT_EQ(s.get("t", "k298", kNow + 19999), "v");
}

// ---- PLATFORM_STORE_PERSISTENT ------------------------------------------------------------------

TYPED_TEST(StoreConformance, RecordsSurviveANewInstance) {
    REQUIRE_FEATURES(PLATFORM_STORE_PERSISTENT);
    ASSERT_EQ(this->store().put("t", "k", bin("v\0w", 3)), PLATFORM_OK);
    ASSERT_EQ(this->store().put("t", "gone", "x"), PLATFORM_OK);
    ASSERT_EQ(this->store().del("t", "gone"), PLATFORM_OK);
    this->reopen();
    EXPECT_EQ(this->store().get("t", "k"), bin("v\0w", 3));
    EXPECT_EQ(this->store().get_status("t", "gone"), PLATFORM_NOT_FOUND);
}

// ---- PLATFORM_STORE_CAS -------------------------------------------------------------------------

TYPED_TEST(StoreConformance, CasInsertIfAbsent) {
    REQUIRE_FEATURES(PLATFORM_STORE_CAS);
    const auto& s = this->store();
    EXPECT_EQ(s.cas("t", "k", std::nullopt, "first"), PLATFORM_OK);
    EXPECT_EQ(s.get("t", "k"), "first");
    EXPECT_EQ(s.cas("t", "k", std::nullopt, "second"), PLATFORM_CONFLICT);
    EXPECT_EQ(s.get("t", "k"), "first");
    // An empty value is a value: the key is present.
    EXPECT_EQ(s.cas("t", "e", std::nullopt, ""), PLATFORM_OK);
    EXPECT_EQ(s.cas("t", "e", std::nullopt, "x"), PLATFORM_CONFLICT);
    EXPECT_EQ(s.get("t", "e"), "");
    // Tables are apart.
    EXPECT_EQ(s.cas("other", "k", std::nullopt, "x"), PLATFORM_OK);
    EXPECT_EQ(s.get("t", "k"), "first");
}

TYPED_TEST(StoreConformance, CasWithExpectedValue) {
    REQUIRE_FEATURES(PLATFORM_STORE_CAS);
    const auto& s = this->store();
    EXPECT_EQ(s.cas("t", "k", std::string("v0"), "v1"), PLATFORM_CONFLICT);  // absent is not v0
    EXPECT_EQ(s.get_status("t", "k"), PLATFORM_NOT_FOUND);
    EXPECT_EQ(s.cas("t", "k", std::string(""), "v1"), PLATFORM_CONFLICT);  // nor the empty value
    ASSERT_EQ(s.put("t", "k", "v0"), PLATFORM_OK);
    EXPECT_EQ(s.cas("t", "k", std::string("v0"), "v1"), PLATFORM_OK);
    EXPECT_EQ(s.get("t", "k"), "v1");
    EXPECT_EQ(s.cas("t", "k", std::string("v0"), "v2"), PLATFORM_CONFLICT);  // stale expectation
    EXPECT_EQ(s.cas("t", "k", std::string("v1x"), "v2"), PLATFORM_CONFLICT);
    EXPECT_EQ(s.cas("t", "k", std::string("v"), "v2"), PLATFORM_CONFLICT);
    EXPECT_EQ(s.get("t", "k"), "v1");
    EXPECT_EQ(s.cas("t", "k", std::string("v1"), ""), PLATFORM_OK);
    EXPECT_EQ(s.cas("t", "k", std::string(""), "v3"), PLATFORM_OK);
    EXPECT_EQ(s.get("t", "k"), "v3");
    // Values compare as bytes, past NULs.
    ASSERT_EQ(s.put("t", "b", bin("a\0b", 3)), PLATFORM_OK);
    EXPECT_EQ(s.cas("t", "b", bin("a\0c", 3), "x"), PLATFORM_CONFLICT);
    EXPECT_EQ(s.cas("t", "b", std::string("a"), "x"), PLATFORM_CONFLICT);
    EXPECT_EQ(s.cas("t", "b", bin("a\0b", 3), "x"), PLATFORM_OK);
    EXPECT_EQ(s.get("t", "b"), "x");
}

TYPED_TEST(StoreConformance, CasDelete) {
    REQUIRE_FEATURES(PLATFORM_STORE_CAS);
    const auto& s = this->store();
    ASSERT_EQ(s.put("t", "k", "v"), PLATFORM_OK);
    EXPECT_EQ(s.cas("t", "k", std::string("other"), std::nullopt), PLATFORM_CONFLICT);
    EXPECT_EQ(s.get("t", "k"), "v");
    EXPECT_EQ(s.cas("t", "k", std::nullopt, std::nullopt),
              PLATFORM_CONFLICT);  // "absent" does not hold
    EXPECT_EQ(s.cas("t", "k", std::string("v"), std::nullopt), PLATFORM_OK);
    EXPECT_EQ(s.get_status("t", "k"), PLATFORM_NOT_FOUND);
    EXPECT_TRUE(s.scan("t").empty());
    EXPECT_EQ(s.cas("t", "k", std::string("v"), std::nullopt), PLATFORM_CONFLICT);  // already gone
    EXPECT_EQ(s.cas("t", "k", std::nullopt, std::nullopt), PLATFORM_OK);  // absent: holds, no-op
    EXPECT_EQ(s.get_status("t", "k"), PLATFORM_NOT_FOUND);
    EXPECT_EQ(s.cas("t", "k", std::nullopt, "back"), PLATFORM_OK);
    EXPECT_EQ(s.get("t", "k"), "back");
}

TYPED_TEST(StoreConformance, CasAgainstAnExpiredRecordCountsAsAbsent) {
    REQUIRE_FEATURES(PLATFORM_STORE_CAS | PLATFORM_STORE_TTL);
    const auto& s = this->store();
    // Business time only moves forward here: a store may purge against the latest now it saw.
    ASSERT_EQ(s.put("t", "lease", "old", kNow + 100), PLATFORM_OK);
    ASSERT_EQ(s.put("t", "d", "v", kNow + 100), PLATFORM_OK);
    ASSERT_EQ(s.put("t", "p", "v", kNow + 100), PLATFORM_OK);
    EXPECT_EQ(s.cas("t", "lease", std::nullopt, "new", 0, kNow + 99),
              PLATFORM_CONFLICT);  // still live
    // A cas without expiry makes a record permanent.
    EXPECT_EQ(s.cas("t", "p", std::string("v"), "w", 0, kNow + 99), PLATFORM_OK);
    EXPECT_EQ(s.cas("t", "lease", std::string("old"), "x", 0, kNow + 100),
              PLATFORM_CONFLICT);  // expired
    EXPECT_EQ(s.cas("t", "lease", std::nullopt, "new", kNow + 1100, kNow + 100), PLATFORM_OK);
    EXPECT_EQ(s.get("t", "lease", kNow + 100), "new");
    // Deleting an expired record with "must be absent" holds; with its old value it does not.
    EXPECT_EQ(s.cas("t", "d", std::string("v"), std::nullopt, 0, kNow + 100), PLATFORM_CONFLICT);
    EXPECT_EQ(s.cas("t", "d", std::nullopt, std::nullopt, 0, kNow + 100), PLATFORM_OK);
    EXPECT_EQ(s.cas("t", "d", std::nullopt, "again", 0, kNow + 100), PLATFORM_OK);
    EXPECT_EQ(s.get("t", "d", kNow + 100), "again");
    EXPECT_EQ(s.get("t", "lease", kNow + 1099), "new");
    EXPECT_EQ(s.get_status("t", "lease", kNow + 1100), PLATFORM_NOT_FOUND);  // cas wrote the expiry
    EXPECT_EQ(s.get("t", "p", kNow + 1000000), "w");
    EXPECT_EQ(s.keys("t", "", false, 0, 0, kNow + 1000000).size(), 2u);  // d and p
}

TYPED_TEST(StoreConformance, CasInsertIfAbsentRaceHasExactlyOneWinner) {
    REQUIRE_FEATURES(PLATFORM_STORE_CAS);
    const auto& s = this->store();
    constexpr int kThreads = 4, kKeys = 40;
    StartLine start;
    std::vector<std::vector<int>> won(kThreads);
    std::atomic<int> errors{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            start.wait();
            for (int k = 0; k < kKeys; ++k) {
                auto st = s.cas("race", "key" + std::to_string(k), std::nullopt,
                                "thread" + std::to_string(t));
                if (st == PLATFORM_OK)
                    won[t].push_back(k);
                else if (st != PLATFORM_CONFLICT)
                    ++errors;
            }
        });
    start.open();
    for (auto& th : threads) th.join();
    EXPECT_EQ(errors.load(), 0);
    std::map<int, int> winner;  // key -> thread
    for (int t = 0; t < kThreads; ++t)
        for (int k : won[t]) {
            EXPECT_EQ(winner.count(k), 0u) << "key" << k << " was inserted twice";
            winner[k] = t;
        }
    ASSERT_EQ(winner.size(), size_t{kKeys});  // every key has exactly one winner
    for (auto [k, t] : winner)
        EXPECT_EQ(s.get("race", "key" + std::to_string(k)), "thread" + std::to_string(t));
}

TYPED_TEST(StoreConformance, CasCounterFromFourThreadsLosesNoIncrement) {
    REQUIRE_FEATURES(PLATFORM_STORE_CAS);
    const auto& s = this->store();
    constexpr int kThreads = 4, kEach = 25;
    ASSERT_EQ(s.put("t", "counter", "0"), PLATFORM_OK);
    StartLine start;
    std::atomic<int> errors{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&] {
            start.wait();
            for (int i = 0; i < kEach; ++i)
                for (;;) {
                    auto cur = s.get("t", "counter");
                    if (!cur) {
                        ++errors;
                        break;
                    }
                    auto st = s.cas("t", "counter", *cur, std::to_string(std::stoi(*cur) + 1));
                    if (st == PLATFORM_OK) break;
                    if (st != PLATFORM_CONFLICT) {
                        ++errors;
                        break;
                    }
                }
        });
    start.open();
    for (auto& th : threads) th.join();
    EXPECT_EQ(errors.load(), 0);
    EXPECT_EQ(s.get("t", "counter"), std::to_string(kThreads * kEach));
}

TYPED_TEST(StoreConformance, CasWithAwkwardKeys) {
    REQUIRE_FEATURES(PLATFORM_STORE_CAS);
    const auto& s = this->store();
    for (const auto& k : awkward_keys()) {
        const std::string v1 = "one:" + k + bin("\0", 1), v2 = "two:" + k;
        EXPECT_EQ(s.cas("t", k, std::nullopt, v1), PLATFORM_OK) << k;
        EXPECT_EQ(s.cas("t", k, std::nullopt, v2), PLATFORM_CONFLICT) << k;
        EXPECT_EQ(s.cas("t", k, v1, v2), PLATFORM_OK) << k;
        EXPECT_EQ(s.get("t", k), v2) << k;
    }
    // Keys that share a prefix up to a NUL stay apart.
    EXPECT_EQ(s.cas("t", bin("a\0", 2), "two:" + bin("a\0", 2), std::nullopt), PLATFORM_OK);
    EXPECT_EQ(s.get("t", "a"), "two:a");
    EXPECT_EQ(s.get("t", bin("a\0b", 3)), "two:" + bin("a\0b", 3));
    EXPECT_EQ(s.get_status("t", bin("a\0", 2)), PLATFORM_NOT_FOUND);
    EXPECT_EQ(s.keys("t").size(), awkward_keys().size() - 1);
}

// ---- PLATFORM_STORE_TRANSACTIONS ----------------------------------------------------------------

TYPED_TEST(StoreConformance, BatchAppliesPutsAndDeletesInOrder) {
    REQUIRE_FEATURES(PLATFORM_STORE_TRANSACTIONS);
    const auto& s = this->store();
    ASSERT_EQ(s.put("t", "old", "x"), PLATFORM_OK);
    using C = StoreClient;
    EXPECT_EQ(
        s.batch("t", {C::put_op("a", "1"), C::put_op("b", "1"), C::del_op("a"), C::put_op("c", ""),
                      C::put_op("b", "2"), C::del_op("old"), C::del_op("never-there")}),
        PLATFORM_OK);
    EXPECT_EQ(s.get_status("t", "a"), PLATFORM_NOT_FOUND);
    EXPECT_EQ(s.get("t", "b"), "2");  // the later op on a key wins
    EXPECT_EQ(s.get("t", "c"), "");
    EXPECT_EQ(s.get_status("t", "old"), PLATFORM_NOT_FOUND);
    EXPECT_EQ(sorted(s.keys("t")), (std::vector<std::string>{"b", "c"}));
    EXPECT_EQ(s.get_status("other", "b"), PLATFORM_NOT_FOUND);
    EXPECT_EQ(s.batch("t", {}), PLATFORM_OK);  // empty: nothing to do
    EXPECT_EQ(s.batch_raw("t", nullptr, 0, sizeof(platform_store_op_t)), PLATFORM_OK);
}

TYPED_TEST(StoreConformance, BatchWithAnInvalidOpAppliesNothing) {
    REQUIRE_FEATURES(PLATFORM_STORE_TRANSACTIONS);
    const auto& s = this->store();
    ASSERT_EQ(s.put("t", "keep", "v"), PLATFORM_OK);
    const std::string a = "a", keep = "keep", v = "new";
    platform_store_op_t ops[3]{};
    ops[0] = {sizeof(platform_store_op_t), PLATFORM_STORE_OP_PUT, bytes(a), bytes(v), 0};
    ops[1] = {sizeof(platform_store_op_t), PLATFORM_STORE_OP_DEL, bytes(keep), {}, 0};
    ops[2] = {sizeof(platform_store_op_t), 99, bytes(a), bytes(v), 0};  // unknown kind, last
    EXPECT_EQ(s.batch_raw("t", ops, 3, sizeof ops[0]), PLATFORM_INVALID_ARGUMENT);
    ops[2] = {sizeof(platform_store_op_t), PLATFORM_STORE_OP_PUT, bytes(a), bytes(v),
              -5};  // negative expiry
    EXPECT_EQ(s.batch_raw("t", ops, 3, sizeof ops[0]), PLATFORM_INVALID_ARGUMENT);
    ops[2] = {8, PLATFORM_STORE_OP_PUT, bytes(a), bytes(v), 0};  // too small to hold a key
    EXPECT_EQ(s.batch_raw("t", ops, 3, sizeof ops[0]), PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(s.batch_raw("t", ops, 2, 8), PLATFORM_INVALID_ARGUMENT);  // stride too small
    EXPECT_EQ(s.batch_raw("t", nullptr, 2, sizeof ops[0]), PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(s.get_status("t", "a"), PLATFORM_NOT_FOUND);
    EXPECT_EQ(s.get("t", "keep"), "v");
    ops[2] = {sizeof(platform_store_op_t), PLATFORM_STORE_OP_PUT, bytes(a), bytes(v), 0};
    EXPECT_EQ(s.batch_raw("t", ops, 3, sizeof ops[0]), PLATFORM_OK);
    EXPECT_EQ(s.get("t", "a"), "new");
    EXPECT_EQ(s.get_status("t", "keep"), PLATFORM_NOT_FOUND);
}

TYPED_TEST(StoreConformance, BatchOpsWalkedByStrideWithinTheirStructSize) {
    REQUIRE_FEATURES(PLATFORM_STORE_TRANSACTIONS);
    const auto& s = this->store();
    // A caller whose op is larger (a newer ABI: extra fields) and one whose op ends before
    // expires_at_ms (read as 0 = never), interleaved with padding the provider must skip.
    struct Wide {
        platform_store_op_t op;
        uint64_t extra[3];
    };
    const std::string k1 = "wide", k2 = "short", v = "v";
    Wide ops[2]{};
    ops[0].op = {sizeof(Wide), PLATFORM_STORE_OP_PUT, bytes(k1), bytes(v), 0};
    ops[1].op = {static_cast<uint32_t>(offsetof(platform_store_op_t, expires_at_ms)),
                 PLATFORM_STORE_OP_PUT, bytes(k2), bytes(v),
                 kNow - 1 /* beyond its struct_size: must be ignored */};
    std::fill(std::begin(ops[0].extra), std::end(ops[0].extra), ~uint64_t{0});
    ASSERT_EQ(s.batch_raw("t", &ops[0].op, 2, sizeof(Wide)), PLATFORM_OK);
    EXPECT_EQ(s.get("t", "wide"), "v");
    EXPECT_EQ(s.get("t", "short", kNow + 1000000), "v");
}

TYPED_TEST(StoreConformance, BatchIsSeenWholeOrNotAtAll) {
    REQUIRE_FEATURES(PLATFORM_STORE_TRANSACTIONS);
    const auto& s = this->store();
    constexpr int kKeys = 20, kMinRounds = 60, kMinReads = 500;
    std::atomic<bool> done{false};
    std::atomic<int> torn{0}, reads{0}, errors{0};
    std::string why;
    std::mutex why_m;
    auto reader = [&] {
        while (!done.load()) {
            Rows rows;
            try {
                rows = s.scan("atomic");
            } catch (...) {
                ++errors;
                continue;
            }
            ++reads;
            std::set<std::string> values;
            for (auto& r : rows) values.insert(r.second);
            bool whole = rows.empty() || (rows.size() == size_t{kKeys} && values.size() == 1);
            if (!whole) {
                ++torn;
                std::lock_guard<std::mutex> g(why_m);
                why = std::to_string(rows.size()) + " keys, " + std::to_string(values.size()) +
                      " generations";
            }
        }
    };
    std::vector<std::thread> readers;
    for (int i = 0; i < 3; ++i) readers.emplace_back(reader);
    auto write_round = [&](int round) {
        std::vector<StoreClient::Op> ops;
        for (int k = 0; k < kKeys; ++k)
            ops.push_back(round % 3 == 2 ? StoreClient::del_op("k" + std::to_string(k))
                                         : StoreClient::put_op("k" + std::to_string(k),
                                                               "gen" + std::to_string(round)));
        if (s.batch("atomic", ops) != PLATFORM_OK) ++errors;
    };
    // At least kMinRounds batches and 200 ms, and more while the readers have read little (up to 3 s).
    const auto start = std::chrono::steady_clock::now();
    auto elapsed = [&] { return std::chrono::steady_clock::now() - start; };
    int round = 0;
    while (round < kMinRounds || elapsed() < std::chrono::milliseconds(200) ||
           (reads.load() < kMinReads && elapsed() < std::chrono::seconds(3)))
        write_round(round++);
    done = true;
    for (auto& th : readers) th.join();
    EXPECT_EQ(errors.load(), 0);
    EXPECT_EQ(torn.load(), 0) << "a reader saw part of a batch: " << why;
    write_round(2);  // a deleting round
    EXPECT_TRUE(s.scan("atomic").empty());
}

TYPED_TEST(StoreConformance, BatchWithAOneMebibyteValue) {
    REQUIRE_FEATURES(PLATFORM_STORE_TRANSACTIONS);
    const auto& s = this->store();
    std::string big = random_bytes(1 << 20, 7);
    EXPECT_EQ(s.batch("t", {StoreClient::put_op("small", "s"), StoreClient::put_op("big", big),
                            StoreClient::put_op("also-big", big + "!")}),
              PLATFORM_OK);
    auto got = s.get("t", "big");
    ASSERT_TRUE(got.has_value());
    EXPECT_EQ(got->size(), big.size());
    EXPECT_TRUE(*got == big);
    EXPECT_TRUE(s.get("t", "also-big") == big + "!");
    EXPECT_EQ(s.get("t", "small"), "s");
    EXPECT_EQ(s.batch("t", {StoreClient::del_op("big"), StoreClient::del_op("also-big")}),
              PLATFORM_OK);
    EXPECT_EQ(s.keys("t"), (std::vector<std::string>{"small"}));
}

TYPED_TEST(StoreConformance, BatchWithAwkwardKeys) {
    REQUIRE_FEATURES(PLATFORM_STORE_TRANSACTIONS);
    const auto& s = this->store();
    std::vector<StoreClient::Op> puts;
    for (const auto& k : awkward_keys())
        puts.push_back(StoreClient::put_op(k, "v:" + k + bin("\0", 1)));
    ASSERT_EQ(s.batch("t", puts), PLATFORM_OK);
    for (const auto& k : awkward_keys()) EXPECT_EQ(s.get("t", k), "v:" + k + bin("\0", 1)) << k;
    EXPECT_EQ(sorted(s.keys("t")), sorted(awkward_keys()));
    ASSERT_EQ(
        s.batch("t",
                {StoreClient::del_op(bin("a\0", 2)), StoreClient::del_op("../../etc/passwd"),
                 StoreClient::del_op("\xF0\x9F\x98\x80"), StoreClient::del_op("\"quoted\" 'key'")}),
        PLATFORM_OK);
    EXPECT_EQ(s.keys("t").size(), awkward_keys().size() - 4);
    EXPECT_EQ(s.get("t", "a"), "v:a" + bin("\0", 1));
    EXPECT_EQ(s.get("t", bin("a\0b", 3)), "v:" + bin("a\0b", 3) + bin("\0", 1));
    EXPECT_EQ(s.get("t", "\xF0\x9F\x98\x80/child"), "v:\xF0\x9F\x98\x80/child" + bin("\0", 1));
    EXPECT_EQ(s.get_status("t", "../../etc/passwd"), PLATFORM_NOT_FOUND);
}

TYPED_TEST(StoreConformance, BatchWritesExpiries) {
    REQUIRE_FEATURES(PLATFORM_STORE_TRANSACTIONS | PLATFORM_STORE_TTL);
    const auto& s = this->store();
    ASSERT_EQ(s.batch("t", {StoreClient::put_op("ttl", "v", kNow + 50),
                            StoreClient::put_op("forever", "v")}),
              PLATFORM_OK);
    EXPECT_EQ(s.get("t", "ttl", kNow + 49), "v");
    EXPECT_EQ(s.get_status("t", "ttl", kNow + 50), PLATFORM_NOT_FOUND);
    EXPECT_EQ(s.keys("t", "", false, 0, 0, kNow + 50), (std::vector<std::string>{"forever"}));
}

TYPED_TEST(StoreConformance, BatchesAndCasFromFourThreadsStayConsistent) {
    REQUIRE_FEATURES(PLATFORM_STORE_TRANSACTIONS | PLATFORM_STORE_CAS);
    const auto& s = this->store();
    // Each thread moves a token between two keys with one batch (delete one, put the other), and
    // claims a key with cas: whatever interleaving, each token sits in exactly one of its keys.
    constexpr int kThreads = 4, kMoves = 20;
    StartLine start;
    std::atomic<int> errors{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            const std::string a = "a" + std::to_string(t), b = "b" + std::to_string(t);
            if (s.cas("t", a, std::nullopt, "token") != PLATFORM_OK) ++errors;
            start.wait();
            for (int i = 0; i < kMoves; ++i) {
                bool to_b = i % 2 == 0;
                if (s.batch("t", {StoreClient::del_op(to_b ? a : b),
                                  StoreClient::put_op(to_b ? b : a, "token")}) != PLATFORM_OK)
                    ++errors;
                if (s.cas("t", "claimed", std::nullopt, std::to_string(t)) == PLATFORM_OK &&
                    s.cas("t", "claimed", std::to_string(t), std::nullopt) != PLATFORM_OK)
                    ++errors;  // nobody but the claimer may release it
            }
        });
    start.open();
    for (auto& th : threads) th.join();
    EXPECT_EQ(errors.load(), 0);
    for (int t = 0; t < kThreads; ++t) {
        EXPECT_EQ(s.get_status("t", "a" + std::to_string(t)), PLATFORM_OK)
            << t;  // kMoves is even: back in a
        EXPECT_EQ(s.get_status("t", "b" + std::to_string(t)), PLATFORM_NOT_FOUND) << t;
    }
    EXPECT_EQ(s.get_status("t", "claimed"), PLATFORM_NOT_FOUND);
}
