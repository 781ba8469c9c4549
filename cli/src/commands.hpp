// commands.hpp — the `platform` commands. Each returns the process exit code (docs/cli.md:
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
int dynamic_command(const std::string& service,
                    const Args& args);  // `platform <service> <method> --arg v`

// Platform commands (docs/cli.md).
int env_command(const Args& args);     // `platform env [list|get|add|set|del]` (env_command.cpp)
int config_command(const Args& args);  // `platform config get|set|del|list` (config_commands.cpp)
int store_command(
    const Args& args);  // `platform store read|write|delete|list` (store_commands.cpp)
int registry_command(const Args& args);    // `platform registry list|get` (registry_commands.cpp)
int tools_command(const Args& args);       // `platform tools`: every MCP tool, one line each
int completion_command(const Args& args);  // `platform completion bash|zsh` (completion.cpp)

// The runtime (runtime_commands.cpp; host runtime_service.hpp).
int run_command(const Args& args);     // `platform run [--name n] <source>[@ref]`
int update_command(const Args& args);  // `platform update [--name n] <name|path>`
int kill_command(const Args& args);    // `platform kill <name|path>`
int status_command(const Args& args);  // `platform status [<name>]`
int logs_command(const Args& args);    // `platform logs [-f] [-n lines] <name>`

// The assistant (assistant_commands.cpp; plugins/agent).
int ask_command(
    const Args& args);  // `platform ask [--agent a] [--thread id | -c] [--json] <prompt>`
int submit_command(
    const Args& args);  // `platform submit [--agent a] [--thread id | -c] [--wait] <prompt>`
int work_command(const Args& args);  // `platform work get <id> [--wait] | list | retry <id>`
int inbox_command(
    const Args& args);  // `platform inbox list | read <id> | mark_read <id> | mark_unread <id>`
// Follows work `id` until it is done, failed or blocked (a progress line on a terminal, a line per
// change otherwise), then prints its result; exit 0 when done, 1 failed, 6 blocked.
int follow_work(const std::string& id, bool json_out, double timeout_seconds);

// Identity (identity_commands.cpp, auth_commands.cpp; docs/identity.md).
int login_command(const Args& args);   // `platform login [--username U --password P | --token]`
int logout_command(const Args& args);  // `platform logout`
int user_command(const Args& args);    // `platform user [token | set timezone <IANA>]`
int signup_command(const Args& args);  // `platform signup` (when a signup service runs)
int auth_command(const Args& args);    // `platform auth create|list|delete account|rule|token`
// True when `platform auth <args>` is a built-in (create/list/delete, or help), not a dynamic call.
bool is_auth_builtin(const Args& args);

// Chat (chat_commands.cpp; plugins/chat): `platform chat live <room>` follows a room; every other
// word is a method of the chat service. True when args are the built-in's.
int chat_command(const Args& args);
bool is_chat_builtin(const Args& args);
// Mail (mail_commands.cpp; plugins/mail): `platform mail read <id>` follows a letter's pages (at a
// terminal, one at a time); every other word is a method of the mail service. True when args
// are the built-in's.
int mail_command(const Args& args);
bool is_mail_builtin(const Args& args);

// Operators (admin_commands.cpp): `platform admin reset-secret [--account id] [--home dir]`.
int admin_command(const Args& args);

std::string top_help();  // usage.cpp

}  // namespace platform::cli
