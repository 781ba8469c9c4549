#include <cstdint>
#include <memory>
#include <mutex>
#include <platform/host/core/names.hpp>
#include <platform/host/core/status.hpp>
#include <platform/host/http/openapi.hpp>

namespace platform::host {

using nlohmann::json;

namespace {

json error_responses(bool catalogue, const Endpoint& e) {
    json out = json::object();
    const std::string ref =
        catalogue ? "#/components/schemas/CatalogueError" : "#/components/schemas/GatewayError";
    std::vector<platform_status_t> codes = {PLATFORM_INVALID_ARGUMENT,   PLATFORM_NOT_FOUND,
                                            PLATFORM_METHOD_NOT_ALLOWED, PLATFORM_PAYLOAD_TOO_LARGE,
                                            PLATFORM_INTERNAL,           PLATFORM_UNAVAILABLE,
                                            PLATFORM_DEADLINE_EXCEEDED};
    if (e.access != PLATFORM_ACCESS_PUBLIC) codes.push_back(PLATFORM_UNAUTHENTICATED);
    if (e.access == PLATFORM_ACCESS_ADMIN || (e.flags & PLATFORM_FLAG_ACTION))
        codes.push_back(PLATFORM_PERMISSION_DENIED);
    if (e.flags & PLATFORM_FLAG_METERED) codes.push_back(PLATFORM_PAYMENT_REQUIRED);
    for (auto code : codes) {
        const auto& info = status_info(code);
        out[std::to_string(info.http)] = {
            {"description", std::string(info.reason)},
            {"content", {{"application/json", {{"schema", {{"$ref", ref}}}}}}}};
    }
    out["415"] = {{"description", "Unsupported Media Type: only JSON bodies are served"},
                  {"content", {{"application/json", {{"schema", {{"$ref", ref}}}}}}}};
    return out;
}

// `schema` with our own keywords as OpenAPI extensions: "maxBytes" becomes "x-maxBytes".
json openapi_schema(json schema) {
    if (schema.is_object()) {
        if (auto it = schema.find("maxBytes"); it != schema.end()) {
            schema["x-maxBytes"] = *it;
            schema.erase("maxBytes");
        }
        for (auto& [_, v] : schema.items()) v = openapi_schema(std::move(v));
    } else if (schema.is_array()) {
        for (auto& v : schema) v = openapi_schema(std::move(v));
    }
    return schema;
}

json operation(const ServiceEntry& s, const Endpoint& e, bool catalogue) {
    const json schema = openapi_schema(e.input.source());
    json op = {{"operationId", s.relative + "." + e.name},
               {"summary", e.title.empty() ? e.method : e.title},
               {"description", e.description},
               {"tags", json::array({std::string(last_segment(s.relative))})},
               {"x-platform-method", e.method},
               {"x-platform-access", access_name(e.access)},
               {"x-platform-max-body", e.max_body}};
    if (e.flags) op["x-platform-flags"] = flag_names(e.flags);
    if (e.flags & PLATFORM_FLAG_METERED) op["x-platform-price"] = e.price;
    if (!e.since.empty()) op["x-platform-since"] = e.since;
    op["security"] = e.access == PLATFORM_ACCESS_PUBLIC
                         ? json::array({json::object(), {{"bearerAuth", json::array()}}})
                         : json::array({{{"bearerAuth", json::array()}}});
    op["requestBody"] = {{"required", false},
                         {"content", {{"application/json", {{"schema", schema}}}}}};
    if (e.verb == PLATFORM_VERB_GET) {
        json params = json::array();
        const json required = schema.value("required", json::array());
        if (schema.contains("properties"))
            for (const auto& [name, prop] : schema["properties"].items())
                params.push_back({{"name", name},
                                  {"in", "query"},
                                  {"required", std::find(required.begin(), required.end(), name) !=
                                                   required.end()},
                                  {"description", prop.is_object() ? prop.value("description", "")
                                                                   : ""},  // or `true`
                                  {"schema", prop}});
        op["parameters"] = params;
    }
    json result = e.output_schema.is_null() ? json::object() : e.output_schema;
    json body =
        catalogue
            ? json{{"type", "object"}, {"properties", {{"data", result}}}, {"required", {"data"}}}
            : result;
    const bool streaming = e.flags & PLATFORM_FLAG_STREAMING;
    op["responses"] = error_responses(catalogue, e);
    op["responses"]["200"] = {
        {"description",
         streaming ? "A stream of Server-Sent Events, one JSON message each" : "The result"},
        {"content", streaming ? json{{"text/event-stream", {{"schema", {{"type", "string"}}}}}}
                              : json{{"application/json", {{"schema", body}}}}}};
    return op;
}

}  // namespace

json openapi_document(const ServiceRegistry& registry, const std::string& version) {
    json paths = json::object();
    for (const auto& s : registry.all()) {
        const bool catalogue = s.relative.rfind("v1.", 0) == 0;
        for (const auto& e : s.plugin->endpoints) {
            if (e.internal()) continue;
            std::string path =
                catalogue ? "/api/v1/" + std::string(last_segment(s.relative)) + "/" + e.name
                          : "/" + s.relative + "/" + e.name;
            for (auto& c : path)
                if (c == '.') c = '/';
            json item = json::object();
            item["post"] = operation(s, e, catalogue);
            if (e.verb == PLATFORM_VERB_GET) {
                item["get"] = operation(s, e, catalogue);
                item["get"].erase("requestBody");
                item["get"]["operationId"] = item["get"]["operationId"].get<std::string>() + ".get";
                item["post"]["parameters"] = json::array();
            }
            paths[path] = item;
        }
    }
    json error_gateway = {{"type", "object"},
                          {"properties",
                           {{"Id", {{"type", "string"}}},
                            {"Code", {{"type", "integer"}}},
                            {"Detail", {{"type", "string"}}},
                            {"Status", {{"type", "string"}}}}},
                          {"required", {"Id", "Code", "Detail", "Status"}}};
    json error_catalogue = {
        {"type", "object"},
        {"properties",
         {{"error",
           {{"type", "object"},
            {"properties", {{"code", {{"type", "string"}}}, {"message", {{"type", "string"}}}}},
            {"required", {"code", "message"}}}}}},
        {"required", {"error"}}};
    return {{"openapi", "3.1.0"},
            {"info",
             {{"title", "Platform"},
              {"version", version},
              {"description",
               "Every service method of this host, generated from the plugins' descriptors."}}},
            {"jsonSchemaDialect", "https://json-schema.org/draft/2020-12/schema"},
            {"paths", paths},
            {"components",
             {{"schemas", {{"GatewayError", error_gateway}, {"CatalogueError", error_catalogue}}},
              {"securitySchemes", {{"bearerAuth", {{"type", "http"}, {"scheme", "bearer"}}}}}}}};
}

std::string openapi_text(const ServiceRegistry& registry, const std::string& version) {
    // What the document is made of: the version and each service's name, plugin and endpoint count.
    std::string key = version + '\n' + std::to_string(reinterpret_cast<uintptr_t>(&registry));
    for (const auto& s : registry.all())
        key += '\n' + s.name + ' ' + std::to_string(reinterpret_cast<uintptr_t>(s.plugin)) + ' ' +
               s.plugin->version + ' ' + std::to_string(s.plugin->endpoints.size());
    static std::mutex m;
    static std::string cached_key;
    static std::shared_ptr<const std::string> cached;
    {
        std::lock_guard<std::mutex> g(m);
        if (cached && cached_key == key) return *cached;
    }
    auto text = std::make_shared<const std::string>(openapi_document(registry, version).dump());
    std::lock_guard<std::mutex> g(m);
    cached_key = std::move(key);
    cached = text;
    return *text;
}

}  // namespace platform::host
