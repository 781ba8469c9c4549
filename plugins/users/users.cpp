#include "users.hpp"

#include "directory.hpp"

namespace schema = platform::schema;

using platform::json;

namespace {

constexpr int64_t kMaxUsers = 100;

json views(const std::vector<users::User>& list, int64_t now, int64_t limit) {
    json out = json::array();
    for (const auto& u : list) {
        if (static_cast<int64_t>(out.size()) >= limit) break;
        out.push_back(u.view(now));
    }
    return {{"users", out}};
}

}  // namespace

void Users::describe(platform::ServiceSpec<Users>& s) {
    s.id("users")
        .version("1.0.0")
        .service("v1.users")
        .summary("The platform's users and agents: find, get, list who is online");
    s.get("find")
        .title("Find users")
        .description(
            "Users and agents whose username or display name contains the text (ignoring case), "
            "online first, then newest; at most 100.")
        .schema(schema::object().str("query").min_len(1).max_len(200).required().doc(
            "Text to look for in usernames and display names"))
        .access(platform::Access::account)
        .read_only()
        .handler(&Users::find);
    s.get("get")
        .title("Get a user")
        .description("The user or agent with this username; 404 when there is none.")
        .schema(schema::id_object("The username", 256))
        .access(platform::Access::account)
        .read_only()
        .handler(&Users::get);
    s.get("list")
        .title("List users")
        .description(
            "Users and agents, online ones (seen in the last three minutes) first, then the "
            "newest accounts; agents are marked agent: true.")
        .schema(schema::object()
                    .boolean("online")
                    .doc("Only users seen in the last three minutes; false by default")
                    .number("limit")
                    .range(1, kMaxUsers)
                    .def(kMaxUsers)
                    .doc("At most this many, 1-100 (default 100)"))
        .access(platform::Access::account)
        .read_only()
        .handler(&Users::list);
}

json Users::find(platform::Request& r) {
    const std::string query = r.str("query");
    std::vector<users::User> found;
    for (auto& u : users::everyone(host_, r))
        if (users::contains_folded(u.id, query) || users::contains_folded(u.name, query))
            found.push_back(std::move(u));
    return views(found, host_.now_ms(), kMaxUsers);
}

json Users::get(platform::Request& r) {
    const std::string id = r.str("id");
    for (const auto& u : users::everyone(host_, r))
        if (u.id == id) return u.view(host_.now_ms());
    throw platform::not_found("id: no user " + id);
}

json Users::list(platform::Request& r) {
    const int64_t now = host_.now_ms();
    const bool online_only = r.args().value("online", false);
    const auto limit = static_cast<int64_t>(r.args().value("limit", double(kMaxUsers)));
    std::vector<users::User> shown;
    for (auto& u : users::everyone(host_, r))
        if (!online_only || u.online(now)) shown.push_back(std::move(u));
    return views(shown, now, limit);
}

PLATFORM_SERVICE(Users)
