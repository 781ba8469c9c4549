// platform/host/names.hpp — service and method names, and the gateway's path resolver.
//
// Names (DESIGN §4): built-ins are <ns>.<name> ("go.core.api.registry"), catalogue services are
// <ns>.v1.<name>. A method's canonical name is Service.Method in CamelCase: each path word split
// on '-' and '_' gets its first letter upper-cased ("inbox/mark_read" -> "Inbox.MarkRead").
#pragma once

#include <optional>
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

// micro's rpc/api resolver (spec §4.1 table): "/foo/bar" -> {foo, Foo.Bar},
// "/v1/foo/bar/baz" -> {v1.foo, Bar.Baz}. nullopt for "/" or an empty path.
std::optional<Route> resolve_rpc_path(std::string_view path);

// Splits a path on '/', dropping empty segments ("//a/b/" -> {a, b}).
std::vector<std::string> path_segments(std::string_view path);

}  // namespace platform::host
