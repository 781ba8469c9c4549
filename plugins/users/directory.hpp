// directory — who the users service lists: the accounts, when each was last seen, and the agents.
//
// Three sources, merged by id:
//   accounts  the auth service's `listAccounts` (called as this plugin's service account, which
//             the host lets use the built-in services' admin methods), when the profile's auth
//             provider serves one (auth-local); it gives each account's type, display name and
//             creation time.
//   activity  this plugin's own store table, which the host writes (key "seen/<account id>",
//             value {id, name, type, first_seen, last_seen}, business-clock Unix ms; at most
//             2 s behind, see the host's activity_record.hpp). Without an accounts source, the
//             accounts are the ones seen, created when first seen.
//   agents    the agent service's `list` for the caller (the default agent, the operator's, the
//             caller's own), type "agent", never seen; an account of the same id hides one.
// Only ids, display names, types and times are kept: no scopes, metadata, secrets or tokens.
//
// Blocking (it calls other services): call it from a handler.
#pragma once

#include <cstdint>
#include <optional>
#include <platform/sdk.hpp>
#include <string>
#include <vector>

namespace users {

// How long an account counts as online after its last call.
inline constexpr int64_t kOnlineMs = 3 * 60 * 1000;

struct User {
    std::string id, name, type;
    bool agent = false;
    std::optional<int64_t> last_seen_ms;
    int64_t created_ms = 0;  // 0 = unknown (agents)

    bool online(int64_t now_ms) const {
        return last_seen_ms && now_ms - *last_seen_ms <= kOnlineMs;
    }
    // {"id", "name", "type", "agent", "online", "last_seen": RFC 3339 or null}
    platform::json view(int64_t now_ms) const;
};

// Everyone the caller of `r` may list, online first, then newest, then by id. The caller counts
// as seen now (the host writes its activity a little later).
std::vector<User> everyone(const platform::Host& host, platform::Request& r);

// Whether `text` holds `needle`, ignoring ASCII case.
bool contains_folded(const std::string& text, const std::string& needle);

}  // namespace users
