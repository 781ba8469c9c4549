// config — the value tree: dotted paths, merge/replace, subtree delete, secret markers.
//
// One top-level segment is one store record holding the JSON document below it (README.md,
// "Storage"). These functions work on such a document and on the path segments after the first;
// they never touch the store or the secret key.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace config_tree {

using json = nlohmann::json;

// The member that marks a sealed secret: {"$secret": "<sealed JSON text>"}.
inline constexpr const char* kSecretKey = "$secret";
// What a secret of any JSON type reads as without decryption.
inline constexpr const char* kSecretShown = "[secret]";

// Splits "a.b.c" into {"a","b","c"}; "" into {}. Throws platform::Error(invalid_argument) naming
// `arg` when a segment is empty or holds a character outside [A-Za-z0-9_-].
std::vector<std::string> split(std::string_view path, const char* arg = "path");

// True for {"$secret": "<string>"} and nothing else.
bool is_secret(const json& node);

// Throws invalid_argument naming `arg` when `value` holds an object that would read as a secret
// marker (the marker shape is reserved).
void check_no_marker(const json& value, const std::string& arg = "value");

// A string holding a JSON object becomes that object; anything else is returned as is.
json normalise(const json& value);

// Merges `from` into `into`: objects meet recursively, anything else replaces (a secret marker is a
// leaf on both sides).
void merge(json& into, const json& from);

// Sets `value` at `rest` (segments below the document root) in `doc`. An object merges into an
// existing object there; anything else replaces the subtree. Missing or non-object intermediate
// nodes become objects.
void set(json& doc, const std::vector<std::string>& rest, const json& value,
         bool merge_objects = true);

// Removes the node at `rest`; false when absent. `rest` must not be empty (delete the record).
bool erase(json& doc, const std::vector<std::string>& rest);

// Opens a sealed secret: the JSON value it holds. Throws platform::Error on failure.
using Opener = std::function<json(const std::string& sealed)>;

// The node at `rest` as a caller sees it: secrets shown as "[secret]", or opened when `open` is
// set. A path running into a secret reads "[secret]" without `open`, else continues inside the
// opened value. `found` is false when the path does not exist.
json read(const json& doc, const std::vector<std::string>& rest, const Opener& open, bool& found);

// Copy of `node` with every secret shown as "[secret]" or opened.
json reveal(const json& node, const Opener& open);

// Dotted paths of the leaves under `node` (a secret is a leaf; so is an empty object), prefixed by
// `base`, appended to `out` in key order.
void leaves(const json& node, const std::string& base, std::vector<std::string>& out);

}  // namespace config_tree
