// notify — the checks on what a browser hands over (its PushSubscription) and on the URLs a
// notification carries; each failure is a 400 naming the argument and the rule.
#pragma once

#include <platform/sdk.hpp>
#include <string>
#include <vector>

namespace notify {

// An absolute http(s) URL, split as the checks need it.
struct WebUrl {
    std::string scheme;     // "https" or "http"
    std::string host;       // lower case; an IPv6 literal keeps its brackets
    int port = 0;           // explicit or the scheme's default
    std::string origin;     // scheme://host[:port], the port only when not the default
    std::string host_port;  // host:port, as outbound allow-lists write it
};

// `text` as an absolute http(s) URL of at most `max` bytes, without userinfo, spaces or
// control characters; invalid_argument("<arg>: ...") otherwise.
WebUrl web_url(const std::string& arg, const std::string& text, size_t max);

// A push endpoint: https, or http when its host:port is one of `trusted` (the operator's
// trusted_endpoints, for a push service on the operator's own network).
WebUrl push_endpoint(const std::string& text, const std::vector<std::string>& trusted);

// base64url (padded or not) decoding to exactly `bytes` bytes; invalid_argument naming `arg`.
std::string key_bytes(const std::string& arg, const std::string& text, size_t bytes);

}  // namespace notify
