// client_commands.cpp — `platform services`, `call`, `help <service> [<method>]` and the dynamic
// `platform <service> <method> --arg value` (docs/cli.md).
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "common.hpp"

namespace platform::cli {

using nlohmann::json;

int services_command(const Args& in) {
    return guarded([&] {
        Args args = in;
        Common c = take_common(args);
        const Format format = c.format.value_or(Format::table);
        if (c.help) {
            std::cout << "List the services the server runs.\n\n"
                         "Examples:\n  platform services\n  platform services -o json | jq "
                         "'.services[].name'\n\n"
                         "Usage: platform services [--output table|json|raw]\n";
            return 0;
        }
        if (!args.empty()) throw UsageError("unexpected argument '" + args[0] + "'");
        RpcClient rpc;
        auto r =
            rpc.call("registry", "Registry.ListServices", json::object(), CallOptions::reads());
        if (!r.ok()) return report(r);
        json rows = json::array();
        for (const auto& s : r.body["services"])
            rows.push_back(
                {{"name", s["name"]},
                 {"version", s["version"]},
                 {"endpoints", s["endpoints"].size()},
                 {"summary", s.contains("metadata") ? s["metadata"].value("summary", "") : ""}});
        std::sort(rows.begin(), rows.end(),
                  [](const json& a, const json& b) { return a["name"] < b["name"]; });
        if (format != Format::table)
            return print(std::cout, format == Format::json ? r.body : rows, format), 0;
        std::vector<std::vector<std::string>> table;  // the columns in this order, not the keys'
        for (const auto& row : rows)
            table.push_back({row["name"].get<std::string>(), row["version"].get<std::string>(),
                             std::to_string(row["endpoints"].get<size_t>()),
                             row["summary"].get<std::string>()});
        print_table(std::cout, {"NAME", "VERSION", "ENDPOINTS", "SUMMARY"}, table);
        return 0;
    });
}

namespace {

// `--text @notes.md` reads the file, `--text -` reads stdin (once), `@@x` is the text "@x".
ValueReader flag_file_reader() {
    auto stdin_used = std::make_shared<std::string>();
    return [stdin_used](const std::string& flag, const std::string& value) -> std::string {
        if (value == "-") {
            if (!stdin_used->empty())
                throw UsageError("--" + flag + ": stdin was read already by --" + *stdin_used);
            *stdin_used = flag;
            std::ostringstream all;
            all << std::cin.rdbuf();
            return all.str();
        }
        if (value.rfind("@@", 0) == 0) return value.substr(1);
        if (value.size() < 2 || value[0] != '@') return value;
        std::ifstream in(value.substr(1), std::ios::binary);
        if (!in)
            throw UsageError("--" + flag + ": cannot read " + value.substr(1) + ": " +
                             std::strerror(errno) + " (@@ starts a value with a literal @)");
        std::ostringstream all;
        all << in.rdbuf();
        return all.str();
    };
}

const char* kCallHelp =
    "Call an endpoint with a JSON request.\n\n"
    "Examples:\n"
    "  platform call notes Notes.Add '{\"title\":\"a\",\"text\":\"b\"}'\n"
    "  platform call --request_timeout 30s registry Registry.ListServices\n"
    "  platform call --metadata X-Request-Id=abc notes Notes.List -o raw\n\n"
    "Usage: platform call [flags] <service> <Endpoint> ['<json request>']\n\n"
    "Flags:\n"
    "  --metadata key=value          send a request header (repeatable)\n"
    "  --request_timeout 5s          the server's deadline for the call (Timeout header)\n"
    "  -o, --output json|raw|table   default json\n\n"
    "A 500 or 408 answer is retried (twice at most) only when the endpoint reads: verb GET, or\n"
    "flagged read_only or idempotent in its descriptor. Submissions are never retried.\n";

// Takes --metadata and --request_timeout (either `--f v` or `--f=v`) out of args.
CallOptions take_call_flags(Args& args) {
    CallOptions o;
    for (size_t i = 0; i < args.size();) {
        const std::string a = args[i];
        if (a == "--") break;
        const auto eq = a.find('=');
        const std::string name = a.substr(0, eq);
        if (name != "--metadata" && name != "--request_timeout") {
            if (a.rfind("--", 0) == 0)
                throw UsageError("Unknown flag: " + name + " (see `platform call --help`)");
            ++i;
            continue;
        }
        std::string value;
        size_t n = 1;
        if (eq != std::string::npos) {
            value = a.substr(eq + 1);
        } else {
            if (i + 1 >= args.size()) throw UsageError(name + ": needs a value");
            value = args[i + 1];
            n = 2;
        }
        if (name == "--metadata")
            o.headers.push_back(parse_metadata(value));
        else
            o.timeout_seconds = parse_duration(name, value);
        args.erase(args.begin() + static_cast<long>(i), args.begin() + static_cast<long>(i + n));
    }
    args.erase(std::remove(args.begin(), args.end(), std::string("--")), args.end());
    return o;
}

}  // namespace

int call_command(const Args& in) {
    return guarded([&] {
        Args args = in;
        Common c = take_common(args);
        const Format format = c.format.value_or(Format::json);
        if (c.help) {
            std::cout << kCallHelp;
            return 0;
        }
        CallOptions options = take_call_flags(args);
        if (args.size() < 2 || args.size() > 3) {
            std::cerr << kCallHelp;
            return 2;
        }
        json request = json::object();
        if (args.size() == 3) {
            request = json::parse(args[2], nullptr, false);
            if (!request.is_object())
                throw UsageError("request: must be a JSON object (got '" + args[2] + "')");
        }
        RpcClient rpc;
        const std::string service = args[0], endpoint = args[1];
        options.may_retry = [&rpc, service, endpoint] {  // asked after a 500/408 only
            auto d = rpc.call("registry", "Registry.GetService", {{"service", service}},
                              CallOptions::reads());
            if (!d.ok() || !d.body.is_object() || !d.body.contains("services") ||
                d.body["services"].empty())
                return false;
            ServiceInfo s = service_info(d.body["services"][0], service);
            const MethodInfo* m = find_method(s, endpoint);
            return m != nullptr && retryable(*m);
        };
        auto r = rpc.call(service, endpoint, request, options);
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
        auto s = lookup_service(rpc, in[0], code);
        if (!s) return code;
        if (in.size() == 1) {
            std::cout << service_help(*s);
            return 0;
        }
        const MethodInfo* m = find_method(*s, in[1]);
        if (!m)
            throw UsageError("Unknown method: " + in[1] + " (see `platform help " + in[0] + "`)");
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
        auto s = lookup_service(rpc, service, code);
        if (!s) return code;
        if (args.empty() || args[0].rfind("--", 0) == 0) {
            std::cout << service_help(*s);
            return c.help ? 0 : 2;
        }
        const MethodInfo* m = find_method(*s, args[0]);
        if (!m)
            throw UsageError("Unknown method: " + service + " " + args[0] + " (see `platform " +
                             service + " --help`)");
        if (c.help) {
            std::cout << method_help(*s, *m);
            return 0;
        }
        json request = parse_flags(*m, Args(args.begin() + 1, args.end()), flag_file_reader());
        if (std::string missing = missing_required(*m, request); !missing.empty())
            throw UsageError(missing + ": is required (platform " + service + " " + m->name +
                             " --help)");
        CallOptions options;
        if (retryable(*m)) options.may_retry = [] { return true; };
        auto r = rpc.call(s->name, m->canonical, request, options);
        if (!r.ok()) return report(r);
        print(std::cout, r.body, format);
        return 0;
    });
}

}  // namespace platform::cli
