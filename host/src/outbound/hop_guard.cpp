#include "hop_guard.hpp"

#include <netdb.h>
#include <sys/socket.h>

#include <memory>
#include <set>

namespace platform::host::outbound {

namespace {

// Refuses the hop, with the allow-list hint for an operator or provider URL.
Decision refusal(const ParsedUrl& u, bool operator_kind, std::string why) {
    Decision d;
    d.status = PLATFORM_PERMISSION_DENIED;
    d.error = std::move(why);
    if (operator_kind)
        d.error += "; an operator upstream there must be listed in outbound.allow (" +
                   u.host_for_url() + ":" + std::to_string(u.port) + ")";
    return d;
}

Decision bad_gateway(std::string error) {
    Decision d;
    d.status = PLATFORM_BAD_GATEWAY;
    d.error = std::move(error);
    return d;
}

// Resolves the name u.host once; refuses it when ANY address is special, else pins them all.
Decision resolve_and_pin(const ParsedUrl& u, bool operator_kind) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* res = nullptr;
    int rc = getaddrinfo(u.host.c_str(), nullptr, &hints, &res);
    if (rc != 0 || !res)
        return bad_gateway("could not resolve " + u.host + ": " + gai_strerror(rc));
    std::unique_ptr<addrinfo, void (*)(addrinfo*)> owned(res, freeaddrinfo);
    Decision d;
    std::set<std::string> seen;
    for (addrinfo* ai = res; ai; ai = ai->ai_next) {
        char buf[NI_MAXHOST];
        if (getnameinfo(ai->ai_addr, ai->ai_addrlen, buf, sizeof buf, nullptr, 0, NI_NUMERICHOST) !=
            0)
            continue;
        std::string ip = buf;
        ip = ip.substr(0, ip.find('%'));  // a scope id; such addresses are link-local and refused
        if (!seen.insert(ip).second) continue;
        if (auto why = refused_address(ip))
            return refusal(u, operator_kind,
                           "refused: " + u.host + " resolves to " + ip + ", " +
                               why->substr(why->find(" is ") + 4));
        d.pins.push_back(ip.find(':') != std::string::npos ? "[" + ip + "]" : ip);
    }
    if (d.pins.empty()) return bad_gateway("could not resolve " + u.host + ": no addresses");
    return d;
}

}  // namespace

Decision decide(const ParsedUrl& u, bool operator_kind, const OutboundSettings& s) {
    if (operator_kind && allow_listed(s.allow, u.host, u.port)) return {};
    if (!operator_kind && allow_listed(s.allow_user, u.host, u.port)) return {};
    if (u.ip) {
        if (auto why = refused_address(u.host)) return refusal(u, operator_kind, *why);
        return {};
    }
    if (auto why = refused_name(u.host)) return refusal(u, operator_kind, *why);
    return resolve_and_pin(u, operator_kind);
}

}  // namespace platform::host::outbound
