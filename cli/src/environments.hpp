// environments.hpp — where the CLI sends its calls (docs/cli.md, "Environments").
//
// An environment is a name for a server's RPC proxy address. Three are built in:
//
//   local    127.0.0.1:8081    the server on this machine (`platform server`), selected by default
//   dev      127.0.0.1:18081   a second, throw-away server on this machine
//                              (`PLATFORM_HOME=/tmp/dev platform server --proxy_address 127.0.0.1:18081`)
//   cluster  platform-proxy.platform.svc.cluster.local:8081
//                              the proxy Service of a Kubernetes install, from inside the cluster
//
// `platform env add` keeps more in $PLATFORM_HOME/config.json (state_files.hpp):
//
//   {"env": "staging", "envs": {"staging": {"address": "10.0.0.5:8081", "description": "..."}}}
//
// The selected environment is, first found: the -e/--env flag, PLATFORM_ENV, config.json's
// "env", "local". Its address is overridden for one invocation by PLATFORM_PROXY=host:port. Each
// environment has its own login in tokens.json, keyed by its name.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace platform::cli {

struct Environment {
    std::string name, address, description;
    bool builtin = false;
};

// Built-ins and added ones, sorted by name.
std::vector<Environment> environments();
std::optional<Environment> find_environment(const std::string& name);

// The -e/--env flag of this invocation (main); wins over PLATFORM_ENV and the config file.
void set_environment_flag(const std::string& name);
std::string selected_environment();

// PLATFORM_PROXY (normal_address), else the selected environment's address. Throws UsageError
// ("Environment 'x' does not exist") when the selected one is unknown and PLATFORM_PROXY is unset.
std::string selected_address();

// Changes to config.json. Each throws EnvError with the message to print and the exit code.
struct EnvError {
    std::string message;
    int code;  // 1 refused, 2 bad usage, 5 does not exist
};
void add_environment(const std::string& name, const std::string& address,
                     const std::string& description);
void select_environment(const std::string& name);
void delete_environment(const std::string& name);  // not the selected one, not a built-in

// "host:port" with a port 1-65535 and a non-empty host ("[::1]:8081" allowed).
bool valid_address(const std::string& address);

// An address as people write it: "host:port", or "http://host:port" with an optional trailing
// "/" or "/rpc", as "host:port". Throws UsageError naming `what` (e.g. "PLATFORM_PROXY") for
// https:// (the RPC proxy speaks plain HTTP) and anything else.
std::string normal_address(const std::string& text, const std::string& what);

}  // namespace platform::cli
