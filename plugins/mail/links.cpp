#include "links.hpp"

namespace mail {

using platform::json;

void Links::link(const std::string& account, const std::string& address,
                 const std::string& grant) const {
    const std::string a = platform::lower(address);
    if (auto holder = find(a); holder && holder->account != account) {
        host_.revoke_grant(grant);
        throw platform::conflict("address: " + a + " is linked to another account");
    }
    unlink(account);
    host_.store().put(key(a), json{{"account", account}, {"grant", grant}}.dump());
    mine(account).put("address", {{"address", a}, {"linked", platform::rfc3339(host_.now_ms())}});
}

bool Links::unlink(const std::string& account) const {
    const auto current = address_of(account);
    if (!current) return false;
    if (auto l = find(*current); l && l->account == account) {
        host_.revoke_grant(l->grant);
        host_.store().erase(key(*current));
    }
    mine(account).erase("address");
    return true;
}

std::optional<std::string> Links::address_of(const std::string& account) const {
    const auto rec = mine(account).get("address");
    if (!rec || !rec->is_object()) return std::nullopt;
    return rec->value("address", "");
}

std::optional<Link> Links::find(const std::string& address) const {
    const auto raw = host_.store().get(key(platform::lower(address)));
    if (!raw) return std::nullopt;
    const json rec = json::parse(*raw, nullptr, false);
    if (!rec.is_object()) return std::nullopt;
    return Link{rec.value("account", ""), rec.value("grant", "")};
}

}  // namespace mail
