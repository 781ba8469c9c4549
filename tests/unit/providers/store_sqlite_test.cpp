// store-sqlite beyond the conformance suite: durability across instances and on_create failures.
#include <gtest/gtest.h>

#include "store_client.hpp"

using namespace providers_test;

namespace {

nlohmann::json at(const std::filesystem::path& p) {
    return {{"path", p.string()}};
}

// store-sqlite's on_create on the database `db` fails with a message naming it.
void expect_refused_naming(const std::filesystem::path& db) {
    FakeHost host;
    const std::string err = create_error(host, "store-sqlite", at(db));
    EXPECT_NE(err.find(db.string()), std::string::npos) << err;
}

}  // namespace

TEST(StoreSqlite, DataSurvivesRecreatingTheInstance) {
    TempDir dir;
    FakeHost host;
    auto cfg = at(dir.path() / "store.db");
    {
        StoreClient s(host, "store-sqlite", cfg);
        ASSERT_EQ(s.put("notes", "k1", std::string("v\0one", 5)), PLATFORM_OK);
        ASSERT_EQ(s.put("notes", "k2", "two", kNow + 60000), PLATFORM_OK);
        ASSERT_EQ(s.put("other", "k1", "x"), PLATFORM_OK);
        ASSERT_EQ(s.put("notes", "gone", "x"), PLATFORM_OK);
        ASSERT_EQ(s.del("notes", "gone"), PLATFORM_OK);
    }
    StoreClient s(host, "store-sqlite", cfg);
    EXPECT_EQ(s.get("notes", "k1"), std::string("v\0one", 5));
    EXPECT_EQ(s.get("notes", "k2"), "two");
    EXPECT_EQ(s.get_status("notes", "k2", kNow + 60000), PLATFORM_NOT_FOUND);
    EXPECT_EQ(s.get_status("notes", "gone"), PLATFORM_NOT_FOUND);
    EXPECT_EQ(s.keys("notes"), (std::vector<std::string>{"k1", "k2"}));
    EXPECT_EQ(s.get("other", "k1"), "x");
}

TEST(StoreSqlite, CreatesParentDirectoriesAndUsesWal) {
    TempDir dir;
    FakeHost host;
    auto db = dir.path() / "a" / "b" / "c" / "store.db";
    StoreClient s(host, "store-sqlite", at(db));
    ASSERT_EQ(s.put("t", "k", "v"), PLATFORM_OK);
    EXPECT_TRUE(std::filesystem::exists(db));
    EXPECT_TRUE(std::filesystem::exists(db.string() + "-wal"));
}

TEST(StoreSqlite, UnopenablePathFailsNamingThePath) {
    TempDir dir;
    expect_refused_naming(below_a_file(dir, "store.db"));
}

TEST(StoreSqlite, NotADatabaseFailsNamingThePath) {
    TempDir dir;
    expect_refused_naming(junk_file(dir, "junk.db"));
}

TEST(StoreSqlite, MissingOrInMemoryPathIsRefused) {
    FakeHost host;
    EXPECT_NE(create_error(host, "store-sqlite", nlohmann::json::object()).find("`path`"),
              std::string::npos);
    EXPECT_NE(create_error(host, "store-sqlite", {{"path", 42}}).find("`path`"), std::string::npos);
    EXPECT_NE(create_error(host, "store-sqlite", {{"path", ":memory:"}}).find(":memory:"),
              std::string::npos);
}

TEST(StoreSqlite, SinkMayReenterTheStore) {
    TempDir dir;
    FakeHost host;
    StoreClient s(host, "store-sqlite", at(dir.path() / "store.db"));
    for (const char* k : {"a", "b", "c"}) ASSERT_EQ(s.put("t", k, k), PLATFORM_OK);
    struct Ctx {
        const StoreClient* s;
        int copied = 0;
    } ctx{&s};
    platform_scan_t q{};
    q.struct_size = sizeof q;
    auto sink = [](void* user, platform_str_t k, platform_str_t v) -> bool {
        auto* c = static_cast<Ctx*>(user);
        if (c->s->put("copy", platform::copy(k), platform::copy(v)) == PLATFORM_OK) ++c->copied;
        return true;
    };
    ASSERT_EQ(s.table()->scan(s.plugin().inst(), bytes("t"), &q, kNow, sink, &ctx), PLATFORM_OK);
    EXPECT_EQ(ctx.copied, 3);
    EXPECT_EQ(s.keys("copy"), (std::vector<std::string>{"a", "b", "c"}));
}
