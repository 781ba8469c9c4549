#include "common/model/model_settings.hpp"

#include <cstdlib>
#include <platform/sdk/config.hpp>
#include <platform/sdk/text.hpp>

namespace common::model {

using nlohmann::json;

namespace {

std::string text_of(const json& layer, const char* key) {
    if (!layer.is_object() || !layer.contains(key)) return "";
    const json& v = layer[key];
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number()) return v.dump();
    return "";
}

int64_t positive_of(const json& layer, const char* key) {
    if (!layer.is_object() || !layer.contains(key)) return 0;
    const json& v = layer[key];
    if (v.is_number()) return v.get<int64_t>() > 0 ? v.get<int64_t>() : 0;
    if (v.is_string()) {
        const long long n = std::strtoll(v.get<std::string>().c_str(), nullptr, 10);
        return n > 0 ? n : 0;
    }
    return 0;
}

}  // namespace

UpstreamSettings merge_settings(const SettingNames& names, const json& config_service,
                                const json& profile_config,
                                const std::function<std::string(const std::string&)>& env) {
    auto pick = [&](const char* key, const std::string& var, const std::string& def) {
        std::string v = text_of(config_service, key);
        if (v.empty()) v = text_of(profile_config, key);
        if (v.empty()) v = env(names.env_prefix + "_" + var);
        return v.empty() ? def : v;
    };
    UpstreamSettings s;
    s.base_url = pick("base_url", "BASE_URL", names.default_base_url);
    while (!s.base_url.empty() && s.base_url.back() == '/') s.base_url.pop_back();
    s.api_key = pick("api_key", "API_KEY", "");
    s.model = pick("model", "MODEL", names.default_model);
    int64_t t = positive_of(config_service, "timeout_ms");
    if (t == 0) t = positive_of(profile_config, "timeout_ms");
    s.timeout_ms = t > 0 ? t : names.default_timeout_ms;
    s.key_setting = "model." + names.name + ".api_key (or " + names.env_prefix + "_API_KEY)";
    s.base_setting = "model." + names.name + ".base_url (or " + names.env_prefix + "_BASE_URL)";
    return s;
}

UpstreamSettings resolve_settings(const platform::Host& host, const SettingNames& names,
                                  const json& profile_config) {
    const platform::ConfigValue stored =
        platform::Config(host).decrypt().get("model." + names.name);
    const json service_layer =
        stored.exists() && stored.raw().is_object() ? stored.raw() : json::object();
    return merge_settings(names, service_layer, profile_config, [](const std::string& var) {
        const char* v = std::getenv(var.c_str());
        return std::string(v ? v : "");
    });
}

std::string url_host(const std::string& url) {
    size_t start = url.find("://");
    start = start == std::string::npos ? 0 : start + 3;
    size_t end = url.find_first_of("/?#", start);
    std::string authority =
        url.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (const size_t at = authority.rfind('@'); at != std::string::npos) authority.erase(0, at + 1);
    if (!authority.empty() && authority[0] == '[') {
        authority = authority.substr(1, authority.find(']') - 1);
    } else if (const size_t colon = authority.find(':'); colon != std::string::npos) {
        authority.erase(colon);
    }
    return platform::lower(authority);
}

}  // namespace common::model
