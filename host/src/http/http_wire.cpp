#include "http_wire.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <platform/host/core/status.hpp>
#include <platform/host/http/http_bodies.hpp>
#include <platform/sdk/text.hpp>
#include <vector>

namespace platform::host {

using namespace Pistache;
using nlohmann::json;

namespace wire {

using platform::lower;

std::string trim(const std::string& s) {
    size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::string reason(int status) {
    switch (status) {
        case 408:
            return "Request Timeout";
        case 414:
            return "URI Too Long";
        case 505:
            return "HTTP Version Not Supported";
        default:
            return std::string(http_reason(status));
    }
}

HttpResponse error_response(const std::string& id, int status, const std::string& detail) {
    HttpResponse r = gateway_error(id, status, detail);
    if (http_reason(status) == "Error")
        r.body =
            json({{"Id", id}, {"Code", status}, {"Detail", detail}, {"Status", reason(status)}})
                .dump();
    return r;
}

std::string wire_bytes(Http::Version version, const HttpResponse& r, bool close) {
    std::string out =
        std::string(Http::versionString(version)) + " " + std::to_string(r.status) + " ";
    const char* phrase = Http::codeString(static_cast<Http::Code>(r.status));
    out += *phrase ? phrase : reason(r.status);
    out += close ? "\r\nConnection: Close\r\n" : "\r\nConnection: Keep-Alive\r\n";
    std::vector<std::string> seen{"connection", "content-length"};
    auto add = [&](const std::string& name, const std::string& value) {
        if (name.find_first_of("\r\n") != std::string::npos ||
            value.find_first_of("\r\n") != std::string::npos)
            return;  // never a header split into two
        const std::string key = lower(name);
        if (key != "set-cookie") {
            if (std::find(seen.begin(), seen.end(), key) != seen.end()) return;
            seen.push_back(key);
        }
        out += name + ": " + value + "\r\n";
    };
    for (const auto& [k, v] : r.headers) add(k, v);
    if (!r.content_type.empty()) add("Content-Type", r.content_type);
    out += "Content-Length: " + std::to_string(r.body.size()) + "\r\n\r\n";
    return out + r.body;
}

}  // namespace wire

}  // namespace platform::host
