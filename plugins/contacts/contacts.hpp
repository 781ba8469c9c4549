// contacts — the caller's address book (the catalogue's `contacts` service).
//
// A card is {id, name, email, phone, note, created, updated}. Names are unique per owner, compared
// without case and surrounding spaces: adding a name that has a card updates that card (the
// fields given replace theirs, omitted ones keep their value) — its id is derived from the name, so
// two concurrent adds of one name meet on one record. `find` matches a part of the name or of the
// email address, without case; `list` gives every card ordered by name. Another account's ids
// answer 404.
#pragma once

#include <platform/sdk.hpp>
#include <string>

class Contacts {
public:
    static void describe(platform::ServiceSpec<Contacts>& s);
    explicit Contacts(const platform::Host& host) : host_(host) {}

    platform::json add(platform::Request& r);
    platform::json find(platform::Request& r);
    platform::json list(platform::Request& r);
    platform::json remove(platform::Request& r);

    // The card id of a name: 16 hex digits of FNV-1a over its folded form (lower case, trimmed).
    static std::string id_of(const std::string& name);

private:
    // The owner-scoped collection of cards by id.
    static constexpr const char* kCollection = "contacts";
    platform::Host host_;
};
