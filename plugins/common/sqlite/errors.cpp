#include "common/sqlite/errors.hpp"

#include <sqlite3.h>

#include <climits>
#include <platform/sdk/error.hpp>

namespace common::sqlite {

void throw_platform_error(const platform::Host& host, const std::string& provider, const char* op,
                          const SQLite::Exception& e) {
    int code = e.getErrorCode();
    std::string msg = provider + ": " + op + ": " + e.what();
    if (code == SQLITE_TOOBIG) throw platform::Error(platform::Code::payload_too_large, msg);
    host.error(msg);
    if (code == SQLITE_BUSY || code == SQLITE_LOCKED || code == SQLITE_FULL || code == SQLITE_IOERR)
        throw platform::unavailable(msg);
    throw platform::internal(msg);
}

void check_size(std::string_view what, std::string_view bytes) {
    if (bytes.size() > static_cast<size_t>(INT_MAX))
        throw platform::Error(platform::Code::payload_too_large,
                              std::string(what) + ": over 2 GiB");
}

}  // namespace common::sqlite
