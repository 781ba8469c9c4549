// The config service (plugins/config) through the fake host: merge, replace, subtree delete,
// prefix reads, strings holding JSON maps, and secrets that never reach the store in clear.
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "../support/plugin_under_test.hpp"

namespace {

using namespace plugin_test;

class ConfigTest : public ::testing::Test {
protected:
    Reply set(const std::string& path, const json& value, bool secret = false) {
        json args = {{"path", path}, {"value", value}};
        if (secret) args["secret"] = true;
        return config.call("set", args, "admin");
    }
    void ok_set(const std::string& path, const json& value, bool secret = false) {
        Reply r = set(path, value, secret);
        ASSERT_EQ(r.code, PLATFORM_OK) << path << ": " << r.body;
    }
    Reply get(const std::string& path, bool decrypt = false) {
        return config.call("get", {{"path", path}, {"decrypt", decrypt}}, "admin");
    }
    json value(const std::string& path, bool decrypt = false) {
        const json answer = ok_json(get(path, decrypt), path);
        return answer.is_null() ? json() : answer.at("value");
    }
    Reply del(const std::string& path) { return config.call("delete", {{"path", path}}, "admin"); }
    // Every byte the store holds, keys and values of every table.
    std::string store_bytes() {
        std::string all;
        for (auto& [table, records] : host.tables)
            for (auto& [k, e] : records) all += table + "\n" + k + "\n" + e.value + "\n";
        return all;
    }

