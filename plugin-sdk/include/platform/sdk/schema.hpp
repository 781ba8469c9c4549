// platform/sdk/schema.hpp — endpoint argument schemas, built in C++ instead of typed as JSON.
//
//   namespace s = platform::schema;
//   spec.post("add").schema(s::object()
//       .str("title").max_len(200).required().doc("The note's title (its key)")
//       .str("text").max_bytes(100000).required().doc("The note's text"));
//
// An Object adds properties in order (the order CLI flags and error checks follow); each modifier
// applies to the property added last, or to the object itself before any. What it produces is
// plain JSON Schema in the subset the host validates (platform/validation/schema.hpp), plus our
// `maxBytes`: the host refuses a string whose UTF-8 is longer, OpenAPI shows it as "x-maxBytes",
// MCP passes it on. Use it where the limit is about storage or cost (a prompt of 8000 bytes) and
// max_len where it is about what a person reads (a title of 200 characters).
//
// Objects are closed ("additionalProperties": false) unless open() says otherwise. The builder
// checks nothing itself: a bad schema (min above max, a required name that is not a property) is
// refused by the validator when the plugin loads, in the host and in the fake host alike, so a
// plugin's own unit test catches it.
//
// Shapes many services share (ids, paging, cursors, coordinates) are at the end; write a fact such
// as "64 characters" or "at most 100" once, there or in the service's own constants.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace platform::schema {

using ojson = nlohmann::ordered_json;

// The modifiers every schema node has. `Self` is the builder returned for chaining; `node()` is
// the JSON the next modifier changes.
template <class Self>
class Modifiers {
public:
    Self& doc(std::string text) { return set("description", std::move(text)); }
    Self& title(std::string text) { return set("title", std::move(text)); }
    Self& def(ojson value) { return set("default", std::move(value)); }
    Self& one_of(std::vector<ojson> values) { return set("enum", ojson(std::move(values))); }
    Self& constant(ojson value) { return set("const", std::move(value)); }
    // Strings.
    Self& min_len(std::size_t n) { return set("minLength", n); }
    Self& max_len(std::size_t n) { return set("maxLength", n); }
    Self& max_bytes(std::size_t n) { return set("maxBytes", n); }
    Self& pattern(std::string regex) { return set("pattern", std::move(regex)); }
    Self& format(std::string name) { return set("format", std::move(name)); }
    Self& date_time() { return format("date-time"); }  // RFC 3339, checked by the host
    Self& email() { return format("email"); }          // checked by the host (loosely)
    Self& uri() { return format("uri"); }              // documentation only
    // Numbers.
    Self& min(ojson v) { return set("minimum", std::move(v)); }
    Self& max(ojson v) { return set("maximum", std::move(v)); }
    Self& range(ojson lo, ojson hi) { return min(std::move(lo)).max(std::move(hi)); }
    Self& exclusive_min(ojson v) { return set("exclusiveMinimum", std::move(v)); }
    Self& exclusive_max(ojson v) { return set("exclusiveMaximum", std::move(v)); }
    // Arrays.
    Self& min_items(std::size_t n) { return set("minItems", n); }
    Self& max_items(std::size_t n) { return set("maxItems", n); }
    Self& unique() { return set("uniqueItems", true); }
    // Objects.
    Self& max_props(std::size_t n) { return set("maxProperties", n); }
    // Any other keyword, for what the list above lacks.
    Self& set(const std::string& keyword, ojson value) {
        self().node()[keyword] = std::move(value);
        return self();
    }

private:
    Self& self() { return static_cast<Self&>(*this); }
};

// One schema: a property's type and constraints, an array's items.
class Value : public Modifiers<Value> {
public:
    explicit Value(ojson json) : json_(std::move(json)) {}
    ojson& node() { return json_; }
    const ojson& json() const { return json_; }

private:
    ojson json_;
};

