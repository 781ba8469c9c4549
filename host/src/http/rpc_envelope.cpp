#include <platform/host/core/runtime.hpp>
#include <platform/sdk/text.hpp>
#include <platform/validation/json_depth.hpp>

#include "resolve.hpp"

using platform::validation::json_depth_ok;
using platform::validation::kMaxJsonDepth;

namespace platform::host {

using nlohmann::json;

namespace {
// The envelope: typing form fields by it keeps them strings ("request" as text, then parsed).
const Schema& rpc_envelope_schema() {
    static const Schema schema = Schema::compile(nlohmann::json::parse(R"({
        "type": "object",
        "properties": {
            "service": {"type": "string"}, "method": {"type": "string"}, "endpoint": {"type": "string"},
            "address": {"type": "string"}, "request": {"type": ["object", "string"]}
        }
    })"));
    return schema;
}

// "host:port" -> {host class, port}: the loopback names and the any-address count as one host.
std::pair<std::string, std::string> node_key(const std::string& address) {
    auto colon = address.rfind(':');
    if (colon == std::string::npos) return {address, ""};
    std::string host = address.substr(0, colon), port = address.substr(colon + 1);
    if (host.size() > 1 && host.front() == '[' && host.back() == ']')
        host = host.substr(1, host.size() - 2);
    host = platform::lower(host);
    if (host.empty() || host == "localhost" || host == "127.0.0.1" || host == "::1" ||
        host == "0.0.0.0" || host == "::")
        host = "loopback";
    return {host, port};
}

// An in-process service has one node: this host, under any of its addresses.
bool node_here(Runtime& runtime, const std::string& address) {
    const auto wanted = node_key(address);
    bool here = false;
    for (const auto& node : runtime.network_nodes())
        for (const auto& a : {node.value("address", ""),
                              node.contains("metadata") ? node["metadata"].value("proxy", "") : ""})
            here |= !a.empty() && (a == address || node_key(a) == wanted);
    return here;
}
}  // namespace

std::variant<RpcEnvelope, Refusal> read_rpc_envelope(const HttpRequest& req, Runtime& runtime,
                                                     const std::string& id) {
    auto refuse = [&id](int status, std::string message) {
        return Refusal{status, "", id, std::move(message), {}};
    };
    if (req.body.size() > PLATFORM_DEFAULT_MAX_BODY * 64)
        return refuse(413, "request body too large");
    auto parsed = parse_body(req, &rpc_envelope_schema());
    if (auto* err = std::get_if<ArgsError>(&parsed)) return refuse(err->http_status, err->message);
    json& env = std::get<json>(parsed);
    auto field = [&](const char* k) {
        return env.contains(k) && env[k].is_string() ? env[k].get<std::string>() : "";
    };
    RpcEnvelope out{field("service"), field("method"), json::object()};
    if (out.method.empty()) out.method = field("endpoint");
    if (out.service.empty()) return refuse(400, "invalid service: `service` is required");
    if (out.method.empty()) return refuse(400, "invalid method: `method` is required");
    if (env.contains("request")) {
        out.request = env["request"];
        if (out.request.is_string()) {
            std::string text = out.request.get<std::string>();
            if (!json_depth_ok(text))
                return refuse(400, "request: nested more than " + std::to_string(kMaxJsonDepth) +
                                       " levels deep");
            out.request = text.empty() ? json::object() : json::parse(text, nullptr, false);
        }
        if (!out.request.is_object())
            return refuse(400, "request: must be a JSON object (or a JSON string of one)");
    }
    // `address` pins the node the call goes to.
    if (std::string address = field("address"); !address.empty() && !node_here(runtime, address))
        return refuse(404, "no node at " + address);
    return out;
}

}  // namespace platform::host
