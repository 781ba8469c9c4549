// Identity from the auth provider's JSON (identity.hpp).
#include <algorithm>
#include <platform/host/core/identity.hpp>

namespace platform::host {

using nlohmann::json;

namespace {
std::vector<std::string> strings(const json& j) {
    std::vector<std::string> out;
    if (j.is_array())
        for (const auto& v : j)
            if (v.is_string()) out.push_back(v.get<std::string>());
    return out;
}
std::string text(const json& j, const char* key) {
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}
}  // namespace

bool Identity::has_scope(const std::string& s) const {
    return std::find(scopes.begin(), scopes.end(), s) != scopes.end();
}

bool Identity::has_capability(const std::string& c) const {
    return !capabilities ||
           std::find(capabilities->begin(), capabilities->end(), c) != capabilities->end();
}

std::string Identity::scopes_csv() const {
    std::string out;
    for (const auto& s : scopes) out += (out.empty() ? "" : ",") + s;
    return out;
}

std::optional<Identity> Identity::from_json(const json& j) {
    if (!j.is_object()) return std::nullopt;
    Identity who;
    who.id = text(j, "id");
    who.type = text(j, "type");
    who.issuer = text(j, "issuer");
    who.name = text(j, "name");
    if (j.contains("scopes")) who.scopes = strings(j["scopes"]);
    if (j.contains("metadata") && j["metadata"].is_object()) who.metadata = j["metadata"];
    if (j.contains("credential") && j["credential"].is_object()) {
        const json& c = j["credential"];
        who.credential_kind = text(c, "kind");
        who.credential_id = text(c, "id");
        who.csrf = text(c, "csrf");
        if (c.contains("services")) who.services = strings(c["services"]);
        if (c.contains("capabilities") && c["capabilities"].is_array())
            who.capabilities = strings(c["capabilities"]);
    }
    return who;
}

}  // namespace platform::host
