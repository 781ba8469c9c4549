#include "conformance.hpp"
#include "media.hpp"

using platform::json;

namespace {

constexpr const char* kTemplatePrefix = "test://template/";
constexpr const char* kTemplateSuffix = "/data";

json resource(const char* uri, const char* name, const char* description, const char* mime) {
    return {{"uri", uri}, {"name", name}, {"description", description}, {"mimeType", mime}};
}

json text(const std::string& uri, const char* mime, const std::string& t) {
    return {{"contents", json::array({{{"uri", uri}, {"mimeType", mime}, {"text", t}}})}};
}

// The {id} of test://template/{id}/data: one non-empty path segment; empty when it does not match.
std::string template_id(const std::string& uri) {
    const std::string prefix = kTemplatePrefix, suffix = kTemplateSuffix;
    if (uri.size() <= prefix.size() + suffix.size() || uri.compare(0, prefix.size(), prefix) != 0 ||
        uri.compare(uri.size() - suffix.size(), suffix.size(), suffix) != 0)
        return "";
    std::string id = uri.substr(prefix.size(), uri.size() - prefix.size() - suffix.size());
    return id.find('/') == std::string::npos ? id : "";
}

}  // namespace

json Conformance::resources(platform::Request&) {
    return {
        {"resources",
         json::array({
             resource("test://static-text", "Static text", "A static text resource", "text/plain"),
             resource("test://static-binary", "Static binary", "A static 1x1 PNG", "image/png"),
             resource("test://watched-resource", "Watched resource", "A resource to subscribe to",
                      "text/plain"),
         })}};
}

json Conformance::resource_templates(platform::Request&) {
    return {{"resourceTemplates", json::array({{{"uriTemplate", "test://template/{id}/data"},
                                                {"name", "Template data"},
                                                {"description", "JSON data for any {id}"},
                                                {"mimeType", "application/json"}}})}};
}

json Conformance::read_resource(platform::Request& r) {
    const std::string uri = r.str("uri");
    if (uri == "test://static-text")
        return text(uri, "text/plain", "This is the content of the static text resource.");
    if (uri == "test://static-binary")
        return {{"contents", json::array({{{"uri", uri},
                                           {"mimeType", "image/png"},
                                           {"blob", conformance::kRedPixelPng}}})}};
    if (uri == "test://watched-resource")
        return text(uri, "text/plain", "This is the content of the watched resource.");
    if (const std::string id = template_id(uri); !id.empty())
        return text(uri, "application/json",
                    nlohmann::ordered_json{
                        {"id", id}, {"templateTest", true}, {"data", "Data for ID: " + id}}
                        .dump());
    throw platform::not_found("uri: no resource " + uri);
}
