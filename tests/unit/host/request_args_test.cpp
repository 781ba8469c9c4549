// request_args.hpp: an HTTP request's query and body as one argument object.
#include <gtest/gtest.h>

#include <platform/host/core/request_args.hpp>
#include <string>

namespace {

using nlohmann::json;
using namespace platform::host;
using platform::validation::Schema;

const Schema& notes_schema() {
    static const Schema s = Schema::parse(R"json({
      "type": "object",
      "properties": {
        "title": {"type": "string"},
        "limit": {"type": "integer"},
        "draft": {"type": "boolean"},
        "text":  {"type": "string"}
      },
      "additionalProperties": false
    })json");
    return s;
}

HttpRequest make(std::string method, std::string query, std::string body = "",
                 std::string content_type = "") {
    HttpRequest r;
    r.method = std::move(method);
    r.path = "/api/v1/notes/add";
    r.query = std::move(query);
    r.body = std::move(body);
    if (!content_type.empty()) r.headers["content-type"] = std::move(content_type);
    return r;
}

json ok(const std::variant<json, ArgsError>& r) {
    if (auto* e = std::get_if<ArgsError>(&r)) {
        ADD_FAILURE() << "unexpected error " << e->http_status << ": " << e->message;
        return nullptr;
    }
    return std::get<json>(r);
}

ArgsError err(const std::variant<json, ArgsError>& r) {
    if (auto* e = std::get_if<ArgsError>(&r)) return *e;
    ADD_FAILURE() << "expected an error, got " << std::get<json>(r).dump();
    return {};
}

TEST(RequestArgs, QueryTypedBySchema) {
    const auto& s = notes_schema();
    EXPECT_EQ(ok(request_args(make("GET", "title=2024&limit=5&draft=true"), &s, 1 << 20)),
              (json{{"title", "2024"}, {"limit", 5}, {"draft", true}}));
    // Without a schema micro's guessing applies: 2024 becomes a number.
    EXPECT_EQ(ok(request_args(make("GET", "title=2024"), nullptr, 1 << 20)),
              (json{{"title", 2024}}));
}

TEST(RequestArgs, EmptyRequestIsEmptyObject) {
    EXPECT_EQ(ok(request_args(make("GET", ""), &notes_schema(), 1 << 20)), json::object());
    EXPECT_EQ(ok(request_args(make("POST", "", "", "application/json"), &notes_schema(), 1 << 20)),
              json::object());
}

TEST(RequestArgs, JsonBodyMergedWithQueryBodyWins) {
    auto r = request_args(make("POST", "title=from-query&limit=3",
                               R"({"title":"from-body","text":"t"})", "application/json"),
                          &notes_schema(), 1 << 20);
    EXPECT_EQ(ok(r), (json{{"title", "from-body"}, {"limit", 3}, {"text", "t"}}));
}

TEST(RequestArgs, JsonContentTypeVariants) {
    for (const char* ct : {"application/json", "application/json; charset=utf-8",
                           "Application/JSON", "application/vnd.api+json", "text/json", ""}) {
        SCOPED_TRACE(ct);
        EXPECT_EQ(
            ok(request_args(make("POST", "", R"({"title":"a"})", ct), &notes_schema(), 1 << 20)),
            (json{{"title", "a"}}));
    }
}

TEST(RequestArgs, FormBody) {
    auto r = request_args(make("POST", "", "title=2024&text=hello+world%21&limit=7",
                               "application/x-www-form-urlencoded"),
                          &notes_schema(), 1 << 20);
    EXPECT_EQ(ok(r), (json{{"title", "2024"}, {"text", "hello world!"}, {"limit", 7}}));

    auto bad = err(request_args(make("POST", "", "title=%zz", "application/x-www-form-urlencoded"),
                                &notes_schema(), 1 << 20));
    EXPECT_EQ(bad.http_status, 400);
    EXPECT_EQ(bad.code, PLATFORM_INVALID_ARGUMENT);
}

TEST(RequestArgs, ProtobufIs415SayingOnlyJson) {
    for (const char* ct : {"application/protobuf", "application/octet-stream", "text/plain"}) {
        SCOPED_TRACE(ct);
        auto e = err(request_args(make("POST", "",
                                       "\x0a\x03"
                                       "abc",
                                       ct),
                                  &notes_schema(), 1 << 20));
        EXPECT_EQ(e.http_status, 415);
        EXPECT_EQ(e.code, PLATFORM_INVALID_ARGUMENT);
        EXPECT_NE(e.message.find("only JSON"), std::string::npos) << e.message;
    }
    auto e =
        err(request_args(make("POST", "", "x", "application/protobuf"), &notes_schema(), 1 << 20));
    EXPECT_NE(e.message.find("application/protobuf"), std::string::npos) << e.message;
}

