// modelprobe — test-only: the two ABI 1.5 host functions a service uses, over HTTP, so integration
// tests can drive them through the real host (in process or in a platform-worker).
//   POST /api/v1/modelprobe/complete {"request": <the neutral model request of abi.h>} → the
//        model's answer (Host::complete); a failure is the host's status code with its message.
//   POST /api/v1/modelprobe/tools {} → {"tools": Request::tools()}: the caller's tools, as the
//        agent would offer them to its model.
//   POST /api/v1/modelprobe/call {service, method, request?} → calls it as the caller (the way
//        the agent runs a tool): {code, body} of the answer, whatever it is.
// All are public, so anonymous callers get the anonymous view.
#include <platform/sdk.hpp>

namespace schema = platform::schema;

using platform::json;

class ModelProbe {
public:
    static void describe(platform::ServiceSpec<ModelProbe>& s) {
        s.id("modelprobe")
            .version("1.0.0")
            .service("v1.modelprobe")
            .summary("Test-only access to the model and call_tools");
        s.post("complete")
            .title("One completion from the host's model")
            .description(
                "Hands `request` to Host::complete and answers what the model provider answered.")
            .schema(schema::object().prop("request", schema::any()).required())
            .handler(&ModelProbe::complete);
        s.post("tools")
            .title("The caller's tools")
            .description("The tools the caller may use, as call_tools lends them.")
            .schema(schema::object())
            .read_only()
            .handler(&ModelProbe::tools);
        s.post("call")
            .title("Call a service as the caller")
            .description(
                "Calls service/method with request as the caller, like an agent's tool step.")
            .schema(schema::object()
                        .str("service")
                        .min_len(1)
                        .required()
                        .str("method")
                        .min_len(1)
                        .required()
                        .prop("request", schema::any_object()))
            .handler(&ModelProbe::call);
    }

    explicit ModelProbe(const platform::Host& host) : host_(host) {}

    json complete(platform::Request& r) { return host_.complete(r.args()["request"]); }
    json tools(platform::Request& r) { return {{"tools", r.tools()}}; }
    json call(platform::Request& r) {
        const json& a = r.args();
        auto got = host_.call(a["service"].get<std::string>(), a["method"].get<std::string>(),
                              a.value("request", json::object()), r.call());
        return {{"code", static_cast<int>(got.code)}, {"body", got.body}};
    }

private:
    platform::Host host_;
};

PLATFORM_SERVICE(ModelProbe)
