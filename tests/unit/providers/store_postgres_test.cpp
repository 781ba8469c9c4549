// store-postgres beyond the conformance suite: configuration errors, instances sharing one
// database (as replicas do), the connection pool, reconnecting after the server dropped its
// connections, and a server that goes down and comes back.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <thread>

#include "build_tree.hpp"
#include "postgres_server.hpp"
#include "store_client.hpp"

using namespace providers_test;

namespace {

// Skips the test when there is no server (PostgresServer says why).
#define REQUIRE_SERVER()                                                    \
    do {                                                                    \
        if (platform::test::PostgresServer::get().dsn().empty())            \
            GTEST_SKIP() << platform::test::PostgresServer::get().reason(); \
    } while (0)

// A schema of the test's own on the server, dropped afterwards.
struct Schema {
    std::string name = platform::test::PostgresServer::unique_schema();
    ~Schema() { platform::test::PostgresServer::get().drop_schema(name); }
    nlohmann::json config(nlohmann::json extra = nlohmann::json::object()) const {
        extra["dsn"] = platform::test::PostgresServer::get().dsn();
        extra["schema"] = name;
        return extra;
    }
};

bool contains(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

}  // namespace

TEST(StorePostgres, MissingDsnIsRefusedNamingIt) {
    const char* saved = std::getenv("PLATFORM_POSTGRES_DSN");
    std::string keep = saved ? saved : "";
    ::unsetenv("PLATFORM_POSTGRES_DSN");
    FakeHost host;
    const std::string err = create_error(host, "store-postgres", nlohmann::json::object());
    if (saved) ::setenv("PLATFORM_POSTGRES_DSN", keep.c_str(), 1);
    EXPECT_TRUE(contains(err, "'dsn' is required")) << err;
    EXPECT_TRUE(contains(err, "PLATFORM_POSTGRES_DSN")) << err;
}

TEST(StorePostgres, BadConfigValuesAreRefusedNamingTheKey) {
    FakeHost host;
    const std::string dsn = "postgresql://nobody@127.0.0.1:1/none";
    EXPECT_TRUE(contains(create_error(host, "store-postgres", {{"dsn", 42}}), "'dsn'"));
    EXPECT_TRUE(contains(
        create_error(host, "store-postgres", {{"dsn", dsn}, {"schema", "Bad-Name"}}), "'schema'"));
    EXPECT_TRUE(contains(create_error(host, "store-postgres", {{"dsn", dsn}, {"pool_size", 0}}),
                         "'pool_size' must be between 1 and 64"));
}

TEST(StorePostgres, UnreachableServerFailsNamingItWithoutThePassword) {
    FakeHost host;
    // Port 1 on loopback: nothing listens, so the connection is refused at once.
    const std::string err = create_error(host, "store-postgres",
                                         {{"dsn", "postgresql://someone:s3cret@127.0.0.1:1/db"}});
    EXPECT_TRUE(contains(err, "cannot use PostgreSQL at 'postgresql://someone:***@127.0.0.1:1/db'"))
        << err;
    EXPECT_FALSE(contains(err, "s3cret")) << err;
}

TEST(StorePostgres, TwoInstancesOnOneDatabaseSeeEachOthersWrites) {
    REQUIRE_SERVER();
    Schema schema;
    FakeHost host;
    StoreClient a(host, "store-postgres", schema.config());
    StoreClient b(host, "store-postgres", schema.config());
    ASSERT_EQ(a.put("notes", "k", std::string("v\0x", 3)), PLATFORM_OK);
    EXPECT_EQ(b.get("notes", "k"), std::string("v\0x", 3));
    EXPECT_EQ(b.cas("notes", "k", std::string("v\0x", 3), "w"), PLATFORM_OK);
    EXPECT_EQ(a.cas("notes", "k", std::string("v\0x", 3), "late"), PLATFORM_CONFLICT);
    EXPECT_EQ(a.get("notes", "k"), "w");
    EXPECT_EQ(b.del("notes", "k"), PLATFORM_OK);
    EXPECT_EQ(a.get_status("notes", "k"), PLATFORM_NOT_FOUND);
}

TEST(StorePostgres, SinkMayReenterTheStoreWithAPoolOfOne) {
    REQUIRE_SERVER();
    Schema schema;
    FakeHost host;
    // One connection: a sink calling the store could only proceed if the scan gave it back first.
    StoreClient s(host, "store-postgres",
                  schema.config({{"pool_size", 1}, {"acquire_timeout_ms", 2000}}));
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

TEST(StorePostgres, EightThreadsShareAPoolOfTwo) {
    REQUIRE_SERVER();
    Schema schema;
    FakeHost host;
    StoreClient s(host, "store-postgres", schema.config({{"pool_size", 2}}));
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t)
        threads.emplace_back([&, t] {
            for (int i = 0; i < 20; ++i) {
                const std::string k = std::to_string(t) + "/" + std::to_string(i);
                if (s.put("t", k, k) != PLATFORM_OK || s.get("t", k) != k) ++failures;
            }
        });
    for (auto& th : threads) th.join();
    EXPECT_EQ(failures.load(), 0);
    EXPECT_EQ(s.scan("t").size(), 160u);
}

TEST(StorePostgres, ReconnectsAfterTheServerDroppedItsConnections) {
    REQUIRE_SERVER();
    Schema schema;
    FakeHost host;
    // The store's sessions carry the schema's name as their application_name, so the server can
    // end them and no other test's sessions on the shared server (ctest runs them side by side).
    nlohmann::json config = schema.config({{"pool_size", 2}});
    const std::string dsn = config["dsn"];
    config["dsn"] = dsn.rfind("postgres", 0) != 0        ? dsn + " application_name=" + schema.name
                    : dsn.find('?') == std::string::npos ? dsn + "?application_name=" + schema.name
                                                         : dsn + "&application_name=" + schema.name;
    StoreClient s(host, "store-postgres", config);
    ASSERT_EQ(s.put("t", "k", "v"), PLATFORM_OK);
    // The server ends the store's sessions (as a restart or a failover would).
    const std::string cmd = "psql -q -X -t -A '" + dsn +
                            "' -c 'SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                            "WHERE pid <> pg_backend_pid() AND application_name = $$" +
                            schema.name + "$$' 2>&1";
    std::string ended;
    if (std::FILE* p = ::popen(cmd.c_str(), "r")) {
        char buf[256];
        while (std::fgets(buf, sizeof buf, p)) ended += buf;
        ASSERT_EQ(::pclose(p), 0) << "psql is needed to drop the connections: " << ended;
    }
    ASSERT_GE(std::atoi(ended.c_str()), 1) << "no session of the store was ended: " << ended;
    // Idempotent calls retry once on a fresh connection: no error reaches the caller.
    EXPECT_EQ(s.get("t", "k"), "v");
    EXPECT_EQ(s.put("t", "k2", "v2"), PLATFORM_OK);
    EXPECT_EQ(s.keys("t"), (std::vector<std::string>{"k", "k2"}));
}

namespace {

// Runs scripts/postgres.sh with `args`; its stdout's first line, or nullopt when it failed.
std::optional<std::string> postgres_script(const std::string& args) {
    const std::string cmd =
        "bash '" + platform::test::source_dir() + "/scripts/postgres.sh' " + args + " 2>/dev/null";
    std::string out;
    FILE* p = ::popen(cmd.c_str(), "r");
    if (!p) return std::nullopt;
    char buf[512];
    while (std::fgets(buf, sizeof buf, p)) out += buf;
    if (::pclose(p) != 0) return std::nullopt;
    return out.substr(0, out.find('\n'));
}

}  // namespace

// A server of the test's own, halted and started again on the same port: while it is down calls
// answer UNAVAILABLE (nothing crashes or hangs), afterwards the same instance works again and
// every acknowledged write is there, also after a crash-like (immediate) stop.
TEST(StorePostgres, ServerDownIsUnavailableThenTheSameInstanceRecovers) {
    REQUIRE_SERVER();  // PostgreSQL is installed and usable here
    TempDir dir;
    const std::string d = "'" + dir.path().string() + "'";
    auto dsn = postgres_script("start " + d);
    if (!dsn) GTEST_SKIP() << "scripts/postgres.sh start failed";
    struct Stop {
        std::string d;
        ~Stop() { (void)postgres_script("stop " + d); }
    } stop{d};
    FakeHost host;
    StoreClient s(host, "store-postgres", {{"dsn", *dsn}, {"pool_size", 2}});
    ASSERT_EQ(s.put("t", "before", "1"), PLATFORM_OK);

    ASSERT_TRUE(postgres_script("halt " + d));
    EXPECT_EQ(s.put("t", "during", "x"), PLATFORM_UNAVAILABLE);
    EXPECT_EQ(s.get_status("t", "before"), PLATFORM_UNAVAILABLE);
    EXPECT_EQ(s.cas("t", "during", std::nullopt, "x"), PLATFORM_UNAVAILABLE);
    EXPECT_EQ(s.del("t", "before"), PLATFORM_UNAVAILABLE);

    ASSERT_EQ(postgres_script("start " + d), dsn);
    EXPECT_EQ(s.get("t", "before"), "1");
    ASSERT_EQ(s.put("t", "after", "2"), PLATFORM_OK);
    ASSERT_EQ(s.cas("t", "after", std::string("2"), "3"), PLATFORM_OK);

    ASSERT_TRUE(postgres_script("halt " + d + " immediate"));  // no checkpoint: WAL recovery
    ASSERT_EQ(postgres_script("start " + d), dsn);
    EXPECT_EQ(s.keys("t"), (std::vector<std::string>{"after", "before"}));
    EXPECT_EQ(s.get("t", "after"), "3");
}
