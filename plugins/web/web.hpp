// web — the web for the assistant and its callers (the catalogue's `web` service; README.md):
//
//   fetch   GET {url*}                 account   a page's readable content (readable.hpp)
//   search  GET {query*, limit = 10}   metered   web results from Brave Search (brave.hpp)
//   images  GET {query*, limit = 24}   metered   image results from Brave Search
//
// fetch sends the caller's URL through the host's outbound client as a user URL, so the host's
// SSRF guard decides every hop (only http and https; loopback, private, link-local, metadata and
// mapped addresses refused, names resolved once and pinned, redirects re-checked, size and time
// capped) and its refusals come back as 403 (400 for a malformed URL) naming the reason. search
// and images go through common/upstream to the `brave` provider (cache, 503 naming the setting,
// 502/504). Both are metered public methods: the host asks an anonymous caller for an x402
// payment and draws an account's allowance, then its credit, only when the call succeeds.
#pragma once

#include <platform/sdk.hpp>

#include "common/upstream/upstream.hpp"

namespace web {

// Credits per web/search or web/images call (1 credit = $0.01).
inline constexpr uint64_t kSearchPrice = 1;

// The largest page web/fetch downloads, and how long it waits for it.
inline constexpr uint64_t kMaxPageBytes = 2 << 20;
inline constexpr int32_t kFetchTimeoutMs = 20000;

// The answer to a fetched page: `status`, `content_type` and `body` as the site sent them,
// `requested` the caller's URL, `final_url` where the redirects ended. HTML (text/html,
// application/xhtml+xml) is read by readable(); text/plain and text/markdown pass as text; an
// answer without a type is read as HTML when it starts with '<'. Another type is 400 naming it;
// a status other than 2xx is 502 naming it.
platform::json page_answer(int status, const std::string& content_type, const std::string& body,
                           const std::string& requested, const std::string& final_url);

}  // namespace web

class Web {
public:
    static void describe(platform::ServiceSpec<Web>& s);
    explicit Web(const platform::Host& host) : host_(host) {}

    platform::json fetch(platform::Request& r);
    platform::json search(platform::Request& r);
    platform::json images(platform::Request& r);

private:
    platform::Host host_;
};
