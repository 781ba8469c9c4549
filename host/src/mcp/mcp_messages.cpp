// JSON-RPC messages, event-stream frames and the protocol's version and level names.
#include "mcp_internal.hpp"

namespace platform::host::mcp {

bool supported_version(std::string_view v) {
    return v == "2025-11-25" || v == "2025-06-18" || v == "2025-03-26";
}

int log_severity(std::string_view level) {
    static const char* names[] = {"debug", "info",     "notice", "warning",
                                  "error", "critical", "alert",  "emergency"};
    for (int i = 0; i < 8; ++i)
        if (level == names[i]) return i;
    return -1;
}

json error_message(const json& id, int code, const std::string& message) {
    return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

json result_message(const json& id, json result) {
    return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

std::string result_message_text(const json& id, std::string_view result_text) {
    std::string out = "{\"id\":";
    out += id.dump(-1, ' ', false, json::error_handler_t::replace);
    out += ",\"jsonrpc\":\"2.0\",\"result\":";
    out += result_text;
    out += '}';
    return out;
}

std::string sse_frame(const json& message) {
    return sse_frame_text(message.dump(-1, ' ', false, json::error_handler_t::replace));
}

std::string sse_frame_text(std::string_view message_text) {
    std::string out = "event: message\ndata: ";
    out += message_text;
    out += "\n\n";
    return out;
}

HttpResponse http_error(int status, int code, const std::string& message, const json& id) {
    HttpResponse r;
    r.status = status;
    r.body = error_message(id, code, message).dump(-1, ' ', false, json::error_handler_t::replace);
    return r;
}

}  // namespace platform::host::mcp
