#include "terminal_pane.hpp"

#include <unistd.h>

#include <atomic>
#include <sstream>
#include <vector>

#include "command.hpp"

namespace platform::test {

namespace {

CommandResult tmux(const std::string& socket, std::vector<std::string> args) {
    args.insert(args.begin(), {TerminalPane::binary(), "-L", socket, "-f", "/dev/null"});
    return run_command(args, {}, 20);
}

}  // namespace

std::string TerminalPane::binary() {
    const char* path = std::getenv("PATH");
    std::stringstream dirs(path ? path : "/usr/bin:/bin");
    for (std::string dir; std::getline(dirs, dir, ':');)
        if (!dir.empty() && access((dir + "/tmux").c_str(), X_OK) == 0) return dir + "/tmux";
    return "";
}

TerminalPane::TerminalPane(const std::string& command,
                           const std::map<std::string, std::string>& env) {
    if (binary().empty()) {
        error_ = "tmux is not on PATH: run scripts/deps.sh";
        return;
    }
    static std::atomic<int> panes{0};
    socket_ = "platform-test-" + std::to_string(getpid()) + "-" + std::to_string(panes++);
    std::string line;
    for (const auto& [k, v] : env) line += k + "='" + v + "' ";
    line += command + "; echo EXIT=$?; exec cat";
    auto r = tmux(socket_, {"new-session", "-d", "-s", "pane", "-x", "120", "-y", "20", line});
    if (r.code != 0) error_ = "tmux new-session: " + r.err;
}

TerminalPane::~TerminalPane() {
    if (!socket_.empty()) tmux(socket_, {"kill-server"});
}

std::string TerminalPane::screen() const {
    return tmux(socket_, {"capture-pane", "-p", "-t", "pane"}).out;
}

bool TerminalPane::type(const std::string& keys) const {
    return tmux(socket_, {"send-keys", "-t", "pane", keys}).code == 0;
}

}  // namespace platform::test
