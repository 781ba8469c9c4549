// docs — markdown documents owned by the caller (the catalogue's `docs` service).
//
// A document is {id, title, content, public, created, updated} (RFC 3339, business clock). Ids
// are derived from the time, title and content (the first such id the owner does not have), so
// one call answers the same for any fresh account; titles need not be unique. `write` creates a document, or replaces the one named
// by `id` (404 when the caller has none); `public` is false on creation unless given, and kept on
// a replace that omits it. `read` takes an id or an exact title (the most recently changed
// document with that title). Another account's ids answer 404 — except a public document, which
// any signed-in account may read by id. `list` is most recently changed first.
//
// The CRUD methods are in docs.cpp; the documents as MCP resources (docs://<id>) in
// docs_resources.cpp.
#pragma once

#include <optional>
#include <platform/sdk.hpp>
#include <string>
#include <string_view>
#include <vector>

class Docs {
public:
    static void describe(platform::ServiceSpec<Docs>& s);
    explicit Docs(const platform::Host& host) : host_(host) {}

    platform::json write(platform::Request& r);
    platform::json read(platform::Request& r);
    platform::json list(platform::Request& r);
    platform::json remove(platform::Request& r);

    // MCP resources/list: the caller's 100 most recently changed documents as
    // {uri: docs://<id>, name: title, description: content's first line (<= 80 chars), mimeType}.
    platform::json resources(platform::Request& r);
    // MCP resources/read of docs://<id>: {"contents": [{uri, mimeType, text}]}; 404 when absent.
    platform::json read_resource(platform::Request& r);

    static std::string uri(std::string_view id) { return "docs://" + std::string(id); }

    // The caller's documents, most recently changed first (ties: the later write first).
    static std::vector<platform::json> by_recency(const platform::Collection& docs);
    // A stored record as callers see it (without the internal ordering field).
    static platform::json visible(platform::json doc);

private:
    // The owner-scoped collection of documents by id; each record also holds `seq`, a number
    // that grows with every write, for the recency order.
    static constexpr const char* kCollection = "docs";
    // Plugin-wide index of public documents: key "public/<id>/<escaped owner>" → {"owner": account}.
    static constexpr const char* kPublicPrefix = "public/";

    std::optional<platform::json> find_public(const std::string& id) const;

    platform::Host host_;
};
