// command.hpp — run a program (the `platform` CLI) and collect its exit code, stdout and stderr.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace platform::test {

struct CommandResult {
    int code = -1;
    std::string out, err;
};

// Runs argv with extra environment variables, no stdin, bounded by timeout_seconds (killed after).
CommandResult run_command(const std::vector<std::string>& argv,
                          const std::map<std::string, std::string>& env = {},
                          int timeout_seconds = 60);

}  // namespace platform::test
