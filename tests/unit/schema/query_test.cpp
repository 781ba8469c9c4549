// parse_query / parse_form: micro's qson cases (no schema) and schema-typed coercion.
#include "platform/validation/query.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using nlohmann::json;
using namespace platform::validation;

struct Case {
    const char* query;
    const char* expected;  // JSON text
};

void PrintTo(const Case& c, std::ostream* os) {
    *os << c.query;
}

class Untyped : public testing::TestWithParam<Case> {};

TEST_P(Untyped, MatchesQson) {
    EXPECT_EQ(parse_query(GetParam().query, nullptr), json::parse(GetParam().expected))
        << GetParam().query;
}

// micro's qson cases (util/qson/qson_test.go), except the last: '.' nests here, as micro's
// gateway nests dotted keys after qson (query.hpp).
INSTANTIATE_TEST_SUITE_P(
    Qson, Untyped,
    testing::Values(
        Case{"a=xyz&b[c]=456", R"({"a":"xyz","b":{"c":456}})"},
        Case{"bar%5Bone%5D%5Btwo%5D=2&bar[one][red]=112", R"({"bar":{"one":{"red":112,"two":2}}})"},
        Case{"cat=1&dog=2", R"({"cat":1,"dog":2})"}, Case{"cat[]=1&cat[]=34", R"({"cat":[1,34]})"},
        Case{"cat=1&cat=2", R"({"cat":2})"},
        Case{"a[b]=1&b[d]=ben%26jerry", R"({"a":{"b":1},"b":{"d":"ben&jerry"}})"},
        Case{"filter=parent%3Dflow12345%26request%3Dreq12345&meta.limit=20&meta.offset=0",
             R"({"filter":"parent=flow12345&request=req12345","meta":{"limit":20,"offset":0}})"}));

INSTANTIATE_TEST_SUITE_P(
    Guessing, Untyped,
    testing::Values(
        Case{"", R"({})"}, Case{"&&a=1&", R"({"a":1})"},
        Case{"t=true&f=false&n=null&z=007&neg=-1.5&e=1e3",
             R"({"t":true,"f":false,"n":"null","z":"007","neg":-1.5,"e":1000.0})"},
        Case{"big=123456789012345678901234567890&inf=1e999",
             R"({"big":"123456789012345678901234567890","inf":"1e999"})"},
        Case{"s=hello+world&p=a%2Bb&u=%C3%A9&sp=%201",
             R"({"s":"hello world","p":"a+b","u":"é","sp":" 1"})"},
        Case{"flag&empty=", R"({"flag":"","empty":""})"},
        Case{"eq=a=b&obj={\"a\":1}&arr=[1]", R"({"eq":"a=b","obj":"{\"a\":1}","arr":"[1]"})"},
        Case{"a.b.c=1&a.b.d=x", R"({"a":{"b":{"c":1,"d":"x"}}})"},
        Case{"m[a.b]=1", R"({"m":{"a.b":1}})"}, Case{"a=1&a[b]=2", R"({"a":{"b":2}})"},
        Case{"a[b]=2&a=1", R"({"a":1})"}, Case{"x[y][]=1&x[y][]=two", R"({"x":{"y":[1,"two"]}})"},
        Case{"tags=a,b", R"({"tags":"a,b"})"}, Case{"tags=a&tags=b", R"({"tags":"b"})"}));

const char* const kSchema = R"({"type":"object","properties":{
    "title":{"type":"string"}, "limit":{"type":"integer"}, "ratio":{"type":"number"},
    "flag":{"type":"boolean"}, "tags":{"type":"array","items":{"type":"string"}},
    "ids":{"type":"array","items":{"type":"integer"}}, "any":{},
    "parent":{"type":["integer","null"]}, "either":{"type":["integer","string"]},
    "options":{"type":"object",
               "properties":{"domain":{"type":"string"},"depth":{"type":"integer"}}},
    "meta":{"type":"object","properties":{"limit":{"type":"integer"}}}}})";

class Typed : public testing::TestWithParam<Case> {};

TEST_P(Typed, FollowsSchema) {
    static const Schema schema = Schema::compile(json::parse(kSchema));
    EXPECT_EQ(parse_query(GetParam().query, &schema), json::parse(GetParam().expected))
        << GetParam().query;
}