    FakeHost host;
    FakePlugin config = host.load(platform_plugin_entry);
};

TEST_F(ConfigTest, SetThenGetAndMissingIs404NamingThePath) {
    Reply miss = get("somekey");
    EXPECT_EQ(miss.code, PLATFORM_NOT_FOUND);
    EXPECT_NE(miss.body.find("path"), std::string::npos) << miss.body;
    EXPECT_NE(miss.body.find("somekey"), std::string::npos) << miss.body;

    ok_set("somekey", "val1");
    EXPECT_EQ(value("somekey"), "val1");
    ok_set("someotherkey.subkey", "otherval1");
    EXPECT_EQ(value("someotherkey.subkey"), "otherval1");
    EXPECT_EQ(value("someotherkey"), json({{"subkey", "otherval1"}}));
    EXPECT_EQ(get("someotherkey.nope").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(get("someotherkey.subkey.deeper").code, PLATFORM_NOT_FOUND);

    ok_set("jsonescape", "Value with <> signs");
    EXPECT_EQ(value("jsonescape"), "Value with <> signs");
    ok_set("types", {{"b", true}, {"n", 42}, {"f", 2.5}, {"z", nullptr}, {"arr", {1, "two"}}});
    EXPECT_EQ(value("types"),
              json({{"b", true}, {"n", 42}, {"f", 2.5}, {"z", nullptr}, {"arr", {1, "two"}}}));
}

TEST_F(ConfigTest, ObjectsMergeRecursively) {
    ok_set("mergekey", {{"a", 1}});
    ok_set("mergekey", {{"b", 2}});
    EXPECT_EQ(value("mergekey"), json({{"a", 1}, {"b", 2}}));

    ok_set("complexmerge", json::parse(R"({"a":1,"b":{"b1":2},"c":3})"));
    ok_set("complexmerge", json::parse(R"({"d":4,"b":{"b2":2.2}})"));
    EXPECT_EQ(value("complexmerge"), json::parse(R"({"a":1,"b":{"b1":2,"b2":2.2},"c":3,"d":4})"));

    // A merge at a nested path, and a leaf set below an existing object.
    ok_set("svc.db", {{"host", "h"}, {"port", 1}});
    ok_set("svc.db", {{"port", 2}});
    ok_set("svc.db.user", "u");
    EXPECT_EQ(value("svc"), json::parse(R"({"db":{"host":"h","port":2,"user":"u"}})"));
}

TEST_F(ConfigTest, ScalarsAndArraysReplaceTheSubtree) {
    ok_set("pod", "hi");
    ok_set("pod", {{"a", 1}});
    EXPECT_EQ(value("pod"), json({{"a", 1}}));
    ok_set("pod", "hello");
    EXPECT_EQ(value("pod"), "hello");

    ok_set("x", json::parse(R"({"a":{"b":1,"c":2},"d":3})"));
    ok_set("x.a", json::array({1, 2}));
    EXPECT_EQ(value("x"), json::parse(R"({"a":[1,2],"d":3})"));
    ok_set("x.d.e", 5);  // a scalar on the way becomes an object
    EXPECT_EQ(value("x"), json::parse(R"({"a":[1,2],"d":{"e":5}})"));
}

TEST_F(ConfigTest, AStringHoldingAJsonMapIsStoredAsTheMap) {
    ok_set("helloworld", R"({"someboolkey":true,"somekey":"hello"})");
    EXPECT_EQ(value("helloworld"), json::parse(R"({"someboolkey":true,"somekey":"hello"})"));
    EXPECT_EQ(value("helloworld.somekey"), "hello");
    // Stored as the object, not as a string.
    ASSERT_TRUE(host.store.count("helloworld"));
    EXPECT_TRUE(json::parse(host.store.at("helloworld").value).is_object());

    ok_set("helloworld", R"({"other": 1})");  // and it merges like an object
    EXPECT_EQ(value("helloworld"),
              json::parse(R"({"someboolkey":true,"somekey":"hello","other":1})"));

    // Strings holding other JSON stay strings.
    ok_set("num", "42");
    EXPECT_EQ(value("num"), "42");
    ok_set("arr", "[1,2]");
    EXPECT_EQ(value("arr"), "[1,2]");
    ok_set("broken", "{not json");
    EXPECT_EQ(value("broken"), "{not json");
}

TEST_F(ConfigTest, DeleteRemovesTheKeyAndEverythingUnderIt) {
    ok_set("a.b.c", 1);
    ok_set("a.b.d", 2);
    ok_set("a.e", 3);
    ASSERT_EQ(del("a.b").code, PLATFORM_OK);
    EXPECT_EQ(value("a"), json({{"e", 3}}));
    EXPECT_EQ(get("a.b").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(get("a.b.c").code, PLATFORM_NOT_FOUND);

    Reply again = del("a.b");
    EXPECT_EQ(again.code, PLATFORM_NOT_FOUND);
    EXPECT_NE(again.body.find("path"), std::string::npos) << again.body;
    EXPECT_NE(again.body.find("a.b"), std::string::npos) << again.body;

    ASSERT_EQ(del("a").code, PLATFORM_OK);
    EXPECT_EQ(get("a").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(get("a.e").code, PLATFORM_NOT_FOUND);
    EXPECT_FALSE(host.store.count("a"));
    EXPECT_EQ(del("never").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(del("never.set").code, PLATFORM_NOT_FOUND);

    ok_set("somekey", "val1");
    ASSERT_EQ(del("somekey").code, PLATFORM_OK);
    EXPECT_EQ(get("somekey").code, PLATFORM_NOT_FOUND);
}

TEST_F(ConfigTest, PrefixGetReturnsTheNestedMapAndEmptyPathEverything) {
    EXPECT_EQ(value(""), json::object());
    ok_set("notes.limits.max", 10);
    ok_set("notes.limits.min", 1);
    ok_set("notes.title", "Notes");
    ok_set("mail.from", "me@example.com");
    EXPECT_EQ(value("notes.limits"), json({{"max", 10}, {"min", 1}}));
    EXPECT_EQ(value("notes"), json::parse(R"({"limits":{"max":10,"min":1},"title":"Notes"})"));
    EXPECT_EQ(
        value(""),
        json::parse(
            R"({"mail":{"from":"me@example.com"},"notes":{"limits":{"max":10,"min":1},"title":"Notes"}})"));
    // One record per top-level segment.
    EXPECT_EQ(host.store.size(), 2u);

    Reply l = config.call("list", {{"path", "notes"}}, "admin");
    ASSERT_EQ(l.code, PLATFORM_OK) << l.body;
    EXPECT_EQ(l.json().at("paths"), json({"notes.limits.max", "notes.limits.min", "notes.title"}));
    l = config.call("list", {{"path", ""}}, "admin");
    EXPECT_EQ(l.json().at("paths"),
              json({"mail.from", "notes.limits.max", "notes.limits.min", "notes.title"}));
    l = config.call("list", {{"path", "nothing.here"}}, "admin");
    EXPECT_EQ(l.json().at("paths"), json::array());
}

TEST_F(ConfigTest, SecretsAreSealedAtRestAndShownOnlyWithDecrypt) {
    ok_set("db.host", "localhost");
    ok_set("db.password", "hunter2-clear-text", /*secret=*/true);
    EXPECT_EQ(store_bytes().find("hunter2-clear-text"), std::string::npos) << store_bytes();
    json stored = json::parse(host.store.at("db").value);
    ASSERT_TRUE(stored.at("password").is_object());
    EXPECT_TRUE(stored.at("password").at("$secret").is_string());

    EXPECT_EQ(value("db.password"), "[secret]");
    EXPECT_EQ(value("db"), json({{"host", "localhost"}, {"password", "[secret]"}}));
    EXPECT_EQ(value(""), json({{"db", {{"host", "localhost"}, {"password", "[secret]"}}}}));
    EXPECT_EQ(value("db.password", true), "hunter2-clear-text");
    EXPECT_EQ(value("db", true), json({{"host", "localhost"}, {"password", "hunter2-clear-text"}}));

    // Secrets of any JSON type, including maps (a string holding one too) and numbers.
    ok_set("cred", {{"user", "root"}, {"pass", "s3cr3t-map-value"}}, true);
    ok_set("pin", 987654321, true);
    ok_set("strmap", R"({"token":"tok-in-a-string"})", true);
    const std::string bytes = store_bytes();
    for (const char* clear : {"s3cr3t-map-value", "root", "987654321", "tok-in-a-string"})
        EXPECT_EQ(bytes.find(clear), std::string::npos) << clear;
    EXPECT_EQ(value("cred"), "[secret]");
    EXPECT_EQ(value("cred.user"), "[secret]");  // a path into a secret is secret too
    EXPECT_EQ(value("cred", true), json({{"user", "root"}, {"pass", "s3cr3t-map-value"}}));
    EXPECT_EQ(value("cred.user", true), "root");
    EXPECT_EQ(get("cred.nope", true).code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(value("pin"), "[secret]");
    EXPECT_EQ(value("pin", true), 987654321);
    EXPECT_EQ(value("strmap.token", true), "tok-in-a-string");

    // A later non-secret value replaces the secret; a secret replaces rather than merges.
    ok_set("cred", {{"user", "other"}});
    EXPECT_EQ(value("cred"), json({{"user", "other"}}));
    ok_set("db", {{"password", "x"}}, true);
    EXPECT_EQ(value("db"), "[secret]");

    Reply l = config.call("list", {{"path", ""}}, "admin");
    EXPECT_EQ(l.json().at("paths"), json({"cred.user", "db", "pin", "strmap"}));
}

TEST_F(ConfigTest, TheSecretMarkerShapeIsReserved) {
    Reply r = set("k", {{"$secret", "forged"}});
    EXPECT_EQ(r.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_NE(r.body.find("value"), std::string::npos) << r.body;
    r = set("k", {{"nested", {{"$secret", "forged"}}}});
    EXPECT_EQ(r.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_NE(r.body.find("value.nested"), std::string::npos) << r.body;
    ok_set("k", {{"$secret", "a"}, {"other", 1}});  // not the marker shape
}

TEST_F(ConfigTest, BadPathsAreRefusedNamingThePath) {
    for (const char* bad : {"a..b", ".a", "a.", "a b", "a/b", "ü"}) {
        Reply r = set(bad, 1);
        EXPECT_EQ(r.code, PLATFORM_INVALID_ARGUMENT) << bad;
        EXPECT_EQ(r.body.rfind("path:", 0), 0u) << r.body;
        EXPECT_EQ(get(bad).code, PLATFORM_INVALID_ARGUMENT) << bad;
        EXPECT_EQ(del(bad).code, PLATFORM_INVALID_ARGUMENT) << bad;
    }
    EXPECT_EQ(set("", 1).code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(config.call("set", {{"path", "a"}}, "admin").code,
              PLATFORM_INVALID_ARGUMENT);  // no value
}

// Instances on one store are replicas of the server: writes from all of them to different paths
// of one top-level segment, at the same time, are all kept (each write is a compare-and-set on
// the segment's record, repeated when another changed it), and so are deletes. The document grows
// with every write, so the read-modify-write takes long enough for the writers to collide.
TEST_F(ConfigTest, ConcurrentWritesFromReplicasToOneSegmentAreAllKept) {
    constexpr int kReplicas = 4, kEach = 100;
    std::vector<FakePlugin> replicas;
    for (int r = 0; r < kReplicas; ++r) replicas.push_back(host.load(platform_plugin_entry));
    auto run = [&](const std::string& method, int step) {
        std::vector<std::thread> threads;
        for (int r = 0; r < kReplicas; ++r)
            threads.emplace_back([&, r] {
                for (int i = 0; i < kEach; i += step) {
                    json args = {
                        {"path", "shared.r" + std::to_string(r) + "_" + std::to_string(i)}};
                    if (method == "set") args["value"] = i;
                    // A write that lost 64 compare-and-sets in a row answers 503 "kept changing;
                    // try again" (a loaded machine can starve one writer): a client tries again.
                    auto reply = replicas[r].call(method, args, "admin");
                    for (int again = 0; reply.code == PLATFORM_UNAVAILABLE && again < 100; ++again)
                        reply = replicas[r].call(method, args, "admin");
                    EXPECT_EQ(reply.code, PLATFORM_OK)
                        << method << " " << args << ": " << reply.body;
                }
            });
        for (auto& t : threads) t.join();
    };
    run("set", 1);
    const json all = value("shared");
    ASSERT_EQ(all.size(), size_t(kReplicas * kEach)) << "writes were lost";
    for (int r = 0; r < kReplicas; ++r)
        for (int i = 0; i < kEach; ++i)
            EXPECT_EQ(all.value("r" + std::to_string(r) + "_" + std::to_string(i), -1), i);
    run("delete", 2);
    EXPECT_EQ(value("shared").size(), size_t(kReplicas * kEach / 2)) << "deletes were lost";
}

// The descriptor: complete schemas, the right access and verbs, and path patterns that agree with
// the handler's own check (the host matches them as an unanchored ECMAScript search).
TEST_F(ConfigTest, DescriptorSchemasAreCompleteAndStrict) {
    const platform_plugin_desc_t* d = config.descriptor();
    EXPECT_EQ(platform::view(d->id), "config");
    EXPECT_EQ(platform::view(d->service), "config");
    std::map<std::string, const platform_endpoint_t*> eps;
    for (uint32_t i = 0; i < d->endpoint_count; ++i) {
        auto* e = reinterpret_cast<const platform_endpoint_t*>(
            reinterpret_cast<const char*>(d->endpoints) + i * d->endpoint_stride);
        eps[platform::copy(e->name)] = e;
        json schema = json::parse(platform::view(e->input_schema));
        EXPECT_EQ(schema.at("type"), "object");
        EXPECT_EQ(schema.at("additionalProperties"), false) << platform::view(e->name);
        for (auto& [name, prop] : schema.at("properties").items())
            EXPECT_TRUE(prop.contains("description")) << platform::view(e->name) << "." << name;
        EXPECT_EQ(e->access, PLATFORM_ACCESS_ADMIN);
    }
    ASSERT_EQ(eps.size(), 4u);
    EXPECT_EQ(eps.at("get")->verb, PLATFORM_VERB_GET);
    EXPECT_EQ(eps.at("list")->verb, PLATFORM_VERB_GET);
    EXPECT_EQ(eps.at("set")->verb, PLATFORM_VERB_POST);
    EXPECT_EQ(eps.at("delete")->verb, PLATFORM_VERB_POST);
    EXPECT_EQ(json::parse(platform::view(eps.at("set")->input_schema)).at("required"),
              json({"path", "value"}));

    std::regex set_re(
        json::parse(platform::view(eps.at("set")->input_schema))["properties"]["path"]["pattern"]
            .get<std::string>());
    std::regex get_re(
        json::parse(platform::view(eps.at("get")->input_schema))["properties"]["path"]["pattern"]
            .get<std::string>());
    for (const char* good : {"a", "a.b", "A_b-9.c"}) {
        EXPECT_TRUE(std::regex_search(std::string(good), set_re)) << good;
        EXPECT_TRUE(std::regex_search(std::string(good), get_re)) << good;
    }
    EXPECT_FALSE(std::regex_search(std::string(""), set_re));
    EXPECT_TRUE(std::regex_search(std::string(""), get_re));
    for (const char* bad : {"a..b", ".a", "a.", "a b", "x/y.z"}) {
        EXPECT_FALSE(std::regex_search(std::string(bad), set_re)) << bad;
        EXPECT_FALSE(std::regex_search(std::string(bad), get_re)) << bad;
    }
}

}  // namespace
