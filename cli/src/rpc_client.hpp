// rpc_client.hpp — the CLI's transport: POST /rpc on the server's RPC proxy (docs/cli.md).
//
// The address is the selected environment's (environments.hpp; 127.0.0.1:8081 for `local`),
// overridden for one invocation by PLATFORM_PROXY=host:port. The bearer token comes from a token provider the program
// installs (credentials.hpp: PLATFORM_TOKEN, else the stored login, refreshed before it expires);
// this file knows nothing of where tokens are kept.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace platform::cli {

// The server could not be reached at all (exit code 4).
class Unreachable : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct RpcResult {
    int http_status = 0;
    nlohmann::json body;      // the result, or the gateway error {Id, Code, Detail, Status}
    bool sent_token = false;  // a bearer token went with the call
    bool ok() const { return http_status >= 200 && http_status < 300; }
    std::string detail() const;  // the error's Detail, or the raw body
};

// Answers the bearer token for the next call ("" = none). May itself call the server (to refresh
// a token) through an RpcClient built with an explicit token, and may throw Unreachable.
using TokenProvider = std::function<std::string()>;

// The provider every default-constructed RpcClient asks before each call (none: no token).
void set_token_provider(TokenProvider provider);

// PLATFORM_PROXY, else the selected environment's address (127.0.0.1:8081). Throws UsageError
// when the selected environment does not exist.
std::string default_address();

// Retries (docs/cli.md, "Retries"): a call that answers 500 or 408 is sent again, at
// most kMaxRetries times, 100 ms then 200 ms apart, and only when `may_retry` says the call is not
// a submission. `may_retry` is asked once, after the first 500/408, so deciding may cost a call
// (`platform call` looks the endpoint up then). Nothing else is retried: not other statuses, not
// a server that cannot be reached.
inline constexpr int kMaxRetries = 2;

struct CallOptions {
    std::vector<std::pair<std::string, std::string>> headers;  // sent as request headers (metadata)
    double timeout_seconds =
        0;  // > 0: `Timeout` header, and the client gives up a second later (408)
    std::function<bool()> may_retry;  // unset: never retried
    static CallOptions reads() {      // for calls that only read
        CallOptions o;
        o.may_retry = [] { return true; };
        return o;
    }
};

class RpcClient {
public:
    RpcClient();  // default_address(); the token from the installed provider, asked at each call
    RpcClient(std::string address, std::string token);  // exactly this token ("" = anonymous)

    const std::string& address() const { return address_; }
    // Calls service/method with a JSON request. Throws Unreachable.
    RpcResult call(const std::string& service, const std::string& method,
                   const nlohmann::json& request, const CallOptions& options = {}) const;

    // A streaming method as Server-Sent Events (Accept: text/event-stream): on_event gets each
    // event's name ("" for plain data) and data as they arrive; answering false stops. Returns the
    // HTTP status, and the body when the answer was not a stream (an error). Never retried.
    RpcResult stream(
        const std::string& service, const std::string& method, const nlohmann::json& request,
        const std::function<bool(const std::string& event, const std::string& data)>& on_event,
        double timeout_seconds = 0) const;

private:
    RpcResult once(const std::string& service, const std::string& method,
                   const nlohmann::json& request, const CallOptions& options) const;
    std::string address_, token_;
    TokenProvider provider_;
};

}  // namespace platform::cli
