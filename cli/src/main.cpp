// platform — the command-line client and the server entry (DESIGN §9).
#include "commands.hpp"
#include "credentials.hpp"

#include <iostream>
#include <string>

int main(int argc, char** argv) {
    using namespace platform::cli;
    if (argc < 2) {
        std::cerr << top_help();
        return 2;
    }
    const std::string cmd = argv[1];
    Args rest(argv + 2, argv + argc);
    if (cmd == "--help" || cmd == "-h") {
        std::cout << top_help();
        return 0;
    }
    if (cmd == "server") return server_command(argc - 1, argv + 1);
    install_token_provider();  // PLATFORM_TOKEN, else the stored login (refreshed before expiry)
    // Built-ins come before the dynamic `platform <service> <method>`.
    if (cmd == "login") return login_command(rest);
    if (cmd == "logout") return logout_command(rest);
    if (cmd == "user") return user_command(rest);
    if (cmd == "signup") return signup_command(rest);
    if (cmd == "auth" && is_auth_builtin(rest)) return auth_command(rest);
    if (cmd == "services") return services_command(rest);
    if (cmd == "call") return call_command(rest);
    if (cmd == "help") return help_command(rest);
    if (cmd.rfind("-", 0) == 0) {
        std::cerr << "Unknown flag: " << cmd << "\n" << top_help();
        return 2;
    }
    return dynamic_command(cmd, rest);
}
