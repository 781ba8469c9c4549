// platform/host/core/profile.hpp — profiles: which providers and plugins a server wires in.
//
// A profile is a YAML file found by name in PLATFORM_PROFILE_PATH, $PLATFORM_HOME/profiles/,
// <exe>/profiles/, <exe>/../share/platform/profiles/ and the source tree's profiles/ — or given as
// a path. `${VAR}` in string values expands from the environment (PLATFORM_HOME included; unset is
// ""); `${VAR:?why}` stops loading with "file:line: VAR is not set (why)" when VAR is unset or
// empty — a setting the profile cannot do without (kubernetes.yaml's PLATFORM_POSTGRES_URL).
// Every error names the file, the line and the key.
//
//   name: local
//   clock: real                 # real | manual
//   plugins: all                # or a list of service plugin ids
//   test_plugins: false         # also load <build>/tests/plugins/
//   plugin_path: []             # extra plugin folders
//   privileged: [registry]      # plugins granted the privileged sub-tables
//   isolation: {notes: process} # per service plugin: process (a platform-worker child, restarted
//                               # when it crashes; worker_plugin.hpp) or in-process (the default)
//   providers:
//     store:  {plugin: store-sqlite, config: {path: "${PLATFORM_HOME}/data/store.db"}}
//     broker: {plugin: broker-memory}
//     auth:   {plugin: auth-noop, config: {anonymous_account: admin}}
//   plugin_config: {notes: {}}  # config handed to each plugin's on_create, by id
//   settings: {call_timeout_ms: 30000}
//   outbound:                   # the host's HTTP client (outbound.hpp)
//     allow: ["127.0.0.1:11434"]  # operator upstreams on loopback/private addresses
//     timeout_ms: 30000
//     max_response_bytes: 10485760
//     max_redirects: 5
//     user_agent: platform/0.1
//     providers:
//       weather: {base_url: "https://api.example.com/v1", api_key: "${WEATHER_KEY}",
//                 api_key_header: "X-Api-Key", key_required: true}
//   http:                       # both listening ports (http_settings.hpp): limits, CORS, access
//     max_header_count: 100     # log, rate_limit {requests_per_second, burst}, drain_ms...
//     rate_limit: {requests_per_second: 50, burst: 100}
//   payment:                    # x402 pay-per-call (payment.hpp); on when pay_to is set
//     pay_to: "0x..."           # env PLATFORM_X402_PAY_TO overrides
//     facilitator_url: "https://x402.org/facilitator"   # env PLATFORM_X402_FACILITATOR_URL
//     network: eip155:8453      # env PLATFORM_X402_NETWORK; `base`, `base-sepolia` accepted
//     asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"   # Base USDC
//     decimals: 6
//     extra: {name: "USD Coin", version: "2"}
//     max_timeout_seconds: 60
//     timeout_ms: 10000         # each facilitator request
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <platform/host/core/http_settings.hpp>
#include <platform/host/outbound/outbound.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace platform::host {

class ProfileError : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct ProviderChoice {
    std::string plugin;
    nlohmann::json config = nlohmann::json::object();
    std::string where;  // "file:line" of the plugin key, for later errors
};

// The profile's `payment:` section (x402; docs/identity.md "Payment"). Environment overrides are
// applied by the payment gate (payment.hpp, effective_payment_settings).
struct PaymentSettings {
    std::string pay_to;           // empty: x402 off
    std::string facilitator_url;  // POST <url>/verify and <url>/settle
    std::string network = "eip155:8453";
    std::string asset = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";  // USDC on Base
    int decimals = 6;
    nlohmann::json extra = {{"name", "USD Coin"}, {"version", "2"}};
    int64_t max_timeout_seconds = 60;
    int64_t timeout_ms = 10000;  // one facilitator request
    bool enabled() const { return !pay_to.empty(); }
};

// The profile's `xmpp:` section: XMPP federation of chat (platform/host/xmpp/chat_bridge.hpp),
// used only when the server runs with PLATFORM_XMPP=1 / --xmpp. The environment overrides it with
// the variables scripts/xmpp reads too, so one environment configures the server and Prosody:
//   xmpp:
//     domain: example.org          # PLATFORM_XMPP_DOMAIN; accounts are ID@domain, rooms
//                                  # ROOM@conference.domain, the bridge is bridge.domain
//     server: "127.0.0.1:5347"     # the XMPP server's component port (XEP-0114);
//                                  # PLATFORM_XMPP_COMPONENT_PORT sets the port on 127.0.0.1
//     secret: "${PLATFORM_XMPP_COMPONENT_SECRET}"  # the component's secret; never logged
//     prosody: scripts             # scripts: Prosody on this machine, run by scripts/xmpp (the
//                                  # server tells how when it cannot connect); operator: a server
//                                  # run by the operator
struct XmppSettings {
    std::string domain = "localhost";
    std::string server = "127.0.0.1:5347";
    std::string secret;
    std::string prosody = "scripts";
};

struct Profile {
    std::string name, file, description;
    bool manual_clock = false;
    bool all_plugins = true;
    std::vector<std::string> plugins;
    bool test_plugins = false;
    std::vector<std::string> plugin_path;
    std::set<std::string> privileged;
    std::set<std::string> isolated;                   // ids of plugins with `isolation: process`
    std::string isolation_where;                      // "file:line" of `isolation`
    std::map<std::string, ProviderChoice> providers;  // kind name -> choice
    nlohmann::json plugin_config = nlohmann::json::object();
    int64_t call_timeout_ms = 30000;
    int64_t max_call_timeout_ms = 300000;
    std::string plugins_where;  // "file:line" of `plugins`
    OutboundSettings outbound;
    HttpSettings http;
    PaymentSettings payment;
    XmppSettings xmpp;
};

// Provider kinds a profile may name: store, broker, events, auth, model.
const std::vector<std::string>& provider_kinds();

// Finds and parses a profile by name or path. Throws ProfileError("file:line: key: problem").
Profile load_profile(const std::string& name_or_path, const std::vector<std::string>& search_dirs);

// The directories searched for a profile name, in order.
std::vector<std::string> profile_search_dirs(const std::string& home, const std::string& exe_dir);

}  // namespace platform::host
