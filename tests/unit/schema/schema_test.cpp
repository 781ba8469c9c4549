// Schema::compile / Schema::validate: the supported subset, compile errors and every message.
#include "platform/validation/schema.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <thread>

namespace {

using nlohmann::json;
using platform::validation::Schema;
using platform::validation::SchemaError;

std::string compile_error(const std::string& text) {
    try {
        Schema::compile(json::parse(text));
    } catch (const SchemaError& e) {
        return e.what();
    }
    return "";
}

// A descriptor-like input schema shared by the validation table.
const char* const kNotes = R"({
  "type": "object", "additionalProperties": false, "required": ["title"],
  "title": "Add a note", "description": "d", "$comment": "c", "examples": [{"title": "x"}],
  "properties": {
    "title": {"type": "string", "maxLength": 200},
    "text": {"type": "string", "deprecated": false, "readOnly": false, "writeOnly": false},
    "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20},
    "ratio": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
    "kind": {"enum": ["article", "video", "post", "link"]},
    "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 3, "uniqueItems": true},
    "options": {"type": "object", "properties": {"domain": {"type": "string"}}},
    "slug": {"type": "string", "pattern": "^[a-z0-9-]+$"},
    "due": {"type": "string", "format": "date-time"},
    "email": {"type": "string", "format": "email"},
    "url": {"type": "string", "format": "uri"},
    "flag": {"type": "boolean"},
    "parent": {"type": ["string", "null"]},
    "version": {"const": 2}
  }})";

struct Case {
    const char* args;
    std::optional<std::string> error;
};

void PrintTo(const Case& c, std::ostream* os) {
    *os << c.args;
}

class Validate : public testing::TestWithParam<Case> {};

TEST_P(Validate, Message) {
    static const Schema schema = Schema::compile(json::parse(kNotes));
    json args = json::parse(GetParam().args);
    EXPECT_EQ(schema.validate(args), GetParam().error) << GetParam().args;
}

INSTANTIATE_TEST_SUITE_P(
    Notes, Validate,
    testing::Values(
        Case{R"({"title": "x"})", std::nullopt},
        Case{
            R"({"title": "x", "text": "", "limit": 100, "ratio": 0.5, "kind": "video",
            "tags": ["a"], "options": {"domain": "d", "other": 1}, "slug": "a-1",
            "due": "2024-02-29T23:59:60.5+05:30",
            "email": "a.b@example.org", "url": "anything", "flag": false, "parent": null,
            "version": 2.0})",
            std::nullopt},
        Case{R"({})", "title: is required"}, Case{R"({"title": ""})", "title: must not be empty"},
        Case{R"({"title": 5})", "title: must be a string"},
        Case{R"({"title": "x", "limit": "5"})", "limit: must be an integer"},
        Case{R"({"title": "x", "limit": 2.5})", "limit: must be an integer"},
        Case{R"({"title": "x", "limit": true})", "limit: must be an integer"},
        Case{R"({"title": "x", "limit": 0})", "limit: must be at least 1"},
        Case{R"({"title": "x", "limit": 101})", "limit: must be at most 100"},
        Case{R"({"title": "x", "limit": -5})", "limit: must be at least 1"},
        Case{R"({"title": "x", "ratio": 0})", "ratio: must be greater than 0"},
        Case{R"({"title": "x", "ratio": 1})", "ratio: must be less than 1"},
        Case{R"({"title": "x", "ratio": "1"})", "ratio: must be a number"},
        Case{R"({"title": "x", "colour": "red"})",
             "colour: unknown argument (allowed: due, email, flag, kind, limit, options, parent, "
             "ratio, "
             "slug, tags, text, title, url, version)"},
        Case{R"({"colour": "red"})", "title: is required"},
        Case{R"({"title": "x", "kind": "book"})",
             "kind: must be one of article, video, post, link"},
        Case{R"({"title": "x", "tags": ["a", "b", 3]})", "tags.2: must be a string"},
        Case{R"({"title": "x", "tags": "a"})", "tags: must be an array"},
        Case{R"({"title": "x", "tags": ["a", "b", "c", "d"]})", "tags: must have at most 3 items"},
        Case{R"({"title": "x", "tags": ["a", "a"]})", "tags: must not contain duplicate items"},
        Case{R"({"title": "x", "options": {"domain": 1}})", "options.domain: must be a string"},
        Case{R"({"title": "x", "options": []})", "options: must be an object"},
        Case{R"({"title": "x", "slug": "Not A Slug"})",
             "slug: must match the pattern ^[a-z0-9-]+$"},
        Case{R"({"title": "x", "due": "2024-02-30T00:00:00Z"})",
             "due: must be a date-time (RFC 3339, e.g. 2024-01-31T09:00:00Z)"},
        Case{R"({"title": "x", "email": "no-at-sign"})", "email: must be an email address"},
        Case{R"({"title": "x", "flag": "true"})", "flag: must be a boolean"},
        Case{R"({"title": "x", "parent": 1})", "parent: must be a string or null"},
        Case{R"({"title": "x", "version": 3})", "version: must be 2"},
        Case{R"([1])", "arguments: must be a JSON object"},
        Case{R"("x")", "arguments: must be a JSON object"}));

