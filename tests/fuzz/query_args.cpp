// Fuzz target query_args: a query string (or form body) → the JSON argument object
// (query.hpp parse_query, request_args.hpp request_args).
//
// The whole input is the query string, without the leading '?'. It is parsed without a schema
// (micro's guessing) and typed by kSchema (every type, arrays, nested objects, type arrays); the
// same bytes go through request_args as the query of a GET (with the `envelope` key skipped, as
// /api/v1 does) and as an application/x-www-form-urlencoded POST body.
//
// Expected: QueryError (std::runtime_error) from parse_query, an ArgsError from request_args.
// Findings: any other exception; a result that is not an object; a string in the result that
// is not valid UTF-8 (dump() would throw later, in the dispatcher); validation throwing.
#include <platform/host/core/request_args.hpp>
#include <platform/validation/query.hpp>

#include "fuzz_support.hpp"

namespace {

using nlohmann::json;
using namespace platform::host;
using namespace platform::validation;

const Schema& typed_schema() {
    static const Schema s = Schema::parse(R"json({
      "type": "object",
      "properties": {
        "title": {"type": "string", "maxLength": 200},
        "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20},
        "ratio": {"type": "number"},
        "verbose": {"type": "boolean"},
        "nothing": {"type": "null"},
        "ids": {"type": "array", "items": {"type": "integer"}},
        "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 50},
        "flags": {"type": "array", "items": {"type": "boolean"}},
        "maybe": {"type": ["integer", "null"]},
        "either": {"type": ["string", "integer"]},
        "options": {"type": "object", "properties": {
          "domain": {"type": "string"},
          "depth": {"type": "integer"},
          "inner": {"type": "object", "properties": {"on": {"type": "boolean"}}}
        }},
        "meta": {"type": "object"},
        "any": {}
      }
    })json");
    return s;
}

// Every string in `j` (keys too) is valid UTF-8: dump() with the strict handler does not throw.
void check_utf8(const json& j, const std::string& what) {
    try {
        (void)j.dump();
    } catch (const json::type_error& e) {
        FUZZ_CHECK(false, what + ": result holds invalid UTF-8: " + e.what());
    }
}

void parse(std::string_view q, const Schema* schema, const char* what) {
    json args;
    try {
        args = platform::validation::parse_query(q, schema);
    } catch (const QueryError&) {
        return;
    }
    FUZZ_CHECK(args.is_object(), std::string(what) + ": not an object: " + args.dump());
    check_utf8(args, what);
    if (schema) (void)schema->validate(args);
}

void build(HttpRequest req, const char* what) {
    const Schema& schema = typed_schema();
    auto r = platform::host::request_args(req, &schema, 1 << 20, "envelope");
    if (auto* err = std::get_if<ArgsError>(&r)) {
        FUZZ_CHECK(err->http_status >= 400 && err->http_status < 500,
                   std::string(what) + ": status " + std::to_string(err->http_status));
        return;
    }
    json& args = std::get<json>(r);
    FUZZ_CHECK(args.is_object(), std::string(what) + ": not an object");
    check_utf8(args, what);
    (void)schema.validate(args);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view q = fuzz::text(data, size);
    parse(q, nullptr, "untyped");
    parse(q, &typed_schema(), "typed");

    HttpRequest get;
    get.method = "GET";
    get.path = "/api/v1/fuzz/list";
    get.query = std::string(q);
    build(get, "query");

    HttpRequest post;
    post.method = "POST";
    post.path = "/api/v1/fuzz/add";
    post.body = std::string(q);
    post.headers["content-type"] = "application/x-www-form-urlencoded";
    build(post, "form body");
    return 0;
}
