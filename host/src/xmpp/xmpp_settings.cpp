// The xmpp section with the environment applied (chat_bridge.hpp, effective_xmpp_settings).
#include <cstdlib>
#include <platform/host/core/settings.hpp>
#include <platform/host/xmpp/chat_bridge.hpp>
#include <regex>
#include <stdexcept>

namespace platform::host {

XmppSettings effective_xmpp_settings(XmppSettings x) {
    auto env = [](const char* name) -> std::string {
        const char* v = std::getenv(name);
        return v ? v : "";
    };
    if (std::string d = env("PLATFORM_XMPP_DOMAIN"); !d.empty()) x.domain = d;
    if (std::string p = env("PLATFORM_XMPP_COMPONENT_PORT"); !p.empty())
        x.server = "127.0.0.1:" + p;
    if (std::string s = env("PLATFORM_XMPP_COMPONENT_SECRET"); !s.empty()) x.secret = s;
    static const std::regex domain("^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$");
    if (!std::regex_match(x.domain, domain))
        throw std::invalid_argument("xmpp.domain / PLATFORM_XMPP_DOMAIN: '" + x.domain +
                                    "' is not a domain name");
    auto [host, port] = split_address(x.server);  // throws naming the address
    if (port == 0)
        throw std::invalid_argument("xmpp.server / PLATFORM_XMPP_COMPONENT_PORT: '" + x.server +
                                    "' needs a port");
    if (x.secret.empty())
        throw std::invalid_argument(
            "xmpp: no component secret (set PLATFORM_XMPP_COMPONENT_SECRET, the secret "
            "scripts/xmpp gives Prosody)");
    return x;
}

}  // namespace platform::host
