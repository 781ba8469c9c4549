#include "files.hpp"

using platform::json;

namespace {

constexpr size_t kMaxResources = 100;

}  // namespace

json Files::resources(platform::Request& r) {
    json out = json::array();
    for (const auto& file : newest(r)) {
        if (out.size() == kMaxResources) break;
        out.push_back(
            {{"uri", kScheme + file.value("id", "")},
             {"name", file.value("name", "")},
             {"description", file.value("name", "") + " (" + file.value("type", "") + ", " +
                                 std::to_string(file.value("size", 0)) + " bytes)"},
             {"mimeType", file.value("type", "")},
             {"size", file.value("size", 0)}});
    }
    return {{"resources", out}};
}

json Files::read_resource(platform::Request& r) {
    const std::string uri = r.str("uri"), scheme = kScheme;
    if (uri.compare(0, scheme.size(), scheme) != 0)
        throw platform::not_found("uri: not a files:// URI: " + uri);
    auto [file, bytes] = load(r, uri.substr(scheme.size()), "uri");
    json content = {{"uri", uri}, {"mimeType", file.value("type", "")}};
    if (file.value("encoding", "text") == "base64")
        content["blob"] = files::base64_encode(bytes);
    else
        content["text"] = bytes;
    return {{"contents", json::array({content})}};
}
