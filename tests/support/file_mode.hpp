// file_mode.hpp — the permission bits of a file, for tests of what the host and its tools keep
// private (0600 files, 0700 directories).
//
// Header-only; shared by the unit and the integration tests.
#pragma once

#include <sys/stat.h>

#include <string>

namespace platform::test {

// The rwx bits of `path` for owner, group and others (0777 mask); 0 when it does not exist.
inline unsigned mode_of(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 ? (st.st_mode & 0777) : 0;
}

}  // namespace platform::test
