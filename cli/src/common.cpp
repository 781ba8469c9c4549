#include "common.hpp"

#include <platform/host/status.hpp>

#include <CLI/CLI.hpp>

#include <csignal>
#include <termios.h>
#include <unistd.h>

namespace platform::cli {

Common take_common(Args& args, bool keep_help) {
    Common c;
    for (size_t i = 0; i < args.size();) {
        const std::string& a = args[i];
        if (!keep_help && (a == "--help" || a == "-h")) {
            c.help = true;
            args.erase(args.begin() + static_cast<long>(i));
        } else if (a == "--output" || a == "-o") {
            if (i + 1 >= args.size()) throw UsageError("--output: needs json or table");
            c.format = parse_format(args[i + 1]);
            args.erase(args.begin() + static_cast<long>(i), args.begin() + static_cast<long>(i) + 2);
        } else if (a.rfind("--output=", 0) == 0) {
            c.format = parse_format(a.substr(9));
            args.erase(args.begin() + static_cast<long>(i));
        } else if (a == "--") {
            break;  // everything after is an argument
        } else {
            ++i;
        }
    }
    return c;
}

int report(const RpcResult& r) {
    std::cerr << "error: " << r.detail();
    if (r.http_status == 401 && !r.sent_token)
        std::cerr << " (not logged in: run `platform login`, or set PLATFORM_TOKEN)";
    std::cerr << "\n";
    return platform::host::cli_exit_for_http(r.http_status);
}

std::optional<int> parse_cli(CLI::App& app, const Args& args) {
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them last first
    try {
        app.parse(reversed);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return 2;
    }
    return std::nullopt;
}

namespace {
termios saved_terminal{};
// Ctrl-C at a password prompt: echo back on, then die of the signal as usual.
extern "C" void restore_terminal_and_raise(int sig) {
    tcsetattr(STDIN_FILENO, TCSANOW, &saved_terminal);
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}
}  // namespace

std::string read_secret_line(const std::string& prompt) {
    std::cerr << prompt << std::flush;
    const bool tty = isatty(STDIN_FILENO) && tcgetattr(STDIN_FILENO, &saved_terminal) == 0;
    using Handler = void (*)(int);
    Handler old_int = nullptr, old_term = nullptr;
    if (tty) {
        old_int = std::signal(SIGINT, restore_terminal_and_raise);
        old_term = std::signal(SIGTERM, restore_terminal_and_raise);
        termios quiet = saved_terminal;
        quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);
        quiet.c_lflag |= ECHONL;
        tcsetattr(STDIN_FILENO, TCSANOW, &quiet);
    }
    std::string line;
    std::getline(std::cin, line);
    if (tty) {
        tcsetattr(STDIN_FILENO, TCSANOW, &saved_terminal);
        std::signal(SIGINT, old_int);
        std::signal(SIGTERM, old_term);
    }
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return line;
}

}  // namespace platform::cli
