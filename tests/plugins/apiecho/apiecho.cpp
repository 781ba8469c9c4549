// apiecho — test-only: an endpoint taking micro's api.Request and answering an api.Response (the
// gateway's `api` handler), and endpoints with http_path route templates (/items/{id}, /counts/{n}).
#include <platform/sdk.hpp>

using platform::json;

namespace {
constexpr const char* kPairs = R"json({"type": "object", "additionalProperties": {"type": "object",
    "properties": {"key": {"type": "string"}, "values": {"type": "array", "items": {"type": "string"}}},
    "additionalProperties": false}})json";
}

class ApiEcho {
public:
    static void describe(platform::ServiceSpec<ApiEcho>& s) {
        s.id("apiecho").version("1.0.0").service("apiecho").summary(
            "Test-only: api.Request in, api.Response out; route templates");
        s.get("call")
            .title("Echo an api.Request")
            .description("Answers status 201, header X-Echo: 1 and the body \"<method> <path>\".")
            .schema(std::string(R"json({"type": "object", "properties": {
                "method": {"type": "string"}, "path": {"type": "string"}, "url": {"type": "string"},
                "body": {"type": "string"}, "header": )json") +
                    kPairs + R"json(, "get": )json" + kPairs + R"json(, "post": )json" + kPairs +
                    R"json(},
                "required": ["method", "path"], "additionalProperties": false})json")
            .read_only()
            .handler(&ApiEcho::call);
        s.get("item")
            .title("One item")
            .description("Also served at GET /items/{id}.")
            .http_path("/items/{id}")
            .schema(
                R"json({"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"],
                           "additionalProperties": false})json")
            .read_only()
            .handler(&ApiEcho::item);
        s.get("count")
            .title("A typed path value")
            .description("Also served at GET /counts/{n}; n is an integer.")
            .http_path("/counts/{n}")
            .schema(
                R"json({"type": "object", "properties": {"n": {"type": "integer", "minimum": 0}}, "required": ["n"],
                           "additionalProperties": false})json")
            .read_only()
            .handler(&ApiEcho::count);
    }

    json call(platform::Request& r) {
        const json& a = r.args();
        return {
            {"statusCode", 201},
            {"header",
             {{"X-Echo", {{"key", "X-Echo"}, {"values", {"1"}}}},
              {"X-Echo-Get",
               {{"key", "X-Echo-Get"}, {"values", {a.value("get", json::object()).dump()}}}},
              {"X-Echo-Post",
               {{"key", "X-Echo-Post"}, {"values", {a.value("post", json::object()).dump()}}}}}},
            {"body", a.value("method", "") + " " + a.value("path", "")}};
    }
    json item(platform::Request& r) { return {{"id", r.args()["id"]}}; }
    json count(platform::Request& r) { return {{"n", r.args()["n"]}}; }
};

PLATFORM_SERVICE(ApiEcho)
