// The notes plugin (plugins/notes/notes.cpp) through the fake host: owner-scoped notes by title.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../support/plugin_under_test.hpp"

namespace {

using namespace plugin_test;

class NotesTest : public ::testing::Test {
protected:
    Reply add(const std::string& title, const std::string& text, const std::string& who) {
        return notes.call("add", {{"title", title}, {"text", text}}, who);
    }
    Reply get(const std::string& title, const std::string& who) {
        return notes.call("get", {{"title", title}}, who);
    }
    Reply del(const std::string& title, const std::string& who) {
        return notes.call("delete", {{"title", title}}, who);
    }
    // Titles of `who`'s notes, in the order list returns them.
    std::vector<std::string> titles(const std::string& who) {
        return listed(notes.call("list", json::object(), who), "notes", "title");
    }

    FakeHost host;
    FakePlugin notes = host.load(platform_plugin_entry);
};

TEST_F(NotesTest, AddThenGet) {
    Reply a = add("groceries", "milk, eggs", "alice");
    ASSERT_EQ(a.code, PLATFORM_OK) << a.body;
    json added = a.json();
    EXPECT_EQ(added.at("title"), "groceries");
    EXPECT_EQ(added.at("text"), "milk, eggs");
    EXPECT_EQ(added.at("created"), "2026-01-01T00:00:00Z");  // the fake host's clock
    EXPECT_EQ(added.at("updated"), "2026-01-01T00:00:00Z");

    Reply g = get("groceries", "alice");
    ASSERT_EQ(g.code, PLATFORM_OK) << g.body;
    EXPECT_EQ(g.json(), added);
}

TEST_F(NotesTest, AddExistingTitleRewritesTextKeepsCreated) {
    ASSERT_EQ(add("plan", "v1", "alice").code, PLATFORM_OK);
    host.now_ms += 90 * 1000;  // 00:01:30 later
    Reply r = add("plan", "v2", "alice");
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    EXPECT_EQ(r.json().at("text"), "v2");
    EXPECT_EQ(r.json().at("created"), "2026-01-01T00:00:00Z");
    EXPECT_EQ(r.json().at("updated"), "2026-01-01T00:01:30Z");

    json stored = get("plan", "alice").json();
    EXPECT_EQ(stored.at("text"), "v2");
    EXPECT_EQ(stored.at("created"), "2026-01-01T00:00:00Z");
    EXPECT_EQ(stored.at("updated"), "2026-01-01T00:01:30Z");
    EXPECT_EQ(titles("alice"), std::vector<std::string>{"plan"});  // rewritten, not duplicated
}

TEST_F(NotesTest, ListReturnsEveryNoteOrderedByTitle) {
    EXPECT_EQ(titles("alice"), std::vector<std::string>{});
    for (const char* t : {"pear", "apple", "Zebra", "mango", "apple pie"})
        ASSERT_EQ(add(t, std::string("about ") + t, "alice").code, PLATFORM_OK);
    EXPECT_EQ(titles("alice"),
              (std::vector<std::string>{"Zebra", "apple", "apple pie", "mango", "pear"}));

    const json listed = notes.call("list", json::object(), "alice").json();
    ASSERT_EQ(listed.at("notes").size(), 5u);
    for (const auto& n : listed.at("notes")) {
        EXPECT_EQ(n.at("text"), "about " + n.at("title").get<std::string>());
        EXPECT_TRUE(n.contains("created"));
        EXPECT_TRUE(n.contains("updated"));
    }
}

TEST_F(NotesTest, DeleteThenGetIsNotFound) {
    ASSERT_EQ(add("old", "x", "alice").code, PLATFORM_OK);
    Reply d = del("old", "alice");
    ASSERT_EQ(d.code, PLATFORM_OK) << d.body;
    EXPECT_EQ(d.json(), (json{{"deleted", "old"}}));

    Reply g = get("old", "alice");
    EXPECT_EQ(g.code, PLATFORM_NOT_FOUND);
    EXPECT_NE(g.body.find("old"), std::string::npos) << g.body;
    EXPECT_EQ(titles("alice"), std::vector<std::string>{});
}

TEST_F(NotesTest, DeleteMissingIsNotFound) {
    Reply d = del("never-written", "alice");
    EXPECT_EQ(d.code, PLATFORM_NOT_FOUND);
    EXPECT_NE(d.body.find("never-written"), std::string::npos) << d.body;
    // Deleting twice: the second is NOT_FOUND too.
    ASSERT_EQ(add("once", "x", "alice").code, PLATFORM_OK);
    EXPECT_EQ(del("once", "alice").code, PLATFORM_OK);
    EXPECT_EQ(del("once", "alice").code, PLATFORM_NOT_FOUND);
}

TEST_F(NotesTest, OwnersSeeOnlyTheirOwnNotes) {
    ASSERT_EQ(add("shared title", "alice's text", "alice").code, PLATFORM_OK);
    ASSERT_EQ(add("shared title", "bob's text", "bob").code, PLATFORM_OK);
    ASSERT_EQ(add("alice only", "secret", "alice").code, PLATFORM_OK);

    EXPECT_EQ(get("shared title", "alice").json().at("text"), "alice's text");
    EXPECT_EQ(get("shared title", "bob").json().at("text"), "bob's text");
    EXPECT_EQ(get("alice only", "bob").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(titles("alice"), (std::vector<std::string>{"alice only", "shared title"}));
    EXPECT_EQ(titles("bob"), std::vector<std::string>{"shared title"});

    // Bob cannot delete Alice's note; deleting his own leaves hers.
    EXPECT_EQ(del("alice only", "bob").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(del("shared title", "bob").code, PLATFORM_OK);
    EXPECT_EQ(get("shared title", "alice").json().at("text"), "alice's text");
    EXPECT_EQ(get("alice only", "alice").code, PLATFORM_OK);
}

TEST_F(NotesTest, AnonymousIsUnauthenticated) {
    ASSERT_EQ(add("mine", "x", "alice").code, PLATFORM_OK);
    const struct {
        const char* endpoint;
        json args;
    } calls[] = {
        {"add", {{"title", "t"}, {"text", "x"}}},
        {"get", {{"title", "mine"}}},
        {"delete", {{"title", "mine"}}},
        {"list", json::object()},
    };
    for (const auto& c : calls) {
        SCOPED_TRACE(c.endpoint);
        Reply r = notes.call(c.endpoint, c.args, "");
        EXPECT_EQ(r.code, PLATFORM_UNAUTHENTICATED) << r.body;
    }
    EXPECT_EQ(get("mine", "alice").code, PLATFORM_OK);  // the anonymous delete did nothing
}

TEST_F(NotesTest, SlashesAndPercentsDoNotLeakAcrossOwners) {
    // Owner "a/b" and owner "a" with title "b/x" would collide under a naive "notes/<owner>/<title>".
    ASSERT_EQ(add("x", "from a/b", "a/b").code, PLATFORM_OK);
    ASSERT_EQ(add("b/x", "from a", "a").code, PLATFORM_OK);
    ASSERT_EQ(add("100%", "percent", "a%2Fb").code, PLATFORM_OK);
    ASSERT_EQ(add("%2F", "escaped-looking title", "a").code, PLATFORM_OK);

    EXPECT_EQ(get("x", "a/b").json().at("text"), "from a/b");
    EXPECT_EQ(get("b/x", "a").json().at("text"), "from a");
    EXPECT_EQ(get("b/x", "a/b").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(get("x", "a").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(get("100%", "a/b").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(get("100%", "a%2Fb").json().at("text"), "percent");

    EXPECT_EQ(titles("a/b"), std::vector<std::string>{"x"});
    EXPECT_EQ(titles("a"), (std::vector<std::string>{"%2F", "b/x"}));
    EXPECT_EQ(titles("a%2Fb"), std::vector<std::string>{"100%"});
    EXPECT_EQ(titles("b"), std::vector<std::string>{});

    // A delete by one owner never reaches the other's record.
    EXPECT_EQ(del("b/x", "a/b").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(del("x", "a").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(get("x", "a/b").code, PLATFORM_OK);
    EXPECT_EQ(get("b/x", "a").code, PLATFORM_OK);
}

TEST_F(NotesTest, Descriptor) {
    const platform_plugin_desc_t* d = notes.descriptor();
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(platform::copy(d->id), "notes");
    EXPECT_EQ(platform::copy(d->service), "v1.notes");
    EXPECT_EQ(d->kind, PLATFORM_KIND_SERVICE);
    ASSERT_EQ(d->endpoint_count, 6u);

    const struct {
        const char* name;
        platform_verb_t verb;
        uint64_t must_have, must_not_have;
        platform_mcp_role_t role;
        const char* uri_prefix;
    } want[] = {
        {"add", PLATFORM_VERB_POST, PLATFORM_FLAG_IDEMPOTENT,
         PLATFORM_FLAG_READ_ONLY | PLATFORM_FLAG_DESTRUCTIVE, PLATFORM_MCP_TOOL, ""},
        {"delete", PLATFORM_VERB_POST, PLATFORM_FLAG_DESTRUCTIVE, PLATFORM_FLAG_READ_ONLY,
         PLATFORM_MCP_TOOL, ""},
        {"get", PLATFORM_VERB_GET, PLATFORM_FLAG_READ_ONLY, PLATFORM_FLAG_DESTRUCTIVE,
         PLATFORM_MCP_TOOL, ""},
        {"list", PLATFORM_VERB_GET, PLATFORM_FLAG_READ_ONLY, PLATFORM_FLAG_DESTRUCTIVE,
         PLATFORM_MCP_TOOL, ""},
        {"resources", PLATFORM_VERB_GET, PLATFORM_FLAG_READ_ONLY, PLATFORM_FLAG_DESTRUCTIVE,
         PLATFORM_MCP_RESOURCES, ""},
        {"read_resource", PLATFORM_VERB_GET, PLATFORM_FLAG_READ_ONLY, PLATFORM_FLAG_DESTRUCTIVE,
         PLATFORM_MCP_RESOURCE_READ, "notes://"},
    };
    for (uint32_t i = 0; i < 6; ++i) {
        const auto* ep = reinterpret_cast<const platform_endpoint_t*>(
            reinterpret_cast<const char*>(d->endpoints) + size_t(i) * d->endpoint_stride);
        SCOPED_TRACE(want[i].name);
        EXPECT_EQ(platform::copy(ep->name), want[i].name);
        EXPECT_EQ(ep->verb, want[i].verb);
        EXPECT_EQ(ep->access, PLATFORM_ACCESS_OWNER);
        EXPECT_EQ(ep->flags & want[i].must_have, want[i].must_have);
        EXPECT_EQ(ep->flags & want[i].must_not_have, 0u);
        EXPECT_EQ(ep->flags & PLATFORM_FLAG_MCP_CONTENT, 0u);
        EXPECT_EQ(ep->mcp_role, want[i].role);
        EXPECT_EQ(platform::copy(ep->mcp_uri_prefix), want[i].uri_prefix);
        EXPECT_FALSE(platform::copy(ep->title).empty());
        // Every input schema is a JSON object schema.
        json schema = json::parse(platform::copy(ep->input_schema));
        EXPECT_EQ(schema.at("type"), "object");
    }
}

// ---- MCP resources (notes_resources.cpp) -----------------------------------------------------

TEST_F(NotesTest, ResourcesListNewestFirstWithFirstLineDescriptions) {
    EXPECT_EQ(notes.call("resources", json::object(), "alice").json(),
              (json{{"resources", json::array()}}));
    ASSERT_EQ(add("old", "first line\nsecond line", "alice").code, PLATFORM_OK);
    host.now_ms += 1000;
    ASSERT_EQ(add("b/c d%", "windows line\r\nnext", "alice").code, PLATFORM_OK);
    ASSERT_EQ(add("a same second", "\nan empty first line", "alice").code, PLATFORM_OK);
    ASSERT_EQ(add("bob's", "not alice's", "bob").code, PLATFORM_OK);

    Reply r = notes.call("resources", {{"cursor", "ignored"}}, "alice");
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    EXPECT_EQ(r.json(), (json{{"resources",
                               {{{"uri", "notes://a%20same%20second"},
                                 {"name", "a same second"},
                                 {"description", ""},
                                 {"mimeType", "text/markdown"}},
                                {{"uri", "notes://b%2Fc%20d%25"},
                                 {"name", "b/c d%"},
                                 {"description", "windows line"},
                                 {"mimeType", "text/markdown"}},
                                {{"uri", "notes://old"},
                                 {"name", "old"},
                                 {"description", "first line"},
                                 {"mimeType", "text/markdown"}}}}}));
}

TEST_F(NotesTest, ResourceDescriptionIsCutAt80Characters) {
    const std::string eighty_e_acute = [] {
        std::string s;
        for (int i = 0; i < 80; ++i) s += "\xC3\xA9";  // é: two bytes, one character
        return s;
    }();
    ASSERT_EQ(add("long", eighty_e_acute + "and more", "alice").code, PLATFORM_OK);
    json listed = notes.call("resources", json::object(), "alice").json();
    EXPECT_EQ(listed.at("resources")[0].at("description"), eighty_e_acute);
}

TEST_F(NotesTest, ResourcesListAtMost100) {
    for (int i = 0; i < 105; ++i) {
        host.now_ms += 1000;
        ASSERT_EQ(add("n" + std::to_string(i), "x", "alice").code, PLATFORM_OK);
    }
    json listed = notes.call("resources", json::object(), "alice").json().at("resources");
    ASSERT_EQ(listed.size(), 100u);
    EXPECT_EQ(listed.front().at("name"), "n104");  // the newest
    EXPECT_EQ(listed.back().at("name"), "n5");
}

TEST_F(NotesTest, ReadResource) {
    ASSERT_EQ(add("b/c d%", "# heading\nbody", "alice").code, PLATFORM_OK);
    Reply r = notes.call("read_resource", {{"uri", "notes://b%2Fc%20d%25"}}, "alice");
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    EXPECT_EQ(r.json(), (json{{"contents",
                               {{{"uri", "notes://b%2Fc%20d%25"},
                                 {"mimeType", "text/markdown"},
                                 {"text", "# heading\nbody"}}}}}));
    // Lower-case hex and unencoded characters decode to the same title.
    EXPECT_EQ(notes.call("read_resource", {{"uri", "notes://b%2fc d%25"}}, "alice").code,
              PLATFORM_OK);

    Reply other = notes.call("read_resource", {{"uri", "notes://b%2Fc%20d%25"}}, "bob");
    EXPECT_EQ(other.code, PLATFORM_NOT_FOUND);
    EXPECT_NE(other.body.find("notes://b%2Fc%20d%25"), std::string::npos) << other.body;
    EXPECT_EQ(notes.call("read_resource", {{"uri", "notes://never"}}, "alice").code,
              PLATFORM_NOT_FOUND);
    EXPECT_EQ(notes.call("read_resource", {{"uri", "other://b"}}, "alice").code,
              PLATFORM_NOT_FOUND);
    for (const char* broken : {"notes://a%2", "notes://a%zz", "notes://%"}) {
        SCOPED_TRACE(broken);
        EXPECT_EQ(notes.call("read_resource", {{"uri", broken}}, "alice").code,
                  PLATFORM_INVALID_ARGUMENT);
    }
    EXPECT_EQ(notes.call("read_resource", {{"uri", "notes://never"}}, "").code,
              PLATFORM_UNAUTHENTICATED);
    EXPECT_EQ(notes.call("resources", json::object(), "").code, PLATFORM_UNAUTHENTICATED);
}

TEST_F(NotesTest, ChangesTellSubscribers) {
    ASSERT_EQ(add("a b", "v1", "alice").code, PLATFORM_OK);
    EXPECT_EQ(host.updated_resources, std::vector<std::string>{"notes://a%20b"});
    ASSERT_EQ(add("a b", "v2", "alice").code, PLATFORM_OK);
    ASSERT_EQ(del("a b", "alice").code, PLATFORM_OK);
    EXPECT_EQ(del("a b", "alice").code, PLATFORM_NOT_FOUND);  // nothing changed: no notification
    EXPECT_EQ(add("t", "x", "").code, PLATFORM_UNAUTHENTICATED);
    EXPECT_EQ(host.updated_resources,
              (std::vector<std::string>{"notes://a%20b", "notes://a%20b", "notes://a%20b"}));
    // Only the owner's sessions hear of it.
    EXPECT_EQ(host.updated_resource_accounts,
              (std::vector<std::string>{"alice", "alice", "alice"}));
}

}  // namespace

// The fake host validates with the host's validator: the 400s a client gets, before the handler.
TEST(NotesArguments, RefusedAsTheHostRefusesThem) {
    FakeHost host;
    auto notes = host.load(platform_plugin_entry);
    const auto missing = notes.call("add", {{"title", "t"}}, "alice");
    EXPECT_EQ(missing.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(missing.body, "text: is required");
    const auto wrong_type = notes.call("get", {{"title", 5}}, "alice");
    EXPECT_EQ(wrong_type.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(wrong_type.body, "title: must be a string");
    const auto too_long =
        notes.call("add", {{"title", std::string(201, 'x')}, {"text", "t"}}, "alice");
    EXPECT_EQ(too_long.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(too_long.body, "title: must be at most 200 characters");
    EXPECT_TRUE(host.store.empty());  // no handler ran
}
