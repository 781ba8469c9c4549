// The contacts plugin (plugins/contacts) through the fake host: one card per name, find by a
// part of a name or an address, owner scoping.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../support/plugin_under_test.hpp"

namespace {

using namespace plugin_test;

class ContactsTest : public ::testing::Test {
protected:
    json add(const json& args, const std::string& who = "alice") {
        return ok_json(contacts.call("add", args, who));
    }
    std::vector<std::string> names(const std::string& endpoint, const json& args,
                                   const std::string& who = "alice") {
        return listed(contacts.call(endpoint, args, who), "contacts", "name");
    }

    FakeHost host;
    FakePlugin contacts = host.load(platform_plugin_entry);
};

TEST_F(ContactsTest, AddingTheSameNameUpdatesThatCard) {
    json first = add({{"name", "Ada Lovelace"}, {"email", "ada@example.org"}, {"phone", "+44 1"}});
    EXPECT_EQ(first.at("note"), "");
    EXPECT_EQ(first.at("created"), "2026-01-01T00:00:00Z");
    host.now_ms += 1000;
    json second = add({{"name", "  ada lovelace "}, {"note", "mathematician"}});
    EXPECT_EQ(second.at("id"), first.at("id"));
    EXPECT_EQ(second.at("name"), "ada lovelace");
    EXPECT_EQ(second.at("email"), "ada@example.org");  // omitted: kept
    EXPECT_EQ(second.at("phone"), "+44 1");
    EXPECT_EQ(second.at("note"), "mathematician");
    EXPECT_EQ(second.at("created"), "2026-01-01T00:00:00Z");
    EXPECT_EQ(second.at("updated"), "2026-01-01T00:00:01Z");
    EXPECT_EQ(names("list", json::object()), std::vector<std::string>{"ada lovelace"});
    EXPECT_EQ(contacts.call("add", {{"name", "   "}}, "alice").code, PLATFORM_INVALID_ARGUMENT);
}

TEST_F(ContactsTest, FindByPartOfANameOrAnAddress) {
    add({{"name", "Grace Hopper"}, {"email", "grace@navy.example"}});
    add({{"name", "Alan Turing"}, {"email", "alan@bletchley.example"}});
    add({{"name", "Barbara Liskov"}});
    EXPECT_EQ(names("list", json::object()),
              (std::vector<std::string>{"Alan Turing", "Barbara Liskov", "Grace Hopper"}));
    EXPECT_EQ(names("find", {{"query", "hopper"}}), std::vector<std::string>{"Grace Hopper"});
    EXPECT_EQ(names("find", {{"query", "RA"}}),
              (std::vector<std::string>{"Barbara Liskov", "Grace Hopper"}));
    EXPECT_EQ(names("find", {{"query", "alan@bletchley.example"}}),
              std::vector<std::string>{"Alan Turing"});
    EXPECT_EQ(names("find", {{"query", "navy"}}), std::vector<std::string>{"Grace Hopper"});
    EXPECT_TRUE(names("find", {{"query", "nobody"}}).empty());
    EXPECT_TRUE(names("find", {{"query", "grace"}}, "bob").empty());
}

TEST_F(ContactsTest, DeleteIsOwnerScoped) {
    json c = add({{"name", "Edsger"}});
    add({{"name", "Edsger"}, {"email", "bob's@example"}}, "bob");
    EXPECT_EQ(contacts.call("delete", {{"id", "nope"}}, "alice").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(contacts.call("delete", {{"id", c.at("id")}}, "alice").json(),
              (json{{"deleted", c.at("id")}}));
    EXPECT_TRUE(names("list", json::object()).empty());
    EXPECT_EQ(names("list", json::object(), "bob"),
              std::vector<std::string>{"Edsger"});  // his card stays
    EXPECT_EQ(contacts.call("list", json::object(), "").code, PLATFORM_UNAUTHENTICATED);
}

}  // namespace
