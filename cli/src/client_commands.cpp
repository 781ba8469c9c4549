#include "common.hpp"

#include <algorithm>
#include <iostream>
#include <optional>

namespace platform::cli {

using nlohmann::json;

namespace {

// Looks a service up through the registry; nullopt after printing why.
std::optional<ServiceInfo> lookup(const RpcClient& rpc, const std::string& name, int& code) {
    auto r = rpc.call("registry", "Registry.GetService", {{"service", name}});
    if (r.http_status == 403 && r.sent_token)  // a token restricted to other services: descriptors are public
        r = RpcClient(rpc.address(), "").call("registry", "Registry.GetService", {{"service", name}});
    if (r.http_status == 404) {
        std::cerr << "Unknown command or service: " << name << " (see `platform services` and `platform --help`)\n";
        code = 2;
        return std::nullopt;
    }
    if (!r.ok()) {
        code = report(r);
        return std::nullopt;
    }
    return service_info(r.body["services"][0], name);
}

}  // namespace

std::string top_help() {
    return "platform — client and server of the Platform plugin host\n\n"
           "Usage: platform <command> [arguments]\n\n"
           "Commands:\n"
           "  server                        start the host (platform server --help)\n"
           "  services                      list the services the server runs\n"
           "  call <service> <Endpoint> [json]   call an endpoint with a JSON request\n"
           "  help <service> [<method>]     describe a service or one of its methods\n"
           "  login | logout                log in (tokens kept per environment in PLATFORM_HOME) or out\n"
           "  user [token | set timezone]   the current account, its access token, its settings\n"
           "  signup                        create an account, when the server runs a signup service\n"
           "  auth create|list|delete account|rule|token   manage accounts, access rules, tokens\n"
           "  <service> <method> [--arg v]  call a method; arguments come from its schema\n\n"
           "Options: --output json|table, --help on every command.\n"
           "Environment: PLATFORM_PROXY=host:port (server RPC proxy, default 127.0.0.1:8081),\n"
           "             PLATFORM_TOKEN (bearer token sent with every call, before the stored login),\n"
           "             PLATFORM_HOME (tokens.json, default ~/.platform), PLATFORM_ENV (default local).\n"
           "Exit codes: 0 ok, 1 error, 2 usage, 3 not allowed, 4 server unreachable, 5 not found, 6 payment required.\n";
}

int services_command(const Args& in) {
    return guarded([&] {
        Args args = in;
        Common c = take_common(args);
        const Format format = c.format.value_or(Format::table);
        if (c.help) {
            std::cout << "Usage: platform services [--output json|table]\nLists the services the server runs.\n";
            return 0;
        }
        if (!args.empty()) throw UsageError("unexpected argument '" + args[0] + "'");
        RpcClient rpc;
        auto r = rpc.call("registry", "Registry.ListServices", json::object());
        if (!r.ok()) return report(r);
        json rows = json::array();
        for (const auto& s : r.body["services"])
            rows.push_back({{"name", s["name"]}, {"version", s["version"]},
                            {"endpoints", s["endpoints"].size()},
                            {"summary", s.contains("metadata") ? s["metadata"].value("summary", "") : ""}});
        std::sort(rows.begin(), rows.end(), [](const json& a, const json& b) { return a["name"] < b["name"]; });
        print(std::cout, format == Format::json ? r.body : rows, format);
        return 0;
    });
}

int call_command(const Args& in) {
    return guarded([&] {
        Args args = in;
        Common c = take_common(args);
        const Format format = c.format.value_or(Format::json);
        if (c.help || args.size() < 2 || args.size() > 3) {
            std::cout << "Usage: platform call <service> <Endpoint> ['<json request>']\n"
                         "Example: platform call notes Notes.Add '{\"title\":\"a\",\"text\":\"b\"}'\n";
            return c.help ? 0 : 2;
        }
        json request = json::object();
        if (args.size() == 3) {
            request = json::parse(args[2], nullptr, false);
            if (!request.is_object()) throw UsageError("request: must be a JSON object (got '" + args[2] + "')");
        }
        RpcClient rpc;
        auto r = rpc.call(args[0], args[1], request);
        if (!r.ok()) return report(r);
        print(std::cout, r.body, format);
        return 0;
    });
}

int help_command(const Args& in) {
    return guarded([&] {
        if (in.empty()) {
            std::cout << top_help();
            return 0;
        }
        RpcClient rpc;
        int code = 0;
        auto s = lookup(rpc, in[0], code);
        if (!s) return code;
        if (in.size() == 1) {
            std::cout << service_help(*s);
            return 0;
        }
        const MethodInfo* m = find_method(*s, in[1]);
        if (!m) throw UsageError("Unknown method: " + in[1] + " (see `platform help " + in[0] + "`)");
        std::cout << method_help(*s, *m);
        return 0;
    });
}

int dynamic_command(const std::string& service, const Args& in) {
    return guarded([&] {
        Args args = in;
        Common c = take_common(args);
        const Format format = c.format.value_or(Format::json);
        RpcClient rpc;
        int code = 0;
        auto s = lookup(rpc, service, code);
        if (!s) return code;
        if (args.empty() || args[0].rfind("--", 0) == 0) {
            std::cout << service_help(*s);
            return c.help ? 0 : 2;
        }
        const MethodInfo* m = find_method(*s, args[0]);
        if (!m) throw UsageError("Unknown method: " + service + " " + args[0] + " (see `platform " + service + " --help`)");
        if (c.help) {
            std::cout << method_help(*s, *m);
            return 0;
        }
        json request = parse_flags(*m, Args(args.begin() + 1, args.end()));
        auto r = rpc.call(s->name, m->canonical, request);
        if (!r.ok()) return report(r);
        print(std::cout, r.body, format);
        return 0;
    });
}

}  // namespace platform::cli
