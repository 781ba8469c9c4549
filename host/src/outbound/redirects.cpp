#include "redirects.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <platform/sdk/text.hpp>

#include "curl_exchange.hpp"
#include "hop_guard.hpp"

namespace platform::host::outbound {

namespace {

using platform::lower;

bool is_credential(const std::string& name) {
    const std::string l = lower(name);
    return l == "authorization" || l == "cookie" || l == "proxy-authorization";
}

bool is_redirect(long status) {
    return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

// The caller's headers as "Name: value" lines, the credentials and the key only on the first
// origin.
std::vector<std::string> header_lines(const Hop& hop, bool same_origin,
                                      const std::string& key_header) {
    std::vector<std::string> lines;
    for (const auto& [name, value] : hop.headers)
        if (same_origin || !is_credential(name)) lines.push_back(name + ": " + value);
    if (same_origin && !key_header.empty()) lines.push_back(key_header);
    return lines;
}

// 303, and 301/302 after a POST, continue as a GET (HEAD stays HEAD) without the body.
void rewrite_for_redirect(Hop& hop, long status) {
    if (status == 303 || ((status == 301 || status == 302) && hop.method == "POST")) {
        if (hop.method != "HEAD") hop.method = "GET";
        hop.body.clear();
        hop.headers.erase(
            std::remove_if(hop.headers.begin(), hop.headers.end(),
                           [](const auto& kv) { return lower(kv.first) == "content-type"; }),
            hop.headers.end());
    }
}

Reply answer(HopResponse&& r, const std::string& final_url) {
    Reply reply;
    reply.http = static_cast<int32_t>(r.status);
    reply.headers = std::move(r.headers_json);
    reply.body = std::move(r.body);
    reply.final_url = final_url;
    return reply;
}

}  // namespace

Reply follow_redirects(const ParsedUrl& first, Hop hop, const Target& target, const Limits& limits,
                       const OutboundSettings& s) {
    ParsedUrl u = first;
    const std::string first_origin = first.origin();
    for (int redirects = 0;; ++redirects) {
        const std::string where = redirects ? "redirect to " + u.str() + ": " : "";
        Decision d = decide(u, target.operator_kind, s);
        if (d.status != PLATFORM_OK) {
            spdlog::debug("outbound {} {}: {}", hop.method, u.str(), d.error);
            return failure(d.status, where + d.error, u.str());
        }
        auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(limits.deadline - Clock::now())
                .count();
        if (left <= 0)
            return failure(
                PLATFORM_TIMEOUT,
                "timed out after " + std::to_string(limits.timeout_ms) + " ms (timeout_ms)",
                u.str());
        const std::vector<std::string> lines =
            header_lines(hop, u.origin() == first_origin, target.key_header);
        HopResponse r;
        if (auto failed = exchange(
                {u, hop, lines, d.pins, static_cast<long>(left), limits, s.user_agent, where}, r))
            return *failed;
        if (!(limits.follow_redirects && is_redirect(r.status) && r.location))
            return answer(std::move(r), u.str());
        if (redirects >= s.max_redirects)
            return failure(PLATFORM_BAD_GATEWAY,
                           "too many redirects (more than outbound.max_redirects = " +
                               std::to_string(s.max_redirects) + ")",
                           u.str());
        std::string error;
        bool denied = false;
        auto next = parse_url(*r.location, &error, &denied);
        if (!next)
            return failure(denied ? PLATFORM_PERMISSION_DENIED : PLATFORM_BAD_GATEWAY,
                           "redirect to " + *r.location + ": " + error, u.str());
        rewrite_for_redirect(hop, r.status);
        u = *next;
    }
}

}  // namespace platform::host::outbound
