// apps — small self-contained HTML tools their owner saves, edits, forks and checks (the
// catalogue's `apps` service: create, edit, read, search, collection, fork, embed, test).
// The methods are in apps.cpp; what an app's fields may hold (slugs, tags, icons, the public flag)
// in fields.cpp; the static check of `test` in static_check.cpp; the browser pages under
// /ui/apps/<slug> and their sandbox in page.cpp.
#pragma once

#include <cstddef>
#include <optional>
#include <platform/sdk.hpp>
#include <set>
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
    // Builds (builds.cpp): a durable job in the work service's queue (work/from_call) that asks
    // the model for the app (build_model.hpp) and saves it as a new private app of the owner.
    //   build        {prompt*, request_key} -> the build (queued), or the one already made for
    //                the same request_key (any outcome) / the same prompt (unless it failed),
    //                with `deduplicated`
    //   buildstatus  {id*, wait} -> {id, status: queued|building|complete|failed, prompt,
    //                request_key, status_url, app (on complete), error, problems, created,
    //                started, finished}
    //   builds       -> {builds: [...]}: the caller's, newest first, apps without html
    //   build_run    internal, the job: queued -> building -> complete | failed, once
    // A build whose job the work service failed (a restart during the build: "interrupted") is
    // failed when next read; it never runs again.
    platform::json build(platform::Request& r);
    platform::json buildstatus(platform::Request& r);
    platform::json builds(platform::Request& r);
    platform::json build_run(platform::Request& r);
    // Views (views.cpp): the wrapper page carries a view token instead of relying on the
    // viewer's cookie. open_view() makes it when the page is served: a random 144-bit token
    // (CSPRNG) stored for kViewTtlMs with the app's slug, the viewer, the viewer's grant (one per
    // viewer, app and day; none for an anonymous viewer) and the "service/method" names the
    // viewer may call (callable_methods). relay {view, service, method, args} (POST, public, not
    // an MCP tool) makes one call of the page's app through that grant — the viewer's identity
    // and token restrictions, nothing more — and only of those methods: 401 for an unknown or
    // expired view, 403 for another method; the callee's own answer otherwise.
    platform::json relay(platform::Request& r);
    static constexpr int64_t kViewTtlMs = 12LL * 3600 * 1000;
    // GET /ui/apps/<slug>: the wrapper page with the sandboxed frame and the bridge (page.hpp);
    // GET /ui/apps/<slug>/frame: the app's HTML with the SDK helper. Public apps to anyone,
    // private ones to their owner only (404 to everyone else).
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
    // A build's id: "build_" and 20 hex digits (CSPRNG); never a slug, so `read` takes either.
    static constexpr const char* kBuildIdPattern = "^build_[0-9a-f]{20}$";
    static bool is_build_id(const std::string& s);
    // What a build that completes costs its owner (build_run is metered: the host's payment gate).
    static constexpr uint64_t kBuildPrice = 1;

private:
    static void describe_builds(platform::ServiceSpec<Apps>& s);
    static void describe_views(platform::ServiceSpec<Apps>& s);
    // A view token for the page of `slug` opened by r's caller (see relay).
    std::string open_view(platform::Request& r, const std::string& slug) const;
    static platform::schema::Value build_id_value();
    // "service/method" names the caller may call from an app (the assistant's tools for the
    // caller, and apps' own read, search, collection, embed). Throws when the host cannot list
    // them.
    std::set<std::string> callable_methods(platform::Request& r) const;
    // A build as buildstatus answers it (the app in full when complete).
    platform::json build_view(const platform::Request& r, const platform::json& rec) const;
    // The build record brought up to date with its job (work/get, waiting up to `wait` s): a job
    // the work service failed or blocked fails the build; a build never queued fails after 60 s.
    platform::json refreshed(const platform::Request& r, const platform::json& rec,
                             int64_t wait = 0) const;
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
