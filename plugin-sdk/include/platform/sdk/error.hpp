// platform/sdk/error.hpp — typed errors a handler throws; the SDK turns each into an ABI code.
//
// Throw platform::Error (or one of the helpers) from a handler: the trampoline answers the call
// with its code and message. Any other exception becomes PLATFORM_INTERNAL with its what().
// Messages name the argument and the rule ("title: must not be empty").
#pragma once

#include <platform/abi.h>

#include <stdexcept>
#include <string>

namespace platform {

enum class Code : platform_status_t {
    ok = PLATFORM_OK,
    invalid_argument = PLATFORM_INVALID_ARGUMENT,
    unauthenticated = PLATFORM_UNAUTHENTICATED,
    payment_required = PLATFORM_PAYMENT_REQUIRED,
    permission_denied = PLATFORM_PERMISSION_DENIED,
    not_found = PLATFORM_NOT_FOUND,
    method_not_allowed = PLATFORM_METHOD_NOT_ALLOWED,
    timeout = PLATFORM_TIMEOUT,
    conflict = PLATFORM_CONFLICT,
    payload_too_large = PLATFORM_PAYLOAD_TOO_LARGE,
    rate_limited = PLATFORM_RATE_LIMITED,
    internal = PLATFORM_INTERNAL,
    unsupported = PLATFORM_UNSUPPORTED,
    bad_gateway = PLATFORM_BAD_GATEWAY,
    unavailable = PLATFORM_UNAVAILABLE,
    deadline_exceeded = PLATFORM_DEADLINE_EXCEEDED,
};

class Error : public std::runtime_error {
public:
    Error(Code code, const std::string& message) : std::runtime_error(message), code_(code) {}
    Code code() const noexcept { return code_; }

private:
    Code code_;
};

inline Error invalid_argument(const std::string& m) {
    return Error(Code::invalid_argument, m);
}
inline Error not_found(const std::string& m) {
    return Error(Code::not_found, m);
}
inline Error conflict(const std::string& m) {
    return Error(Code::conflict, m);
}
inline Error unauthenticated(const std::string& m) {
    return Error(Code::unauthenticated, m);
}
inline Error permission_denied(const std::string& m) {
    return Error(Code::permission_denied, m);
}
inline Error unavailable(const std::string& m) {
    return Error(Code::unavailable, m);
}
inline Error internal(const std::string& m) {
    return Error(Code::internal, m);
}

// Throws an Error for a non-OK status returned by the host table.
inline void check(platform_status_t status, const std::string& what) {
    if (status != PLATFORM_OK) throw Error(static_cast<Code>(status), what);
}

}  // namespace platform