INSTANTIATE_TEST_SUITE_P(
    Coercion, Typed,
    testing::Values(
        Case{"title=2024", R"({"title":"2024"})"},
        Case{"title=true&title=null", R"({"title":"null"})"}, Case{"limit=20", R"({"limit":20})"},
        Case{"limit=abc", R"({"limit":"abc"})"},
        Case{"limit=2.5&ratio=1", R"({"limit":2.5,"ratio":1})"}, Case{"limit=", R"({})"},
        Case{"limit=5&limit=", R"({})"}, Case{"flag=true", R"({"flag":true})"},
        Case{"flag=1", R"({"flag":true})"}, Case{"flag=0", R"({"flag":false})"},
        Case{"flag=false", R"({"flag":false})"}, Case{"flag=on", R"({"flag":true})"},
        Case{"flag", R"({"flag":true})"}, Case{"flag=yes", R"({"flag":"yes"})"},
        Case{"tags=a,b", R"({"tags":["a","b"]})"}, Case{"tags=a&tags=b", R"({"tags":["a","b"]})"},
        Case{"tags=a,b&tags=c", R"({"tags":["a","b","c"]})"},
        Case{"tags[]=1&tags[]=2", R"({"tags":["1","2"]})"},
        Case{"tags[]=a,b", R"({"tags":["a,b"]})"}, Case{"tags=a%2Cb,c", R"({"tags":["a,b","c"]})"},
        Case{"tags=", R"({"tags":[]})"}, Case{"tags=7", R"({"tags":["7"]})"},
        Case{"ids=1,2,x", R"({"ids":[1,2,"x"]})"}, Case{"ids=[3,4]", R"({"ids":[3,4]})"},
        Case{"ids=1,,2", R"({"ids":[1,2]})"},
        Case{"any=12&unknown=true", R"({"any":12,"unknown":true})"},
        Case{"parent=null", R"({"parent":null})"}, Case{"parent=3", R"({"parent":3})"},
        Case{"either=3", R"({"either":"3"})"},
        Case{"options[domain]=1&options[depth]=2&options[other]=3",
             R"({"options":{"domain":"1","depth":2,"other":3}})"},
        Case{"options.domain=42", R"({"options":{"domain":"42"}})"},
        Case{"options={\"domain\":\"x\"}", R"({"options":{"domain":"x"}})"},
        Case{"options=plain", R"({"options":"plain"})"},
        Case{"meta.limit=20", R"({"meta":{"limit":20}})"},
        Case{"meta.limit=lots", R"({"meta":{"limit":"lots"}})"}));

TEST(Query, TypedThenValidated) {
    auto schema = Schema::compile(json::parse(R"({"type":"object","additionalProperties":false,
        "properties":{"title":{"type":"string"},"limit":{"type":"integer","minimum":1}}})"));
    auto args = parse_query("title=2024&limit=abc", &schema);
    EXPECT_EQ(schema.validate(args), "limit: must be an integer");
    args = parse_query("title=2024&limit=0", &schema);
    EXPECT_EQ(schema.validate(args), "limit: must be at least 1");
    args = parse_form("title=Hello+there&limit=3", &schema);
    EXPECT_EQ(schema.validate(args), std::nullopt);
    EXPECT_EQ(args, json::parse(R"({"title":"Hello there","limit":3})"));
}

struct Bad {
    const char* query;
    const char* error;
};

void PrintTo(const Bad& c, std::ostream* os) {
    *os << c.query;
}

class Malformed : public testing::TestWithParam<Bad> {};

TEST_P(Malformed, Throws) {
    try {
        parse_query(GetParam().query, nullptr);
        ADD_FAILURE() << "no error for " << GetParam().query;
    } catch (const QueryError& e) {
        EXPECT_EQ(std::string(e.what()), GetParam().error);
    }
}

INSTANTIATE_TEST_SUITE_P(
    Query, Malformed,
    testing::Values(
        Bad{"a=%zz", "a: bad percent-encoding \"%zz\""},
        Bad{"a=1%2", "a: bad percent-encoding \"%2\""}, Bad{"a=%", "a: bad percent-encoding \"%\""},
        Bad{"a%g1=1", "a%g1: bad percent-encoding \"%g1\""},
        Bad{"a[b=1", "a[b: unbalanced bracket"}, Bad{"a]=1", "a]: unbalanced bracket"},
        Bad{"a[b]c=1", "a[b]c: unbalanced bracket"}, Bad{"a[[b]]=1", "a[[b]]: unbalanced bracket"},
        Bad{"=1", "=1: empty key"}, Bad{"[a]=1", "[a]: empty key"},
        Bad{"a..b=1", "a..b: empty key part"}, Bad{".a=1", ".a: empty key part"},
        Bad{"a.=1", "a.: empty key part"}, Bad{"a[][b]=1", "a[][b]: '[]' must come last"},
        Bad{"a=%FF", "a: must be valid UTF-8"}, Bad{"%C3=1", "%C3: must be valid UTF-8"}));

TEST(Query, ErrorsAreValidUtf8) {
    try {
        parse_query("a\xFF[=1", nullptr);
        FAIL();
    } catch (const QueryError& e) {
        EXPECT_TRUE(platform::validation::valid_utf8(e.what()));
    }
}

}  // namespace
