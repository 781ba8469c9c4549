// commands.hpp — the `platform` commands. Each returns the process exit code (DESIGN §2 table:
// 0 ok, 1 error, 2 usage, 3 unauthenticated/forbidden, 4 unreachable, 5 not found, 6 payment).
#pragma once

#include <string>
#include <vector>

namespace platform::cli {

using Args = std::vector<std::string>;  // the words after the command name

int server_command(int argc, char** argv);  // `platform server [flags]`
int services_command(const Args& args);     // `platform services`
int call_command(const Args& args);         // `platform call <service> <Endpoint> ['<json>']`
int help_command(const Args& args);         // `platform help [<service> [<method>]]`
int dynamic_command(const std::string& service, const Args& args);  // `platform <service> <method> --arg v`

std::string top_help();

}  // namespace platform::cli
