#include "provider_target.hpp"

#include <curl/curl.h>

namespace platform::host::outbound {

namespace {

// base_url without its trailing slashes, then `path` with exactly one leading slash (a query
// alone, "?...", and an empty path are appended as they are).
std::string join(std::string base, std::string path) {
    while (!base.empty() && base.back() == '/') base.pop_back();
    if (!path.empty() && path[0] != '?') {
        size_t k = path.find_first_not_of('/');
        path = "/" + (k == std::string::npos ? std::string() : path.substr(k));
    }
    return base + path;
}

// Places the key as api_key_header says: "?name" appends name=<key> to `target.url`, "Name:
// prefix" and "Name" make target.key_header; nothing without a key or a header setting.
void place_key(const ProviderSettings& ps, Target& target) {
    if (ps.api_key.empty() || ps.api_key_header.empty()) return;
    const std::string& how = ps.api_key_header;
    if (how[0] == '?') {
        char* enc =
            curl_easy_escape(nullptr, ps.api_key.c_str(), static_cast<int>(ps.api_key.size()));
        target.url +=
            (target.url.find('?') == std::string::npos ? "?" : "&") + how.substr(1) + "=" + enc;
        curl_free(enc);
    } else if (auto colon = how.find(':'); colon != std::string::npos) {
        std::string prefix = trim(how.substr(colon + 1));
        target.key_header =
            trim(how.substr(0, colon)) + ": " + (prefix.empty() ? "" : prefix + " ") + ps.api_key;
    } else {
        target.key_header = trim(how) + ": " + ps.api_key;
    }
}

}  // namespace

std::optional<Reply> resolve_target(const platform_http_request_t& req, const OutboundSettings& s,
                                    Target& target) {
    target.url = text(req.url);
    const std::string provider = text(req.provider);
    target.operator_kind = (req.flags & PLATFORM_HTTP_OPERATOR_URL) || !provider.empty();
    if (provider.empty()) return std::nullopt;
    const std::string p = "providers." + provider;
    auto it = s.providers.find(provider);
    if (it == s.providers.end() || it->second.base_url.empty())
        return failure(PLATFORM_UNAVAILABLE, p + ".base_url is not set");
    const ProviderSettings& ps = it->second;
    if (ps.key_required && ps.api_key.empty())
        return failure(PLATFORM_UNAVAILABLE, p + ".api_key is not set");
    if (target.url.find("://") != std::string::npos || target.url.rfind("//", 0) == 0)
        return failure(PLATFORM_INVALID_ARGUMENT,
                       "url: must be a path under " + p + ".base_url, not an absolute URL");
    target.url = join(ps.base_url, target.url);
    place_key(ps, target);
    return std::nullopt;
}

}  // namespace platform::host::outbound
