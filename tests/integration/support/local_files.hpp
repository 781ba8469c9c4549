// local_files.hpp — what tests read and change on this machine outside the host: source files a
// test edits before `platform update`, programs on $PATH, and the kernel's table of TCP sockets.
#pragma once

#include <string>

namespace platform::test {

// The file's bytes; "" when it cannot be read.
std::string read_text(const std::string& path);
// Writes `text` to `path`, creating its folders.
void write_text(const std::string& path, const std::string& text);
// Replaces the first `from` in the file with `to`; a test failure (ADD_FAILURE) naming both when
// `from` is not there.
void replace_in(const std::string& path, const std::string& from, const std::string& to);

// The executable `name` as found on $PATH (/usr/bin:/bin when unset); "" when none.
std::string find_on_path(const std::string& name);

// TCP connections to local `port` that a process still holds (inode != 0), from /proc/net/tcp and
// tcp6: established ones only, or (established_only false) every state but listening. A socket
// the owner has closed is gone or an orphan the kernel still drains (inode 0) and is not counted.
int held_connections(int port, bool established_only);

}  // namespace platform::test
