// platform/host/core/private_home.hpp — the server's state is readable by its own user only.
//
// PLATFORM_HOME holds every account's data (data/store.db, data/events.db and their -wal and -shm
// files), the secret key that seals config secrets and signing keys (keys/config.key), ACME keys
// (acme/) and the runtime's sources and builds (runtime/). At start the server:
//   - sets its umask to 077, so that whatever it, its plugins (SQLite) and its children
//     (platform-worker, the runtime's builds) create is mode 0600, and folders 0700;
//   - creates PLATFORM_HOME and data/ with mode 0700;
//   - takes group and other permissions away from what an older version left open: PLATFORM_HOME,
//     the folders directly in it and the files directly in those (only what the server's user
//     owns; nothing deeper, so a large runtime/ costs nothing).
#pragma once

#include <string>

namespace platform::host {

// Does the above for `home`. Returns "" or what went wrong, naming the path.
std::string make_home_private(const std::string& home);

}  // namespace platform::host
