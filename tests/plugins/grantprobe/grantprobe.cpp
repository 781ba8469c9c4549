// grantprobe — test-only: ABI 1.6 grants and internal endpoints over HTTP, so integration tests
// can drive them through the real host (in process or in a platform-worker).
//   POST /api/v1/grantprobe/hold {}  (account) → {"grant": Request::grant()} for the caller.
//   POST /api/v1/grantprobe/act {grant, service, method, request?} (public) → Host::call_granted:
//        {code, body} of the answer whatever it is; code 5 (NOT_FOUND) when the grant is unknown.
//   POST /api/v1/grantprobe/revoke {grant} (public) → {revoked: bool}.
//   POST /api/v1/grantprobe/whoami {} (account, INTERNAL) → {account}: only other plugins reach it.
//   POST /api/v1/grantprobe/relay {} (account) → what whoami answers when called as the caller.
#include <platform/sdk.hpp>

namespace schema = platform::schema;

using platform::json;

class GrantProbe {
public:
    static void describe(platform::ServiceSpec<GrantProbe>& s) {
        s.id("grantprobe")
            .version("1.0.0")
            .service("v1.grantprobe")
            .summary("Test-only access to grants and internal endpoints");
        s.post("hold")
            .title("A grant for the caller")
            .description("Answers a grant letting this plugin act later for the caller.")
            .schema(schema::object())
            .access(platform::Access::account)
            .handler(&GrantProbe::hold);
        s.post("act")
            .title("Call a service through a grant")
            .description("Calls service/method with request for the grant's account.")
            .schema(schema::object()
                        .str("grant")
                        .required()
                        .str("service")
                        .min_len(1)
                        .required()
                        .str("method")
                        .min_len(1)
                        .required()
                        .prop("request", schema::any_object()))
            .handler(&GrantProbe::act);
        s.post("revoke")
            .title("Revoke a grant")
            .description("Forgets a grant.")
            .schema(schema::object().str("grant").required())
            .handler(&GrantProbe::revoke);
        s.post("whoami")
            .title("Who the call acts for (internal)")
            .description("Answers the caller's account; for other plugins only.")
            .schema(schema::object())
            .access(platform::Access::account)
            .internal()
            .handler(&GrantProbe::whoami);
        s.post("relay")
            .title("Call the internal whoami as the caller")
            .description("Calls grantprobe/whoami as the caller and answers its result.")
            .schema(schema::object())
            .access(platform::Access::account)
            .handler(&GrantProbe::relay);
    }

    explicit GrantProbe(const platform::Host& host) : host_(host) {}

    json hold(platform::Request& r) { return {{"grant", r.grant()}}; }
    json act(platform::Request& r) {
        const json& a = r.args();
        try {
            auto got = host_.call_granted(
                a["grant"].get<std::string>(), a["service"].get<std::string>(),
                a["method"].get<std::string>(), a.value("request", json::object()));
            return {{"code", static_cast<int>(got.code)}, {"body", got.body}};
        } catch (const platform::Error& e) {
            return {{"code", static_cast<int>(e.code())}, {"body", e.what()}};
        }
    }
    json revoke(platform::Request& r) {
        return {{"revoked", host_.revoke_grant(r.args()["grant"].get<std::string>())}};
    }
    json whoami(platform::Request& r) { return {{"account", r.account()}}; }
    json relay(platform::Request& r) {
        return host_.call("grantprobe", "whoami", json::object(), r.call()).result();
    }

private:
    platform::Host host_;
};

PLATFORM_SERVICE(GrantProbe)