TEST(RequestArgs, NonObjectJsonIs400) {
    for (const char* body : {"[1,2]", "\"text\"", "42", "null", "true"}) {
        SCOPED_TRACE(body);
        auto e =
            err(request_args(make("POST", "", body, "application/json"), &notes_schema(), 1 << 20));
        EXPECT_EQ(e.http_status, 400);
        EXPECT_EQ(e.code, PLATFORM_INVALID_ARGUMENT);
        EXPECT_NE(e.message.find("must be a JSON object"), std::string::npos) << e.message;
    }
}

TEST(RequestArgs, InvalidJsonIs400NamingTheByte) {
    const struct {
        const char* body;
        const char* byte;
    } cases[] = {
        {R"({"title": x})", "byte 11"},
        {R"({"title")", "byte 9"},
        {"{,}", "byte 2"},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.body);
        auto e = err(
            request_args(make("POST", "", c.body, "application/json"), &notes_schema(), 1 << 20));
        EXPECT_EQ(e.http_status, 400);
        EXPECT_EQ(e.code, PLATFORM_INVALID_ARGUMENT);
        EXPECT_NE(e.message.find("invalid JSON"), std::string::npos) << e.message;
        EXPECT_NE(e.message.find(c.byte), std::string::npos) << e.message;
    }
}

TEST(RequestArgs, BodyOverLimitIs413) {
    const std::string body = R"({"text":")" + std::string(100, 'x') + R"("})";
    auto e = err(
        request_args(make("POST", "", body, "application/json"), &notes_schema(), body.size() - 1));
    EXPECT_EQ(e.http_status, 413);
    EXPECT_EQ(e.code, PLATFORM_PAYLOAD_TOO_LARGE);
    EXPECT_NE(e.message.find(std::to_string(body.size())), std::string::npos) << e.message;
    EXPECT_NE(e.message.find(std::to_string(body.size() - 1)), std::string::npos) << e.message;
    // Exactly at the limit is fine.
    EXPECT_EQ(
        ok(request_args(make("POST", "", body, "application/json"), &notes_schema(), body.size()))
            .at("text")
            .get<std::string>()
            .size(),
        100u);
}

TEST(RequestArgs, SkipQueryKeyDropsSurfaceParameter) {
    const auto& s = notes_schema();
    EXPECT_EQ(ok(request_args(make("GET", "envelope=result&title=a"), &s, 1 << 20, "envelope")),
              (json{{"title", "a"}}));
    EXPECT_EQ(ok(request_args(make("GET", "title=a&envelope=result"), &s, 1 << 20, "envelope")),
              (json{{"title", "a"}}));
    EXPECT_EQ(ok(request_args(make("GET", "envelope=result"), &s, 1 << 20, "envelope")),
              json::object());
    // Without skip_query_key it is an ordinary argument (left for validation to refuse).
    EXPECT_EQ(ok(request_args(make("GET", "envelope=result&title=a"), &s, 1 << 20)),
              (json{{"envelope", "result"}, {"title", "a"}}));
    // Only the exact key is skipped.
    EXPECT_EQ(ok(request_args(make("GET", "envelopes=x&title=a"), &s, 1 << 20, "envelope")),
              (json{{"envelopes", "x"}, {"title", "a"}}));
}

TEST(RequestArgs, MalformedQueryIs400) {
    auto e = err(request_args(make("GET", "title=%zz"), &notes_schema(), 1 << 20));
    EXPECT_EQ(e.http_status, 400);
    EXPECT_EQ(e.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_NE(e.message.find("title"), std::string::npos) << e.message;
}

// Ill-formed UTF-8 inside a JSON body names the argument that holds it, not a byte offset
// (issue 11's sweeps).
TEST(RequestArgs, InvalidUtf8InABodyNamesTheArgument) {
    auto e = err(request_args(
        make("POST", "", "{\"title\":\"a\",\"text\":\"x\xC3\x28\"}", "application/json"),
        &notes_schema(), 1 << 20));
    EXPECT_EQ(e.http_status, 400);
    EXPECT_EQ(e.message, "text: must be valid UTF-8");
    using platform::host::invalid_utf8_path;
    EXPECT_EQ(invalid_utf8_path("{\"a\":1}"), std::nullopt);
    EXPECT_EQ(invalid_utf8_path("{\"a\":{\"b\":[1,{\"c\":2},\"\xFF\"]}}"), "a.b.2");
    EXPECT_EQ(invalid_utf8_path("{\"a\":[],\"b\":\"\xFF\"}"), "b");
    EXPECT_EQ(invalid_utf8_path("{\"a\":1,\"\xFF\":2}"), "an argument name");
    EXPECT_EQ(invalid_utf8_path("{\"a\":{\"\xFF\":2}}"), "a (a key)");
    EXPECT_EQ(invalid_utf8_path("\"\xFF\""), "");
}

}  // namespace
