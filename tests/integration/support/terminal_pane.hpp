// terminal_pane.hpp — a command run in a real terminal: a detached tmux session (its own server
// socket, no user config) of 120x20 cells, read back as the text on screen.
//
//   TerminalPane pane("platform chat live lobby", {{"PLATFORM_TOKEN", "bob"}});
//   ASSERT_TRUE(pane.started()) << pane.error();
//   ASSERT_TRUE(eventually([&] { return has(pane.screen(), "following lobby"); }));
//
// The command runs under /bin/sh with `env` set as shell assignments (values single-quoted, so
// they must not hold a quote); `exec cat` after it keeps the pane once it ends. tmux comes from
// PATH (scripts/deps.sh installs it). The destructor kills the session's server.
#pragma once

#include <map>
#include <string>

namespace platform::test {

class TerminalPane {
public:
    TerminalPane(const std::string& command, const std::map<std::string, std::string>& env);
    ~TerminalPane();
    TerminalPane(const TerminalPane&) = delete;
    TerminalPane& operator=(const TerminalPane&) = delete;

    bool started() const { return error_.empty(); }
    // Why it did not start: tmux missing from PATH, or what tmux said.
    const std::string& error() const { return error_; }
    // The pane's visible text now, one line per row.
    std::string screen() const;
    // Types `keys` into the pane (tmux send-keys: "Enter", "q", literal text); false on failure.
    bool type(const std::string& keys) const;
    // The whole path of tmux on PATH, or "" when it is not installed.
    static std::string binary();

private:
    std::string socket_, error_;
};

}  // namespace platform::test
