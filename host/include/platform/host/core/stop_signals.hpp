// platform/host/core/stop_signals.hpp — how the host (`platform server`) and `platform-worker` wait
// for SIGINT and SIGTERM: blocked in every thread, taken by one thread's sigwait.
#pragma once

#include <pthread.h>

#include <csignal>

namespace platform::host {

// Blocks SIGINT and SIGTERM in the calling thread (threads it makes afterwards inherit the mask,
// so none of them is interrupted) and ignores SIGPIPE. Returns the blocked set, for sigwait or
// sigtimedwait. Call from main before any thread is made.
inline sigset_t block_stop_signals() {
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);
    std::signal(SIGPIPE, SIG_IGN);
    return signals;
}

}  // namespace platform::host
