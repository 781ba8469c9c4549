#include <fcntl.h>
#include <poll.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <platform/host/core/clock.hpp>

#include "runtime_build.hpp"

namespace platform::host::runtime {

int run_process(const std::vector<std::string>& argv, const std::string& cwd, const LogFn& log,
                int64_t timeout_ms, const std::atomic<bool>* cancel,
                const std::vector<std::string>& env) {
    if (argv.empty()) return -1;
    // The environment: the host's, with `env`'s NAME=value entries replacing or adding.
    std::vector<std::string> merged(env);
    for (char** e = environ; *e; ++e) {
        const std::string entry(*e);
        const std::string key = entry.substr(0, entry.find('=') + 1);
        bool replaced = false;
        for (const auto& v : env) replaced = replaced || v.compare(0, key.size(), key) == 0;
        if (!replaced) merged.push_back(entry);
    }
    std::vector<char*> envp;
    for (auto& e : merged) envp.push_back(e.data());
    envp.push_back(nullptr);
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        log(std::string("pipe: ") + std::strerror(errno));
        return -1;
    }
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const pid_t pid = ::fork();
    if (pid < 0) {
        log(std::string("fork: ") + std::strerror(errno));
        ::close(fds[0]);
        ::close(fds[1]);
        return -1;
    }
    if (pid == 0) {  // only async-signal-safe calls from here
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, nullptr);
        ::setpgid(0, 0);
        const int null = ::open("/dev/null", O_RDONLY);
        if (null >= 0) ::dup2(null, 0);
        ::dup2(fds[1], 1);
        ::dup2(fds[1], 2);
        ::syscall(SYS_close_range, 3u, ~0u, 0u);
        if (!cwd.empty() && ::chdir(cwd.c_str()) != 0) _exit(126);
        ::execvpe(args[0], args.data(), envp.data());
        _exit(127);
    }
    ::close(fds[1]);
    const int64_t deadline = Clock::monotonic_ms() + timeout_ms;
    std::string pending;
    bool killed = false;
    char buf[4096];
    for (;;) {
        if (!killed && ((cancel && cancel->load()) || Clock::monotonic_ms() > deadline)) {
            log(cancel && cancel->load()
                    ? "cancelled"
                    : "timed out after " + std::to_string(timeout_ms / 1000) + " s");
            ::kill(-pid, SIGKILL);
            killed = true;
        }
        pollfd p{fds[0], POLLIN, 0};
        int n = ::poll(&p, 1, 200);
        if (n < 0 && errno != EINTR) break;
        if (n <= 0) continue;
        ssize_t got = ::read(fds[0], buf, sizeof buf);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        pending.append(buf, static_cast<size_t>(got));
        for (size_t nl; (nl = pending.find('\n')) != std::string::npos; pending.erase(0, nl + 1))
            log(pending.substr(0, nl));
    }
    if (!pending.empty()) log(pending);
    ::close(fds[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    ::kill(-pid, SIGKILL);  // anything the command left behind in its group
    if (WIFEXITED(status)) {
        if (WEXITSTATUS(status) == 127) log(argv[0] + ": command not found");
        return WEXITSTATUS(status);
    }
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -1;
}

}  // namespace platform::host::runtime
