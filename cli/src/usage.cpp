// usage.cpp — `platform --help`: examples first, then every command (docs/cli.md).
#include "commands.hpp"

namespace platform::cli {

std::string top_help() {
    return "platform — client and server of the Platform plugin host\n\n"
           "Examples:\n"
           "  platform server                             start the host (:8080 gateway, :8081 RPC proxy)\n"
           "  platform login --username admin             log in to the selected environment\n"
           "  platform notes add --title a --text b       call a service method; flags come from its schema\n"
           "  platform -e dev services                    the same against another environment\n"
           "  platform config get mail.smtp -o json       script-friendly output\n\n"
           "Usage: platform [-e <env>] [-o json|table|raw] <command> [arguments]\n\n"
           "Commands:\n"
           "  server                            start the host (platform server --help)\n"
           "  env [add|set|del|get]             list or change environments (servers to talk to)\n"
           "  services                          list the services the server runs\n"
           "  call <service> <Endpoint> [json]  call an endpoint with a JSON request\n"
           "  config get|set|del|list           the server's configuration (dotted paths, secrets)\n"
           "  store read|write|delete|list      records of a store table\n"
           "  registry list|get <service>       the service registry (and its methods: registry getService ...)\n"
           "  tools                             every MCP tool, with a one-line description\n"
           "  run [--name n] <source>[@ref]     build a folder or repository on the server and run it\n"
           "  update <name|path>                rebuild a run service and swap it in\n"
           "  kill <name>                       stop and remove a run service\n"
           "  status [<name>]                   run services: status, build, updated, owner, errors\n"
           "  logs [-f] [-n lines] <name>       a run service's build output and logs\n"
           "  ask [--agent a] [-c | --thread id] <prompt>   ask the assistant; the conversation carries on\n"
           "  submit [--wait] <prompt>          submit background work (the assistant runs it later)\n"
           "  work get <id> [--wait] | list | retry <id>   background work: status, progress, result\n"
           "  inbox list | read <id> | mark_read <id> | mark_unread <id>   conversations across channels\n"
           "  help <service> [<method>]         describe a service or a method: arguments, verb, access\n"
           "  completion bash|zsh               a shell completion script\n"
           "  login | logout                    log in (tokens kept per environment in PLATFORM_HOME) or out\n"
           "  user [token | set timezone]       the current account, its access token, its settings\n"
           "  signup                            create an account, when the server runs a signup service\n"
           "  auth create|list|delete account|rule|token   manage accounts, access rules, tokens\n"
           "  <service> <method> [--arg v]      call a method; arguments come from its schema\n\n"
           "Options: -e/--env <name>, --output json|table|raw (-o), --help on every command.\n"
           "Environment: PLATFORM_PROXY=host:port (overrides the environment's address for one call),\n"
           "             PLATFORM_ENV (the environment, unless -e), PLATFORM_TOKEN (bearer token sent\n"
           "             instead of the stored login), PLATFORM_HOME (config.json, tokens.json; ~/.platform),\n"
           "             NO_COLOR (no colour even on a terminal).\n"
           "Exit codes: 0 ok, 1 error, 2 usage, 3 not allowed, 4 server unreachable, 5 not found, 6 payment required.\n";
}

}  // namespace platform::cli
