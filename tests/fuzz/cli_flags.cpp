// Fuzz target cli_flags: the CLI's dynamic flags (cli/src/dynamic.hpp) — `platform <service>
// <method> --arg value ...` turned into the request object by the method's descriptor, then the
// /rpc payload the CLI sends, and the help texts written from the descriptor.
//
// Descriptors are what the registry's getService answers (ServiceRegistry::describe) for the
// real plugins of fuzz_host.hpp kMirrored. The input has one command-line argument per line:
//   line 1   `<plugin> <method>` (e.g. `notes add`) picks the method; or a JSON schema (a line
//            starting with '{') that the host compiles (Schema::parse) describes the methods
//            `custom` (POST) and `custom_get` (GET) of a service `fuzz`, whose help texts are
//            written too, and so are the other documents made from descriptors: the OpenAPI
//            document (openapi.hpp) and the MCP tool list (tool_catalog.hpp); anything else
//            picks a method by its first byte and is an argument itself.
//   line 2…  the arguments (`--title`, `hello`, `--tags=a,b`, `--options_domain`, ...).
//
// Expected: platform::cli::UsageError (exit code 2 in the CLI). Findings: any other exception
// (the CLI would die in std::terminate: main() catches UsageError only), a crash, a sanitizer
// report, a request that is not an object.
#include <platform/host/core/names.hpp>
#include <platform/host/core/service_registry.hpp>
#include <platform/host/core/tool_catalog.hpp>
#include <platform/host/http/openapi.hpp>
#include <platform/validation/schema.hpp>

#include "dynamic.hpp"
#include "fuzz_host.hpp"
#include "fuzz_support.hpp"

namespace {

using nlohmann::json;
using namespace platform::cli;
using namespace platform::host;
using namespace platform::validation;

platform::host::ServiceRegistry& registry() {
    static auto* r = new platform::host::ServiceRegistry("go.core.api", "fuzz");
    return *r;
}

// One ServiceInfo per mirrored plugin, keyed by plugin id.
const std::vector<std::pair<std::string, ServiceInfo>>& services() {
    static const auto* all = [] {
        auto* out = new std::vector<std::pair<std::string, ServiceInfo>>();
        for (const auto& p : fuzz::mirrored_descriptors()) {
            ServiceEntry e{"go.core.api." + p->service, p->service, p.get()};
            const std::string typed = std::string(platform::host::last_segment(p->service));
            out->emplace_back(p->id, platform::cli::service_info(registry().describe(e), typed));
        }
        return out;
    }();
    return *all;
}

// What the CLI does with a method and its arguments (client_commands.cpp, rpc_client.cpp).
void run(const ServiceInfo& s, const MethodInfo& m, const std::vector<std::string>& args) {
    json request;
    try {
        request = platform::cli::parse_flags(m, args);
    } catch (const UsageError&) {
        return;
    }
    FUZZ_CHECK(request.is_object(), "request is not an object: " + request.dump());
    const std::string payload =
        json{{"service", s.name}, {"method", m.canonical}, {"request", request}}.dump();
    (void)payload;
    (void)platform::cli::retryable(m);
}

void custom(const std::string& schema_text, const std::vector<std::string>& args) {
    std::optional<Schema> schema;
    try {
        schema = Schema::parse(schema_text);
    } catch (const platform::validation::SchemaError&) {
        return;  // the host refuses such a plugin: no CLI ever sees it
    }
    Plugin p;
    p.id = "fuzz";
    p.service = "v1.fuzz";
    for (const char* name : {"custom", "custom_get"}) {
        Endpoint e(*schema);
        e.index = static_cast<uint32_t>(p.endpoints.size());
        e.name = name;
        e.method = platform::host::canonical_method(p.service, name);
        e.verb = e.index ? PLATFORM_VERB_GET : PLATFORM_VERB_POST;
        p.endpoints.push_back(e);
    }
    const ServiceEntry entry{"go.core.api.v1.fuzz", "v1.fuzz", &p};
    const ServiceInfo s = platform::cli::service_info(registry().describe(entry), "fuzz");
    FUZZ_CHECK(s.methods.size() == 2, "the custom methods are not described");
    (void)platform::cli::service_help(s);
    (void)platform::cli::method_help(s, s.methods[0]);
    FUZZ_CHECK(platform::cli::find_method(s, "custom"), "find_method misses `custom`");
    run(s, s.methods[0], args);

    platform::host::ServiceRegistry own("go.core.api", "fuzz");
    FUZZ_CHECK(own.add(&p), "the custom service is not registered");
    (void)platform::host::openapi_document(own, "fuzz").dump();
    platform::host::ToolCatalog tools(own);
    for (const auto& t : *tools.all()) (void)t.definition.dump();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::vector<std::string> args = fuzz::lines(fuzz::text(data, size));
    if (args.empty()) return 0;
    const std::string first = args[0];
    if (!first.empty() && first[0] == '{') {
        custom(first, std::vector<std::string>(args.begin() + 1, args.end()));
        return 0;
    }
    const auto& all = services();
    const size_t sp = first.find(' ');
    if (sp != std::string::npos) {
        const std::string plugin = first.substr(0, sp), word = first.substr(sp + 1);
        for (const auto& [id, s] : all)
            if (id == plugin)
                if (const MethodInfo* m = platform::cli::find_method(s, word)) {
                    run(s, *m, std::vector<std::string>(args.begin() + 1, args.end()));
                    return 0;
                }
    }
    size_t n = 0;
    for (const auto& [id, s] : all) n += s.methods.size();
    size_t pick = static_cast<unsigned char>(first.empty() ? 0 : first[0]) % n;
    for (const auto& [id, s] : all) {
        if (pick < s.methods.size()) {
            run(s, s.methods[pick], args);
            break;
        }
        pick -= s.methods.size();
    }
    return 0;
}
