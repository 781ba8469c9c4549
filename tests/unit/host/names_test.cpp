// names.hpp: the gateway's path resolver (spec §4.1, micro's apiRoute table) and method names.
#include <platform/host/names.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using platform::host::Route;
using platform::host::resolve_rpc_path;

struct RouteCase {
    const char* path;
    const char* service;
    const char* method;
};

void PrintTo(const RouteCase& c, std::ostream* os) { *os << c.path; }

class ResolveRpcPath : public ::testing::TestWithParam<RouteCase> {};

TEST_P(ResolveRpcPath, MatchesTable) {
    const RouteCase& c = GetParam();
    auto r = resolve_rpc_path(c.path);
    ASSERT_TRUE(r.has_value()) << c.path;
    EXPECT_EQ(r->service, c.service) << c.path;
    EXPECT_EQ(r->method, c.method) << c.path;
}

// spec/platform-gateway.md §4.1, "Resolution with namespace N" (service relative to N).
INSTANTIATE_TEST_SUITE_P(SpecTable, ResolveRpcPath,
                         ::testing::Values(RouteCase{"/foo/bar", "foo", "Foo.Bar"},
                                           RouteCase{"/foo/bar/baz", "foo", "Bar.Baz"},
                                           RouteCase{"/foo/bar/baz/cat", "foo.bar", "Baz.Cat"},
                                           RouteCase{"/v1/foo/bar", "v1.foo", "Foo.Bar"},
                                           RouteCase{"/v1/foo/bar/baz", "v1.foo", "Bar.Baz"},
                                           RouteCase{"/v2/foo/bar", "v2.foo", "Foo.Bar"}));

// reference/micro.md §2.1 (micro's route_test.go apiRoute table), plus the derived /foo row.
INSTANTIATE_TEST_SUITE_P(MicroApiRoute, ResolveRpcPath,
                         ::testing::Values(RouteCase{"/foo/bar", "foo", "Foo.Bar"},
                                           RouteCase{"/foo/foo/bar", "foo", "Foo.Bar"},
                                           RouteCase{"/foo/bar/baz", "foo", "Bar.Baz"},
                                           RouteCase{"/foo/bar/baz-xyz", "foo", "Bar.BazXyz"},
                                           RouteCase{"/foo/bar/baz/cat", "foo.bar", "Baz.Cat"},
                                           RouteCase{"/foo/bar/baz/cat/car", "foo.bar.baz", "Cat.Car"},
                                           RouteCase{"/foo/fooBar/bazCat", "foo", "FooBar.BazCat"},
                                           RouteCase{"/v1/foo/bar", "v1.foo", "Foo.Bar"},
                                           RouteCase{"/v1/foo/bar/baz", "v1.foo", "Bar.Baz"},
                                           RouteCase{"/v1/foo/bar/baz/cat", "v1.foo.bar", "Baz.Cat"},
                                           RouteCase{"/foo", "foo", "Foo.Call"}));

// DESIGN §4 names: snake_case catalogue methods and trailing slashes.
INSTANTIATE_TEST_SUITE_P(Platform, ResolveRpcPath,
                         ::testing::Values(RouteCase{"/registry/listServices", "registry",
                                                     "Registry.ListServices"},
                                           RouteCase{"/v1/notes/add", "v1.notes", "Notes.Add"},
                                           RouteCase{"/v1/inbox/mark_read", "v1.inbox", "Inbox.MarkRead"},
                                           RouteCase{"/foo/bar/", "foo", "Foo.Bar"}));

TEST(ResolveRpcPathEmpty, RootAndEmptyHaveNoRoute) {
    EXPECT_FALSE(resolve_rpc_path("/").has_value());
    EXPECT_FALSE(resolve_rpc_path("").has_value());
    EXPECT_FALSE(resolve_rpc_path("///").has_value());
}

struct WordCase {
    const char* in;
    const char* out;
};

TEST(CamelWord, TitleCasesWordsSplitOnDashAndUnderscore) {
    const WordCase cases[] = {
        {"mark_read", "MarkRead"}, {"listServices", "ListServices"}, {"baz-xyz", "BazXyz"},
        {"add", "Add"},            {"a_b-c", "ABC"},                 {"", ""},
    };
    for (const auto& c : cases) EXPECT_EQ(platform::host::camel_word(c.in), c.out) << c.in;
}

TEST(CanonicalMethod, UsesLastServiceSegment) {
    using platform::host::canonical_method;
    EXPECT_EQ(canonical_method("notes", "add"), "Notes.Add");
    EXPECT_EQ(canonical_method("v1.notes", "add"), "Notes.Add");
    EXPECT_EQ(canonical_method("go.core.api.v1.inbox", "mark_read"), "Inbox.MarkRead");
    EXPECT_EQ(canonical_method("go.core.api.registry", "listServices"), "Registry.ListServices");
}

TEST(Qualify, PrefixesNamespaceUnlessEmpty) {
    using platform::host::qualify;
    EXPECT_EQ(qualify("go.core.api", "v1.notes"), "go.core.api.v1.notes");
    EXPECT_EQ(qualify(platform::host::kDefaultNamespace, "registry"), "go.core.api.registry");
    EXPECT_EQ(qualify("", "v1.notes"), "v1.notes");
}

TEST(LastSegment, AfterTheLastDot) {
    using platform::host::last_segment;
    EXPECT_EQ(last_segment("go.core.api.v1.notes"), "notes");
    EXPECT_EQ(last_segment("notes"), "notes");
    EXPECT_EQ(last_segment("a."), "");
    EXPECT_EQ(last_segment(""), "");
}

TEST(PathSegments, DropsEmptySegments) {
    using platform::host::path_segments;
    using V = std::vector<std::string>;
    EXPECT_EQ(path_segments("//a/b/"), (V{"a", "b"}));
    EXPECT_EQ(path_segments("/a//b///c"), (V{"a", "b", "c"}));
    EXPECT_EQ(path_segments("a/b"), (V{"a", "b"}));
    EXPECT_EQ(path_segments("/"), V{});
    EXPECT_EQ(path_segments(""), V{});
    EXPECT_EQ(path_segments("/greeter/:name"), (V{"greeter", ":name"}));
}

}  // namespace
