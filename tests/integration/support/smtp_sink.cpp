#include "smtp_sink.hpp"

#include <poll.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <fstream>

#include "build_tree.hpp"
#include "command.hpp"

namespace platform::test {

SmtpSink::SmtpSink(const std::string& dir) : out(dir + "/sink.jsonl") {
    int pipe_fds[2];
    if (::pipe(pipe_fds) != 0) {
        why = "pipe failed";
        return;
    }
    std::string py = "/usr/bin/python3", script = source_dir() + "/tests/integration/smtp_sink.py";
    char* argv[] = {py.data(), script.data(), out.data(), nullptr};
    pid = ::fork();
    if (pid == 0) {
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        ::dup2(pipe_fds[1], 1);
        ::dup2(pipe_fds[1], 2);
        ::close_range(3, ~0U, 0);
        ::execv(py.c_str(), argv);
        ::_exit(127);
    }
    ::close(pipe_fds[1]);
    std::string line;
    pollfd p{pipe_fds[0], POLLIN, 0};
    while (line.find('\n') == std::string::npos && ::poll(&p, 1, 15000) > 0) {
        char buf[512];
        const ssize_t n = ::read(pipe_fds[0], buf, sizeof buf);
        if (n <= 0) break;
        line.append(buf, size_t(n));
    }
    ::close(pipe_fds[0]);
    if (line.rfind("listening ", 0) == 0) port = std::atoi(line.c_str() + 10);
    if (!port) why = "the sink did not start (python3-aiosmtpd: scripts/deps.sh): " + line;
}

SmtpSink::~SmtpSink() {
    stop_child(pid);
}

std::vector<nlohmann::json> SmtpSink::letters() const {
    std::vector<nlohmann::json> all;
    std::ifstream in(out);
    for (std::string line; std::getline(in, line);) all.push_back(nlohmann::json::parse(line));
    return all;
}

}  // namespace platform::test
