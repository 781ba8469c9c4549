// platform/sdk/str.hpp — conversions between platform_str_t views and C++ strings.
#pragma once

#include <platform/abi.h>

#include <string>
#include <string_view>

namespace platform {

inline platform_str_t view(std::string_view s) {
    return platform_str_t{s.data(), s.size()};
}

inline std::string_view view(platform_str_t s) {
    return s.ptr ? std::string_view(s.ptr, s.len) : std::string_view();
}

inline std::string copy(platform_str_t s) {
    return std::string(view(s));
}

// A bytes sink that appends into a std::string passed as `user`.
inline void append_sink(void* user, platform_str_t bytes) {
    static_cast<std::string*>(user)->append(bytes.ptr ? bytes.ptr : "", bytes.len);
}

}  // namespace platform
