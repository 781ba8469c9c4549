// Fuzz target schema_validate: the argument validator (schema.hpp) — schemas themselves, and
// argument objects against the real endpoint schemas of the plugins in fuzz_host.hpp kMirrored.
//
// Input forms (the first line selects):
//   @schema            the rest is a schema (JSON), optionally followed by a line `---` and an
//                      argument value: compiled with Schema::parse and Schema::compile; when it
//                      compiles, the value (and a few fixed ones) is validated and the
//                      introspection (property_types, property) runs.
//   @<plugin>.<name>   e.g. `@notes.add`: the rest is an argument value for that endpoint.
//   anything else      the whole input is an argument value, for the endpoint picked by the
//                      first byte.
//
// Expected: SchemaError from compiling. Findings: any other exception (validate must not
// throw); a refusal without "<path>: <rule>"; validation that is not idempotent (a valid value,
// defaults applied, must validate again unchanged).
#include <platform/validation/schema.hpp>

#include "fuzz_host.hpp"
#include "fuzz_support.hpp"

namespace {

using nlohmann::json;
using platform::validation::Schema;
using platform::validation::SchemaError;

struct Target {
    std::string name;  // "notes.add"
    const Schema* schema;
};

const std::vector<Target>& targets() {
    static const auto* all = [] {
        auto* out = new std::vector<Target>();
        for (const auto& p : fuzz::mirrored_descriptors())
            for (const auto& e : p->endpoints) out->push_back({p->id + "." + e.name, &e.input});
        return out;
    }();
    return *all;
}

void validate(const Schema& schema, json args, const std::string& what) {
    const json given = args;
    auto problem = schema.validate(args);
    if (problem) {
        FUZZ_CHECK(!problem->empty() && problem->find(": ") != std::string::npos,
                   what + ": refusal without '<path>: <rule>': " + *problem);
        return;
    }
    const json once = args;  // defaults applied, integral floats rewritten
    auto again = schema.validate(args);
    FUZZ_CHECK(!again, what + ": valid, then refused after its own defaults: " + *again +
                           "\n  given " +
                           given.dump(-1, ' ', false, json::error_handler_t::replace));
    FUZZ_CHECK(args == once, what + ": a second validation changed the value again");
}

void fuzz_schema(std::string_view rest) {
    std::string_view schema_text = rest, value_text;
    if (size_t sep = rest.find("\n---\n"); sep != std::string_view::npos) {
        schema_text = rest.substr(0, sep);
        value_text = rest.substr(sep + 5);
    }
    std::optional<Schema> schema;
    try {
        schema = Schema::parse(schema_text);
    } catch (const SchemaError&) {
    }
    const json parsed = json::parse(schema_text, nullptr, false);
    if (!parsed.is_discarded()) {
        try {
            Schema compiled = Schema::compile(parsed);
            FUZZ_CHECK(schema.has_value(), "compile accepts what parse refuses");
        } catch (const SchemaError&) {
            FUZZ_CHECK(!schema.has_value(), "parse accepts what compile refuses");
        }
    }
    if (!schema) return;
    for (const auto& [name, type] : schema->property_types()) (void)schema->property(name);
    (void)schema->property("a.b.0");
    const json value = json::parse(value_text, nullptr, false);
    if (!value.is_discarded()) validate(*schema, value, "fuzzed schema");
    for (const char* fixed : {"{}", R"({"a": 1, "b": "x", "c": [1, 2.0], "d": {"e": null}})", "[]"})
        validate(*schema, json::parse(fixed), "fuzzed schema");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view in = fuzz::text(data, size);
    const auto [first, rest] = fuzz::first_line(in);
    if (first == "@schema") {
        fuzz_schema(rest);
        return 0;
    }
    const auto& all = targets();
    if (!first.empty() && first[0] == '@') {
        for (const auto& t : all)
            if (first.substr(1) == t.name) {
                json value = json::parse(rest, nullptr, false);
                if (!value.is_discarded()) validate(*t.schema, value, t.name);
                return 0;
            }
    }
    if (size == 0) return 0;
    const Target& t = all[data[0] % all.size()];
    json value = json::parse(in, nullptr, false);
    if (!value.is_discarded()) validate(*t.schema, value, t.name);
    return 0;
}
