#include "command.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <ctime>
#include <stdexcept>

namespace platform::test {

CommandResult run_command(const std::vector<std::string>& argv,
                          const std::map<std::string, std::string>& env, int timeout_seconds,
                          const std::function<bool(const CommandResult&)>& until) {
    int out[2], err[2];
    if (pipe(out) != 0 || pipe(err) != 0) throw std::runtime_error("pipe failed");
    pid_t pid = fork();
    if (pid == 0) {
        int devnull = open("/dev/null", O_RDONLY);
        dup2(devnull, 0);
        dup2(out[1], 1);
        dup2(err[1], 2);
        // Only 0, 1 and 2 go on: a daemon the command starts (tmux's server) would otherwise keep
        // the pipes' other copies open, and the read below would wait for them until its timeout.
        for (int fd : {out[0], err[0], out[1], err[1], devnull})
            if (fd > 2) close(fd);
        for (auto& [k, v] : env) setenv(k.c_str(), v.c_str(), 1);
        std::vector<char*> args;
        for (auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        execv(args[0], args.data());
        _exit(127);
    }
    close(out[1]);
    close(err[1]);
    CommandResult r;
    pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
    int open_fds = 2;
    while (open_fds > 0) {
        if (poll(fds, 2, timeout_seconds * 1000) <= 0) {
            kill(pid, SIGKILL);
            break;
        }
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP))) continue;
            char buf[4096];
            ssize_t n = read(fds[i].fd, buf, sizeof buf);
            if (n <= 0) {
                close(fds[i].fd);
                fds[i].fd = -1;
                --open_fds;
            } else {
                (i == 0 ? r.out : r.err).append(buf, static_cast<size_t>(n));
                if (until && until(r)) {
                    kill(pid, SIGTERM);
                    open_fds = 0;
                    break;
                }
            }
        }
    }
    for (auto& f : fds)
        if (f.fd >= 0) close(f.fd);
    int status = 0;
    waitpid(pid, &status, 0);
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return r;
}

void stop_child(int& pid) {
    if (pid <= 0) return;
    ::kill(pid, SIGTERM);
    for (int i = 0; i < 100; ++i) {  // up to 5 s, then SIGKILL
        if (::waitpid(pid, nullptr, WNOHANG) == pid) {
            pid = -1;
            return;
        }
        struct timespec pause {
            0, 50 * 1000 * 1000
        };
        nanosleep(&pause, nullptr);  // polling the child's exit, not a synchronisation
    }
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    pid = -1;
}

CommandResult run_cli(const HostProcess& host, const std::string& home, const std::string& token,
                      std::vector<std::string> args, std::map<std::string, std::string> env,
                      int timeout_seconds) {
    args.insert(args.begin(), HostProcess::binary());
    env.emplace("PLATFORM_HOME", home);
    env.emplace("PLATFORM_PROXY", "127.0.0.1:" + std::to_string(host.proxy_port()));
    env.emplace("PLATFORM_TOKEN", token);
    env.emplace("PLATFORM_ENV", "");
    return run_command(args, env, timeout_seconds);
}

}  // namespace platform::test
