// platform/sdk/schema.hpp: the builder writes the JSON Schema the host validates, in declaration
// order, and what it writes compiles in the host's validator.
#include <gtest/gtest.h>

#include <platform/sdk/schema.hpp>
#include <platform/validation/schema.hpp>

namespace {

namespace schema = platform::schema;
using nlohmann::json;
using platform::validation::Schema;

TEST(SchemaBuilder, WritesPropertiesInOrderWithTheirRules) {
    const auto built = schema::object()
                           .str("title")
                           .max_len(200)
                           .required()
                           .doc("The title")
                           .str("text")
                           .max_bytes(100000)
                           .integer("limit")
                           .range(1, 100)
                           .def(20)
                           .array("tags", schema::string().max_len(30))
                           .max_items(5)
                           .unique();
    EXPECT_EQ(json::parse(built.dump()), json::parse(R"({
      "type": "object",
      "properties": {
        "title": {"type": "string", "maxLength": 200, "description": "The title"},
        "text": {"type": "string", "maxBytes": 100000},
        "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20},
        "tags": {"type": "array", "items": {"type": "string", "maxLength": 30}, "maxItems": 5,
                 "uniqueItems": true}},
      "required": ["title"],
      "additionalProperties": false})"));
    // Declaration order survives: the host keeps it for CLI flags and the order of checks.
    EXPECT_LT(built.dump().find("\"title\""), built.dump().find("\"tags\""));
    const Schema compiled = Schema::parse(built.dump());
    const std::vector<std::pair<std::string, std::string>> expected = {
        {"title", "string"}, {"text", "string"}, {"limit", "integer"}, {"tags", "array"}};
    EXPECT_EQ(compiled.property_types(), expected);
}

TEST(SchemaBuilder, ModifiersBeforeAnyPropertyDescribeTheObject) {
    const auto built = schema::object().doc("Each chunk").open().str("topic").required();
    const json j = json::parse(built.dump());
    EXPECT_EQ(j["description"], "Each chunk");
    EXPECT_FALSE(j.contains("additionalProperties"));
    EXPECT_EQ(j["required"], json::array({"topic"}));
}

TEST(SchemaBuilder, NestedObjectsMapsFormatsAndEnums) {
    const auto built =
        schema::object()
            .object("advance", schema::object().integer("minutes").min(1).required())
            .prop("headers", schema::map_of(schema::string().max_len(10)).max_props(4))
            .str("when")
            .date_time()
            .str("kind")
            .one_of({"a", "b"})
            .def("a")
            .prop("any", schema::any());
    const json j = json::parse(built.dump());
    EXPECT_EQ(j["properties"]["advance"]["additionalProperties"], false);
    EXPECT_EQ(j["properties"]["advance"]["required"], json::array({"minutes"}));
    EXPECT_EQ(j["properties"]["headers"]["additionalProperties"]["maxLength"], 10);
    EXPECT_EQ(j["properties"]["headers"]["maxProperties"], 4);
    EXPECT_EQ(j["properties"]["when"]["format"], "date-time");
    EXPECT_EQ(j["properties"]["kind"]["enum"], json::array({"a", "b"}));
    EXPECT_EQ(j["properties"]["any"], json::object());
    EXPECT_NO_THROW(Schema::parse(built.dump()));
}

TEST(SchemaBuilder, SharedShapesAndIncludeKeepRequiredNames) {
    const auto paging = schema::object()
                            .prop("limit", schema::limit(100, 20, "Page size"))
                            .prop("offset", schema::offset("Skipped first"));
    const auto built = schema::id_object("The task's id").include(paging);
    const json j = json::parse(built.dump());
    EXPECT_EQ(j["required"], json::array({"id"}));
    EXPECT_EQ(j["properties"]["id"]["maxLength"], 64);
    EXPECT_EQ(j["properties"]["limit"]["default"], 20);
    EXPECT_EQ(j["properties"]["offset"]["minimum"], 0);
    const auto prompt = schema::object().prop("prompt", schema::prompt("What to ask")).required();
    const json p = json::parse(prompt.dump())["properties"]["prompt"];
    EXPECT_EQ(p["maxBytes"], schema::kPromptMaxBytes);
    EXPECT_EQ(p["description"], "What to ask, at most 8000 bytes");
    // What the shapes write passes the validator's own rules.
    json args = {{"id", "t1"}, {"limit", 0}};
    EXPECT_EQ(Schema::parse(built.dump()).validate(args), "limit: must be at least 1");
}

TEST(SchemaBuilder, MistakesAreLeftToTheValidator) {
    // The builder writes what it is told; the validator refuses it when the plugin loads.
    const auto bad = schema::object().str("name").min_len(5).max_len(2);
    EXPECT_THROW(Schema::parse(bad.dump()), platform::validation::SchemaError);
}

}  // namespace
