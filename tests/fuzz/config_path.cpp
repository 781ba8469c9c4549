// Fuzz target config_path: the `config` built-in's dotted paths — get, set (merge), delete and
// list (plugins/config: config.cpp, tree.cpp) — driven through the SDK's fake host with the
// host's argument validation in front, as the dispatcher does.
//
// Each line of the input is one operation on a fresh, empty configuration:
//   get <path>          getd <path>  (decrypt: true)        list <path>
//   set <path> <JSON>   seal <path> <JSON>  (secret: true)  del <path>
// `<path>` is everything up to the next space (may be empty or malformed on purpose); `<JSON>` is
// the rest of the line, or a string when it is not JSON. Arguments the endpoint's schema refuses
// stop there (the host answers 400); the others reach the plugin as account `admin`.
//
// Findings: a crash or sanitizer report; an exception out of the plugin or the validator; an
// answer with a 5xx status (bad paths and values are the caller's: 4xx naming the argument);
// the schema's path pattern and config_tree::split disagreeing about a path.
#include <map>
#include <platform/host/core/status.hpp>
#include <platform/sdk/error.hpp>
#include <platform/testing/fake_host.hpp>
#include <platform/validation/schema.hpp>

#include "fuzz_support.hpp"
#include "tree.hpp"

extern "C" const platform_plugin_desc_t* platform_plugin_entry(const platform_entry_args_t*);

namespace {

using nlohmann::json;
using platform::validation::Schema;

struct Config {
    platform::testing::FakeHost host;
    platform::testing::FakePlugin plugin = host.load(platform_plugin_entry);
    std::map<std::string, Schema> schemas;  // endpoint name -> its argument schema

    Config() {
        const platform_plugin_desc_t* d = plugin.descriptor();
        for (uint32_t i = 0; i < d->endpoint_count; ++i) {
            auto* ep = reinterpret_cast<const platform_endpoint_t*>(
                reinterpret_cast<const char*>(d->endpoints) + i * d->endpoint_stride);
            schemas.emplace(platform::copy(ep->name),
                            Schema::parse(platform::view(ep->input_schema)));
        }
    }
};

Config& config() {
    static auto* c = new Config();
    return *c;
}

bool split_accepts(const std::string& path) {
    try {
        return !config_tree::split(path).empty();
    } catch (const platform::Error&) {
        return false;
    }
}

// The schema of `set` (a required, non-empty path) and split() must agree about `path`.
void check_path_rules(const std::string& path) {
    if (path.size() > 512 || !platform::validation::valid_utf8(path)) return;  // maxLength decides
    json probe = {{"path", path}, {"value", 1}};
    const bool schema_ok = !config().schemas.at("set").validate(probe);
    FUZZ_CHECK(schema_ok == split_accepts(path),
               "path '" + path + "': the schema " + (schema_ok ? "accepts" : "refuses") +
                   " it, config_tree::split " + (schema_ok ? "refuses" : "accepts") + " it");
}

void run(const std::string& line) {
    const size_t sp = line.find(' ');
    const std::string op = line.substr(0, sp);
    std::string path, rest;
    if (sp != std::string::npos) {
        const size_t sp2 = line.find(' ', sp + 1);
        path = line.substr(sp + 1, sp2 == std::string::npos ? std::string::npos : sp2 - sp - 1);
        if (sp2 != std::string::npos) rest = line.substr(sp2 + 1);
    }
    static const std::map<std::string, std::string> endpoint = {
        {"get", "get"}, {"getd", "get"}, {"list", "list"},
        {"set", "set"}, {"seal", "set"}, {"del", "delete"}};
    auto it = endpoint.find(op);
    if (it == endpoint.end()) return;
    json args = {{"path", path}};
    if (op == "getd") args["decrypt"] = true;
    if (op == "set" || op == "seal") {
        json value = json::parse(rest, nullptr, false);
        args["value"] = value.is_discarded() ? json(rest) : value;
        if (op == "seal") args["secret"] = true;
    }
    check_path_rules(path);
    if (config().schemas.at(it->second).validate(args)) return;  // 400 from the host
    const auto reply = config().plugin.call(it->second, args, "admin");
    const int http = platform::host::status_info(reply.code).http;
    FUZZ_CHECK(http < 500, line + "\n  answered " + std::to_string(http) + ": " + reply.body);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    config().host.tables.clear();
    const auto lines = fuzz::lines(fuzz::text(data, size));
    for (size_t i = 0; i < lines.size() && i < 32; ++i) run(lines[i]);
    return 0;
}
