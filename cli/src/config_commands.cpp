// config_commands.cpp — `platform config get|set|del|list` over the `config` built-in
// (plugins/config/README.md), printing what micro's CLI prints (docs/cli.md).
#include <iostream>

#include "common.hpp"

namespace platform::cli {

using nlohmann::json;

namespace {

const char* kConfigHelp =
    "Read and change the server's configuration: JSON values at dotted paths (admin only).\n\n"
    "Examples:\n"
    "  platform config set mail.smtp.host smtp.example.com\n"
    "  platform config set mail '{\"port\":587}'           an object merges into what is there\n"
    "  platform config set --secret mail.password hunter2    stored sealed; get shows [secret]\n"
    "  platform config get mail                             "
    "{\"port\":587,\"smtp\":{\"host\":\"smtp.example.com\"}}\n"
    "  platform config get --secret mail.password           the clear value\n"
    "  platform config del mail.smtp\n"
    "  platform config list                                 every leaf path\n\n"
    "Usage: platform config get [--secret] <path> | set [--secret] <path> <value> | del <path> | "
    "list [<path>]\n\n"
    "A value is parsed as JSON when it is JSON (42, true, {\"a\":1}, \"\\\"quoted\\\"\"), else "
    "taken as a string.\n"
    "get prints a string bare and anything else as compact JSON (-o json: always JSON); a missing\n"
    "path prints `Not found` and exits 5; set and del print nothing. Other words are the config\n"
    "service's methods (platform help config).\n";

// The value of `config set`: JSON when it parses, else the text itself.
json value_of(const std::string& text) {
    json v = json::parse(text, nullptr, false);
    return v.is_discarded() ? json(text) : v;
}

}  // namespace

int config_command(const Args& in) {
    return guarded([&]() -> int {
        Args args = in;
        Common c = take_common(args);
        if (auto done = subcommand_or_method("config", in, args, c,
                                             {"get", "set", "del", "delete", "list"}, kConfigHelp))
            return *done;
        const std::string sub = args[0];
        bool secret = false;
        Args words;
        for (size_t i = 1; i < args.size(); ++i) {
            if (args[i] == "--secret" || args[i] == "-s")
                secret = true;
            else if (args[i].rfind("--", 0) == 0 && args[i].size() > 2 && words.size() < 2 &&
                     sub != "set")
                throw UsageError("Unknown flag: " + args[i] + " (see `platform config --help`)");
            else if (args[i] != "--")
                words.push_back(args[i]);
        }
        RpcClient rpc;
        if (sub == "get") {
            if (words.size() != 1) throw UsageError("Usage: platform config get [--secret] <path>");
            auto r = rpc.call("config", "Config.Get", {{"path", words[0]}, {"decrypt", secret}},
                              CallOptions::reads());
            if (!r.ok()) return report_missing(r);
            const json value =
                r.body.is_object() && r.body.contains("value") ? r.body["value"] : json();
            if (value.is_null()) {
                std::cerr << "Not found\n";
                return 5;
            }
            print(std::cout, value, c.format.value_or(Format::raw));
            return 0;
        }
        if (sub == "set") {
            if (words.size() != 2)
                throw UsageError("Usage: platform config set [--secret] <path> <value>");
            json request = {{"path", words[0]}, {"value", value_of(words[1])}};
            if (secret) request["secret"] = true;
            auto r = rpc.call("config", "Config.Set", request);  // a submission: never retried
            return r.ok() ? 0 : report_missing(r);
        }
        if (sub == "del" || sub == "delete") {
            if (words.size() != 1) throw UsageError("Usage: platform config del <path>");
            auto r = rpc.call("config", "Config.Delete", {{"path", words[0]}});
            return r.ok() ? 0 : report_missing(r);
        }
        // list
        if (words.size() > 1) throw UsageError("Usage: platform config list [<path>]");
        auto r = rpc.call("config", "Config.List", {{"path", words.empty() ? "" : words[0]}},
                          CallOptions::reads());
        if (!r.ok()) return report_missing(r);
        const Format format = c.format.value_or(Format::raw);
        if (format == Format::json) {
            print(std::cout, r.body, format);
            return 0;
        }
        for (const auto& p : r.body.value("paths", json::array()))
            std::cout << (p.is_string() ? p.get<std::string>() : p.dump()) << "\n";
        return 0;
    });
}

}  // namespace platform::cli
