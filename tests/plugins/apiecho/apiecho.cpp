// apiecho — test-only: an endpoint taking micro's api.Request and answering an api.Response (the
// gateway's `api` handler), and endpoints with http_path route templates (/items/{id}, /counts/{n}).
#include <platform/sdk.hpp>

namespace schema = platform::schema;

using platform::json;

namespace {
// micro's api.Pair map: name -> {key, values}.
schema::Value pairs() {
    return schema::map_of(schema::object().str("key").array("values", schema::string()));
}
}  // namespace

class ApiEcho {
public:
    static void describe(platform::ServiceSpec<ApiEcho>& s) {
        s.id("apiecho").version("1.0.0").service("apiecho").summary(
            "Test-only: api.Request in, api.Response out; route templates");
        s.get("call")
            .title("Echo an api.Request")
            .description("Answers status 201, header X-Echo: 1 and the body \"<method> <path>\".")
            .schema(schema::object()
                        .str("method")
                        .required()
                        .str("path")
                        .required()
                        .str("url")
                        .str("body")
                        .prop("header", pairs())
                        .prop("get", pairs())
                        .prop("post", pairs()))
            .read_only()
            .handler(&ApiEcho::call);
        s.get("item")
            .title("One item")
            .description("Also served at GET /items/{id}.")
            .http_path("/items/{id}")
            .schema(schema::object().str("id").required())
            .read_only()
            .handler(&ApiEcho::item);
        s.get("count")
            .title("A typed path value")
            .description("Also served at GET /counts/{n}; n is an integer.")
            .http_path("/counts/{n}")
            .schema(schema::object().integer("n").min(0).required())
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
