#include "notes.hpp"

#include <ctime>

namespace schema = platform::schema;

using platform::json;

namespace {

using platform::rfc3339;

const schema::Object kTitleSchema =
    schema::object().str("title").max_len(200).required().doc("The note's title (its key)");

json missing(const std::string& title) {
    throw platform::not_found("title: no note titled '" + title + "'");
}

}  // namespace

void Notes::describe(platform::ServiceSpec<Notes>& s) {
    s.id("notes")
        .version("1.0.0")
        .service("v1.notes")
        .summary("Short notes kept by title, private to their owner");
    s.post("add")
        .title("Add a note")
        .description("Saves a note under its title. Writing an existing title rewrites that note.")
        .schema(schema::object()
                    .str("title")
                    .max_len(200)
                    .required()
                    .doc("The note's title (its key)")
                    .str("text")
                    .max_len(100000)
                    .required()
                    .doc("The note's text"))
        .access(platform::Access::owner)
        .idempotent()
        .handler(&Notes::add);
    s.post("delete")
        .title("Delete a note")
        .description("Deletes the note with this title; 404 when there is none.")
        .schema(kTitleSchema)
        .access(platform::Access::owner)
        .destructive()
        .action()
        .idempotent()
        .handler(&Notes::remove);
    s.get("get")
        .title("Read a note")
        .description("The note with this title and its text; 404 when there is none.")
        .schema(kTitleSchema)
        .access(platform::Access::owner)
        .read_only()
        .handler(&Notes::get);
    s.get("list")
        .title("List notes")
        .description("Every note of the caller with its text, ordered by title.")
        .access(platform::Access::owner)
        .read_only()
        .handler(&Notes::list);
    s.get("resources")
        .title("List notes as MCP resources")
        .description(
            "MCP resources/list: the caller's 100 most recently updated notes as "
            "notes://<title> resources.")
        .schema(schema::object().open().prop("cursor", schema::cursor()))
        .access(platform::Access::owner)
        .read_only()
        .mcp_resources()
        .handler(&Notes::resources);
    s.get("read_resource")
        .title("Read a note as an MCP resource")
        .description(
            "MCP resources/read of notes://<percent-encoded title>; 404 when there is none.")
        .schema(
            schema::object().open().str("uri").required().doc("notes://<percent-encoded title>"))
        .access(platform::Access::owner)
        .read_only()
        .mcp_resource_read("notes://")
        .handler(&Notes::read_resource);
}

json Notes::add(platform::Request& r) {
    auto notes = r.owned(kCollection);
    const std::string title = r.str("title");
    const std::string now = rfc3339(host_.now_ms());
    auto existing = notes.get(title);
    json note = {{"title", title},
                 {"text", r.str("text")},
                 {"created", existing ? existing->value("created", now) : now},
                 {"updated", now}};
    notes.put(title, note);
    host_.resource_updated(uri(title), r.account());
    return note;
}

json Notes::remove(platform::Request& r) {
    const std::string title = r.str("title");
    if (!r.owned(kCollection).erase(title)) return missing(title);
    host_.resource_updated(uri(title), r.account());
    return {{"deleted", title}};
}

json Notes::get(platform::Request& r) {
    const std::string title = r.str("title");
    auto note = r.owned(kCollection).get(title);
    return note ? *note : missing(title);
}

platform::JsonText Notes::list(platform::Request& r) {
    return platform::JsonText::object_of("notes", r.owned(kCollection).list_array());
}

PLATFORM_SERVICE(Notes)
