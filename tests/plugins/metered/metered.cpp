// metered — test-only fixture methods for the payment gate: credits and x402 (README.md).
#include <platform/sdk.hpp>

namespace schema = platform::schema;

using platform::json;

namespace {
const schema::Object kAnyArgs =
    schema::object().set("additionalProperties", true).str("text").max_len(1000);
}

class Metered {
public:
    static void describe(platform::ServiceSpec<Metered>& s) {
        s.id("metered")
            .version("1.0.0")
            .service("v1.metered")
            .summary("Test-only: metered fixture methods");
        s.post("quote")
            .title("A paid quote")
            .description("Costs 2 credits; echoes the arguments, the account and the x402 payer.")
            .schema(kAnyArgs)
            .metered(2)
            .handler(&Metered::echo);
        s.post("fail")
            .title("A paid method that always fails")
            .description("Costs 2 credits but always fails with 409, so it is never charged.")
            .schema(kAnyArgs)
            .metered(2)
            .handler(&Metered::fail);
        s.post("private_quote")
            .title("A paid quote for accounts")
            .description("Costs 1 credit; needs an account.")
            .schema(kAnyArgs)
            .access(platform::Access::account)
            .metered(1)
            .handler(&Metered::echo);
        s.post("free")
            .title("A free quote")
            .description("Costs nothing.")
            .schema(kAnyArgs)
            .handler(&Metered::echo);
    }

    json echo(platform::Request& r) {
        return {
            {"args", r.args()}, {"account", r.account()}, {"payer", r.header("x-payment-payer")}};
    }

    json fail(platform::Request&) { throw platform::conflict("fail: this fixture always fails"); }
};

PLATFORM_SERVICE(Metered)
