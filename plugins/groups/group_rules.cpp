#include "group_rules.hpp"

using platform::json;

namespace groups {

namespace {

constexpr size_t kMaxName = 200;

bool manages(const std::string& role) {
    return role == "admin" || role == "owner";
}

size_t owners(const json& g) {
    size_t n = 0;
    for (const auto& [who, role] : g.at("members").items()) n += role == "owner";
    return n;
}

const std::string& need_account(const Change& c) {
    if (c.account.empty()) throw platform::invalid_argument("account: is required for " + c.action);
    return c.account;
}

[[noreturn]] void deny(const std::string& rule) {
    throw platform::permission_denied(rule);
}

json invite(json g, const Change& c, const std::string& role) {
    if (!manages(role)) deny("invite: only an admin or owner may invite");
    const std::string& who = need_account(c);
    if (!role_of(g, who).empty()) throw platform::conflict("account: " + who + " is a member");
    if (!invited(g, who)) g["invitations"][who] = {{"by", c.caller}, {"at", c.now}};
    return g;
}

json remove(json g, const Change& c, const std::string& role) {
    const std::string who = c.account.empty() ? c.caller : c.account;
    if (who != c.caller && invited(g, who)) {  // withdraws an invitation
        if (!manages(role)) deny("remove: only an admin or owner may withdraw an invitation");
        g["invitations"].erase(who);
        return g;
    }
    const std::string target = role_of(g, who);
    if (target.empty()) throw platform::not_found("account: " + who + " is not a member");
    if (who != c.caller) {
        if (!manages(role)) deny("remove: only an admin or owner may remove another member");
        if (role == "admin" && target != "member")
            deny("remove: an admin may remove members only, not an admin or owner");
    }
    if (target == "owner" && owners(g) == 1)
        deny("remove: the last owner must make another member owner before leaving");
    g["members"].erase(who);
    return g;
}

json set_role(json g, const Change& c, const std::string& role) {
    if (role != "owner") deny("role: only an owner may change roles");
    const std::string& who = need_account(c);
    if (c.value != "member" && c.value != "admin" && c.value != "owner")
        throw platform::invalid_argument("value: must be member, admin or owner for role");
    const std::string target = role_of(g, who);
    if (target.empty()) throw platform::not_found("account: " + who + " is not a member");
    if (target == "owner" && c.value != "owner" && owners(g) == 1)
        deny("role: the last owner must make another member owner before stepping down");
    g["members"][who] = c.value;
    return g;
}

json rename(json g, const Change& c, const std::string& role) {
    if (!manages(role)) deny("rename: only an admin or owner may rename the group");
    if (c.value.empty()) throw platform::invalid_argument("value: the new name is required");
    if (c.value.size() > kMaxName)
        throw platform::invalid_argument("value: must be at most 200 characters");
    g["name"] = c.value;
    return g;
}

}  // namespace

std::string role_of(const json& group, const std::string& account) {
    const auto& m = group.at("members");
    auto it = m.find(account);
    return it == m.end() ? std::string() : it->get<std::string>();
}

bool invited(const json& group, const std::string& account) {
    return group.at("invitations").contains(account);
}

std::optional<json> apply(const json& g, const Change& c) {
    const std::string role = role_of(g, c.caller);
    const bool pending = invited(g, c.caller);
    if (role.empty() && !pending)
        throw platform::not_found("id: no group " + g.value("id", std::string()));
    if (c.action == "accept" || c.action == "decline") {
        if (!pending) throw platform::conflict(c.action + ": you are already a member");
        json out = g;
        out["invitations"].erase(c.caller);
        if (c.action == "accept") out["members"][c.caller] = "member";
        return out;
    }
    if (role.empty()) deny(c.action + ": only members may act on a group; accept the invitation");
    if (c.action == "invite") return invite(g, c, role);
    if (c.action == "remove") return remove(g, c, role);
    if (c.action == "role") return set_role(g, c, role);
    if (c.action == "rename") return rename(g, c, role);
    if (c.action == "delete") {
        if (role != "owner") deny("delete: only an owner may delete the group");
        return std::nullopt;
    }
    throw platform::invalid_argument(
        "action: must be invite, accept, decline, remove, role, rename or delete");
}

}  // namespace groups
