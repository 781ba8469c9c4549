// rpc_client.hpp — the CLI's transport: POST /rpc on the server's RPC proxy (DESIGN §9).
//
// The address is the selected environment's (127.0.0.1:8081 for `local`), overridden for one
// invocation by PLATFORM_PROXY=host:port. PLATFORM_TOKEN, when set, is sent as the bearer token.
#pragma once

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>

namespace platform::cli {

// The server could not be reached at all (exit code 4).
class Unreachable : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct RpcResult {
    int http_status = 0;
    nlohmann::json body;  // the result, or the gateway error {Id, Code, Detail, Status}
    bool ok() const { return http_status >= 200 && http_status < 300; }
    std::string detail() const;  // the error's Detail, or the raw body
};

class RpcClient {
public:
    RpcClient();  // address and token from the environment
    RpcClient(std::string address, std::string token);

    const std::string& address() const { return address_; }
    // Calls service/method with a JSON request. Throws Unreachable.
    RpcResult call(const std::string& service, const std::string& method, const nlohmann::json& request) const;

private:
    std::string address_, token_;
};

}  // namespace platform::cli
