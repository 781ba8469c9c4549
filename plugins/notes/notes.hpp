// notes — short notes keyed by title, owned by the caller (the catalogue's `notes` service: add,
// get, list, delete).
// The CRUD methods are in notes.cpp; the notes as MCP resources (notes://<title>) in
// notes_resources.cpp.
#pragma once

#include <platform/sdk.hpp>
#include <string>
#include <string_view>

class Notes {
public:
    static void describe(platform::ServiceSpec<Notes>& s);
    explicit Notes(const platform::Host& host) : host_(host) {}

    platform::json add(platform::Request& r);
    platform::json remove(platform::Request& r);
    platform::json get(platform::Request& r);
    platform::JsonText list(platform::Request& r);  // the stored notes as they are, no parse

    // MCP resources/list: the caller's notes, most recently updated first, at most 100, as
    // {uri, name: title, description: the text's first line (<= 80 characters), mimeType}.
    platform::json resources(platform::Request& r);
    // MCP resources/read of notes://<title>: {"contents": [{uri, mimeType, text}]}; 404 when
    // the caller has no such note.
    platform::json read_resource(platform::Request& r);

    // "notes://" + the title percent-encoded (every byte but A-Z a-z 0-9 - . _ ~).
    static std::string uri(std::string_view title);

private:
    // The owner-scoped collection: {title, text, created, updated} by title.
    static constexpr const char* kCollection = "notes";
    platform::Host host_;
};
