// http_bodies.hpp: the response bodies of the gateway routes and of /api/v1.
#include <gtest/gtest.h>

#include <platform/host/http/http_bodies.hpp>
#include <string>

namespace {

using nlohmann::json;
using namespace platform::host;

int count_header(const HttpResponse& r, const std::string& name) {
    int n = 0;
    for (const auto& [k, v] : r.headers)
        if (k == name) ++n;
    return n;
}

std::string header(const HttpResponse& r, const std::string& name) {
    for (const auto& [k, v] : r.headers)
        if (k == name) return v;
    return "";
}

Outcome outcome(platform_status_t code, std::string body) {
    Outcome o;
    o.code = code;
    o.body = std::move(body);
    return o;
}

TEST(GatewayError, HasExactlyIdCodeDetailStatus) {
    struct Case {
        int http;
        const char* status;
    };
    for (const Case& c : {Case{400, "Bad Request"}, Case{401, "Unauthorized"},
                          Case{404, "Not Found"}, Case{415, "Unsupported Media Type"},
                          Case{500, "Internal Server Error"}, Case{504, "Gateway Timeout"}}) {
        SCOPED_TRACE(c.http);
        auto r = gateway_error("go.core.api", c.http, "detail text");
        EXPECT_EQ(r.status, c.http);
        EXPECT_EQ(r.content_type, "application/json");
        json b = json::parse(r.body);
        EXPECT_EQ(b, (json{{"Id", "go.core.api"},
                           {"Code", c.http},
                           {"Detail", "detail text"},
                           {"Status", c.status}}));
        EXPECT_EQ(count_header(r, "WWW-Authenticate"), c.http == 401 ? 1 : 0);
    }
}

TEST(GatewayError, UnauthorizedAsksForBearer) {
    auto r = gateway_error("go.core.api", 401,
                           "Unauthorized call made to go.core.api.v1.notes:Notes.Add");
    EXPECT_EQ(r.status, 401);
    EXPECT_EQ(header(r, "WWW-Authenticate"), "Bearer");
    json b = json::parse(r.body);
    EXPECT_EQ(b.size(), 4u);
    EXPECT_EQ(b.at("Status"), "Unauthorized");
    EXPECT_EQ(b.at("Code"), 401);
}

TEST(GatewayOutcome, SuccessIsRawResultAndErrorsUseStatusTable) {
    auto r = gateway_outcome("ns", outcome(PLATFORM_OK, R"({"a":1})"));
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.body, R"({"a":1})");
    EXPECT_EQ(r.content_type, "application/json");

    auto e = gateway_outcome("ns", outcome(PLATFORM_NOT_FOUND, "no such note"));
    EXPECT_EQ(e.status, 404);
    EXPECT_EQ(
        json::parse(e.body),
        (json{{"Id", "ns"}, {"Code", 404}, {"Detail", "no such note"}, {"Status", "Not Found"}}));

    auto u = gateway_outcome("ns", outcome(12345, "weird"));
    EXPECT_EQ(u.status, 500);
}

TEST(CatalogueOutcome, SuccessEnvelopes) {
    const char* result = R"({"title":"a","n":[1,2]})";
    auto data = catalogue_outcome(outcome(PLATFORM_OK, result), false);
    EXPECT_EQ(data.status, 200);
    EXPECT_EQ(data.content_type, "application/json");
    EXPECT_EQ(json::parse(data.body), (json{{"data", json::parse(result)}}));

    auto res = catalogue_outcome(outcome(PLATFORM_OK, result), true);
    EXPECT_EQ(res.status, 200);
    EXPECT_EQ(json::parse(res.body), (json{{"result", json::parse(result)}}));

    // Scalars and arrays are wrapped too.
    EXPECT_EQ(json::parse(catalogue_outcome(outcome(PLATFORM_OK, "[1]"), false).body),
              (json{{"data", {1}}}));
    EXPECT_EQ(json::parse(catalogue_outcome(outcome(PLATFORM_OK, "null"), true).body),
              (json{{"result", nullptr}}));
}

// The envelope is written around the plugin's bytes; for an answer made as the SDK makes them
// (a compact dump, invalid UTF-8 replaced) those are the bytes a parse and a dump would give.
TEST(CatalogueOutcome, EnvelopeAroundSdkAnswersIsTheirParseAndDump) {
    const auto sdk = [](const json& j) {
        return j.dump(-1, ' ', false, json::error_handler_t::replace);
    };
    const json answers[] = {
        json::object(),
        json{{"zeta", 1}, {"alpha", {{"b", 0.1}, {"a", -0.0}}}, {"big", 18446744073709551615u}},
        json{{"text", "caf\xc3\xa9 \t\x01 \"q\" / \\"}, {"bad", std::string("a\xff\xfe")}},
        json::array({1e300, 2.5e-8, 3.0, -7, nullptr, true}),
        json("just a string"),
    };
    for (const json& a : answers) {
        const std::string body = sdk(a);
        SCOPED_TRACE(body);
        for (bool envelope : {false, true}) {
            const json parsed = json::parse(body);
            EXPECT_EQ(catalogue_outcome(outcome(PLATFORM_OK, body), envelope).body,
                      sdk({{envelope ? "result" : "data", parsed}}));
        }
    }
}