TEST(Schema, TitleLengthCountsCodePoints) {
    auto s = Schema::compile(json::parse(kNotes));
    json ok = {{"title", std::string(200, 'x')}};
    EXPECT_EQ(s.validate(ok), std::nullopt);
    json too_long = {{"title", std::string(201, 'x')}};
    EXPECT_EQ(s.validate(too_long), "title: must be at most 200 characters");
    auto h = Schema::compile(json::parse(
        R"({"type":"object","properties":{"w":{"type":"string","minLength":5,"maxLength":5}}})"));
    json five = {{"w", "h\xC3\xA9llo"}};  // "héllo": 6 bytes, 5 code points
    EXPECT_EQ(h.validate(five), std::nullopt);
    json four = {{"w", "h\xC3\xA9ll"}};
    EXPECT_EQ(h.validate(four), "w: must be at least 5 characters");
    EXPECT_EQ(platform::validation::utf8_length("h\xC3\xA9llo"), 5u);
    EXPECT_EQ(platform::validation::utf8_length("\xF0\x9F\x98\x80"), 1u);
}

TEST(Schema, RejectsInvalidUtf8) {
    auto s = Schema::compile(json::parse(kNotes));
    for (const char* bad :
         {"\xC3", "\xC0\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80", "a\xFF", "\x80"}) {
        EXPECT_FALSE(platform::validation::valid_utf8(bad)) << bad;
        json args = {{"title", std::string("ok")}, {"text", std::string(bad)}};
        EXPECT_EQ(s.validate(args), "text: must be valid UTF-8");
    }
    EXPECT_TRUE(platform::validation::valid_utf8("h\xC3\xA9llo \xE2\x82\xAC \xF0\x9F\x98\x80"));
    EXPECT_EQ(platform::validation::sanitize_utf8("a\xFF"), "a\xEF\xBF\xBD");
    json nested = {{"title", "x"}, {"options", {{"free", {"\xFF"}}}}};
    EXPECT_EQ(s.validate(nested), "options.free.0: must be valid UTF-8");
}

TEST(Schema, LongInputsAreRefusedNotCrashed) {
    auto s = Schema::compile(json::parse(kNotes));
    json args = {{"title", "x"}, {"slug", std::string(2048, 'a')}};
    EXPECT_EQ(s.validate(args), std::nullopt);
    args["slug"] = std::string(100000, 'a');  // std::regex would overflow the stack
    EXPECT_EQ(s.validate(args), "slug: is too long to check against its pattern (over 2048 bytes)");
    json deep = "x";
    for (int i = 0; i < 200; ++i) deep = json::array({deep});
    args = {{"title", "x"}, {"options", {{"free", deep}}}};
    std::string msg = s.validate(args).value_or("");
    EXPECT_EQ(msg.rfind("options.free.0.0.", 0), 0u) << msg;
    EXPECT_NE(msg.find(": is nested too deeply"), std::string::npos) << msg;
}

TEST(Schema, EmptyRequiredStringRules) {
    auto s = Schema::compile(json::parse(R"({"type":"object","required":["a","b","c"],"properties":{
        "a":{"type":"string","minLength":0},"b":{"type":"string","minLength":2},
        "c":{"enum":["", "x"]},"d":{"type":"string"}}})"));
    json args = {{"a", ""}, {"b", "xy"}, {"c", ""}, {"d", ""}};
    EXPECT_EQ(s.validate(args), std::nullopt);
    args["b"] = "";
    EXPECT_EQ(s.validate(args), "b: must be at least 2 characters");
}

TEST(Schema, AppliesDefaultsRecursively) {
    auto s = Schema::compile(json::parse(R"({"type":"object","required":["limit"],"properties":{
        "limit":{"type":"integer","default":20},"sort":{"type":"string","default":"new"},
        "opts":{"type":"object","properties":{"deep":{"type":"boolean","default":true}}},
        "absent":{"type":"object","properties":{"x":{"default":1}}},
        "list":{"type":"array","items":{"type":"object","properties":{"n":{"default":0}}}}}})"));
    json args = {{"sort", "old"}, {"opts", json::object()}, {"list", {json::object(), {{"n", 5}}}}};
    ASSERT_EQ(s.validate(args), std::nullopt);
    EXPECT_EQ(args, json::parse(R"({"limit":20,"sort":"old","opts":{"deep":true},
                                    "list":[{"n":0},{"n":5}]})"));
}

