#include "apps.hpp"

#include <algorithm>
#include <set>
#include <sstream>

#include "fields.hpp"
#include "page.hpp"
#include "static_check.hpp"

namespace schema = platform::schema;

using platform::json;

namespace {

const char* const kSlugPattern = "^[a-z0-9]+(-[a-z0-9]+)*$";

schema::Value slug_value(std::string doc) {
    return schema::string().pattern(kSlugPattern).max_len(Apps::kSlugMax).doc(std::move(doc));
}

const schema::Object kSlugSchema =
    schema::object().prop("slug", slug_value("The app's slug")).required();

// read's: an app's slug or a build's id ("app or build status").
const schema::Object kSlugOrBuildSchema =
    schema::object()
        .prop("slug", schema::string()
                          .pattern("^([a-z0-9]+(-[a-z0-9]+)*|build_[0-9a-f]{20})$")
                          .max_len(Apps::kSlugMax)
                          .doc("The app's slug, or a build's id (its status)"))
        .required();

// The fields create and edit share; `name` and `html` are required by create only.
schema::Object app_fields(bool creating) {
    schema::Object o = schema::object();
    if (creating)
        o.prop("slug", slug_value("Lowercase words joined by '-'; from the name when omitted"));
    o.str("name").min_len(1).max_len(Apps::kNameMax).doc("What the app is called");
    if (creating) o.required();
    o.str("html")
        .max_bytes(Apps::kHtmlMaxBytes)
        .doc("The app: one self-contained HTML file, at most 256 KB");
    if (creating) o.required();
    o.str("description")
        .max_len(Apps::kDescriptionMax)
        .doc(creating ? "What it does; the name when omitted"
                      : "What it does; empty means the name")
        .str("tags")
        .max_len(Apps::kTagsMax)
        .doc("Comma-separated tags (at most 20, each at most 50 characters)")
        .str("icon")
        .max_bytes(Apps::kIconMaxBytes)
        .doc("An SVG image (<svg>...</svg>) without scripts or outside references")
        .integer("price")
        .range(0, Apps::kPriceMax)
        .doc("Credits per use by another account, 0 (free) to 1000")
        .boolean("public")
        .doc("Anyone may see and open it; only when the owner asks")
        .boolean("private")
        .doc("The opposite of public; apps are private unless made public");
    return o;
}

[[noreturn]] void missing(const std::string& slug) {
    throw platform::not_found("slug: no app '" + slug + "'");
}

[[noreturn]] void no_such_build(const std::string& id) {
    throw platform::not_found("slug: no build '" + id + "'");
}

std::string trimmed(const std::string& s) {
    const size_t b = s.find_first_not_of(" \t\r\n");
    if (b == std::string::npos) return "";
    return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

// An app in a list: every field but the HTML.
json summary(const json& app) {
    json out = apps_fields::owner_view(app);
    out.erase("html");
    return out;
}

// Newest change first.
void newest_first(std::vector<json>& apps) {
    std::stable_sort(apps.begin(), apps.end(), [](const json& a, const json& b) {
        return a.value("updated", "") > b.value("updated", "");
    });
}

// The last part of a service name: "go.core.api.v1.notes" -> "notes".
std::string short_service(const std::string& name) {
    const size_t dot = name.rfind('.');
    return dot == std::string::npos ? name : name.substr(dot + 1);
}

}  // namespace

void Apps::describe(platform::ServiceSpec<Apps>& s) {
    s.id("apps").version("1.0.0").service("v1.apps").summary(
        "Small self-contained HTML tools, private to their owner unless published");
    s.post("create")
        .title("Create an app")
        .description(
            "Saves an app: one self-contained HTML file (at most 256 KB) with a name, description, "
            "comma-separated tags, an SVG icon and a price per use (0-1000 credits). The slug "
            "comes "
            "from the name when omitted; a slug already taken gets a random suffix, so read the "
            "answer's slug. Private unless `public` is true: publish only when the owner asks.")
        .schema(app_fields(true))
        .access(platform::Access::owner)
        .max_body(2 * 1024 * 1024)
        .handler(&Apps::create);
    s.post("edit")
        .title("Edit an app")
        .description("Changes one of your apps; omitted fields keep their value.")
        .schema(schema::object()
                    .prop("slug", slug_value("The app's slug"))
                    .required()
                    .include(app_fields(false)))
        .access(platform::Access::owner)
        .max_body(2 * 1024 * 1024)
        .idempotent()
        .handler(&Apps::edit);
    s.get("read")
        .title("Read an app")
        .description(
            "Your app with its source HTML, or another account's public app without it; a private "
            "app of someone else is 404. Given a build's id, that build's status (yours only).")
        .schema(kSlugOrBuildSchema)
        .access(platform::Access::public_)
        .read_only()
        .handler(&Apps::read);
    s.get("search")
        .title("Search your apps")
        .description(
            "Your saved apps (never other accounts'), newest change first, at most 200: every word "
            "of `query` in the slug, name, description or tags, and `tag` among the tags.")
        .schema(schema::object()
                    .str("query")
                    .max_len(200)
                    .doc("Words to find (case-insensitive)")
                    .str("tag")
                    .max_len(50)
                    .doc("One tag the app must have (case-insensitive)"))
        .access(platform::Access::owner)
        .read_only()
        .handler(&Apps::search);
    s.get("collection")
        .title("Your app collection")
        .description(
            "Every app you saved, newest change first, without the HTML, and the source "
            "references: the apps yours were forked from.")
        .access(platform::Access::owner)
        .read_only()
        .handler(&Apps::collection);
    s.post("fork")
        .title("Fork an app")
        .description(
            "Copies your app or another account's free public app into your account as a new "
            "private app; the slug comes from `new_slug`, else from the original's, made unique.")
        .schema(schema::object()
                    .prop("slug", slug_value("The app to copy"))
                    .required()
                    .prop("new_slug", slug_value("The copy's slug; generated when omitted")))
        .access(platform::Access::owner)
        .handler(&Apps::fork);
    s.get("embed")
        .title("Show an app in the conversation")
        .description(
            "What the conversation shows for a saved app: its card, and its HTML when it is yours. "
            "Keeps the app's access as it is and publishes nothing.")
        .schema(kSlugSchema)
        .access(platform::Access::account)
        .read_only()
        .handler(&Apps::embed);
    s.post("test")
        .title("Check an app")
        .description(
            "A static check of your app's HTML, not a run in a browser: well-formed, only the app "
            "SDK's calls to methods you may use, nothing loaded from or sent outside, within 256 "
            "KB. Lists each problem with its rule and line.")
        .schema(kSlugSchema)
        .access(platform::Access::owner)
        .read_only()
        .handler(&Apps::test);
    s.get("page")
        .title("An app's page")
        .description(
            "GET /ui/apps/<slug>: the app in a frame sandboxed with allow-scripts only, under a "
            "deny-by-default Content-Security-Policy, with the bridge that carries its "
            "platform.call requests to /api/v1 as the viewer. Public apps to anyone, private ones "
            "to their owner.")
        .schema(kSlugSchema)
        .access(platform::Access::public_)
        .read_only()
        .http_path("/ui/apps/{slug}")
        .mcp_hidden()
        .async(&Apps::page);
    s.get("frame")
        .title("An app's own document")
        .description(
            "GET /ui/apps/<slug>/frame: the app's HTML with the SDK helper, sandboxed by its "
            "Content-Security-Policy (an opaque origin, no connection anywhere).")
        .schema(kSlugSchema)
        .access(platform::Access::public_)
        .read_only()
        .http_path("/ui/apps/{slug}/frame")
        .mcp_hidden()
        .async(&Apps::frame);
    describe_builds(s);
    describe_views(s);
}

std::optional<std::pair<std::string, json>> Apps::find(const std::string& slug) const {
    auto owner = host_.store().get("slug/" + slug);
    if (!owner) return std::nullopt;
    auto app = platform::Collection(host_.store(), kCollection, *owner).get(slug);
    if (!app) return std::nullopt;
    return std::make_pair(*owner, *app);
}

std::pair<std::string, json> Apps::visible(const platform::Request& r,
                                           const std::string& slug) const {
    auto found = find(slug);
    if (!found || (found->first != r.account() && !found->second.value("public", false)))
        missing(slug);
    return *found;
}

std::string Apps::claim_slug(const std::string& base, const std::string& owner) const {
    std::string stem = base.substr(0, kSlugMax - 7);
    while (!stem.empty() && stem.back() == '-') stem.pop_back();
    for (int attempt = 0; attempt < 16; ++attempt) {
        const std::string slug = attempt == 0 ? base : stem + "-" + platform::random_hex(3);
        if (host_.store().insert_if_absent("slug/" + slug, owner)) return slug;
    }
    throw platform::conflict("slug: no free slug starting with '" + stem + "'");
}

json Apps::save_new(const platform::Request& r, const std::string& base, json app) const {
    const std::string slug = claim_slug(base, r.account());
    app["slug"] = slug;
    try {
        r.owned(kCollection).put(slug, app);
    } catch (...) {
        host_.store().erase("slug/" + slug);
        throw;
    }
    return apps_fields::owner_view(app);
}

json Apps::create(platform::Request& r) {
    const json& a = r.args();
    const std::string name = r.str("name");
    std::string description = r.str("description");
    if (trimmed(description).empty()) description = name;
    const std::string icon = r.str("icon");
    apps_fields::check_icon(icon);
    const std::string now = platform::rfc3339(host_.now_ms());
    json app = {{"slug", ""},
                {"name", name},
                {"description", description},
                {"tags", apps_fields::normalise_tags(r.str("tags"))},
                {"icon", icon},
                {"html", r.str("html")},
                {"price", r.integer("price", 0, 0, kPriceMax)},
                {"public", apps_fields::visibility(a).value_or(false)},
                {"owner", r.account()},
                {"source", nullptr},
                {"created", now},
                {"updated", now}};
    return save_new(r, a.contains("slug") ? r.str("slug") : apps_fields::slug_from(name),
                    std::move(app));
}

json Apps::edit(platform::Request& r) {
    const json& a = r.args();
    const std::string slug = r.str("slug");
    if (a.contains("icon")) apps_fields::check_icon(r.str("icon"));
    const std::optional<bool> pub = apps_fields::visibility(a);
    const std::string tags = a.contains("tags") ? apps_fields::normalise_tags(r.str("tags")) : "";
    const std::string now = platform::rfc3339(host_.now_ms());
    auto written = r.owned(kCollection).update(slug, [&](const std::optional<json>& cur) {
        if (!cur) missing(slug);
        json app = *cur;
        for (const char* field : {"name", "html", "icon"})
            if (a.contains(field)) app[field] = r.str(field);
        if (a.contains("description")) app["description"] = r.str("description");
        if (trimmed(app.value("description", "")).empty()) app["description"] = app["name"];
        if (a.contains("tags")) app["tags"] = tags;
        if (a.contains("price")) app["price"] = r.integer("price", 0, 0, kPriceMax);
        if (pub) app["public"] = *pub;
        app["updated"] = now;
        return std::optional<json>(app);
    });
    return apps_fields::owner_view(*written);
}

json Apps::read(platform::Request& r) {
    if (is_build_id(r.str("slug"))) {  // "app or build status": a build is its owner's only
        if (r.anonymous()) no_such_build(r.str("slug"));
        auto rec = r.owned("builds").get(r.str("slug"));
        if (!rec) no_such_build(r.str("slug"));
        return build_view(r, refreshed(r, *rec));
    }
    auto [owner, app] = visible(r, r.str("slug"));
    return owner == r.account() ? apps_fields::owner_view(app) : apps_fields::public_view(app);
}

json Apps::search(platform::Request& r) {
    const std::string query = platform::lower(trimmed(r.str("query")));
    const std::string tag = trimmed(r.str("tag"));
    std::vector<std::string> words;
    std::istringstream in(query);
    for (std::string w; in >> w;) words.push_back(w);
    std::vector<json> found;
    for (auto& [slug, app] : r.owned(kCollection).list()) {
        if (!tag.empty() && !apps_fields::has_tag(app.value("tags", ""), tag)) continue;
        const std::string text =
            platform::lower(slug + " " + app.value("name", "") + " " +
                            app.value("description", "") + " " + app.value("tags", ""));
        if (!std::all_of(words.begin(), words.end(),
                         [&](const std::string& w) { return text.find(w) != std::string::npos; }))
            continue;
        found.push_back(summary(app));
    }
    newest_first(found);
    if (found.size() > kListMax) found.resize(kListMax);
    return {{"apps", found}, {"query", r.str("query")}, {"tag", tag}};
}

json Apps::collection(platform::Request& r) {
    std::vector<json> apps;
    json sources = json::array();
    std::set<std::string> seen;
    for (auto& [slug, app] : r.owned(kCollection).list()) {
        const json source = app.value("source", json());
        if (source.is_object() && seen.insert(source.dump()).second) sources.push_back(source);
        apps.push_back(summary(app));
    }
    newest_first(apps);
    return {{"apps", apps}, {"sources", sources}};
}

json Apps::fork(platform::Request& r) {
    const std::string slug = r.str("slug");
    auto [owner, original] = visible(r, slug);
    if (owner != r.account() && original.value("price", 0) > 0)
        throw platform::permission_denied("slug: '" + slug +
                                          "' is a priced app; only its owner may fork it");
    const std::string now = platform::rfc3339(host_.now_ms());
    json app = {{"slug", ""},
                {"name", original.value("name", slug)},
                {"description", original.value("description", "")},
                {"tags", original.value("tags", "")},
                {"icon", original.value("icon", "")},
                {"html", original.value("html", "")},
                {"price", 0},
                {"public", false},
                {"owner", r.account()},
                {"source", {{"kind", "fork"}, {"slug", slug}}},
                {"created", now},
                {"updated", now}};
    const std::string base = r.args().contains("new_slug") ? r.str("new_slug") : slug;
    return save_new(r, base, std::move(app));
}

json Apps::embed(platform::Request& r) {
    const std::string slug = r.str("slug");
    auto [owner, app] = visible(r, slug);
    const bool mine = owner == r.account();
    json card = {{"type", "app"},
                 {"slug", slug},
                 {"title", app.value("name", slug)},
                 {"description", app.value("description", "")},
                 {"icon", app.value("icon", "")},
                 {"visible_to", app.value("public", false) ? "anyone" : "owner"},
                 {"sandbox", "allow-scripts"}};
    card["url"] = "/ui/apps/" + slug;
    if (mine) card["html"] = app.value("html", "");
    return {{"embed", card},
            {"app", mine ? summary(app) : apps_fields::public_view(app)},
            {"published", app.value("public", false)}};
}

std::set<std::string> Apps::callable_methods(platform::Request& r) const {
    std::set<std::string> callable;
    // A tool is named "<service>_<method>", the method as its path writes it ("mark_read").
    for (const auto& t : r.tools()) {
        const std::string service = short_service(t.value("service", ""));
        const std::string name = t.value("name", "");
        if (name.rfind(service + "_", 0) == 0)
            callable.insert(service + "/" + name.substr(service.size() + 1));
    }
    for (const auto& e : {"read", "search", "collection", "embed"})
        callable.insert(std::string("apps/") + e);
    return callable;
}

json Apps::test(platform::Request& r) {
    const std::string slug = r.str("slug");
    auto app = r.owned(kCollection).get(slug);
    if (!app) missing(slug);
    std::set<std::string> callable;
    bool known = true;
    try {
        callable = callable_methods(r);
    } catch (const platform::Error&) {
        known = false;
    }
    json problems = json::array();
    for (const auto& p : apps_check::check(app->value("html", ""), kHtmlMaxBytes, callable, known))
        problems.push_back({{"rule", p.rule}, {"message", p.message}, {"line", p.line}});
    return {{"slug", slug},
            {"ok", problems.empty()},
            {"problems", problems},
            {"rules", apps_check::rules()},
            {"calls_checked", known}};
}

void Apps::page(platform::Request& r, platform::Responder out) {
    auto [owner, app] = visible(r, r.str("slug"));
    const std::string nonce = platform::random_base64url(18);
    const std::string view = open_view(r, r.str("slug"));
    out.raw("text/html; charset=utf-8", apps_page::wrapper_html(app, nonce, view),
            apps_page::wrapper_headers(nonce));
}

void Apps::frame(platform::Request& r, platform::Responder out) {
    auto [owner, app] = visible(r, r.str("slug"));
    out.raw("text/html; charset=utf-8", apps_page::frame_html(app.value("html", "")),
            apps_page::frame_headers());
}

PLATFORM_SERVICE(Apps)
