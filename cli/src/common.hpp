// common.hpp — what every client command shares: the --output/--help flags, printing a server
// error with its exit code, looking a service up, durations, and turning exceptions into exit
// codes (docs/cli.md, "Exit codes").
#pragma once

#include <initializer_list>
#include <iostream>
#include <optional>
#include <string>

#include "commands.hpp"
#include "dynamic.hpp"
#include "output.hpp"
#include "rpc_client.hpp"

namespace CLI {
class App;
}

namespace platform::cli {

// Removes `--output X` / `-o X` / `--output=X` and (unless keep_help) `--help` / `-h` from args,
// up to a `--`. (-e/--env is taken by main, environments.hpp.)
struct Common {
    std::optional<Format> format;  // unset: the command's own default
    bool help = false;
};
Common take_common(Args& args, bool keep_help = false);

// For a built-in that is also a service (config, store, registry): a first word of args that is
// none of `subcommands` (and no flag) calls the service's method of that name with the original
// arguments `in` (dynamic_command); --help prints `help` (exit 0), no word at all prints it to
// stderr (exit 2). Returns that exit code, or nullopt when args[0] is one of `subcommands`.
std::optional<int> subcommand_or_method(const std::string& service, const Args& in,
                                        const Args& args, const Common& c,
                                        std::initializer_list<const char*> subcommands,
                                        const char* help);

// Prints "error: <detail>" (plus a hint to log in for a 401 sent without credentials) and returns
// the exit code for the HTTP status (401/403 -> 3, 404 -> 5, 402 -> 6, otherwise 1).
int report(const RpcResult& r);
// The same, except that a 404 (a missing key or path) prints only "Not found" (exit 5).
int report_missing(const RpcResult& r);

// The registry's descriptor of a service ("notes", "registry", or a full name), through
// Registry.GetService (retried as a read); a short name is the catalogue's v1.<name> when there
// is one, else the built-in of that name. nullopt after printing why, with `code` set: 2 for an
// unknown service ("Unknown command or service: x"), else the server error's code.
std::optional<ServiceInfo> lookup_service(const RpcClient& rpc, const std::string& name, int& code);

// A Go-style duration as seconds: "5s", "1m30s", "250ms", "2h", "1.5s"; a bare number is seconds.
// Throws UsageError naming `flag` for anything else or a negative value.
double parse_duration(const std::string& flag, const std::string& text);

// The `key=value` of a --metadata flag; throws UsageError without '=' or with an empty key.
std::pair<std::string, std::string> parse_metadata(const std::string& text);

// Parses args (the words after the command) with a CLI11 app. nullopt when parsed; otherwise the
// exit code after printing help (0) or the usage error (2).
std::optional<int> parse_cli(CLI::App& app, const Args& args);

// Reads a line from the terminal without echoing it (for passwords and tokens).
std::string read_secret_line(const std::string& prompt);

// Runs f, mapping UsageError -> 2 and Unreachable -> 4 after printing the message.
template <class F>
int guarded(F&& f) {
    try {
        return f();
    } catch (const UsageError& e) {
        std::cerr << e.what() << "\n";
        return 2;
    } catch (const Unreachable& e) {
        std::cerr << e.what() << "\n";
        return 4;
    }
}

}  // namespace platform::cli