TEST(Schema, IntegerAcceptsWholeFloatsAndNormalises) {
    auto s = Schema::compile(json::parse(R"({"type":"object","properties":{
        "i":{"type":"integer"},"n":{"type":"number"},"u":{"type":"integer","minimum":0}}})"));
    json args = json::parse(R"({"i": 3.0, "n": 3.0, "u": 18446744073709551615})");
    ASSERT_EQ(s.validate(args), std::nullopt);
    EXPECT_TRUE(args["i"].is_number_integer());
    EXPECT_TRUE(args["n"].is_number_float());
    json neg = json::parse(R"({"u": -1})");
    EXPECT_EQ(s.validate(neg), "u: must be at least 0");
}

TEST(Schema, OrderOfChecks) {
    auto s = Schema::compile(json::parse(R"({"type":"object","additionalProperties":false,
        "required":["z","a"],"properties":{"a":{"type":"string"},"b":{"type":"integer"},
        "c":{"type":"integer"},"z":{"type":"string"}}})"));
    json args = {{"b", "x"}, {"c", "y"}, {"zz", 1}};
    EXPECT_EQ(s.validate(args), "z: is required");  // "required" order, not key order
    args["z"] = "1";
    args["a"] = "1";
    EXPECT_EQ(s.validate(args), "zz: unknown argument (allowed: a, b, c, z)");
    args.erase("zz");
    EXPECT_EQ(s.validate(args), "b: must be an integer");
    auto ordered = Schema::parse(R"({"type":"object","properties":{"c":{"type":"integer"},
        "b":{"type":"integer"}}})");
    json both = {{"b", "x"}, {"c", "y"}};
    EXPECT_EQ(ordered.validate(both), "c: must be an integer");  // declaration order
}

TEST(Schema, ObjectKeywords) {
    auto s = Schema::compile(json::parse(R"({"type":"object","minProperties":1,"maxProperties":2,
        "additionalProperties":{"type":"integer"},"properties":{"meta":{"type":"object",
        "additionalProperties":false}}})"));
    json args = json::object();
    EXPECT_EQ(s.validate(args), "arguments: must have at least 1 property");
    args = {{"a", 1}, {"b", 2}, {"c", 3}};
    EXPECT_EQ(s.validate(args), "arguments: must have at most 2 properties");
    args = {{"a", "x"}};
    EXPECT_EQ(s.validate(args), "a: must be an integer");
    args = {{"meta", {{"x", 1}}}};
    EXPECT_EQ(s.validate(args), "meta.x: unknown argument (none are accepted)");
    auto f =
        Schema::compile(json::parse(R"({"type":"object","properties":{"no":false,"yes":true}})"));
    args = {{"no", 1}};
    EXPECT_EQ(f.validate(args), "no: is not allowed");
    args = {{"yes", {1, "x"}}};
    EXPECT_EQ(f.validate(args), std::nullopt);
}

TEST(Schema, ArrayAndFormatDetails) {
    auto s = Schema::compile(json::parse(R"({"type":"object","properties":{
        "a":{"type":"array","minItems":1,"uniqueItems":true},"d":{"format":"date-time"}}})"));
    json args = {{"a", json::array()}};
    EXPECT_EQ(s.validate(args), "a: must have at least 1 item");
    args = json::parse(R"({"a": [1, 1.0]})");
    EXPECT_EQ(s.validate(args), "a: must not contain duplicate items");
    args = json::parse(R"({"a": [{"x":1}, {"x":2}, [1], "1", 1]})");
    EXPECT_EQ(s.validate(args), std::nullopt);
    for (const char* ok : {"2024-01-31T09:00:00Z", "2024-01-31t09:00:00.123456z",
                           "1999-12-31T23:59:59-08:00", "2000-02-29T00:00:00+00:00"}) {
        args = {{"d", ok}};
        EXPECT_EQ(s.validate(args), std::nullopt) << ok;
    }
    for (const char* bad : {"2024-01-31", "2024-01-31 09:00:00Z", "2024-13-01T00:00:00Z",
                            "1900-02-29T00:00:00Z", "2024-01-31T24:00:00Z", "2024-01-31T09:00:00",
                            "2024-01-31T09:00:00.Z", "2024-01-31T09:00:00+0100"}) {
        args = {{"d", bad}};
        EXPECT_NE(s.validate(args), std::nullopt) << bad;
    }
    args = {{"d", 5}};  // formats only constrain strings
    EXPECT_EQ(s.validate(args), std::nullopt);
}

