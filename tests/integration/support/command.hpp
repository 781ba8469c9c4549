// command.hpp — run a program (the `platform` CLI) and collect its exit code, stdout and stderr.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "host_process.hpp"

namespace platform::test {

struct CommandResult {
    int code = -1;
    std::string out, err;
};

// Runs argv with extra environment variables, no stdin, bounded by timeout_seconds without
// output (killed after). With `until`, asked after each read of output: once it answers true the
// command is stopped (SIGTERM, as a user's Ctrl-C would end a `logs -f`) and what it printed kept.
CommandResult run_command(const std::vector<std::string>& argv,
                          const std::map<std::string, std::string>& env = {},
                          int timeout_seconds = 60,
                          const std::function<bool(const CommandResult&)>& until = {});

// Runs the `platform` CLI (HostProcess::binary()) with `args` against `host`, as run_command does:
// PLATFORM_HOME `home` (the CLI's own files), PLATFORM_PROXY the host's proxy port, PLATFORM_TOKEN
// `token` and an empty PLATFORM_ENV, each unless `env` sets it.
CommandResult run_cli(const HostProcess& host, const std::string& home, const std::string& token,
                      std::vector<std::string> args, std::map<std::string, std::string> env = {},
                      int timeout_seconds = 60);

// Stops child process `pid` (of this process): SIGTERM, then SIGKILL if it has not exited within
// 5 s; reaps it and sets pid to -1. Nothing when pid <= 0.
void stop_child(int& pid);

}  // namespace platform::test
