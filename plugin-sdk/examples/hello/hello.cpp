// hello — the smallest useful Platform plugin: one public read, one per-account write.
//
//   GET  /api/v1/hello/greet?name=Ada   -> {"data":{"message":"Hello, Ada!"}}
//   POST /api/v1/hello/count            -> {"data":{"count":1}}, 2, 3... per account
#include <cstdint>
#include <mutex>
#include <platform/sdk.hpp>

class Hello {
public:
    // Everything the host knows about the service: names, schemas, access. The host validates
    // arguments against the schemas and enforces access before a handler runs.
    static void describe(platform::ServiceSpec<Hello>& s) {
        s.id("hello")
            .version("1.0.0")
            .service("v1.hello")
            .summary("Greets people and counts calls");
        s.get("greet")
            .title("Greet someone")
            .description("Answers with a greeting for `name`.")
            .schema(R"json({
              "type": "object",
              "properties": {"name": {"type": "string", "maxLength": 100, "description": "Who to greet"}},
              "required": ["name"],
              "additionalProperties": false
            })json")
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
        auto counters = r.owned("counters");       // the caller's records only; 401 when anonymous
        std::lock_guard<std::mutex> lock(mutex_);  // handlers run on several threads at once
        auto current = counters.get("calls");
        int64_t n = (current ? current->value("count", int64_t{0}) : 0) + 1;
        counters.put("calls", {{"count", n}});
        return {{"count", n}};
    }

private:
    std::mutex mutex_;
};

PLATFORM_SERVICE(Hello)
