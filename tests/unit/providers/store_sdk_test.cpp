// The SDK's side of compare-and-set and batches (ABI 1.3): platform::Store and the owner-scoped
// platform::Collection over the fake host, which plays a store provider with or without the
// features (FakeHost::store_features) and an older host (a table without store_cas/store_batch).
#include <gtest/gtest.h>

#include <atomic>
#include <cstddef>
#include <platform/sdk/host.hpp>
#include <platform/sdk/store.hpp>
#include <platform/testing/fake_host.hpp>
#include <string>
#include <thread>
#include <vector>

using nlohmann::json;
using platform::Collection;
using platform::JsonWrite;
using platform::Store;
using platform::StoreWrite;
using platform::testing::FakeHost;

namespace {

std::string bin(const char* s, size_t n) {
    return std::string(s, n);
}

// The platform::Error code `fn` throws, or Code::ok.
template <class F>
platform::Code code_of(F&& fn) {
    try {
        fn();
    } catch (const platform::Error& e) {
        return e.code();
    }
    return platform::Code::ok;
}

}  // namespace

TEST(StoreSdk, CompareAndSetOnThePluginsTable) {
    FakeHost host;
    Store store(host.api(), host.ctx());
    EXPECT_TRUE(store.insert_if_absent("k", "v1"));
    EXPECT_FALSE(store.insert_if_absent("k", "other"));
    EXPECT_EQ(store.get("k"), "v1");
    EXPECT_FALSE(store.compare_and_set("k", std::string_view("nope"), std::string_view("v2")));
    EXPECT_TRUE(store.compare_and_set("k", std::string_view("v1"), std::string_view("v2")));
    EXPECT_EQ(store.get("k"), "v2");
    EXPECT_FALSE(
        store.compare_and_set("k", std::nullopt, std::nullopt));  // present: "absent" fails
    EXPECT_TRUE(store.compare_and_set("k", std::string_view("v2"), std::nullopt));
    EXPECT_FALSE(store.get("k").has_value());
    EXPECT_TRUE(store.compare_and_set("k", std::nullopt, std::nullopt));  // absent: holds
    EXPECT_EQ(host.store.size(), 0u);
    // Bytes, NULs included.
    const std::string key = bin("a\0\"../\xF0\x9F\x98\x80", 10), value = bin("x\0y", 3);
    EXPECT_TRUE(store.insert_if_absent(key, value));
    EXPECT_FALSE(store.compare_and_set(key, std::string_view("x"), std::string_view("z")));
    EXPECT_TRUE(store.compare_and_set(key, std::string_view(value), std::string_view("z")));
    EXPECT_EQ(host.store.at(key).value, "z");
}

TEST(StoreSdk, TtlsAreMillisecondsFromNow) {
    FakeHost host;
    Store store(host.api(), host.ctx());
    EXPECT_TRUE(store.insert_if_absent("lock", "me", 1000));
    EXPECT_EQ(host.store.at("lock").expires_at, host.now_ms + 1000);
    host.now_ms += 999;
    EXPECT_FALSE(store.insert_if_absent("lock", "you", 1000));
    host.now_ms += 1;
    EXPECT_TRUE(
        store.insert_if_absent("lock", "you", 1000));  // the expired record counts as absent
    EXPECT_EQ(store.get("lock"), "you");
    store.batch({StoreWrite::put("a", "1", 50), StoreWrite::put("b", "2")});
    EXPECT_EQ(host.store.at("a").expires_at, host.now_ms + 50);
    EXPECT_EQ(host.store.at("b").expires_at, 0);
    EXPECT_EQ(code_of([&] { store.insert_if_absent("n", "v", -1); }),
              platform::Code::invalid_argument);
    EXPECT_EQ(code_of([&] { store.batch({StoreWrite::put("n", "v", -1)}); }),
              platform::Code::invalid_argument);
}

TEST(StoreSdk, BatchAppliesInOrder) {
    FakeHost host;
    Store store(host.api(), host.ctx());
    store.put("old", "x");
    store.batch({StoreWrite::put("a", "1"), StoreWrite::erase("old"), StoreWrite::put("a", "2"),
                 StoreWrite::erase("missing"), StoreWrite::put("e", "")});
    EXPECT_EQ(store.get("a"), "2");
    EXPECT_EQ(store.get("e"), "");
    EXPECT_FALSE(store.get("old").has_value());
    store.batch({});  // nothing to do
    EXPECT_EQ(host.store.size(), 2u);
}

