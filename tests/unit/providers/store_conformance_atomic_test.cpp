// The store conformance suite, continued (store_conformance_test.cpp has the basic contract):
// compare-and-set (PLATFORM_STORE_CAS) and atomic batches (PLATFORM_STORE_TRANSACTIONS), each
// test skipped when the provider does not declare its feature.
#include "store_conformance.hpp"

using namespace store_conformance;

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
