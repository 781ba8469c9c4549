// auth_commands.cpp — `platform auth create|list|delete account|rule|token` in micro's spellings
// (flags such as `--resource type:name:endpoint`, replies such as `Rule created`), calling the
// `auth` service (docs/identity.md). Other words after `platform auth` stay the dynamic
// `platform auth <method> --arg value`.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <ctime>
#include <set>
#include <sstream>

#include "common.hpp"

namespace platform::cli {

using nlohmann::json;

namespace {

std::vector<std::string> split_list(const std::vector<std::string>& values) {
    std::vector<std::string> out;
    for (const auto& v : values) {
        std::stringstream ss(v);
        for (std::string item; std::getline(ss, item, ',');)
            if (!item.empty()) out.push_back(item);
    }
    return out;
}

std::string upper(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), ::toupper);
    return s;
}

bool is_time_key(const std::string& k) {
    static const std::set<std::string> keys{"created",    "expiry",    "expires",
                                            "expires_at", "last_used", "updated"};
    return keys.count(k) > 0;
}

std::string text_of(const std::string& key, const json& v) {
    if (v.is_null()) return is_time_key(key) ? "never" : "";
    if (v.is_string()) return v.get<std::string>();
    if (v.is_array()) {
        std::string out;
        for (const auto& x : v) out += (out.empty() ? "" : ",") + text_of("", x);
        return out;
    }
    if (v.is_object()) {
        std::string out;
        for (const auto& [k, x] : v.items())
            out += (out.empty() ? "" : ",") + k + "=" + text_of("", x);
        return out;
    }
    if (v.is_number() && is_time_key(key)) {
        const auto t = static_cast<std::time_t>(v.get<double>());
        if (t <= 0) return "never";
        char buf[32];
        std::tm tm{};
        gmtime_r(&t, &tm);
        std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
        return buf;
    }
    return v.dump();
}

// The array under `key` in a list answer (or the answer itself when it is one).
json rows_of(const json& body, const char* key) {
    if (body.is_array()) return body;
    if (body.is_object() && body.contains(key) && body[key].is_array()) return body[key];
    return json::array();
}

// A table of `rows` with `preferred` columns first (those present), then any other keys in name
// order, never the `hidden` ones.
void print_rows(const json& rows, const std::vector<std::string>& preferred,
                const std::set<std::string>& hidden,
                const std::function<std::string(const std::string&, const json&)>& cell = text_of) {
    std::vector<std::string> cols;
    for (const auto& c : preferred)
        if (std::any_of(rows.begin(), rows.end(),
                        [&](const json& r) { return r.is_object() && r.contains(c); }))
            cols.push_back(c);
    std::set<std::string> rest;
    for (const auto& r : rows)
        if (r.is_object())
            for (const auto& [k, _] : r.items())
                if (!hidden.count(k) && std::find(cols.begin(), cols.end(), k) == cols.end())
                    rest.insert(k);
    cols.insert(cols.end(), rest.begin(), rest.end());
    if (cols.empty()) cols = preferred;
    std::vector<std::vector<std::string>> cells;
    for (const auto& r : rows) {
        std::vector<std::string> line;
        for (const auto& c : cols)
            line.push_back(r.is_object() && r.contains(c) ? cell(c, r[c]) : "");
        cells.push_back(std::move(line));
    }
    std::vector<std::string> headers;
    for (auto c : cols) {
        std::replace(c.begin(), c.end(), '_', ' ');
        headers.push_back(c);
    }
    print_table(std::cout, headers, cells);
}

std::string rule_cell(const std::string& key, const json& v) {
    if (key == "scope" && v.is_string() && v.get<std::string>().empty()) return "<public>";
    if (key == "resource" && v.is_object())
        return v.value("type", "*") + ":" + v.value("name", "*") + ":" + v.value("endpoint", "*");
    if (key == "access" && v.is_string()) return upper(v.get<std::string>());
    return text_of(key, v);
}

// Prints the answer as JSON/table when asked, else the message. Returns 0.
int done(const Common& c, const json& body, const std::string& message) {
    if (c.format)
        print(std::cout, body, *c.format);
    else
        std::cout << message << "\n";
    return 0;
}

const char* kFooter =
    "Global options: --output json|table\n"
    "Other words call the auth service's methods directly: platform auth <method> --arg value\n"
    "(see `platform help auth`).";

}  // namespace

