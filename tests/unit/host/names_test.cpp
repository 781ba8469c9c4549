// names.hpp: the gateway's path resolvers (the gateway's resolution table, micro's apiRoute,
// proxyRoute, vpath, web and event tables), route templates, and method names.
#include <gtest/gtest.h>

#include <optional>
#include <platform/host/core/names.hpp>
#include <string>
#include <vector>

namespace {

using platform::host::resolve_rpc_path;
using platform::host::Route;

struct RouteCase {
    const char* path;
    const char* service;
    const char* method;
};

void PrintTo(const RouteCase& c, std::ostream* os) {
    *os << c.path;
}

class ResolveRpcPath : public ::testing::TestWithParam<RouteCase> {};

TEST_P(ResolveRpcPath, MatchesTable) {
    const RouteCase& c = GetParam();
    auto r = resolve_rpc_path(c.path);
    ASSERT_TRUE(r.has_value()) << c.path;
    EXPECT_EQ(r->service, c.service) << c.path;
    EXPECT_EQ(r->method, c.method) << c.path;
}

// The gateway's resolution table for namespace N (service relative to N).
INSTANTIATE_TEST_SUITE_P(SpecTable, ResolveRpcPath,
                         ::testing::Values(RouteCase{"/foo/bar", "foo", "Foo.Bar"},
                                           RouteCase{"/foo/bar/baz", "foo", "Bar.Baz"},
                                           RouteCase{"/foo/bar/baz/cat", "foo.bar", "Baz.Cat"},
                                           RouteCase{"/v1/foo/bar", "v1.foo", "Foo.Bar"},
                                           RouteCase{"/v1/foo/bar/baz", "v1.foo", "Bar.Baz"},
                                           RouteCase{"/v2/foo/bar", "v2.foo", "Foo.Bar"}));

// micro's apiRoute table (service/api/server/route_test.go), plus the derived /foo row.
INSTANTIATE_TEST_SUITE_P(
    MicroApiRoute, ResolveRpcPath,
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

// Platform names (names.hpp): snake_case catalogue methods and trailing slashes.
INSTANTIATE_TEST_SUITE_P(
    Platform, ResolveRpcPath,
    ::testing::Values(RouteCase{"/registry/listServices", "registry", "Registry.ListServices"},
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
        {"mark_read", "MarkRead"}, {"listServices", "ListServices"},
        {"baz-xyz", "BazXyz"},     {"add", "Add"},
        {"a_b-c", "ABC"},          {"", ""},
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

// ---- proxy resolver: micro's proxyRoute table (route_test.go) ---------------------------------

struct NameCase {
    const char* path;
    const char* service;
};

TEST(ProxyRoute, MicroTable) {
    const NameCase cases[] = {
        {"/f", "f"},
        {"/f", "f"},
        {"/f-b", "f-b"},
        {"/foo/bar", "foo"},
        {"/foo-bar", "foo-bar"},
        {"/foo-bar-baz", "foo-bar-baz"},
        {"/foo/bar/bar", "foo"},
        {"/v1/foo/bar", "v1.foo"},
        {"/v1/foo/bar/baz", "v1.foo"},
        {"/v1/foo/bar/baz/cat", "v1.foo"},
    };
    for (const auto& c : cases) EXPECT_EQ(platform::host::proxy_route(c.path), c.service) << c.path;
}

TEST(ProxyRoute, InvalidNamesGiveNone) {
    using platform::host::proxy_route;
    for (const char* path :
         {"", "/", "//foo", "/-foo", "/foo-", "/foo--bar", "/foo_bar", "/:name", "/v1/-x"})
        EXPECT_EQ(proxy_route(path), "") << path;
    EXPECT_EQ(proxy_route("/v1"), "v1");  // a version alone is a name
    EXPECT_EQ(proxy_route("/v1/"), "");   // micro's alias check sees "" -> none
}

// Proxy: "/foo" -> N.foo with path /foo; "/foo/bar" -> N.foo with path /foo/bar; segments such
// as /greeter/:name are kept as given.
TEST(ResolveProxyPath, SpecTableKeepsThePath) {
    using platform::host::resolve_proxy_path;
    struct Case {
        const char* path;
        const char* service;
    };
    for (const Case& c :
         {Case{"/foo", "foo"}, Case{"/foo/bar", "foo"}, Case{"/v1/foo/bar", "v1.foo"},
          Case{"/greeter/:name", "greeter"}, Case{"/greeter/:name/x%20y", "greeter"}}) {
        auto r = resolve_proxy_path(c.path);
        ASSERT_TRUE(r.has_value()) << c.path;
        EXPECT_EQ(r->service, c.service) << c.path;
        EXPECT_EQ(r->path, c.path);
    }
    EXPECT_FALSE(resolve_proxy_path("/").has_value());
    EXPECT_FALSE(resolve_proxy_path("/v1/").has_value());
    EXPECT_EQ(platform::host::qualify("N", resolve_proxy_path("/foo")->service), "N.foo");
}

// ---- vpath with a prefix: micro's http handler table (http_test.go) ---------------------------

TEST(ResolveVpath, MicroHttpHandlerTable) {
    using platform::host::resolve_vpath;
    struct Case {
        const char* path;
        const char* service;
        const char* prefix;
    };
    const Case cases[] = {
        {"/test/foo", "go.micro.api.test", "go.micro.api"},
        {"/test/foo/baz", "go.micro.api.test", "go.micro.api"},
        {"/v1/foo", "go.micro.api.v1.foo", "go.micro.api"},
        {"/v1/foo/bar", "go.micro.api.v1.foo", "go.micro.api"},
        {"/v2/baz", "go.micro.api.v2.baz", "go.micro.api"},
        {"/v2/baz/bar", "go.micro.api.v2.baz", "go.micro.api"},
        {"/v2/baz/bar", "v2.baz", ""},
    };
    for (const auto& c : cases) {
        EXPECT_EQ(resolve_vpath(c.prefix, c.path).value_or("<none>"), c.service) << c.path;
        // The proxy resolver names the same service for these paths.
        auto proxied = platform::host::resolve_proxy_path(c.path);
        ASSERT_TRUE(proxied.has_value()) << c.path;
        EXPECT_EQ(platform::host::qualify(c.prefix, proxied->service), c.service) << c.path;
    }
    EXPECT_FALSE(resolve_vpath("go.micro.api", "/").has_value());
    EXPECT_EQ(resolve_vpath("p", "/v1").value_or(""), "p.v1");
}

// ---- web resolver: micro v3.0's web resolver table (resolver_test.go) ---------------------------

TEST(ResolveWebPath, FirstSegmentNamesTheService) {
    using platform::host::qualify;
    using platform::host::resolve_web_path;
    struct Case {
        const char* path;
        const char* with_prefix;
        const char* without;
    };
    for (const Case& c :
         {Case{"/foobar", "web.foobar", "foobar"}, Case{"/hello", "web.hello", "hello"},
          Case{"/bar", "web.bar", "bar"}, Case{"/bar/baz/x.html", "web.bar", "bar"}}) {
        auto r = resolve_web_path(c.path);
        ASSERT_TRUE(r.has_value()) << c.path;
        EXPECT_EQ(qualify("web", r->service), c.with_prefix);
        EXPECT_EQ(qualify("", r->service), c.without);
        EXPECT_EQ(r->path, c.path);
    }
    EXPECT_FALSE(resolve_web_path("/").has_value());
    EXPECT_FALSE(resolve_web_path("/-x").has_value());
    EXPECT_FALSE(resolve_web_path("/a_b").has_value());
    EXPECT_TRUE(resolve_web_path("/a-b-").has_value());  // micro's expression allows a trailing '-'
}

// ---- event route: micro's evRoute (docs/decisions.md 13) ----------------------------------------

TEST(ResolveEventPath, TopicAndAction) {
    using platform::host::resolve_event_path;
    struct Case {
        const char* ns;
        const char* path;
        const char* topic;
        const char* action;
    };
    const Case cases[] = {
        {"go.core.api", "/foo/bar", "go.core.api.foo", "bar"},
        {"go.core.api", "/foo/bar/baz", "go.core.api.foo", "bar.baz"},
        {"go.core.api", "/foo", "go.core.api.foo", ""},
        {"go.core.api", "/v1/foo/bar", "go.core.api.v1.foo", "bar"},
        {"go.core.api", "/v1/foo/bar/baz", "go.core.api.v1.foo", "bar.baz"},
        {"go.core.api", "/v1/foo", "go.core.api.v1.foo", ""},
        {"go.core.api", "/v1", "go.core.api.v1", ""},
        {"go.core.api", "/", "go.core.api", "event"},
        {"micro", "/foo/bar/", "micro.foo", "bar"},
        {"", "/foo/bar", "foo", "bar"},
        {"", "/v2/foo/bar", "v2.foo", "bar"},
    };
    for (const auto& c : cases) {
        auto r = resolve_event_path(c.ns, c.path);
        EXPECT_EQ(r.topic, c.topic) << c.ns << " " << c.path;
        EXPECT_EQ(r.action, c.action) << c.ns << " " << c.path;
    }
}

// ---- route templates and expressions: micro's router tests (router_test.go) ---------------------

using platform::host::RoutePattern;
using platform::host::RouteVars;

std::optional<RouteVars> match(const char* pattern, const char* path) {
    std::string error;
    auto p = RoutePattern::compile(pattern, &error);
    EXPECT_TRUE(p.has_value()) << pattern << ": " << error;
    return p ? p->match(path) : std::nullopt;
}

TEST(RoutePattern, TemplatesBindVariables) {
    EXPECT_EQ(match("/items/{id}", "/items/42"), (RouteVars{{"id", "42"}}));
    EXPECT_EQ(match("/items/{id}", "/items/42/"), (RouteVars{{"id", "42"}}));
    EXPECT_EQ(match("/items/{id}", "/items/my%20item"), (RouteVars{{"id", "my item"}}));
    EXPECT_FALSE(match("/items/{id}", "/items").has_value());
    EXPECT_FALSE(match("/items/{id}", "/items/1/2").has_value());
    EXPECT_FALSE(match("/items/{id}", "/other/1").has_value());
    EXPECT_EQ(match("/api/v0/test/call/{uuid}", "/api/v0/test/call/TEST"),
              (RouteVars{{"uuid", "TEST"}}));
    EXPECT_EQ(match("/a/{x}/b/{y}", "/a/1/b/2"), (RouteVars{{"x", "1"}, {"y", "2"}}));
    EXPECT_EQ(match("/a/{x=*}", "/a/1"), (RouteVars{{"x", "1"}}));
    EXPECT_EQ(match("/files/{path=**}", "/files/a/b/c.txt"), (RouteVars{{"path", "a/b/c.txt"}}));
    EXPECT_EQ(match("/files/{path=**}", "/files"), (RouteVars{{"path", ""}}));
    EXPECT_EQ(match("/v1/{name=shelves/*}/books", "/v1/shelves/s1/books"),
              (RouteVars{{"name", "shelves/s1"}}));
    EXPECT_FALSE(match("/v1/{name=shelves/*}/books", "/v1/racks/s1/books").has_value());
    EXPECT_EQ(match("/any/*/end", "/any/thing/end"), RouteVars{});
    EXPECT_EQ(match("/any/**", "/any/1/2/3"), RouteVars{});
    EXPECT_EQ(match("/meta/{item.id}", "/meta/7"), (RouteVars{{"item.id", "7"}}));
    EXPECT_EQ(match("/test", "/test"), RouteVars{});
    EXPECT_EQ(match("/greeter/:name", "/greeter/:name"), RouteVars{});  // ':' is a literal
}

TEST(RoutePattern, RegularExpressionsMatchTheWholePath) {
    EXPECT_EQ(match("^/api/v0/test/call/pcre/?$", "/api/v0/test/call/pcre"), RouteVars{});
    EXPECT_EQ(match("^/api/v0/test/call/pcre/?$", "/api/v0/test/call/pcre/"), RouteVars{});
    EXPECT_FALSE(match("^/api/v0/test/call/pcre/?$", "/api/v0/test/call/pcre/x").has_value());
    EXPECT_EQ(match("^/foo/$", "/foo/"), RouteVars{});
    EXPECT_TRUE(RoutePattern::compile("^/foo/$")->is_regex());
}

TEST(RoutePattern, ValidateAsMicroDoes) {
    std::string error;
    EXPECT_TRUE(RoutePattern::compile("^/test/?$").has_value());
    EXPECT_TRUE(RoutePattern::compile("/test/{id}").has_value());
    EXPECT_FALSE(RoutePattern::compile("/test/?$", &error).has_value());
    EXPECT_NE(error.find("must start with '^'"), std::string::npos) << error;
    EXPECT_FALSE(RoutePattern::compile("^/api/v0/test/call/pcre/invalid/?", &error).has_value());
    EXPECT_NE(error.find("must end with '$'"), std::string::npos) << error;
    for (const char* bad :
         {"", "items/{id}", "/items/{id", "/items/id}", "/items/{}", "/items/{a}{b}", "/x/{id}y",
          "/**/x", "/a/{x}/{x}", "/a/{x=}", "/a/{b/c}", "/a/b*", "^/(unclosed$"})
        EXPECT_FALSE(RoutePattern::compile(bad).has_value()) << bad;
}

TEST(PercentDecodePath, DecodesEscapesOnly) {
    using platform::host::percent_decode_path;
    EXPECT_EQ(percent_decode_path("a%20b"), "a b");
    EXPECT_EQ(percent_decode_path("a+b"), "a+b");
    EXPECT_EQ(percent_decode_path("%zz%4"), "%zz%4");
    EXPECT_EQ(percent_decode_path("%2F"), "/");
}

}  // namespace
