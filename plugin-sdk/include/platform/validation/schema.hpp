// JSON Schema (draft 2020-12 subset) for endpoint arguments and plugin config.
//
// A plugin's schema is compiled once, when the plugin loads: anything outside the subset below is
// refused there with a SchemaError, so a typo never turns into a silently permissive endpoint. A
// compiled Schema is immutable, cheap to copy (shared state) and safe to use from many threads at
// once.
//
// Supported keywords
//   type              a name or an array of names: string number integer boolean object array null
//   properties, required, additionalProperties (boolean or schema), minProperties, maxProperties
//   enum, const, default
//   minLength, maxLength (Unicode code points), pattern (ECMAScript, unanchored search, std::regex)
//   maxBytes          ours: the most bytes a string's UTF-8 may take (checked before maxLength,
//                     so a field limited both ways reports bytes). OpenAPI shows it as
//                     "x-maxBytes"; MCP tools/list passes it on as is.
//   minimum, maximum, exclusiveMinimum, exclusiveMaximum (numbers)
//   items (one schema), minItems, maxItems, uniqueItems
//   format            any string; "date-time" (RFC 3339) and "email" (loose) are checked
//   annotations       title description examples $comment readOnly writeOnly deprecated
//   $schema           accepted at the root only, as documentation
// `true`/`false` are accepted wherever a sub-schema is expected. The root must be an object schema
// with "type": "object". Also refused: unknown keywords ("$ref", "oneOf", ...), keywords of the
// wrong type, min > max pairs, and a "required" name missing from "properties" when
// additionalProperties is false.
//
// Validation rules beyond plain JSON Schema (the dispatcher's strictness):
//   - a REQUIRED string property that is "" is rejected ("must not be empty") unless its schema
//   sets
//     minLength, enum or const;
//   - every string, including object keys, must be valid UTF-8;
//   - a string longer than 2048 bytes is not matched against a "pattern" but refused, because
//     std::regex needs stack in proportion to the input (give such fields a maxLength);
//   - values no schema describes may nest at most 100 levels deep;
//   - "integer" accepts numbers without a fractional part; a float such as 3.0 is rewritten to 3 in
//     place when the schema allows integer but not number;
//   - absent properties that declare a "default" get it (recursively, for objects that are present,
//     including array items) before the checks run.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace platform::validation {

// "<json pointer>: <problem>", e.g. "/properties/limit/minimum: must be a number". The root schema
// itself is written "/".
class SchemaError : public std::runtime_error {
public:
    using runtime_error::runtime_error;
};

class Schema {
public:
    // Checks that `schema` is in the supported subset and compiles its patterns; throws
    // SchemaError. nlohmann::json keeps object keys sorted, so "declaration order" below is then
    // key order.
    static Schema compile(const nlohmann::json& schema);
    // Same, from JSON text, keeping the declaration order of "properties" (for CLI flags and the
    // order of checks). Invalid JSON → SchemaError("/: invalid JSON: ...").
    static Schema parse(std::string_view text);

    // Validates an argument object in place (defaults applied first). std::nullopt when valid, else
    // ONE message "<dotted path>: <rule>", the root being called "arguments":
    //   "title: is required"  "title: must not be empty"  "limit: must be an integer"
    //   "limit: must be at least 1"  "limit: must be at most 100"  "tags.2: must be a string"
    //   "colour: unknown argument (allowed: text, title)"  "kind: must be one of article, video"
    //   "title: must be at most 200 characters"  "arguments: must be a JSON object"
    // Order: required-missing (in "required" order), unknown arguments, min/maxProperties, then
    // each property in declaration order, then extra properties checked by an additionalProperties
    // schema.
    std::optional<std::string> validate(nlohmann::json& args) const;

    // The schema as given.
    const nlohmann::json& source() const;
    // Top-level property names with their declared type ("" when none; for a type array, the first
    // name other than "null"), in declaration order.
    std::vector<std::pair<std::string, std::string>> property_types() const;
    // The sub-schema at a dotted property path ("options.domain"; an all-digit segment that is not
    // a property name steps into "items"), or nullptr. Points into source().
    const nlohmann::json* property(const std::string& dotted_path) const;

private:
    struct Impl;
    explicit Schema(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
    std::shared_ptr<const Impl> impl_;
};

// UTF-8 helpers shared with the query parser.
bool valid_utf8(std::string_view s);
// Number of code points of a valid UTF-8 string.
std::size_t utf8_length(std::string_view s);
// `s` with each invalid byte replaced by U+FFFD, for putting untrusted names into messages.
std::string sanitize_utf8(std::string_view s);

}  // namespace platform::validation
