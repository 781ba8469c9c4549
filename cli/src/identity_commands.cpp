// identity_commands.cpp — `platform login`, `logout`, `user`, `signup` (docs/identity.md).
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <platform/sdk/text.hpp>

#include "common.hpp"
#include "credentials.hpp"

namespace platform::cli {

using nlohmann::json;

namespace {

const char* kGlobalFooter = "Global options: --output json|table";

std::string trim(std::string s) {
    const char* ws = " \t\r\n";
    s.erase(0, s.find_first_not_of(ws));
    s.erase(s.find_last_not_of(ws) + 1);
    return s;
}

using platform::lower;

bool stdin_is_terminal() {
    return isatty(STDIN_FILENO) != 0;
}

void warn_if_env_token() {
    if (const char* v = std::getenv("PLATFORM_TOKEN"); v && *v)
        std::cerr << "note: PLATFORM_TOKEN is set and is sent instead of the stored login\n";
}

int store_and_greet(const StoredToken& t) {
    try {
        store_token(t);
    } catch (const std::exception& e) {
        std::cerr << "error: " << e.what() << "\n";
        return 1;
    }
    std::cout << "Logged in as " << t.account << "\n";
    warn_if_env_token();
    return 0;
}

// `echo $T | platform login --token`: a token is checked with auth.inspect and stored as is.
int login_with_token() {
    std::string token;
    if (stdin_is_terminal()) {
        token = read_secret_line("Enter token: ");
    } else {
        token.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    }
    token = trim(token);
    if (token.empty())
        throw UsageError("login --token: no token on stdin (echo $TOKEN | platform login --token)");
    RpcClient anonymous(default_address(), "");
    auto r = anonymous.call("auth", "inspect", {{"token", token}});
    if (!r.ok()) return report(r);
    const json& identity =
        r.body.contains("account") && r.body["account"].is_object() ? r.body["account"] : r.body;
    StoredToken t;
    t.access_token = token;
    t.account = identity.value("id", "");
    if (auto exp = jwt_claim(token, "exp"); exp && exp->is_number()) t.expiry = exp->get<int64_t>();
    if (t.account.empty()) {
        std::cerr << "error: the server did not name the token's account\n";
        return 1;
    }
    return store_and_greet(t);
}

int login_with_secret(std::string username, std::string password, int expiry) {
    if (username.empty()) {
        if (!stdin_is_terminal())
            throw UsageError(
                "login: --username and --password are needed when stdin is not a terminal "
                "(or --token to read a token from stdin)");
        std::cerr << "Enter username: " << std::flush;
        std::getline(std::cin, username);
        username = trim(username);
    }
    if (username.empty()) throw UsageError("login: a username is required");
    if (password.empty()) {
        if (stdin_is_terminal()) {
            password = read_secret_line("Enter password: ");
        } else {
            std::getline(std::cin,
                         password);  // `printf '%s\n' "$SECRET" | platform login --username x`
            if (!password.empty() && password.back() == '\r') password.pop_back();
        }
    }
    if (password.empty()) throw UsageError("login: a password is required");
    RpcClient anonymous(default_address(), "");
    auto attempt = [&](const char* key) {
        json request{{key, username}, {"secret", password}};
        if (expiry > 0) request["token_expiry"] = expiry;
        return anonymous.call("auth", "token", request);
    };
    auto r = attempt("id");  // an account id first, then the name
    if (!r.ok() && r.http_status >= 400 && r.http_status < 500) {
        auto by_name = attempt("name");
        if (by_name.ok() || r.http_status == 404 ||
            lower(r.detail()).find("not found") != std::string::npos)
            r = by_name;
    }
    if (!r.ok()) return report(r);
    StoredToken t = token_from_response(r.body);
    if (t.access_token.empty()) {
        std::cerr << "error: the server answered no access token\n";
        return 1;
    }
    if (t.account.empty()) t.account = username;
    return store_and_greet(t);
}

const json& account_of(const json& body) {
    return body.contains("account") && body["account"].is_object() ? body["account"] : body;
}

}  // namespace

int login_command(const Args& in) {
    return guarded([&] {
        Args args = in;
        take_common(args, true);
        CLI::App app{
            "Log in to the server of the current environment (PLATFORM_ENV, default local) and "
            "keep\n"
            "the tokens in $PLATFORM_HOME/tokens.json. Without flags it prompts for them.",
            "platform login"};
        std::string username, password;
        bool token = false;
        int expiry = 0;
        app.add_option("--username,--email,--id", username, "Account id or name");
        app.add_option("--password,--secret", password,
                       "Account secret (prompted without echo when omitted)");
        app.add_flag("--token", token,
                     "Read an access or personal token from stdin instead: echo $T | platform "
                     "login --token");
        app.add_option("--expiry", expiry, "Access token lifetime in seconds")
            ->group("");  // hidden, for tests
        app.footer(
            "Examples:\n  platform login\n  platform login --username admin --password "
            "\"$SECRET\"\n"
            "  echo \"$TOKEN\" | platform login --token");
        if (auto code = parse_cli(app, args)) return *code;
        if (token) {
            if (!username.empty() || !password.empty())
                throw UsageError("login: --token takes no --username or --password");
            return login_with_token();
        }
        return login_with_secret(username, password, expiry);
    });
}

int logout_command(const Args& in) {
    return guarded([&] {
        Args args = in;
        take_common(args, true);
        CLI::App app{
            "Log out: revoke the stored refresh token and forget the tokens of this environment.",
            "platform logout"};
        if (auto code = parse_cli(app, args)) return *code;
        auto t = load_token();
        if (!t) {
            std::cout << "Not logged in\n";
            return 0;
        }
        if (!t->refresh_token.empty()) {
            try {  // best effort: the stored entry goes whatever the server says
                RpcClient(default_address(), t->access_token)
                    .call("auth", "revoke", {{"refresh_token", t->refresh_token}});
            } catch (const std::exception&) {
            }
        }
        try {
            forget_token();
        } catch (const std::exception& e) {
            std::cerr << "error: " << e.what() << "\n";
            return 1;
        }
        std::cout << "Logged out\n";
        return 0;
    });
}

int user_command(const Args& in) {
    return guarded([&] {
        Args args = in;
        Common c = take_common(args, true);
        CLI::App app{"The account you are logged in as.", "platform user"};
        app.footer(kGlobalFooter);
        auto* token = app.add_subcommand(
            "token", "Print the bare access token (refreshed first), for scripts");
        auto* set = app.add_subcommand("set", "Change a setting of your account");
        set->require_subcommand(1);
        std::string timezone;
        auto* tz =
            set->add_subcommand("timezone", "Set your timezone (IANA name, e.g. Europe/London)");
        tz->add_option("timezone", timezone, "IANA timezone name")->required();
        if (auto code = parse_cli(app, args)) return *code;

        if (*token) {
            std::string t = bearer_token();
            if (t.empty()) {
                std::cerr << "not logged in: run `platform login` (or set PLATFORM_TOKEN)\n";
                return 3;
            }
            std::cout << t << "\n";
            return 0;
        }
        RpcClient rpc;
        if (*tz) {
            auto r = rpc.call("auth", "setTimezone", {{"timezone", timezone}});
            if (!r.ok()) return report(r);
            if (c.format)
                print(std::cout, r.body, *c.format);
            else
                std::cout << "Timezone set to " << timezone << "\n";
            return 0;
        }
        auto r = rpc.call("auth", "me", json::object());
        if (!r.ok()) return report(r);
        const json& account = account_of(r.body);
        if (c.format)
            print(std::cout, account, *c.format);
        else
            std::cout << account.value("id", "") << "\n";
        return 0;
    });
}

int signup_command(const Args& in) {
    return guarded([&] {
        Args args = in;
        Common c = take_common(args, true);
        const bool help = std::find(args.begin(), args.end(), "--help") != args.end() ||
                          std::find(args.begin(), args.end(), "-h") != args.end();
        RpcClient rpc;
        auto r = rpc.call("registry", "Registry.GetService", {{"service", "signup"}});
        if (r.http_status == 404) {
            if (help) {
                std::cout
                    << "Usage: platform signup [<method>] [--argument value ...]\n"
                       "Creates an account through the server's signup service, when one runs.\n";
                return 0;
            }
            std::cerr << "signup is not available: no signup service runs on this server\n";
            return 5;
        }
        if (!r.ok()) return report(r);
        // A signup service runs: its methods are called like any service's. A bare `platform
        // signup` calls its `signup` method when it has one, else shows its help.
        const ServiceInfo s = service_info(r.body["services"][0], "signup");
        Args forwarded = args;
        if ((forwarded.empty() || forwarded[0].rfind("-", 0) == 0) && find_method(s, "signup"))
            forwarded.insert(forwarded.begin(), "signup");
        if (c.format)
            forwarded.insert(forwarded.end(),
                             {"--output", *c.format == Format::json ? "json" : "table"});
        return dynamic_command("signup", forwarded);
    });
}

}  // namespace platform::cli
