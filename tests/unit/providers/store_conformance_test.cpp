// The store conformance suite, run against every store provider through its built .so.
//
// It tests exactly what a provider declares: the basic contract (get, put, del, scan in some
// order, isolation of tables, awkward bytes, concurrency) runs everywhere, and every test of a
// feature (PLATFORM_STORE_TTL, PREFIX, ORDER, PERSISTENT, CAS, TRANSACTIONS) starts by skipping
// when the provider does not declare it. store-minimal (tests/plugins/store-minimal) declares no
// feature, so its feature tests skip and its basic tests must pass: that proves the gating.
//
// This file: the basic contract, PLATFORM_STORE_PREFIX, ORDER, TTL and PERSISTENT;
// store_conformance_atomic_test.cpp: CAS and TRANSACTIONS.
#include "store_conformance.hpp"

using namespace store_conformance;

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

// ... and when the write is the first call at the new time (an MCP session created right after a
// test set the clock back): the record just written is there to read.
TYPED_TEST(StoreConformance, TtlWhenAWriteIsTheFirstCallAfterTheClockWentBack) {
    REQUIRE_FEATURES(PLATFORM_STORE_TTL);
    const auto& s = this->store();
    EXPECT_EQ(s.get_status("t", "none", kNow + 1000000), PLATFORM_NOT_FOUND);  // a later time seen
    ASSERT_EQ(s.put("t", "session", "live", kNow + 1000), PLATFORM_OK);        // written at kNow
    EXPECT_EQ(s.get("t", "session", kNow), "live");
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
