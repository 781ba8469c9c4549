#include "contacts.hpp"

#include <algorithm>
#include <cctype>
#include <ctime>
#include <vector>

namespace schema = platform::schema;

using platform::json;

namespace {

using platform::lower;

using platform::rfc3339;

std::string trim(const std::string& s) {
    const size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

// Every card of the collection, ordered by name without case.
std::vector<json> by_name(const platform::Collection& cards) {
    std::vector<json> out;
    for (auto& [id, card] : cards.list()) out.push_back(std::move(card));
    std::sort(out.begin(), out.end(), [](const json& a, const json& b) {
        return lower(a.value("name", "")) < lower(b.value("name", ""));
    });
    return out;
}

}  // namespace

void Contacts::describe(platform::ServiceSpec<Contacts>& s) {
    s.id("contacts").version("1.0.0").service("v1.contacts").summary("Your address book");
    s.post("add")
        .title("Add a contact")
        .description(
            "Adds a card. Adding a name that already has a card (ignoring case) updates that card: "
            "the "
            "fields given replace its values, omitted ones are kept.")
        .schema(schema::object()
                    .str("name")
                    .min_len(1)
                    .max_len(200)
                    .required()
                    .doc("The person's name (unique in your book)")
                    .str("email")
                    .max_len(320)
                    .doc("Email address")
                    .str("phone")
                    .max_len(64)
                    .doc("Phone number")
                    .str("note")
                    .max_len(10000)
                    .doc("Anything else"))
        .access(platform::Access::owner)
        .idempotent()
        .handler(&Contacts::add);
    s.post("delete")
        .title("Delete a contact")
        .description("Deletes the card with this id; 404 when you have none.")
        .schema(schema::id_object("The card's id").min_len(1))
        .access(platform::Access::owner)
        .destructive()
        .action()
        .handler(&Contacts::remove);
    s.post("find")
        .title("Find contacts")
        .description(
            "Cards whose name or email address contains `query` (ignoring case), ordered by name.")
        .schema(schema::object().str("query").min_len(1).max_len(200).required().doc(
            "A name, part of a name, or an address"))
        .access(platform::Access::owner)
        .read_only()
        .handler(&Contacts::find);
    s.get("list")
        .title("List contacts")
        .description("Every card, ordered by name.")
        .access(platform::Access::owner)
        .read_only()
        .handler(&Contacts::list);
}

std::string Contacts::id_of(const std::string& name) {
    return platform::hash_id(lower(trim(name)));
}

json Contacts::add(platform::Request& r) {
    const std::string name = trim(r.str("name"));
    if (name.empty()) throw platform::invalid_argument("name: must not be blank");
    const std::string id = id_of(name), now = rfc3339(host_.now_ms());
    auto written =
        r.owned(kCollection).update(id, [&](const std::optional<json>& old) -> std::optional<json> {
            json card =
                old ? *old
                    : json{
                          {"id", id}, {"email", ""}, {"phone", ""}, {"note", ""}, {"created", now}};
            card["name"] = name;
            for (const char* field : {"email", "phone", "note"})
                if (r.args().contains(field)) card[field] = trim(r.str(field));
            card["updated"] = now;
            return card;
        });
    return *written;
}

json Contacts::find(platform::Request& r) {
    const std::string query = lower(trim(r.str("query")));
    json out = json::array();
    for (auto& card : by_name(r.owned(kCollection)))
        if (query.empty() || lower(card.value("name", "")).find(query) != std::string::npos ||
            lower(card.value("email", "")).find(query) != std::string::npos)
            out.push_back(std::move(card));
    return {{"contacts", out}};
}

json Contacts::list(platform::Request& r) {
    return {{"contacts", by_name(r.owned(kCollection))}};
}

json Contacts::remove(platform::Request& r) {
    const std::string id = r.str("id");
    if (!r.owned(kCollection).erase(id)) throw platform::not_found("id: no contact " + id);
    return {{"deleted", id}};
}

PLATFORM_SERVICE(Contacts)
