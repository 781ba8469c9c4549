#include "groups.hpp"

#include <platform/sdk/random.hpp>
#include <set>

#include "common/accounts/accounts.hpp"
#include "group_rules.hpp"

namespace schema = platform::schema;

using platform::json;

namespace {

const schema::Object kIdSchema = schema::id_object("The group's id");

// Every account the record names, as member or invitee.
std::set<std::string> accounts_of(const json& g) {
    std::set<std::string> out;
    for (const auto& [who, role] : g.at("members").items()) out.insert(who);
    for (const auto& [who, inv] : g.at("invitations").items()) out.insert(who);
    return out;
}

}  // namespace

void Groups::describe(platform::ServiceSpec<Groups>& s) {
    s.id("groups")
        .version("1.0.0")
        .service("v1.groups")
        .summary("Private groups of accounts with roles and invitations; each is a chat room");
    s.post("create")
        .title("Create a group")
        .description(
            "Creates a private group owned by the caller. An encrypted group is meant for "
            "end-to-end encrypted XMPP clients: web chat lists it but cannot read its messages.")
        .schema(schema::object()
                    .str("name")
                    .min_len(1)
                    .max_len(200)
                    .required()
                    .doc("The group's name")
                    .boolean("encrypted")
                    .doc("End-to-end encrypted (XMPP clients only); false by default"))
        .access(platform::Access::owner)
        .handler(&Groups::create);
    s.get("list")
        .title("List my groups")
        .description(
            "The caller's groups with the caller's role, and the invitations waiting for an "
            "answer.")
        .access(platform::Access::owner)
        .read_only()
        .handler(&Groups::list);
    s.get("read")
        .title("Read a group")
        .description(
            "A group with its members, roles, pending invitations and chat room id (the group "
            "id); members only, 404 for anyone else.")
        .schema(kIdSchema)
        .access(platform::Access::owner)
        .read_only()
        .handler(&Groups::read);
    s.post("update")
        .title("Change a group")
        .description(
            "invite account (admin, owner); accept or decline your invitation; remove account "
            "(yourself when omitted: leave; others: admin removes members, owner anyone; the last "
            "owner cannot leave); role account value=member|admin|owner (owner only; at least one "
            "owner stays); rename value (admin, owner); delete (owner).")
        .schema(schema::Object(kIdSchema)
                    .str("action")
                    .one_of({"invite", "accept", "decline", "remove", "role", "rename", "delete"})
                    .required()
                    .doc("What to do")
                    .str("account")
                    .max_len(200)
                    .doc("The account acted on (invite, remove, role); remove defaults to you")
                    .str("value")
                    .max_len(200)
                    .doc("The new name (rename) or role: member, admin or owner (role)"))
        .access(platform::Access::owner)
        .destructive()
        .handler(&Groups::update);
}

platform::Collection Groups::records() const {
    return platform::Collection(host_.store(), "groups", "");
}

platform::Collection Groups::index(const std::string& account) const {
    return platform::Collection(host_.store(), "group_index", account);
}

json Groups::view(const json& g) {
    json members = json::array(), invitations = json::array();
    for (const auto& [who, role] : g.at("members").items())
        members.push_back({{"account", who}, {"role", role}});
    for (const auto& [who, inv] : g.at("invitations").items())
        invitations.push_back({{"account", who}, {"invited_by", inv.value("by", "")}});
    return {
        {"id", g.at("id")},          {"name", g.at("name")},       {"encrypted", g.at("encrypted")},
        {"room", g.at("id")},        {"created", g.at("created")}, {"members", members},
        {"invitations", invitations}};
}

json Groups::create(platform::Request& r) {
    if (r.anonymous()) throw platform::unauthenticated("this method needs an account");
    const std::string id = platform::random_hex(16);
    const json g = {{"id", id},
                    {"name", r.str("name")},
                    {"encrypted", r.args().value("encrypted", false)},
                    {"created", platform::rfc3339(host_.now_ms())},
                    {"members", {{r.account(), "owner"}}},
                    {"invitations", json::object()}};
    index(r.account()).put(id, json::object());
    if (!records().insert_if_absent(id, g)) throw platform::conflict("id: collision, try again");
    return view(g);
}

json Groups::list(platform::Request& r) {
    if (r.anonymous()) throw platform::unauthenticated("this method needs an account");
    json groups = json::array(), invitations = json::array();
    const auto mine = index(r.account());
    for (const auto& [id, marker] : mine.list()) {
        auto g = records().get(id);
        const std::string role = g ? groups::role_of(*g, r.account()) : "";
        if (!role.empty())
            groups.push_back({{"id", id},
                              {"name", g->at("name")},
                              {"encrypted", g->at("encrypted")},
                              {"role", role}});
        else if (g && groups::invited(*g, r.account()))
            invitations.push_back({{"id", id},
                                   {"name", g->at("name")},
                                   {"encrypted", g->at("encrypted")},
                                   {"invited_by", g->at("invitations").at(r.account()).at("by")}});
        else
            mine.erase(id);  // a stale marker: deleted, declined or removed
    }
    return {{"groups", groups}, {"invitations", invitations}};
}

json Groups::read(platform::Request& r) {
    if (r.anonymous()) throw platform::unauthenticated("this method needs an account");
    const std::string id = r.str("id");
    auto g = records().get(id);
    if (!g || (groups::role_of(*g, r.account()).empty() && !groups::invited(*g, r.account())))
        throw platform::not_found("id: no group " + id);
    if (groups::role_of(*g, r.account()).empty())
        throw platform::permission_denied("read: only members may read a group; accept first");
    return view(*g);
}

json Groups::update(platform::Request& r) {
    if (r.anonymous()) throw platform::unauthenticated("this method needs an account");
    const std::string id = r.str("id");
    const groups::Change c{r.account(), r.str("action"), r.args().value("account", ""),
                           r.args().value("value", ""), platform::rfc3339(host_.now_ms())};
    std::set<std::string> before;
    auto written = records().update(id, [&](const std::optional<json>& cur) -> std::optional<json> {
        if (!cur) throw platform::not_found("id: no group " + id);
        before = accounts_of(*cur);
        auto next = groups::apply(*cur, c);
        if (c.action == "invite") {  // the rules allowed it: now the invitee must exist
            if (common::accounts::known(host_, c.account) == false)
                throw platform::not_found("account: no account " + c.account);
            index(c.account).put(id, json::object());  // before the record
        }
        return next;
    });
    const std::set<std::string> after = written ? accounts_of(*written) : std::set<std::string>{};
    for (const auto& who : before)
        if (!after.count(who)) index(who).erase(id);
    if (!written) return {{"deleted", id}};
    return view(*written);
}

PLATFORM_SERVICE(Groups)