inline Value string() {
    return Value(ojson{{"type", "string"}});
}
inline Value integer() {
    return Value(ojson{{"type", "integer"}});
}
inline Value number() {
    return Value(ojson{{"type", "number"}});
}
inline Value boolean() {
    return Value(ojson{{"type", "boolean"}});
}
inline Value any() {
    return Value(ojson::object());
}  // no constraint at all
inline Value any_object() {
    return Value(ojson{{"type", "object"}});
}  // any JSON object
// A type array such as {"string", "integer"}.
inline Value types(std::vector<std::string> names) {
    return Value(ojson{{"type", std::move(names)}});
}
// A JSON object used as a map: any keys, every value matching `values`.
inline Value map_of(const Value& values) {
    return Value(ojson{{"type", "object"}, {"additionalProperties", values.json()}});
}
inline Value array(const Value& items) {
    return Value(ojson{{"type", "array"}, {"items", items.json()}});
}

// An object schema, built property by property.
class Object : public Modifiers<Object> {
public:
    Object() : json_({{"type", "object"}, {"properties", ojson::object()}}) {}

    Object& str(const std::string& name) { return prop(name, string()); }
    Object& integer(const std::string& name) { return prop(name, schema::integer()); }
    Object& number(const std::string& name) { return prop(name, schema::number()); }
    Object& boolean(const std::string& name) { return prop(name, schema::boolean()); }
    Object& array(const std::string& name, const Value& items) {
        return prop(name, schema::array(items));
    }
    Object& object(const std::string& name, const Object& shape) {
        return prop(name, Value(shape.json()));
    }
    // A property of any shape, e.g. one of the shared ones below.
    Object& prop(const std::string& name, const Value& schema) {
        json_["properties"][name] = schema.json();
        current_ = name;
        return *this;
    }
    // Every property of `other`, in its order, with its required names.
    Object& include(const Object& other) {
        for (const auto& [name, schema] : other.json_.at("properties").items())
            prop(name, Value(schema));
        for (const auto& name : other.json_.value("required", ojson::array()))
            json_["required"].push_back(name);
        current_.clear();
        return *this;
    }
    // The property added last must be present.
    Object& required() {
        json_["required"].push_back(current_);
        return *this;
    }
    // Accept properties not listed (no "additionalProperties" keyword at all).
    Object& open() {
        open_ = true;
        return *this;
    }
    // Accept properties not listed when they match `schema`.
    Object& additional(const Value& schema) {
        json_["additionalProperties"] = schema.json();
        return *this;
    }

    ojson& node() { return current_.empty() ? json_ : json_["properties"][current_]; }
    // The finished schema.
    ojson json() const {
        ojson out = json_;
        if (!open_ && !out.contains("additionalProperties")) out["additionalProperties"] = false;
        return out;
    }
    std::string dump() const { return json().dump(); }
    operator Value() const { return Value(json()); }

private:
    ojson json_;
    std::string current_;
    bool open_ = false;
};

inline Object object() {
    return Object();
}

// ---- shapes many services share --------------------------------------------------------------

// A record id: a string of at most `max_len` characters.
inline Value id(std::string doc, std::size_t max_len = 64) {
    return string().max_len(max_len).doc(std::move(doc));
}
// A page size: an integer from 1 to `max`, `def` when absent (0: no default).
inline Value limit(std::int64_t max, std::int64_t def, std::string doc) {
    Value v = integer().min(1).max(max);
    if (def) v.def(def);
    return v.doc(std::move(doc));
}
// How many results to skip: an integer from 0, 0 when absent.
inline Value offset(std::string doc) {
    return integer().min(0).def(0).doc(std::move(doc));
}
// MCP's pagination cursor, for lists that fit one page.
inline Value cursor() {
    return string().doc("Pagination cursor (one page: ignored)");
}
// Coordinates in degrees.
inline Value latitude(std::string doc) {
    return number().range(-90, 90).doc(std::move(doc));
}
inline Value longitude(std::string doc) {
    return number().range(-180, 180).doc(std::move(doc));
}

// What an agent is asked (the agent, work, tasks and calendar events take one): at most
// kPromptMaxBytes bytes; `what` begins the description ("What to ask").
inline constexpr std::size_t kPromptMaxBytes = 8000;
inline Value prompt(const std::string& what) {
    return string()
        .min_len(1)
        .max_bytes(kPromptMaxBytes)
        .doc(what + ", at most " + std::to_string(kPromptMaxBytes) + " bytes");
}

// An object with one required id property named "id".
inline Object id_object(std::string doc, std::size_t max_len = 64) {
    return object().prop("id", id(std::move(doc), max_len)).required();
}

}  // namespace platform::schema
