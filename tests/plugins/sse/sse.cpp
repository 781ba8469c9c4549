// sse — test-only: a streaming endpoint, to test Server-Sent Events end to end.
#include <atomic>
#include <chrono>
#include <platform/sdk.hpp>
#include <thread>

namespace schema = platform::schema;

using platform::json;

class Sse {
public:
    static void describe(platform::ServiceSpec<Sse>& s) {
        s.id("sse").version("1.0.0").service("v1.sse").summary("Test-only streaming endpoints");
        s.get("count")
            .title("Count")
            .description(
                "Streams {\"i\": k} for k = 1..n, then ends; fail=true ends with an error instead.")
            .schema(schema::object()
                        .integer("n")
                        .min(0)
                        .max(100000)
                        .required()
                        .boolean("fail")
                        .def(false)
                        .integer("gap_ms")
                        .min(0)
                        .max(1000)
                        .def(0))
            .streaming()
            .read_only()
            .async(&Sse::count);
        s.get("stopped").title("How many streams stopped early").read_only().handler(&Sse::stopped);
    }

    void count(platform::Request& r, platform::Responder out) {
        const int64_t n = r["n"].get<int64_t>(), gap = r["gap_ms"].get<int64_t>();
        for (int64_t i = 1; i <= n; ++i) {
            if (!out.chunk(json{{"i", i}})) {
                stopped_.fetch_add(1);
                return;
            }
            if (gap) std::this_thread::sleep_for(std::chrono::milliseconds(gap));
        }
        if (r["fail"].get<bool>())
            return out.end(platform::Code::conflict, "stream failed on purpose");
        out.end();
    }

    json stopped(platform::Request&) { return {{"stopped", stopped_.load()}}; }

private:
    std::atomic<int64_t> stopped_{0};
};

PLATFORM_SERVICE(Sse)