TEST(StoreSdk, UndeclaredFeaturesAreUnsupported) {
    FakeHost host;
    host.store_features = PLATFORM_STORE_PREFIX | PLATFORM_STORE_ORDER;
    Store store(host.api(), host.ctx());
    EXPECT_EQ(code_of([&] { store.insert_if_absent("k", "v"); }), platform::Code::unsupported);
    EXPECT_EQ(code_of([&] { store.batch({StoreWrite::put("k", "v")}); }),
              platform::Code::unsupported);
    EXPECT_EQ(code_of([&] { store.put("k", "v", 10); }),
              platform::Code::unsupported);  // no TTL either
    store.put("k", "v");
    EXPECT_EQ(store.get("k"), "v");
    host.store_features |= PLATFORM_STORE_CAS;  // CAS without TTL: no expiring cas
    EXPECT_TRUE(store.compare_and_set("k", std::string_view("v"), std::string_view("w")));
    EXPECT_EQ(code_of([&] { store.insert_if_absent("t", "v", 10); }), platform::Code::unsupported);
}

TEST(StoreSdk, AnOlderHostHasNoCompareAndSet) {
    FakeHost host;
    platform_host_api_t old = *host.api();
    old.struct_size = offsetof(platform_host_api_t, store_cas);  // a 1.2 host
    Store store(&old, host.ctx());
    try {
        store.insert_if_absent("k", "v");
        FAIL() << "expected unsupported";
    } catch (const platform::Error& e) {
        EXPECT_EQ(e.code(), platform::Code::unsupported);
        EXPECT_NE(std::string(e.what()).find("store_cas"), std::string::npos) << e.what();
    }
    EXPECT_EQ(code_of([&] { store.batch({StoreWrite::erase("k")}); }), platform::Code::unsupported);
    EXPECT_TRUE(host.store.empty());
}

TEST(CollectionSdk, CompareAndSetStaysWithinTheOwner) {
    FakeHost host;
    Store store(host.api(), host.ctx());
    Collection alice(store, "notes", "alice"), bob(store, "notes", "bob"),
        evil(store, "notes", "alice/x");
    EXPECT_TRUE(alice.insert_if_absent("n1", {{"text", "a"}}));
    EXPECT_TRUE(bob.insert_if_absent("n1", {{"text", "b"}}));  // the same id, another owner: free
    EXPECT_FALSE(alice.insert_if_absent("n1", {{"text", "again"}}));
    EXPECT_EQ(host.store.at("notes/alice/n1").value, R"({"text":"a"})");
    EXPECT_EQ(host.store.at("notes/bob/n1").value, R"({"text":"b"})");
    // Bob cannot swap or delete Alice's record, even knowing its exact value.
    EXPECT_FALSE(bob.compare_and_set("n1", json{{"text", "a"}}, json{{"text", "stolen"}}));
    EXPECT_FALSE(bob.compare_and_set("n1", json{{"text", "a"}}, std::nullopt));
    EXPECT_EQ(alice.get("n1"), (json{{"text", "a"}}));
    // An owner id holding '/' cannot reach into another owner's prefix.
    EXPECT_TRUE(evil.insert_if_absent("n1", {{"text", "e"}}));
    EXPECT_EQ(alice.get("n1"), (json{{"text", "a"}}));
    EXPECT_TRUE(alice.compare_and_set("n1", json{{"text", "a"}}, json{{"text", "a2"}}));
    EXPECT_TRUE(alice.compare_and_set("n1", json{{"text", "a2"}}, std::nullopt));
    EXPECT_FALSE(alice.get("n1").has_value());
    EXPECT_EQ(bob.get("n1"), (json{{"text", "b"}}));
}

TEST(CollectionSdk, BatchStaysWithinTheOwner) {
    FakeHost host;
    Store store(host.api(), host.ctx());
    Collection alice(store, "notes", "alice"), bob(store, "notes", "bob");
    bob.put("shared-id", {{"text", "bob's"}});
    alice.batch({JsonWrite::put("shared-id", {{"text", "alice's"}}),
                 JsonWrite::put("n2", {{"n", 2}}), JsonWrite::erase("n2"),
                 JsonWrite::put("../bob/shared-id", {{"text", "sneaky"}})});
    EXPECT_EQ(bob.get("shared-id"), (json{{"text", "bob's"}}));
    EXPECT_EQ(alice.get("shared-id"), (json{{"text", "alice's"}}));
    EXPECT_FALSE(alice.get("n2").has_value());
    EXPECT_EQ(host.store.count("notes/alice/../bob/shared-id"), 1u);  // a key, not a path
    bob.batch({JsonWrite::erase("shared-id")});
    EXPECT_FALSE(bob.get("shared-id").has_value());
    EXPECT_EQ(alice.get("shared-id"), (json{{"text", "alice's"}}));
    EXPECT_EQ(alice.list().size(), 2u);
}