bool is_auth_builtin(const Args& in) {
    Args args = in;
    try {
        take_common(args, true);
    } catch (const UsageError&) {
        return true;  // let the built-in report it
    }
    if (args.empty()) return true;
    const std::string& w = args[0];
    return w == "create" || w == "list" || w == "delete" || w == "--help" || w == "-h";
}

int auth_command(const Args& in) {
    return guarded([&]() -> int {
        Args args = in;
        Common c = take_common(args, true);
        CLI::App app{"Accounts, rules and tokens of the auth service (micro's `auth` commands).",
                     "platform auth"};
        app.footer(kFooter);
        app.require_subcommand(1);
        auto* create =
            app.add_subcommand("create", "Create an account, rule or token")->require_subcommand(1);
        auto* list =
            app.add_subcommand("list", "List accounts, rules or tokens")->require_subcommand(1);
        auto* del =
            app.add_subcommand("delete", "Delete an account, rule or token")->require_subcommand(1);
        for (auto* sub : {create, list, del}) sub->footer(kFooter);

        // create account <id> [--secret S] [--scopes a,b] [--name N] [--type user|service]
        std::string acc_id, acc_secret, acc_name, acc_type;
        std::vector<std::string> acc_scopes;
        auto* create_account = create->add_subcommand(
            "account", "Create an account (admin); prints a generated secret once");
        create_account->add_option("id", acc_id, "Account id")->required();
        create_account->add_option("--secret", acc_secret,
                                   "Secret (generated and printed once when omitted)");
        create_account->add_option("--scopes", acc_scopes, "Scopes, comma-separated (e.g. admin)")
            ->delimiter(',');
        create_account->add_option("--name", acc_name, "Display name (default: the id)");
        create_account->add_option("--type", acc_type, "user or service (default user)")
            ->check(CLI::IsMember({"user", "service"}));

        // create rule <id> --scope S --resource type:name:endpoint [--access granted|denied] [--priority N]
        std::string rule_id, rule_scope, rule_resource, rule_access = "granted";
        int rule_priority = 0;
        auto* create_rule = create->add_subcommand("rule", "Create an access rule (admin)");
        create_rule->add_option("id", rule_id, "Rule id")->required();
        create_rule
            ->add_option(
                "--scope", rule_scope,
                "Scope: <public> (anyone), * (any account), + (any issuer) or a scope name")
            ->required();
        create_rule
            ->add_option("--resource", rule_resource,
                         "type:name:endpoint, * for any part (service:notes:*)")
            ->required();
        create_rule->add_option("--access", rule_access, "granted or denied")
            ->capture_default_str();
        create_rule->add_option("--priority", rule_priority, "Higher decides first")
            ->capture_default_str();

        // create token [--name N] [--services a,b] [--capabilities agent,work] [--kind personal|services] [--expiry_days N]
        std::string tok_name, tok_kind;
        std::vector<std::string> tok_services, tok_caps;
        int tok_days = 0;
        auto* create_token = create->add_subcommand(
            "token", "Create a personal token for your account; prints it once");
        create_token->add_option("--name", tok_name, "A label for the token");
        create_token
            ->add_option("--services", tok_services,
                         "Services it may call, comma-separated (default: every)")
            ->delimiter(',');
        create_token
            ->add_option("--capabilities", tok_caps,
                         "Capabilities: agent, work, inbox, actions (comma-separated)")
            ->delimiter(',');
        create_token
            ->add_option("--kind", tok_kind,
                         "personal or services (services: catalogue services only)")
            ->check(CLI::IsMember({"personal", "services"}));
        create_token->add_option("--expiry_days,--expiry-days", tok_days,
                                 "Lifetime in days (default: the server's)");

        auto* list_accounts = list->add_subcommand("accounts", "List accounts (admin)");
        auto* list_rules = list->add_subcommand("rules", "List access rules (admin)");
        auto* list_tokens =
            list->add_subcommand("tokens", "List your tokens (never their secrets)");

        std::string del_id;
        auto* delete_account =
            del->add_subcommand("account", "Delete an account (admin; not your own)");
        auto* delete_rule = del->add_subcommand("rule", "Delete an access rule (admin)");
        auto* delete_token = del->add_subcommand("token", "Delete (revoke) one of your tokens");
        for (auto* sub : {delete_account, delete_rule, delete_token})
            sub->add_option("id", del_id, "Its id")->required();
        for (auto* sub : {create_account, create_rule, create_token, list_accounts, list_rules,
                          list_tokens, delete_account, delete_rule, delete_token})
            sub->footer("Global options: --output json|table");

        if (auto code = parse_cli(app, args)) return *code;
        RpcClient rpc;

        if (*create_account) {
            json request{{"id", acc_id}};
            if (!acc_secret.empty()) request["secret"] = acc_secret;
            if (auto s = split_list(acc_scopes); !s.empty()) request["scopes"] = s;
            if (!acc_name.empty()) request["name"] = acc_name;
            if (!acc_type.empty()) request["type"] = acc_type;
            auto r = rpc.call("auth", "createAccount", request);
            if (!r.ok()) return report(r);
            if (c.format) return done(c, r.body, "");
            const json account = r.body.value("account", json::object());
            std::cout << "Account created: " << account.value("id", acc_id) << "\n";
            if (acc_secret.empty() && r.body.contains("secret") && r.body["secret"].is_string()) {
                std::cout << "Secret: " << r.body["secret"].get<std::string>() << "\n";
                std::cerr << "Keep the secret now: it is not shown again.\n";
            }
            return 0;
        }
        if (*create_rule) {
            const std::string access = upper(rule_access);
            if (access != "GRANTED" && access != "DENIED")
                throw UsageError("Invalid access: " + rule_access + ", must be granted or denied");
            if (std::count(rule_resource.begin(), rule_resource.end(), ':') < 2 ||
                rule_resource.front() == ':')
                throw UsageError("Invalid resource, must be in the format type:name:endpoint");
            const std::string scope = rule_scope.empty() ? "<public>" : rule_scope;
            auto r = rpc.call("auth", "createRule",
                              {{"id", rule_id},
                               {"scope", scope},
                               {"resource", rule_resource},
                               {"access", access},
                               {"priority", rule_priority}});
            if (!r.ok()) return report(r);
            return done(c, r.body, "Rule created");
        }
        if (*create_token) {
            json request = json::object();
            if (!tok_name.empty()) request["name"] = tok_name;
            if (!tok_kind.empty()) request["kind"] = tok_kind;
            if (auto s = split_list(tok_services); !s.empty()) request["services"] = s;
            if (auto s = split_list(tok_caps); !s.empty()) request["capabilities"] = s;
            if (tok_days > 0) request["expiry_days"] = tok_days;
            auto r = rpc.call("auth", "createToken", request);
            if (!r.ok()) return report(r);
            if (c.format) return done(c, r.body, "");
            std::cout << "Token created: " << text_of("id", r.body.value("id", json(""))) << "\n";
            std::cout << "Token: " << r.body.value("token", "") << "\n";
            std::cerr << "Keep the token now: it is not shown again.\n";
            return 0;
        }
        auto listing = [&](const char* method, const char* key,
                           const std::vector<std::string>& columns,
                           const std::set<std::string>& hidden, auto cell) {
            auto r = rpc.call("auth", method, json::object());
            if (!r.ok()) return report(r);
            if (c.format == Format::json) {
                print(std::cout, r.body, Format::json);
                return 0;
            }
            print_rows(rows_of(r.body, key), columns, hidden, cell);
            return 0;
        };
        if (*list_accounts)
            return listing("listAccounts", "accounts",
                           {"id", "name", "type", "issuer", "scopes", "metadata"},
                           {"secret", "hash", "secret_hash"}, text_of);
        if (*list_rules)
            return listing("listRules", "rules", {"id", "scope", "access", "resource", "priority"},
                           {}, rule_cell);
        if (*list_tokens)
            return listing("listTokens", "tokens",
                           {"id", "name", "kind", "services", "capabilities", "created", "expiry",
                            "expires", "last_used"},
                           {"token", "hash", "secret"}, text_of);

        auto removal = [&](const char* method, const char* message) {
            auto r = rpc.call("auth", method, {{"id", del_id}});
            if (!r.ok()) return report(r);
            return done(c, r.body, message);
        };
        if (*delete_account) return removal("deleteAccount", "Account deleted");
        if (*delete_rule) return removal("deleteRule", "Rule deleted");
        if (*delete_token) return removal("deleteToken", "Token deleted");
        return 2;
    });
}

}  // namespace platform::cli