TEST(CatalogueOutcome, AnswerThatIsNotJsonIsInternal) {
    for (const char* body : {"", "{\"a\":1} x", "{\"a\":\"\xff\"}", "[1,]"}) {
        SCOPED_TRACE(body);
        auto r = catalogue_outcome(outcome(PLATFORM_OK, body), false);
        EXPECT_EQ(r.status, 500);
        EXPECT_EQ(r.body,
                  R"({"error":{"code":"internal","message":"the service answered invalid JSON"}})");
    }
}

// The check is json_valid (json_check.hpp): where nlohmann would let bytes through that make the
// envelope invalid JSON (a leading byte order mark, anything after a NUL byte), it refuses them.
TEST(CatalogueOutcome, AnswerThatWouldBreakTheEnvelopeIsInternal) {
    for (const std::string body :
         {std::string("\xEF\xBB\xBF{}"), std::string("{}\0{", 4), std::string("1e400")}) {
        SCOPED_TRACE(body);
        EXPECT_EQ(catalogue_outcome(outcome(PLATFORM_OK, body), false).status, 500);
    }
}

// Any depth nlohmann accepts goes out as it came, without the check recursing.
TEST(CatalogueOutcome, DeeplyNestedAnswerIsWrapped) {
    const std::string body = std::string(20000, '[') + std::string(20000, ']');
    auto r = catalogue_outcome(outcome(PLATFORM_OK, body), false);
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.body, "{\"data\":" + body + "}");
}

TEST(CatalogueOutcome, ErrorsCarryCodeNameAndHttpStatus) {
    struct Case {
        platform_status_t code;
        int http;
        const char* name;
    };
    for (const Case& c :
         {Case{PLATFORM_INVALID_ARGUMENT, 400, "invalid_argument"},
          Case{PLATFORM_UNAUTHENTICATED, 401, "unauthenticated"},
          Case{PLATFORM_NOT_FOUND, 404, "not_found"}, Case{PLATFORM_CONFLICT, 409, "conflict"},
          Case{PLATFORM_UNAVAILABLE, 503, "unavailable"},
          Case{PLATFORM_DEADLINE_EXCEEDED, 504, "deadline_exceeded"}, Case{777, 500, "internal"}}) {
        SCOPED_TRACE(c.name);
        for (bool envelope : {false, true}) {
            auto r = catalogue_outcome(outcome(c.code, "what went wrong"), envelope);
            EXPECT_EQ(r.status, c.http);
            EXPECT_EQ(json::parse(r.body),
                      (json{{"error", {{"code", c.name}, {"message", "what went wrong"}}}}));
            EXPECT_EQ(count_header(r, "WWW-Authenticate"), c.http == 401 ? 1 : 0);
        }
    }
}

TEST(CatalogueOutcome, InvalidJsonFromServiceIsInternal) {
    auto r = catalogue_outcome(outcome(PLATFORM_OK, "{not json"), false);
    EXPECT_EQ(r.status, 500);
    EXPECT_EQ(json::parse(r.body).at("error").at("code"), "internal");
}

TEST(RawOutcomes, KeepTheirContentType) {
    Outcome o = outcome(PLATFORM_OK, std::string("\x89PNG\r\n\x1a\n\0\x01", 10));
    o.raw = true;
    o.content_type = "image/png";
    for (bool envelope : {false, true}) {
        auto r = catalogue_outcome(o, envelope);
        EXPECT_EQ(r.status, 200);
        EXPECT_EQ(r.content_type, "image/png");
        EXPECT_EQ(r.body, o.body);  // bytes untouched, no envelope
    }
    auto g = gateway_outcome("ns", o);
    EXPECT_EQ(g.status, 200);
    EXPECT_EQ(g.content_type, "image/png");
    EXPECT_EQ(g.body, o.body);
}

TEST(CatalogueError, Helpers) {
    auto r = catalogue_error(415, "invalid_argument", "only JSON");
    EXPECT_EQ(r.status, 415);
    EXPECT_EQ(json::parse(r.body),
              (json{{"error", {{"code", "invalid_argument"}, {"message", "only JSON"}}}}));
    auto s = catalogue_status(PLATFORM_PAYMENT_REQUIRED, "pay");
    EXPECT_EQ(s.status, 402);
    EXPECT_EQ(json::parse(s.body).at("error").at("code"), "payment_required");
    auto u = catalogue_status(PLATFORM_UNAUTHENTICATED, "who are you");
    EXPECT_EQ(header(u, "WWW-Authenticate"), "Bearer");
}

}  // namespace
