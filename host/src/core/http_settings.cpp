#include <platform/host/core/http_settings.hpp>
#include <regex>

namespace platform::host {

std::string cors_origin_problem(const std::string& origin) {
    if (origin == "*") return "";
    if (origin == "null")
        return "`null` is never allowed (sandboxed frames and local files all send it)";
    static const std::regex form(
        R"(^https?://[a-z0-9.\-]+(:[0-9]{1,5})?$|^https?://\[[0-9a-f:.]+\](:[0-9]{1,5})?$)");
    if (!std::regex_match(origin, form))
        return "must be \"*\" or an origin: http:// or https://, a host in lower case, an "
               "optional :port, no path (e.g. https://app.example:8443)";
    return "";
}

}  // namespace platform::host
