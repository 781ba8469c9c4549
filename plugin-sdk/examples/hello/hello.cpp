// hello — the smallest useful Platform plugin: one public read, one per-account write.
//
//   GET  /api/v1/hello/greet?name=Ada   -> {"data":{"message":"Hello, Ada!"}}
//   POST /api/v1/hello/count            -> {"data":{"count":1}}, 2, 3... per account
#include <cstdint>
#include <platform/sdk.hpp>

namespace schema = platform::schema;

class Hello {
public:
    // Everything the host knows about the service: names, argument schemas (built with
    // platform::schema, never typed as JSON), access. The host validates arguments against the
    // schemas and enforces access before a handler runs; the same description gives the HTTP
    // routes, the MCP tools, the CLI's flags and help, and the OpenAPI document.
    static void describe(platform::ServiceSpec<Hello>& s) {
        s.id("hello")
            .version("1.0.0")
            .service("v1.hello")
            .summary("Greets people and counts calls");
        s.get("greet")
            .title("Greet someone")
            .description("Answers with a greeting for `name`.")
            .schema(schema::object().str("name").max_len(100).required().doc("Who to greet"))
            .read_only()
            .handler(&Hello::greet);
        s.post("count")
            .title("Count my calls")
            .description("Adds one to the caller's own counter and answers with its new value.")
            .access(platform::Access::owner)
            .handler(&Hello::count);
    }

    platform::json greet(platform::Request& r) {
        return {{"message", "Hello, " + r.str("name") + "!"}};
    }

    platform::json count(platform::Request& r) {
        auto counters = r.owned("counters");  // the caller's records only; 401 when anonymous
        // Handlers run on several threads, and a service may run as several replicas: a mutex
        // would guard one process only. update() reads, changes and writes with a
        // compare-and-set on the store, and runs the change again if another call wrote first.
        auto written = counters.update("calls", [](const std::optional<platform::json>& current) {
            return platform::json{
                {"count", (current ? current->value("count", int64_t{0}) : 0) + 1}};
        });
        return {{"count", (*written)["count"]}};
    }
};

PLATFORM_SERVICE(Hello)
