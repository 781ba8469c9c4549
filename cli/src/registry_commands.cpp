// registry_commands.cpp — `platform registry list|get` and `platform tools`, both read from the
// registry's descriptors (one description drives every surface).
#include <algorithm>
#include <iostream>

#include "common.hpp"

namespace platform::cli {

using nlohmann::json;

namespace {

const char* kRegistryHelp =
    "Read the service registry.\n\n"
    "Examples:\n"
    "  platform registry list                       every service: name, version, endpoints, "
    "summary\n"
    "  platform registry get notes                  one service's descriptor (endpoints, schemas, "
    "nodes)\n"
    "  platform registry getService --service notes --options_domain d   the method itself\n\n"
    "Usage: platform registry list | get <service> | <method> [--arg value]\n";

const char* kToolsHelp =
    "List every MCP tool the server offers (one per catalogue method), with a one-line "
    "description.\n\n"
    "Examples:\n"
    "  platform tools\n"
    "  platform tools -o json | jq -r '.[].name'\n\n"
    "Usage: platform tools [--output table|json|raw]\n\n"
    "Names are <service>_<method>, as in MCP tools/list; call one with `platform <service> "
    "<method>`.\n";

json list_services(const RpcClient& rpc, int& code) {
    auto r = rpc.call("registry", "Registry.ListServices", json::object(), CallOptions::reads());
    if (!r.ok()) {
        code = report(r);
        return nullptr;
    }
    return r.body.value("services", json::array());
}

std::string first_line(const std::string& text) {
    std::string line = text.substr(0, text.find('\n'));
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
    return line;
}

}  // namespace

int registry_command(const Args& in) {
    return guarded([&]() -> int {
        Args args = in;
        Common c = take_common(args);
        if (auto done =
                subcommand_or_method("registry", in, args, c, {"list", "ls", "get"}, kRegistryHelp))
            return *done;
        const std::string sub = args[0];
        RpcClient rpc;
        if (sub == "get") {
            if (args.size() != 2) throw UsageError("Usage: platform registry get <service>");
            auto r = rpc.call("registry", "Registry.GetService", {{"service", args[1]}},
                              CallOptions::reads());
            if (!r.ok()) return report(r);
            print(std::cout, r.body, c.format.value_or(Format::json));
            return 0;
        }
        if (args.size() != 1) throw UsageError("Usage: platform registry list");
        int code = 0;
        json services = list_services(rpc, code);
        if (services.is_null()) return code;
        const Format format = c.format.value_or(Format::table);
        if (format != Format::table) {
            print(std::cout, json{{"services", services}}, format);
            return 0;
        }
        std::vector<std::vector<std::string>> rows;
        for (const auto& s : services)
            rows.push_back({s.value("name", ""), s.value("version", ""),
                            std::to_string(s.value("endpoints", json::array()).size()),
                            s.contains("metadata") ? s["metadata"].value("summary", "") : ""});
        std::sort(rows.begin(), rows.end());
        print_table(std::cout, {"name", "version", "endpoints", "summary"}, rows);
        return 0;
    });
}

int tools_command(const Args& in) {
    return guarded([&]() -> int {
        Args args = in;
        Common c = take_common(args);
        if (c.help) {
            std::cout << kToolsHelp;
            return 0;
        }
        if (!args.empty())
            throw UsageError("unexpected argument '" + args[0] + "' (see `platform tools --help`)");
        RpcClient rpc;
        int code = 0;
        json services = list_services(rpc, code);
        if (services.is_null()) return code;
        // The catalogue's services (<ns>.v1.<name>) are the tools, as host/src/mcp/mcp_catalog.cpp
        // lists them: <name>_<endpoint>, minus endpoints that play another MCP role.
        json tools = json::array();
        for (const auto& s : services) {
            const std::string name = s.value("name", "");
            if (name.find(".v1.") == std::string::npos) continue;
            const std::string short_name = name.substr(name.rfind('.') + 1);
            for (const auto& e : s.value("endpoints", json::array())) {
                const json md = e.value("metadata", json::object());
                if (md.value("mcp", "tool") != "tool") continue;
                const std::string path = md.value("path", "");
                const std::string description = first_line(md.value("description", ""));
                tools.push_back(
                    {{"name", short_name + "_" + path.substr(path.rfind('/') + 1)},
                     {"description", description.empty() ? md.value("title", "") : description}});
            }
        }
        std::sort(tools.begin(), tools.end(),
                  [](const json& a, const json& b) { return a["name"] < b["name"]; });
        const Format format = c.format.value_or(Format::table);
        if (format != Format::table) {
            print(std::cout, tools, format);
            return 0;
        }
        std::vector<std::vector<std::string>> rows;
        for (const auto& t : tools) rows.push_back({t["name"], t["description"]});
        print_table(std::cout, {"name", "description"}, rows);
        return 0;
    });
}

}  // namespace platform::cli
