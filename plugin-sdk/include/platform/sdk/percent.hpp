// platform/sdk/percent.hpp — percent-encoding for URLs (RFC 3986), for plugins and the host alike
// (header-only).
#pragma once

#include <cctype>
#include <string>
#include <string_view>

namespace platform {

// `s` with every byte but the unreserved characters (A-Z a-z 0-9 - . _ ~) written as %XX (upper
// case hex): safe in a path segment, a query value and application/x-www-form-urlencoded alike.
inline std::string percent_encode(std::string_view s) {
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    out.reserve(s.size());
    for (unsigned char c : s) {
        if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~')
            out += static_cast<char>(c);
        else
            out += {'%', hex[c >> 4], hex[c & 15]};
    }
    return out;
}

}  // namespace platform
