// platform/host/server/server.hpp — `platform server`: profile + runtime + HTTP until
// SIGINT/SIGTERM.
#pragma once

#include <platform/host/core/settings.hpp>

namespace platform::host {

// Runs the server in the foreground. Returns the process exit code: 0 after a signal, 1 when the
// profile, a provider or a port could not be set up (the reason is logged as one line).
int run_server(Settings settings);

}  // namespace platform::host
