// apps — small self-contained HTML tools their owner saves, edits, forks and checks (the
// catalogue's `apps` service: create, edit, read, search, collection, fork, embed, test).
// The methods are in apps.cpp; what an app's fields may hold (slugs, tags, icons, the public flag)
// in fields.cpp; the static check of `test` in static_check.cpp; the browser pages under
// /ui/apps/<slug> and their sandbox in page.cpp; a priced app's charge per use in uses.cpp.
#pragma once

#include <cstddef>
#include <optional>
#include <platform/sdk.hpp>
#include <string>
#include <utility>

class Apps {
public:
    static void describe(platform::ServiceSpec<Apps>& s);
    explicit Apps(const platform::Host& host) : host_(host) {}

    platform::json create(platform::Request& r);
    platform::json edit(platform::Request& r);
    platform::json read(platform::Request& r);
    platform::json search(platform::Request& r);
    platform::json collection(platform::Request& r);
    platform::json fork(platform::Request& r);
    platform::json embed(platform::Request& r);
    platform::json test(platform::Request& r);
    // GET /ui/apps/<slug>: the wrapper page with the sandboxed frame and the bridge (page.hpp);
    // GET /ui/apps/<slug>/frame: the app's HTML with the SDK helper. Public apps to anyone,
    // private ones to their owner only (404 to everyone else). A priced app's page charges the
    // viewer's first opening of the day and its frame needs that use (uses.hpp).
    void page(platform::Request& r, platform::Responder out);
    void frame(platform::Request& r, platform::Responder out);

    // The limits of an app's fields.
    static constexpr size_t kHtmlMaxBytes = 256 * 1024;
    static constexpr int64_t kPriceMax = 1000;
    static constexpr size_t kSlugMax = 64;
    static constexpr size_t kNameMax = 100;
    static constexpr size_t kDescriptionMax = 1000;
    static constexpr size_t kTagsMax = 500;
    static constexpr size_t kIconMaxBytes = 16 * 1024;
    // Answers of search and collection hold at most this many apps.
    static constexpr size_t kListMax = 200;

    // The owner-scoped collection: each app by its slug.
    static constexpr const char* kCollection = "apps";

private:
    // {owner, app} of any account's app by slug, through the plugin-wide index "slug/<slug>" ->
    // owner account; nullopt when there is none.
    std::optional<std::pair<std::string, platform::json>> find(const std::string& slug) const;
    // The app the caller may see: its own (any), another account's public one; else 404.
    std::pair<std::string, platform::json> visible(const platform::Request& r,
                                                   const std::string& slug) const;
    // Claims a free slug starting from `base` in the plugin-wide index for `owner`: `base` itself
    // when free, else base + "-" + 6 random hex digits.
    std::string claim_slug(const std::string& base, const std::string& owner) const;
    // Saves a new app under a freshly claimed slug; the app as its owner sees it.
    platform::json save_new(const platform::Request& r, const std::string& base,
                            platform::json app) const;

    platform::Host host_;
};
