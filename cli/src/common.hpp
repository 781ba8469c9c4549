// common.hpp — what every client command shares: the global --output/--help flags, printing a
// server error with its exit code, and turning exceptions into exit codes (DESIGN §2 table).
#pragma once

#include "commands.hpp"
#include "dynamic.hpp"
#include "output.hpp"
#include "rpc_client.hpp"

#include <iostream>
#include <optional>

namespace CLI {
class App;
}

namespace platform::cli {

// Removes `--output X` / `-o X` / `--output=X` and (unless keep_help) `--help` / `-h` from args.
struct Common {
    std::optional<Format> format;  // unset: the command's own default
    bool help = false;
};
Common take_common(Args& args, bool keep_help = false);

// Prints "error: <detail>" (plus a hint to log in for a 401 sent without credentials) and returns
// the exit code for the HTTP status (401/403 -> 3, 404 -> 5, 402 -> 6, otherwise 1).
int report(const RpcResult& r);

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
