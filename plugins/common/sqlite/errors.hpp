// common/sqlite/errors — SQLite failures as the platform errors the host maps to HTTP, for the
// SQLite providers. Stateless; any thread.
#pragma once

#include <SQLiteCpp/Exception.h>

#include <platform/sdk/host.hpp>
#include <string>
#include <string_view>

namespace common::sqlite {

// Throws the platform::Error for a failed operation `op` ("get", "append"), with the message
// "<provider>: <op>: <SQLite's message>": PAYLOAD_TOO_LARGE for SQLITE_TOOBIG; else the message is
// logged through `host` and the error is UNAVAILABLE (busy, locked, disk full, I/O) or INTERNAL.
[[noreturn]] void throw_platform_error(const platform::Host& host, const std::string& provider,
                                       const char* op, const SQLite::Exception& e);

// Throws PAYLOAD_TOO_LARGE "<what>: over 2 GiB" when `bytes` cannot be bound (SQLite binds an int
// length).
void check_size(std::string_view what, std::string_view bytes);

}  // namespace common::sqlite
