// `platform admin reset-secret`: on the server's machine, as its user, sets a new secret for an
// account (admin by default) through the operator credential the running server keeps in
// <PLATFORM_HOME>/keys/operator.json (host operator_console.hpp), and prints it once.
#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <platform/sdk/random.hpp>
#include <sstream>

#include "common.hpp"
#include "state_files.hpp"

namespace platform::cli {

namespace {

using nlohmann::json;

// 24 characters of base64url from the kernel's CSPRNG (144 bits).
std::string new_secret() {
    return platform::random_base64url(18);
}

int reset_secret(const Args& args) {
    std::string home = platform_home(), account = "admin";
    CLI::App app{
        "Set a new secret for an account (admin unless --account) and print it once. Run it on the "
        "server's machine, as the user the server runs as: it reads the credential the running "
        "server keeps in <home>/keys/operator.json. Existing logins of the account stay valid.",
        "platform admin reset-secret"};
    app.add_option("--home", home, "The server's PLATFORM_HOME")->capture_default_str();
    app.add_option("--account", account, "The account whose secret is set")->capture_default_str();
    if (auto code = parse_cli(app, args)) return *code;
    const std::string path = home + "/keys/operator.json";
    std::ifstream in(path);
    if (!in) {
        std::cerr << "error: cannot read " << path << ": " << std::strerror(errno)
                  << (errno == ENOENT ? " (no server is running with PLATFORM_HOME=" + home +
                                            "; start it, or pass --home)"
                                      : " (run this as the user the server runs as)")
                  << "\n";
        return 1;
    }
    std::stringstream text;
    text << in.rdbuf();
    const json credential = json::parse(text.str(), nullptr, false);
    if (!credential.is_object() || !credential["token"].is_string() ||
        !credential["proxy"].is_string()) {
        std::cerr << "error: " << path << " is not the server's operator credential\n";
        return 1;
    }
    const std::string secret = new_secret();
    RpcClient rpc(credential["proxy"], credential["token"]);
    RpcResult r = rpc.call("auth", "changeSecret", {{"id", account}, {"new_secret", secret}});
    if (r.http_status == 401) {
        std::cerr << "error: the server that wrote " << path
                  << " is no longer running (start it again, then retry)\n";
        return 3;
    }
    if (!r.ok()) return report(r);
    std::cout << "New secret for " << account << " (shown only this once):\n\n    " << secret
              << "\n\nSign in with `platform login --id " << account << "`.\n";
    return 0;
}

}  // namespace

int admin_command(const Args& in) {
    return guarded([&] {
        Args args = in;
        take_common(args, true);
        const std::string usage =
            "Usage: platform admin reset-secret [--account id] [--home dir]\n"
            "Operator commands, run on the server's machine as the user the server runs as.\n";
        if (args.empty() || args[0] == "--help" || args[0] == "-h") {
            (args.empty() ? std::cerr : std::cout) << usage;
            return args.empty() ? 2 : 0;
        }
        if (args[0] == "reset-secret") return reset_secret(Args(args.begin() + 1, args.end()));
        std::cerr << "Unknown admin command: " << args[0] << "\n" << usage;
        return 2;
    });
}

}  // namespace platform::cli
