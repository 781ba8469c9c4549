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

// Identity (identity_commands.cpp, auth_commands.cpp; docs/identity.md).
int login_command(const Args& args);   // `platform login [--username U --password P | --token]`
int logout_command(const Args& args);  // `platform logout`
int user_command(const Args& args);    // `platform user [token | set timezone <IANA>]`
int signup_command(const Args& args);  // `platform signup` (when a signup service runs)
int auth_command(const Args& args);    // `platform auth create|list|delete account|rule|token`
// True when `platform auth <args>` is a built-in (create/list/delete, or help), not a dynamic call.
bool is_auth_builtin(const Args& args);

std::string top_help();

}  // namespace platform::cli
