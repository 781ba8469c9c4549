// Several host replicas over one shared store: two `platform server` processes, each with its own
// PLATFORM_HOME and ports, whose profile names store-postgres on the same PostgreSQL database
// (tests/support/postgres_server.hpp finds or starts it; without PostgreSQL the tests skip saying
// why). What one replica writes, the other reads.
#include <gtest/gtest.h>

#include <fstream>

#include "host_process.hpp"
#include "http_client.hpp"
#include "postgres_server.hpp"

using namespace platform::test;

namespace {

// A profile on store-postgres (schema `schema`), in-memory broker and events, auth-noop (the bearer
// token is the account id).
std::string write_profile(const TempDir& dir, const std::string& schema) {
    const std::string file = dir.path() + "/replicas.yaml";
    std::ofstream(file) << "name: replicas\n"
                           "description: two replicas on one PostgreSQL\n"
                           "clock: real\n"
                           "plugins: all\n"
                           "privileged: [registry, config, store, broker, network]\n"
                           "providers:\n"
                           "  store:\n"
                           "    plugin: store-postgres\n"
                           "    config:\n"
                           "      dsn: \""
                        << PostgresServer::get().dsn()
                        << "\"\n"
                           "      schema: "
                        << schema
                        << "\n"
                           "  broker:\n"
                           "    plugin: broker-memory\n"
                           "  events:\n"
                           "    plugin: events-memory\n"
                           "  auth:\n"
                           "    plugin: auth-noop\n";
    return file;
}

class Replicas : public ::testing::Test {
protected:
    void SetUp() override {
        if (PostgresServer::get().dsn().empty()) GTEST_SKIP() << PostgresServer::get().reason();
        HostProcess::Options o;
        o.profile = write_profile(dir_, schema_);
        a_ = std::make_unique<HostProcess>(o);
        b_ = std::make_unique<HostProcess>(o);
        a_->start();
        b_->start();
    }
    void TearDown() override {
        a_.reset();
        b_.reset();
        PostgresServer::get().drop_schema(schema_);
    }

    TempDir dir_;
    std::string schema_ = PostgresServer::unique_schema();
    std::unique_ptr<HostProcess> a_, b_;
};

TEST_F(Replicas, ANoteWrittenThroughOneIsReadThroughTheOther) {
    HttpClient a("127.0.0.1", a_->api_port()), b("127.0.0.1", b_->api_port());
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
}

TEST_F(Replicas, EachReplicaLogsItsStoreOnPostgres) {
    EXPECT_TRUE(a_->wait_for_log("store-postgres: connected to")) << a_->log();
    EXPECT_TRUE(b_->wait_for_log("table \"" + schema_ + "\".records")) << b_->log();
}

}  // namespace
