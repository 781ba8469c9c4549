#include "common.hpp"

#include <termios.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <csignal>
#include <map>
#include <platform/host/core/status.hpp>
#include <regex>

namespace platform::cli {

using nlohmann::json;

Common take_common(Args& args, bool keep_help) {
    Common c;
    for (size_t i = 0; i < args.size();) {
        const std::string& a = args[i];
        if (!keep_help && (a == "--help" || a == "-h")) {
            c.help = true;
            args.erase(args.begin() + static_cast<long>(i));
        } else if (a == "--output" || a == "-o") {
            if (i + 1 >= args.size()) throw UsageError("--output: needs json, table or raw");
            c.format = parse_format(args[i + 1]);
            args.erase(args.begin() + static_cast<long>(i),
                       args.begin() + static_cast<long>(i) + 2);
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

std::optional<int> subcommand_or_method(const std::string& service, const Args& in,
                                        const Args& args, const Common& c,
                                        std::initializer_list<const char*> subcommands,
                                        const char* help) {
    const std::string sub = args.empty() ? "" : args[0];
    bool builtin = false;
    for (const char* s : subcommands) builtin = builtin || sub == s;
    if (!builtin && !sub.empty() && sub.rfind("-", 0) != 0) return dynamic_command(service, in);
    if (c.help || sub.empty()) {
        (c.help ? std::cout : std::cerr) << help;
        return c.help ? 0 : 2;
    }
    return std::nullopt;
}

int report(const RpcResult& r) {
    std::cerr << paint(std::cerr, "31", "error:") << " " << r.detail();
    if (r.http_status == 401 && !r.sent_token)
        std::cerr << " (not logged in: run `platform login`, or set PLATFORM_TOKEN)";
    std::cerr << "\n";
    return platform::host::cli_exit_for_http(r.http_status);
}

int report_missing(const RpcResult& r) {
    if (r.http_status == 404) {
        std::cerr << "Not found\n";
        return 5;
    }
    return report(r);
}

std::optional<ServiceInfo> lookup_service(const RpcClient& rpc, const std::string& name,
                                          int& code) {
    auto get = [&rpc](const std::string& service) {
        const json request = {{"service", service}};
        auto r = rpc.call("registry", "Registry.GetService", request, CallOptions::reads());
        if (r.http_status == 403 &&
            r.sent_token)  // a token restricted to other services: descriptors are public
            r = RpcClient(rpc.address(), "")
                    .call("registry", "Registry.GetService", request, CallOptions::reads());
        return r;
    };
    // A short name is the catalogue's service first (docs/decisions.md 3: `platform events` is the
    // catalogue's reminders, not the built-in event stream), else the built-in of that name.
    auto r = name.find('.') == std::string::npos ? get("v1." + name) : get(name);
    if (r.http_status == 404 && name.find('.') == std::string::npos) r = get(name);
    if (r.http_status == 404) {
        std::cerr << "Unknown command or service: " << name
                  << " (see `platform services` and `platform --help`)\n";
        code = 2;
        return std::nullopt;
    }
    if (!r.ok()) {
        code = report(r);
        return std::nullopt;
    }
    return service_info(r.body["services"][0], name);
}

double parse_duration(const std::string& flag, const std::string& text) {
    static const std::regex whole(R"(([0-9]+(\.[0-9]*)?|\.[0-9]+)(ns|us|µs|ms|s|m|h)?)");
    static const std::regex part(R"(([0-9]+(\.[0-9]*)?|\.[0-9]+)(ns|us|µs|ms|s|m|h))");
    auto bad = [&] {
        return UsageError(flag + ": must be a duration like 5s, 1m30s or 250ms (got '" + text +
                          "')");
    };
    if (std::regex_match(text, whole)) {  // one number, unit optional (seconds)
        std::smatch m;
        std::regex_match(text, m, whole);
        if (!m[3].matched) return std::stod(m[1].str());
    }
    static const std::map<std::string, double> unit = {
        {"ns", 1e-9}, {"us", 1e-6}, {"µs", 1e-6}, {"ms", 1e-3}, {"s", 1}, {"m", 60}, {"h", 3600}};
    double total = 0;
    size_t consumed = 0;
    for (std::sregex_iterator it(text.begin(), text.end(), part), end; it != end; ++it) {
        if (static_cast<size_t>(it->position()) != consumed) throw bad();
        total += std::stod((*it)[1].str()) * unit.at((*it)[3].str());
        consumed += static_cast<size_t>(it->length());
    }
    if (text.empty() || consumed != text.size()) throw bad();
    return total;
}

std::pair<std::string, std::string> parse_metadata(const std::string& text) {
    auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0)
        throw UsageError("--metadata: must be key=value (got '" + text + "')");
    return {text.substr(0, eq), text.substr(eq + 1)};
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