TEST(Schema, EmailIsLoose) {
    auto s =
        Schema::compile(json::parse(R"({"type":"object","properties":{"e":{"format":"email"}}})"));
    for (const char* ok : {"a@b.co", "first.last+tag@mail.example.org", "x_y@sub.domain.io"}) {
        json args = {{"e", ok}};
        EXPECT_EQ(s.validate(args), std::nullopt) << ok;
    }
    for (const char* bad :
         {"", "a", "@b.co", "a@", "a@b", "a@@b.co", "a b@c.de", "a@.b", "a@b.", "a@b..c"}) {
        json args = {{"e", bad}};
        EXPECT_EQ(s.validate(args), "e: must be an email address") << bad;
    }
}

struct CompileCase {
    const char* schema;
    const char* error;
};

void PrintTo(const CompileCase& c, std::ostream* os) {
    *os << c.schema;
}

class CompileError : public testing::TestWithParam<CompileCase> {};

TEST_P(CompileError, Message) {
    EXPECT_EQ(compile_error(GetParam().schema), GetParam().error) << GetParam().schema;
}

// Whole schemas.
INSTANTIATE_TEST_SUITE_P(
    Root, CompileError,
    testing::Values(
        CompileCase{R"([])", "/: the root schema must be a JSON object"},
        CompileCase{R"(true)", "/: the root schema must be a JSON object"},
        CompileCase{R"({})", "/type: the root schema must have \"type\": \"object\""},
        CompileCase{R"({"type":"string"})",
                    "/type: the root schema must have \"type\": \"object\""},
        CompileCase{R"({"type":"object","$ref":"#/x"})", "/$ref: unsupported keyword"},
        CompileCase{R"({"type":"object","propertyNames":{}})",
                    "/propertyNames: unsupported keyword"},
        CompileCase{R"({"type":"object","required":"x"})",
                    "/required: must be an array of strings"},
        CompileCase{R"({"type":"object","required":[1]})", "/required/0: must be a string"},
        CompileCase{R"({"type":"object","required":["a","a"]})", "/required/1: duplicate \"a\""},
        CompileCase{R"({"type":"object","maxProperties":true})",
                    "/maxProperties: must be a non-negative integer"},
        CompileCase{R"({"type":"object","title":5})", "/title: must be a string"},
        CompileCase{R"({"type":"object","examples":{}})", "/examples: must be an array"},
        CompileCase{R"({"type":"object","deprecated":"no"})", "/deprecated: must be a boolean"},
        CompileCase{R"({"type":"object","properties":[]})", "/properties: must be an object"},
        CompileCase{R"({"type":"object","additionalProperties":"no"})",
                    "/additionalProperties: must be a schema"},
        CompileCase{R"({"type":"object","required":["x"],"additionalProperties":false})",
                    "/required/0: \"x\" is not in properties and additionalProperties is false"}));

class PropertyCompileError : public testing::TestWithParam<CompileCase> {};

// The schema of property "a"; errors are under "/properties/a".
TEST_P(PropertyCompileError, Message) {
    std::string schema =
        R"({"type":"object","properties":{"a":)" + std::string(GetParam().schema) + "}}";
    EXPECT_EQ(compile_error(schema), "/properties/a" + std::string(GetParam().error)) << schema;
}

INSTANTIATE_TEST_SUITE_P(
    Schema, PropertyCompileError,
    testing::Values(
        CompileCase{R"(1)", ": must be a schema"},
        CompileCase{R"({"oneOf":[]})", "/oneOf: unsupported keyword"},
        CompileCase{R"({"$schema":"x"})", "/$schema: unsupported keyword"},
        CompileCase{R"({"type":"strnig"})", "/type: unknown type \"strnig\""},
        CompileCase{R"({"type":[]})", "/type: must be a type name or a non-empty array of them"},
        CompileCase{R"({"type":["string","string"]})", "/type/1: duplicate type"},
        CompileCase{R"({"type":[1]})", "/type/0: must be a type name"},
        CompileCase{R"({"minLength":-1})", "/minLength: must be a non-negative integer"},
        CompileCase{R"({"maxLength":1.5})", "/maxLength: must be a non-negative integer"},
        CompileCase{R"({"minItems":"1"})", "/minItems: must be a non-negative integer"},
        CompileCase{R"({"minimum":"0"})", "/minimum: must be a number"},
        CompileCase{R"({"exclusiveMaximum":true})", "/exclusiveMaximum: must be a number"},
        CompileCase{R"({"pattern":1})", "/pattern: must be a string"},
        CompileCase{R"({"enum":[]})", "/enum: must be a non-empty array"},
        CompileCase{R"({"items":[{}]})", "/items: must be a schema"},
        CompileCase{R"({"uniqueItems":1})", "/uniqueItems: must be a boolean"},
        CompileCase{R"({"format":5})", "/format: must be a string"},
        CompileCase{R"({"properties":{"b":{"minimum":null}}})",
                    "/properties/b/minimum: must be a number"},
        CompileCase{R"({"properties":{"x/y~":{"type":"x"}}})",
                    "/properties/x~1y~0/type: unknown type \"x\""},
        CompileCase{R"({"minLength":3,"maxLength":2})", "/minLength: is greater than maxLength"},
        CompileCase{R"({"minItems":3,"maxItems":2})", "/minItems: is greater than maxItems"},
        CompileCase{R"({"minimum":3,"maximum":2.5})", "/minimum: is greater than maximum"}));

TEST(Schema, PatternErrorNamesTheProblem) {
    EXPECT_EQ(compile_error(R"({"type":"object","properties":{"a":{"pattern":"("}}})")
                  .rfind("/properties/a/pattern: invalid regular expression: ", 0),
              0u);
}

TEST(Schema, AcceptsTheWholeSubset) {
    EXPECT_NO_THROW(Schema::compile(json::parse(kNotes)));
    EXPECT_NO_THROW(Schema::compile(json::parse(R"({
        "$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
        "minProperties": 0, "maxProperties": 9, "additionalProperties": {"type": "string"},
        "properties": {"a": {"type": ["integer", "null"], "minimum": -1.5, "maximum": 1e3,
                             "default": null},
                       "b": {"items": true, "minItems": 0, "maxItems": 2.0},
                       "c": true, "d": {}}})")));
    EXPECT_THROW(Schema::parse("{nope"), SchemaError);
}

TEST(Schema, IntrospectionAndCopies) {
    auto s = Schema::parse(R"({"type":"object","properties":{"title":{"type":"string"},
        "limit":{"type":["null","integer"]},"any":{},
        "options":{"type":"object","properties":{"domain":{"type":"string"}}},
        "tags":{"type":"array","items":{"type":"integer"}}}})");
    using P = std::pair<std::string, std::string>;
    EXPECT_EQ(s.property_types(), (std::vector<P>{{"title", "string"},
                                                  {"limit", "integer"},
                                                  {"any", ""},
                                                  {"options", "object"},
                                                  {"tags", "array"}}));
    ASSERT_NE(s.property("options.domain"), nullptr);
    EXPECT_EQ(*s.property("options.domain"), json::parse(R"({"type":"string"})"));
    EXPECT_EQ(*s.property("tags.3"), json::parse(R"({"type":"integer"})"));
    EXPECT_EQ(s.property("options.nope"), nullptr);
    EXPECT_EQ(s.property("title.x"), nullptr);
    EXPECT_EQ(s.source()["properties"]["title"]["type"], "string");
    Schema copy = s;  // shared, immutable: copies validate concurrently
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([copy] {
            for (int i = 0; i < 200; ++i) {
                json a = {{"title", "x"}, {"tags", {1, i}}};
                EXPECT_EQ(copy.validate(a), std::nullopt);
            }
        });
    for (auto& t : threads) t.join();
}

}  // namespace

TEST(Schema, MaxBytesCountsUtf8BytesAndComesBeforeMaxLength) {
    auto s = Schema::compile(json::parse(
        R"({"type":"object","properties":{"p":{"type":"string","maxLength":4,"maxBytes":4}}})"));
    json ascii = {{"p", "abcd"}};
    EXPECT_EQ(s.validate(ascii), std::nullopt);
    json accented = {{"p", "h\xC3\xA9ll"}};  // 4 code points, 5 bytes
    EXPECT_EQ(s.validate(accented), "p: must be at most 4 bytes");
    json five = {{"p", "abcde"}};  // over both: the byte limit is named
    EXPECT_EQ(s.validate(five), "p: must be at most 4 bytes");
    auto one = Schema::compile(
        json::parse(R"({"type":"object","properties":{"p":{"type":"string","maxBytes":1}}})"));
    json two = {{"p", "ab"}};
    EXPECT_EQ(one.validate(two), "p: must be at most 1 byte");
    EXPECT_EQ(compile_error(R"({"type":"object","properties":{"p":{"maxBytes":-1}}})"),
              "/properties/p/maxBytes: must be a non-negative integer");
}
