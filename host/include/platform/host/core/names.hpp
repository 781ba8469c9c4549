// platform/host/core/names.hpp — service and method names, and the gateway's path resolver.
//
// Names: built-ins are <ns>.<name> ("go.core.api.registry"), catalogue services are
// <ns>.v1.<name>. A method's canonical name is Service.Method in CamelCase: each path word split
// on '-' and '_' gets its first letter upper-cased ("inbox/mark_read" -> "Inbox.MarkRead").
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

namespace platform::host {

inline constexpr std::string_view kDefaultNamespace = "go.core.api";

// "mark_read" -> "MarkRead", "listServices" -> "ListServices", "baz-xyz" -> "BazXyz".
std::string camel_word(std::string_view word);

// The canonical method for a service's last name segment and an endpoint name:
// ("notes", "add") -> "Notes.Add".
std::string canonical_method(std::string_view service, std::string_view endpoint);

// Prefixes a relative service name with the namespace ("" namespace: unchanged).
std::string qualify(std::string_view ns, std::string_view relative);

// The last dot-separated segment: "go.core.api.v1.notes" -> "notes".
std::string_view last_segment(std::string_view name);

struct Route {
    std::string service;  // relative to the namespace, e.g. "v1.foo"
    std::string method;   // "Foo.Bar"
};

// micro's rpc/api resolver (apiRoute): "/foo/bar" -> {foo, Foo.Bar},
// "/v1/foo/bar/baz" -> {v1.foo, Bar.Baz}. nullopt for "/" or an empty path.
std::optional<Route> resolve_rpc_path(std::string_view path);

// Splits a path on '/', dropping empty segments ("//a/b/" -> {a, b}).
std::vector<std::string> path_segments(std::string_view path);
// Splits a comma-separated list into its items, trimmed of spaces and tabs, dropping empty ones
// (" a, b ,,c" -> {a, b, c}): metadata lists, host lists, Connection header tokens.
std::vector<std::string> comma_list(std::string_view text);

// ---- resolvers of the other handlers (micro's proxyRoute, web, vpath and evRoute) ----

// micro's proxyRoute: the service a path names for the proxy handler, relative to the
// namespace: "/foo/bar" -> "foo", "/v1/foo/bar" -> "v1.foo" (a `v<digits>` first segment followed
// by another one is a version), "" when the path names none (the name segment must match
// ^[a-zA-Z0-9]+(-[a-zA-Z0-9]+)*$).
std::string proxy_route(std::string_view path);

// What the proxy and web handlers forward: the service (relative to the namespace) and the path
// sent to its node, which is the request path exactly as given ("/greeter/:name" stays so).
struct ForwardRoute {
    std::string service;
    std::string path;
};
// The proxy resolver: "/foo" -> {foo, /foo}, "/foo/bar" -> {foo, /foo/bar},
// "/v1/foo/bar" -> {v1.foo, /v1/foo/bar}. nullopt when proxy_route finds no service.
std::optional<ForwardRoute> resolve_proxy_path(std::string_view path);
// micro's web resolver: the first segment names the service ("/foobar/x" -> foobar); it
// must match ^[a-zA-Z0-9]+([a-zA-Z0-9-]*[a-zA-Z0-9]*)?$. The path forwarded is the whole path.
std::optional<ForwardRoute> resolve_web_path(std::string_view path);
// micro's vpath resolver: the full service name with `prefix` ("" = none):
// ("go.micro.api", "/v1/foo/bar") -> "go.micro.api.v1.foo"; nullopt for "/".
std::optional<std::string> resolve_vpath(std::string_view prefix, std::string_view path);

// micro's evRoute: topic = ns.p0, or ns.p0.p1 when p0 is a version (v<digits>) and
// more segments follow; the action is the segments after the topic's joined with '.':
// ("go.core.api", "/foo/bar/baz") -> {go.core.api.foo, bar.baz}; "/v1/foo/bar" ->
// {go.core.api.v1.foo, bar}; "/foo" -> {go.core.api.foo, ""}; "/" -> {go.core.api, "event"}.
// An empty ns leaves the topic unprefixed.
struct EventRoute {
    std::string topic;
    std::string action;
};
EventRoute resolve_event_path(std::string_view ns, std::string_view path);

// ---- route templates (endpoint metadata `path`, platform_endpoint_t.http_path) ----
//
// A pattern is either a google.api-style template or a PCRE-like regular expression:
//   - template: starts with '/'; segments are literals, `*` (one segment), `**` (the rest, last
//     only), or variables `{name}`, `{name=*}`, `{name=**}`, `{name=a/*}` binding what they match
//     (percent-decoded; a multi-segment value joined with '/'). Names are field paths
//     (letters, digits, '_', '.'). Empty path segments are ignored, so "/items/42/" matches
//     "/items/{id}". Verbs (`:cancel`) are not supported: ':' is an ordinary literal character.
//   - regular expression: starts with '^' and ends with '$' (micro's Validate: one without the
//     other is invalid), matched against the whole raw path (ECMAScript std::regex, binds nothing).
using RouteVars = std::map<std::string, std::string>;

class RoutePattern {
public:
    // nullopt with *error set for an invalid pattern.
    static std::optional<RoutePattern> compile(std::string_view pattern,
                                               std::string* error = nullptr);
    // The variables bound when `path` (raw, without the query) matches; nullopt otherwise.
    std::optional<RouteVars> match(std::string_view path) const;
    const std::string& text() const { return text_; }
    bool is_regex() const { return regex_ != nullptr; }

private:
    struct Segment {
        enum Kind { literal, star, double_star } kind = literal;
        std::string text;  // literal text
        int var = -1;      // index into vars_ of the variable this segment belongs to
    };
    std::string text_;
    std::vector<Segment> segments_;
    std::vector<std::string> vars_;
    std::shared_ptr<const std::regex> regex_;
};

// Percent-decodes a path segment ("my%20note" -> "my note"); '+' stays '+'. Malformed escapes are
// kept as they are.
std::string percent_decode_path(std::string_view s);
// Decodes an application/x-www-form-urlencoded key or value: as percent_decode_path, and '+' is
// a space ("a+b%2B" -> "a b+").
std::string form_decode(std::string_view s);

}  // namespace platform::host
