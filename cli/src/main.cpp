// platform — the command-line client and the server entry (docs/cli.md).
#include <platform/abi.h>

#include <iostream>
#include <map>
#include <platform/host/http/gateway.hpp>
#include <string>

#include "commands.hpp"
#include "common.hpp"
#include "credentials.hpp"
#include "environments.hpp"

namespace {

using namespace platform::cli;

using Command = int (*)(const Args&);

// Built-ins come before the dynamic `platform <service> <method>`. `auth`, `config`, `store` and
// `registry` hand words they do not know to the service's methods.
const std::map<std::string, Command>& builtins() {
    static const std::map<std::string, Command> table = {
        {"login", login_command},       {"logout", logout_command},
        {"user", user_command},         {"signup", signup_command},
        {"services", services_command}, {"call", call_command},
        {"env", env_command},           {"config", config_command},
        {"store", store_command},       {"registry", registry_command},
        {"tools", tools_command},       {"completion", completion_command},
        {"run", run_command},           {"update", update_command},
        {"kill", kill_command},         {"status", status_command},
        {"logs", logs_command},         {"ask", ask_command},
        {"submit", submit_command},     {"work", work_command},
        {"inbox", inbox_command},       {"admin", admin_command},
    };
    return table;
}

// Takes `-e X`, `--env X`, `--env=X` out of args[from, to); UsageError without a name.
void take_env(Args& args, size_t from, size_t to, bool short_only) {
    for (size_t i = from; i < to && i < args.size();) {
        const std::string a = args[i];
        if (a == "--") return;
        if (a == "-e" || (!short_only && a == "--env")) {
            if (i + 1 >= args.size() || args[i + 1].empty())
                throw UsageError(a + ": needs an environment name");
            set_environment_flag(args[i + 1]);
            args.erase(args.begin() + static_cast<long>(i),
                       args.begin() + static_cast<long>(i) + 2);
            to -= 2;
        } else if (!short_only && a.rfind("--env=", 0) == 0) {
            set_environment_flag(a.substr(6));
            args.erase(args.begin() + static_cast<long>(i));
            --to;
        } else {
            ++i;
        }
    }
}

int run(Args args) {
    // Global options before the command: -e/--env, -o/--output (passed on to the command), --help.
    Args global;
    while (!args.empty() && args[0].rfind("-", 0) == 0 && args[0] != "--help" && args[0] != "-h") {
        const std::string a = args[0];
        if (a == "-e" || a == "--env" || a.rfind("--env=", 0) == 0) {
            take_env(args, 0, 1, false);
        } else if ((a == "-o" || a == "--output") && args.size() > 1) {
            global = {a, args[1]};
            args.erase(args.begin(), args.begin() + 2);
        } else if (a.rfind("--output=", 0) == 0) {
            global = {a};
            args.erase(args.begin());
        } else if (a == "--version" || a == "-V") {
            std::cout << "platform " << platform::host::platform_version() << " (plugin ABI "
                      << PLATFORM_ABI_MAJOR << "." << PLATFORM_ABI_MINOR << ")\n";
            return 0;
        } else {
            std::cerr << "Unknown flag: " << a << " (platform --help lists the options)\n";
            return 2;
        }
    }
    if (args.empty()) {
        std::cerr << top_help();
        return 2;
    }
    const std::string cmd = args[0];
    if (cmd == "--help" || cmd == "-h") {
        std::cout << top_help();
        return 0;
    }
    Args rest(args.begin() + 1, args.end());
    const bool dynamic = !builtins().count(cmd) && cmd != "help" && cmd != "auth";
    // After the command word: both forms for built-ins; only -e for `<service> <method>`, whose
    // --env may be the method's own argument.
    take_env(rest, 0, rest.size(), dynamic);
    rest.insert(rest.end(), global.begin(), global.end());
    install_token_provider();  // PLATFORM_TOKEN, else the stored login (refreshed before expiry)
    if (cmd == "help") {
        if (rest.size() == 1 && (builtins().count(rest[0]) || rest[0] == "auth"))
            return run({rest[0], "--help"});
        return help_command(rest);
    }
    if (cmd == "auth" && is_auth_builtin(rest)) return auth_command(rest);
    if (cmd == "chat" && is_chat_builtin(rest)) return chat_command(rest);
    if (cmd == "mail" && is_mail_builtin(rest)) return mail_command(rest);
    if (auto it = builtins().find(cmd); it != builtins().end()) return it->second(rest);
    return dynamic_command(cmd, rest);
}

}  // namespace

int main(int argc, char** argv) {
    using namespace platform::cli;
    if (argc >= 2 && std::string(argv[1]) == "server") return server_command(argc - 1, argv + 1);
    try {
        return run(Args(argv + 1, argv + argc));
    } catch (const UsageError& e) {
        std::cerr << e.what() << "\n";
        return 2;
    }
}
