// The store service (plugins/store) through the fake host's privileged "store" sub-table: exact and
// prefix reads, suffix filters, limit/offset/order, TTL, delete, list and tables (the cases of
// micro's own store conformance test).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../support/plugin_under_test.hpp"

namespace {

using namespace plugin_test;

class StoreTest : public ::testing::Test {
protected:
    Reply call(const std::string& ep, json args) { return store.call(ep, args, "admin"); }
    void write(const std::string& key, const std::string& value, int64_t ttl = 0,
               const std::string& table = "t") {
        json args = {{"table", table}, {"key", key}, {"value", value}};
        if (ttl) args["ttl"] = ttl;
        Reply r = call("write", args);
        ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    }
    // Keys of a read (records) or a list (keys) with extra options.
    std::vector<std::string> keys(const std::string& ep, json opts,
                                  const std::string& table = "t") {
        opts["table"] = table;
        Reply r = call(ep, opts);
        if (ep != "list") return listed(r, "records", "key");
        std::vector<std::string> out;
        const json body = ok_json(r);
        if (!body.is_null())
            for (auto& k : body.at("keys")) out.push_back(k.get<std::string>());
        return out;
    }
    using Keys = std::vector<std::string>;

    FakeHost host;
    FakePlugin store = host.load(platform_plugin_entry);
};

TEST_F(StoreTest, WriteThenReadByExactKey) {
    Reply miss = call("read", {{"table", "t"}, {"key", "somekey"}});
    EXPECT_EQ(miss.code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(miss.body.rfind("key:", 0), 0u) << miss.body;

    write("somekey", "val1");
    Reply r = call("read", {{"table", "t"}, {"key", "somekey"}});
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    EXPECT_EQ(r.json(),
              json::parse(R"({"records":[{"key":"somekey","value":"val1","expiry":0}]})"));
    EXPECT_EQ(host.tables["t"].at("somekey").value,
              "val1");  // the named table, not the plugin's own

    write("somekey", "val2");  // overwrites
    EXPECT_EQ(call("read", {{"table", "t"}, {"key", "somekey"}}).json()["records"][0]["value"],
              "val2");
    EXPECT_EQ(call("read", {{"table", "other"}, {"key", "somekey"}}).code,
              PLATFORM_NOT_FOUND);  // tables are apart
}

TEST_F(StoreTest, PrefixReadReturnsRecordsInKeyOrder) {
    for (const char* k : {"somekey2", "somekey", "other", "somekey1"})
        write(k, std::string("v-") + k);
    EXPECT_EQ(keys("read", {{"prefix", "somekey"}}), (Keys{"somekey", "somekey1", "somekey2"}));
    EXPECT_EQ(keys("read", {{"prefix", "nothing"}}), Keys{});
    EXPECT_EQ(keys("read", json::object()), (Keys{"other", "somekey", "somekey1", "somekey2"}));
    Reply r = call("read", {{"table", "t"}, {"prefix", "somekey1"}});
    EXPECT_EQ(r.json()["records"][0]["value"], "v-somekey1");

    Reply both = call("read", {{"table", "t"}, {"key", "a"}, {"prefix", "a"}});
    EXPECT_EQ(both.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(both.body.rfind("key:", 0), 0u) << both.body;
}

TEST_F(StoreTest, SuffixFiltersAfterThePrefixScan) {
    // micro's conformance: foofoobarbar, foofoo, barbar; prefix foo + suffix bar = 1.
    write("foofoobarbar", "1");
    write("foofoo", "2");
    write("barbar", "3");
    EXPECT_EQ(keys("read", {{"prefix", "foo"}, {"suffix", "bar"}}), Keys{"foofoobarbar"});
    EXPECT_EQ(keys("read", {{"suffix", "bar"}}), (Keys{"barbar", "foofoobarbar"}));
    EXPECT_EQ(keys("list", {{"suffix", "foo"}}), Keys{"foofoo"});

    // Offset and limit count matching records only.
    for (int i = 0; i < 10; ++i) write("s" + std::to_string(i) + (i % 2 ? "-odd" : "-even"), "x");
    EXPECT_EQ(keys("list", {{"prefix", "s"}, {"suffix", "-odd"}}),
              (Keys{"s1-odd", "s3-odd", "s5-odd", "s7-odd", "s9-odd"}));
    EXPECT_EQ(keys("list", {{"prefix", "s"}, {"suffix", "-odd"}, {"offset", 1}, {"limit", 2}}),
              (Keys{"s3-odd", "s5-odd"}));
    EXPECT_EQ(keys("list", {{"prefix", "s"}, {"suffix", "-odd"}, {"order", "desc"}, {"limit", 2}}),
              (Keys{"s9-odd", "s7-odd"}));
}

TEST_F(StoreTest, LimitOffsetAndOrder) {
    for (int i = 0; i < 10; ++i) write("a" + std::to_string(i), std::to_string(i));
    EXPECT_EQ(keys("read", {{"prefix", "a"}, {"limit", 5}}).size(), 5u);
    EXPECT_EQ(keys("read", {{"prefix", "a"}, {"limit", 5}})[0], "a0");
    EXPECT_EQ(keys("read", {{"prefix", "a"}, {"limit", 30}, {"offset", 5}}),
              (Keys{"a5", "a6", "a7", "a8", "a9"}));
    EXPECT_EQ(keys("list", {{"prefix", "a"}}).size(), 10u);
    EXPECT_EQ(keys("list", {{"prefix", "a"}, {"offset", 6}}).size(), 4u);
    EXPECT_EQ(keys("list", {{"prefix", "a"}, {"offset", 6}, {"limit", 2}}), (Keys{"a6", "a7"}));
    EXPECT_EQ(keys("list", {{"prefix", "a"}, {"offset", 10}}), Keys{});
    EXPECT_EQ(keys("list", {{"prefix", "a"}, {"order", "desc"}, {"limit", 3}}),
              (Keys{"a9", "a8", "a7"}));
    EXPECT_EQ(keys("read", {{"prefix", "a"}, {"order", "desc"}, {"offset", 8}}),
              (Keys{"a1", "a0"}));

    // The default limit is 100.
    for (int i = 0; i < 120; ++i) write("b" + std::to_string(1000 + i), "x");
    EXPECT_EQ(keys("list", {{"prefix", "b"}}).size(), 100u);

    for (json bad : {json{{"limit", 0}}, json{{"limit", 1001}}, json{{"offset", -1}},
                     json{{"order", "up"}}, json{{"limit", "x"}}}) {
        bad["table"] = "t";
        Reply r = call("list", bad);
        EXPECT_EQ(r.code, PLATFORM_INVALID_ARGUMENT) << bad.dump();
        EXPECT_EQ(r.body.find(bad.begin().key()), 0u) << r.body;  // names the argument
    }
}

TEST_F(StoreTest, TtlExpiresRecords) {
    write("short", "x", /*ttl=*/1);
    write("long", "y", /*ttl=*/3600);
    write("forever", "z");
    EXPECT_EQ(host.tables["t"].at("short").expires_at, host.now_ms + 1000);
    EXPECT_EQ(call("read", {{"table", "t"}, {"key", "short"}}).code, PLATFORM_OK);
    host.now_ms += 999;
    EXPECT_EQ(call("read", {{"table", "t"}, {"key", "short"}}).code, PLATFORM_OK);
    host.now_ms += 1;
    EXPECT_EQ(call("read", {{"table", "t"}, {"key", "short"}}).code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(keys("list", json::object()), (Keys{"forever", "long"}));
    host.now_ms += 3600 * 1000;
    EXPECT_EQ(keys("list", json::object()), Keys{"forever"});
    EXPECT_EQ(call("write", {{"table", "t"}, {"key", "k"}, {"value", "v"}, {"ttl", -1}}).code,
              PLATFORM_INVALID_ARGUMENT);
}

TEST_F(StoreTest, DeleteIsIdempotent) {
    write("k", "v");
    Reply r = call("delete", {{"table", "t"}, {"key", "k"}});
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    EXPECT_EQ(r.json(), json({{"deleted", true}}));
    EXPECT_EQ(call("read", {{"table", "t"}, {"key", "k"}}).code, PLATFORM_NOT_FOUND);
    r = call("delete", {{"table", "t"}, {"key", "k"}});
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    EXPECT_EQ(r.json(), json({{"deleted", false}}));
}

TEST_F(StoreTest, ReadsOtherServicesTablesAndListsTables) {
    host.tables["notes"]["notes/alice/groceries"] = {R"({"title":"groceries"})", 0};
    Reply r = call("read", {{"table", "notes"}, {"prefix", "notes/alice/"}});
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    EXPECT_EQ(r.json()["records"][0]["value"], R"({"title":"groceries"})");
    write("k", "v", 0, "t");
    Reply t = call("tables", json::object());
    ASSERT_EQ(t.code, PLATFORM_OK) << t.body;
    EXPECT_EQ(t.json(), json({{"tables", {"notes", "t"}}}));
}

TEST_F(StoreTest, MissingArgumentsAreNamed) {
    Reply r = call("write", {{"table", "t"}, {"key", "k"}});
    EXPECT_EQ(r.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(r.body.rfind("value:", 0), 0u) << r.body;
    r = call("read", {{"key", "k"}});
    EXPECT_EQ(r.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(r.body.rfind("table:", 0), 0u) << r.body;
}

TEST_F(StoreTest, DescriptorSchemasAreStrict) {
    const platform_plugin_desc_t* d = store.descriptor();
    EXPECT_EQ(platform::view(d->service), "store");
    std::vector<std::string> names;
    for (uint32_t i = 0; i < d->endpoint_count; ++i) {
        auto* e = reinterpret_cast<const platform_endpoint_t*>(
            reinterpret_cast<const char*>(d->endpoints) + i * d->endpoint_stride);
        names.push_back(platform::copy(e->name));
        json schema = json::parse(platform::view(e->input_schema));
        EXPECT_EQ(schema.at("additionalProperties"), false) << names.back();
        for (auto& [name, prop] : schema.at("properties").items())
            EXPECT_TRUE(prop.contains("description") && prop.contains("type"))
                << names.back() << "." << name;
        EXPECT_EQ(e->access, PLATFORM_ACCESS_ADMIN);
        EXPECT_EQ(e->verb, names.back() == "write" || names.back() == "delete" ? PLATFORM_VERB_POST
                                                                               : PLATFORM_VERB_GET);
        if (names.back() != "tables") {
            EXPECT_EQ(schema.at("required")[0], "table");
        }
    }
    EXPECT_EQ(names, (std::vector<std::string>{"read", "write", "delete", "list", "tables"}));
}

}  // namespace
