// env_command.cpp — `platform env`: list, get, add, set, del (environments.hpp, docs/cli.md).
#include <iostream>

#include "common.hpp"
#include "credentials.hpp"
#include "environments.hpp"

namespace platform::cli {

using nlohmann::json;

namespace {

const char* kEnvHelp =
    "List the environments (servers the CLI talks to) or change them. The selected one is marked "
    "*.\n\n"
    "Examples:\n"
    "  platform env                                 list; * marks the selected one\n"
    "  platform env add staging 10.0.0.5:8081       add one (name, RPC proxy host:port)\n"
    "  platform env set staging                     select it for later commands\n"
    "  platform env get                             print the selected one's name\n"
    "  platform env del staging                     delete one (not the selected one)\n"
    "  platform -e dev services                     use another one for one command\n\n"
    "Usage: platform env [list | get | add <name> <host:port> [--description text] | set <name> | "
    "del <name>]\n\n"
    "Built in: local (127.0.0.1:8081, selected by default), dev (127.0.0.1:18081, a second server "
    "on\n"
    "this machine), cluster (platform-proxy.platform.svc.cluster.local:8081, from inside a "
    "Kubernetes\n"
    "cluster). Kept in $PLATFORM_HOME/config.json; each environment has its own login.\n"
    "Selected: -e/--env, else PLATFORM_ENV, else `env set`, else local. PLATFORM_PROXY=host:port\n"
    "overrides the address for one invocation.\n";

int list(Format format) {
    const std::string selected = selected_environment();
    auto envs = environments();
    if (format != Format::table) {
        json out = json::array();
        for (const auto& e : envs)
            out.push_back({{"name", e.name},
                           {"address", e.address},
                           {"description", e.description},
                           {"selected", e.name == selected},
                           {"builtin", e.builtin}});
        print(std::cout, out, format);
        return 0;
    }
    size_t name_w = 0, addr_w = 0;
    for (const auto& e : envs) {
        name_w = std::max(name_w, e.name.size());
        addr_w = std::max(addr_w, e.address.size());
    }
    for (const auto& e : envs) {
        const bool on = e.name == selected;
        std::string line = std::string(on ? "* " : "  ") + e.name +
                           std::string(name_w - e.name.size() + 2, ' ') + e.address +
                           std::string(addr_w - e.address.size() + 2, ' ') + e.description;
        std::cout << (on ? paint(std::cout, "32", line) : line) << "\n";
    }
    return 0;
}

}  // namespace

int env_command(const Args& in) {
    return guarded([&]() -> int {
        Args args = in;
        Common c = take_common(args);
        if (c.help) {
            std::cout << kEnvHelp;
            return 0;
        }
        std::string description;
        for (size_t i = 0; i < args.size(); ++i)
            if (args[i] == "--description" && i + 1 < args.size()) {
                description = args[i + 1];
                args.erase(args.begin() + static_cast<long>(i),
                           args.begin() + static_cast<long>(i) + 2);
                break;
            } else if (args[i].rfind("--description=", 0) == 0) {
                description = args[i].substr(14);
                args.erase(args.begin() + static_cast<long>(i));
                break;
            }
        for (const auto& a : args)
            if (a.rfind("-", 0) == 0)
                throw UsageError("Unknown flag: " + a + " (see `platform env --help`)");
        if (args.empty()) args.push_back("list");
        const std::string sub = args[0];
        auto want = [&](size_t n) {
            if (args.size() != n + 1)
                throw UsageError("Usage: platform env " + sub +
                                 (n == 2   ? " <name> <host:port>"
                                  : n == 1 ? " <name>"
                                           : ""));
        };
        try {
            if (sub == "list" || sub == "ls") {
                want(0);
                return list(c.format.value_or(Format::table));
            }
            if (sub == "get") {
                want(0);
                std::cout << selected_environment() << "\n";
                return 0;
            }
            if (sub == "add") {
                want(2);
                add_environment(args[1], args[2], description);
                return 0;
            }
            if (sub == "set") {
                want(1);
                select_environment(args[1]);
                return 0;
            }
            if (sub == "del" || sub == "delete" || sub == "rm") {
                want(1);
                delete_environment(args[1]);
                forget_token(args[1]);  // its login goes with it
                return 0;
            }
        } catch (const EnvError& e) {
            std::cerr << e.message << "\n";
            return e.code;
        } catch (const UsageError&) {
            throw;
        } catch (const std::runtime_error& e) {  // config.json could not be written
            std::cerr << "error: " << e.what() << "\n";
            return 1;
        }
        throw UsageError("Unrecognized subcommand for platform env: " + sub +
                         " (see `platform env --help`)");
    });
}

}  // namespace platform::cli
