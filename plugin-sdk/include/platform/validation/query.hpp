// Query string / form body → JSON argument object (micro's qson syntax, typed by the schema).
//
// Syntax (application/x-www-form-urlencoded, without the leading '?'):
//   - pairs split on '&' (empty pairs are skipped), key and value split on the first '='; a key
//   without
//     '=' has the value "" (and means `true` for a boolean-typed property: `?verbose`);
//   - '+' is a space and %XX a byte; keys are decoded before their brackets are read, so
//     `bar%5Bone%5D=2` is `bar[one]=2`;
//   - `a[b][c]=1` nests objects; `a[]=1&a[]=2` appends to an array ('[]' only as the last part);
//     dots in the leading name nest too: `meta.limit=20` → {"meta":{"limit":20}} (deliberately
//     unlike qson, which keeps "meta.limit" as one key);
//   - a repeated key keeps the last value, except for array-typed properties, which collect them.
//
// Typing, by the schema's declared "type" for the property path (properties / items):
//   string   stays a string (`title=2024` → "2024");
//   integer, number   parsed as a JSON number; unparsable values stay strings so that validation
//   reports
//            "must be an integer";
//   boolean  true/false, 1/0, on/off (HTML checkboxes);
//   null     "null";
//   array    `tags=a,b` → ["a","b"] (split on literal commas before decoding, so %2C keeps a
//   comma),
//            repeated `tags=a&tags=b` → ["a","b"], `tags[]=a` → ["a"], a JSON array literal `[1,2]`
//            is taken as is, `tags=` → []; items typed by the items schema;
//   object   a JSON object literal (`options={"a":1}`) is taken as is;
//   a type array ["integer","null"] tries its members in order; one containing "string" keeps
//   strings.
// An empty value for a property typed integer, number or boolean (an empty form field) is treated
// as absent. Where the schema says nothing (schema null, no such property, no "type"), micro's
// guessing applies: a JSON number or true/false becomes that, anything else a string ("007", "null"
// and numbers too large for 64 bits stay strings).
#pragma once

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string_view>

#include "platform/validation/schema.hpp"

namespace platform::validation {

// "<key>: <problem>" for malformed input: bad percent-encoding ("%zz"), unbalanced brackets
// ("a[b=1"), an empty key or key part ("=1", "a..b", "a[]" not last), invalid UTF-8 after decoding.
class QueryError : public std::runtime_error {
public:
    using runtime_error::runtime_error;
};

// Parses `query` into a JSON object, typing values by `schema` (may be null).
nlohmann::json parse_query(std::string_view query, const Schema* schema);

// Parses a form body the same way (application/x-www-form-urlencoded POST body).
inline nlohmann::json parse_form(std::string_view body, const Schema* schema) {
    return parse_query(body, schema);
}

}  // namespace platform::validation
