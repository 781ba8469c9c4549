// Starting, stopping and reaping worker processes.
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <platform/host/core/clock.hpp>
#include <thread>

#include "worker_process.hpp"

namespace platform::host::worker {

pid_t spawn_worker(const std::string& binary, const std::string& so_path, int& host_fd,
                   std::string& error) {
    int sv[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        error = std::string("socketpair: ") + std::strerror(errno);
        return -1;
    }
    // Everything the child needs is prepared before fork: only async-signal-safe calls after it.
    std::string fd_arg = "3";
    const char* argv[] = {binary.c_str(), "--fd", fd_arg.c_str(), so_path.c_str(), nullptr};
    pid_t pid = ::fork();
    if (pid < 0) {
        error = std::string("fork: ") + std::strerror(errno);
        ::close(sv[0]);
        ::close(sv[1]);
        return -1;
    }
    if (pid == 0) {
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, nullptr);  // the host's threads block some signals
        ::setpgid(0, 0);                           // a terminal's Ctrl-C reaches the host only
        if (::dup2(sv[1], 3) < 0) _exit(127);      // dup2 clears FD_CLOEXEC on 3
        ::syscall(SYS_close_range, 4u, ~0u, 0u);   // no listening socket or file leaks in
        ::execv(binary.c_str(), const_cast<char* const*>(argv));
        _exit(127);
    }
    ::close(sv[1]);
    host_fd = sv[0];
    return pid;
}

namespace {
std::string describe_status(int status) {
    if (WIFEXITED(status)) return "exit " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status)) {
        const int sig = WTERMSIG(status);
        const char* name = strsignal(sig);
        return "signal " + std::to_string(sig) + " (" + (name ? name : "?") + ")";
    }
    return "status " + std::to_string(status);
}
}  // namespace

std::string reap_worker(WorkerProcess& p) {
    std::lock_guard<std::mutex> g(p.m);
    if (p.reaped || p.pid <= 0) return p.exit_text;
    // Give a process that is exiting on its own (a crash, a clean stop) a moment to finish, so
    // its real status is reported; then make sure it is gone.
    int status = 0;
    pid_t r = 0;
    for (int i = 0; i < 50 && (r = ::waitpid(p.pid, &status, WNOHANG)) == 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    if (r == 0) {
        ::kill(p.pid, SIGKILL);
        while ((r = ::waitpid(p.pid, &status, 0)) < 0 && errno == EINTR) {
        }
    }
    p.reaped = true;
    p.exit_text =
        r == p.pid ? describe_status(status) : "lost (" + std::string(std::strerror(errno)) + ")";
    return p.exit_text;
}

void terminate_worker(WorkerProcess& p, int64_t grace_ms) {
    {
        std::lock_guard<std::mutex> g(p.m);
        if (!p.reaped && p.pid > 0) ::kill(p.pid, SIGTERM);
    }
    const int64_t until = Clock::monotonic_ms() + grace_ms;
    while (p.channel && !p.channel->closed() && Clock::monotonic_ms() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    reap_worker(p);
    if (p.channel) p.channel->close("stopped");
}

}  // namespace platform::host::worker