// list_array: the owner's stored texts joined as they are, in list()'s order, parsing to what
// list() gives; another owner's records and prefixes stay out.
TEST(CollectionSdk, ListArrayJoinsTheStoredTextsOfTheOwnerOnly) {
    FakeHost host;
    Store store(host.api(), host.ctx());
    Collection alice(store, "notes", "alice"), bob(store, "notes", "bob");
    EXPECT_EQ(alice.list_array().text, "[]");
    alice.put("b", {{"title", "b"}, {"text", "quote \" and \u00e9"}, {"n", 1.5}});
    alice.put("a", {{"title", "a"}, {"tags", {"x", "y"}}});
    bob.put("a", {{"title", "bob's"}});
    const std::string text = alice.list_array().text;
    json expected = json::array();
    for (auto& [id, value] : alice.list()) expected.push_back(value);
    EXPECT_EQ(json::parse(text), expected);
    EXPECT_EQ(text, expected.dump());  // the same bytes a parse and dump would give
    EXPECT_EQ(json::parse(alice.list_array({"b"}).text), json::array({expected[1]}));
    EXPECT_EQ(json::parse(bob.list_array().text), json::array({{{"title", "bob's"}}}));
}

TEST(JsonTextSdk, ObjectOfEscapesTheKeyAndKeepsTheValue) {
    const platform::JsonText v{"[1,{\"a\":null}]"};
    EXPECT_EQ(platform::JsonText::object_of("notes", v).text, "{\"notes\":[1,{\"a\":null}]}");
    const std::string key = std::string("q\"b\\n\n\x01", 7) + "\xc3\xa9";
    const json parsed = json::parse(platform::JsonText::object_of(key, v).text);
    EXPECT_EQ(parsed, (json{{key, json::parse(v.text)}}));
}

TEST(CollectionSdk, UpdateLosesNoWriteUnderContention) {
    FakeHost host;
    Store store(host.api(), host.ctx());
    Collection counters(store, "counters", "alice");
    constexpr int kThreads = 4, kEach = 25;
    std::vector<std::thread> threads;
    std::atomic<int> errors{0};
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&] {
            for (int i = 0; i < kEach; ++i) {
                try {
                    counters.update(
                        "c",
                        [](const std::optional<json>& cur) -> std::optional<json> {
                            return json{{"n", cur ? cur->at("n").get<int>() + 1 : 1}};
                        },
                        0, 1000);
                } catch (...) {
                    ++errors;
                }
            }
        });
    for (auto& th : threads) th.join();
    EXPECT_EQ(errors.load(), 0);
    EXPECT_EQ(counters.get("c"), (json{{"n", kThreads * kEach}}));
    // update may delete, and compares the stored bytes (not a re-serialisation).
    host.store["counters/alice/raw"] = {"{ \"n\" : 1 }", 0};
    auto out = counters.update("raw", [](const std::optional<json>& cur) -> std::optional<json> {
        EXPECT_EQ(cur, (json{{"n", 1}}));
        return std::nullopt;
    });
    EXPECT_FALSE(out.has_value());
    EXPECT_FALSE(counters.get("raw").has_value());
}

TEST(FakeHostStore, PrivilegedSubTableVersion2HasCasAndBatch) {
    FakeHost host;
    platform::Host h(host.api(), host.ctx());
    auto* t = h.service<platform_store_api_t>(PLATFORM_SERVICE_STORE, 2);
    ASSERT_NE(t, nullptr);
    ASSERT_TRUE(PLATFORM_HAS_FIELD(platform_store_api_t, t, batch));
    const std::string table = "other", key = "k", v = "v";
    platform_str_t val = platform::view(v);
    EXPECT_EQ(t->cas(host.ctx(), platform::view(table), platform::view(key), nullptr, &val, 0),
              PLATFORM_OK);
    EXPECT_EQ(t->cas(host.ctx(), platform::view(table), platform::view(key), nullptr, &val, 0),
              PLATFORM_CONFLICT);
    EXPECT_EQ(t->cas(host.ctx(), platform::view(table), platform::view(key), nullptr, &val, -1),
              PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(host.tables["other"].at("k").value, "v");
    EXPECT_TRUE(host.store.empty());
    platform_store_op_t op{};
    op.struct_size = sizeof op;
    op.kind = PLATFORM_STORE_OP_DEL;
    op.key = platform::view(key);
    EXPECT_EQ(t->batch(host.ctx(), platform::view(table), &op, 1, sizeof op), PLATFORM_OK);
    EXPECT_TRUE(host.tables["other"].empty());
    op.kind = 7;
    EXPECT_EQ(t->batch(host.ctx(), platform::view(table), &op, 1, sizeof op),
              PLATFORM_INVALID_ARGUMENT);
}
