// The per-view credential of an app page's bridge (apps.hpp "Views"): a random token made when
// the wrapper page is served, holding the viewer's grant and the methods the viewer may call;
// apps/relay carries the bridge's calls with it.
#include <algorithm>

#include "apps.hpp"
#include "fields.hpp"

namespace schema = platform::schema;

using platform::json;

namespace {

const char* const kViewGrants = "viewgrants";  // owner-scoped: slug -> {grant, day}

std::string view_key(const std::string& token) {
    return "view/" + token;
}

}  // namespace

void Apps::describe_views(platform::ServiceSpec<Apps>& s) {
    s.post("relay")
        .title("Relay an app's call")
        .description(
            "The bridge of an app's page: carries one platform.call of the app to "
            "service/method as the page's viewer, with the page's view token (made when the page "
            "was served, valid for 12 hours) instead of a cookie. Only the methods the viewer "
            "could call when the page was opened.")
        .schema(schema::object()
                    .str("view")
                    .pattern("^[A-Za-z0-9_-]{24}$")
                    .set("examples", schema::ojson::array({"AAAAAAAAAAAAAAAAAAAAAAAA"}))
                    .required()
                    .doc("The view token of the page")
                    .str("service")
                    .pattern("^[a-z0-9-]{1,64}$")
                    .required()
                    .doc("The service, e.g. notes")
                    .str("method")
                    .pattern("^[a-z0-9_]{1,64}$")
                    .required()
                    .doc("Its method, e.g. list")
                    .prop("args", schema::any_object())
                    .doc("The call's arguments"))
        .access(platform::Access::public_)
        .max_body(2 * 1024 * 1024)
        .mcp_hidden()
        .handler(&Apps::relay);
}

std::string Apps::open_view(platform::Request& r, const std::string& slug) const {
    std::string grant;
    if (!r.anonymous()) {
        // One grant per viewer, app and day: reused while the day lasts, the day before's revoked.
        const std::string day = platform::rfc3339(host_.now_ms()).substr(0, 10);
        auto grants = r.owned(kViewGrants);
        auto held = grants.get(slug);
        if (held && apps_fields::text(*held, "day") == day) {
            grant = apps_fields::text(*held, "grant");
        } else {
            grant = r.grant();
            if (!grants.compare_and_set(slug, held, json{{"grant", grant}, {"day", day}})) {
                host_.revoke_grant(grant);  // another opening made today's meanwhile
                held = grants.get(slug);
                grant = held ? apps_fields::text(*held, "grant") : "";
            } else if (held) {
                host_.revoke_grant(apps_fields::text(*held, "grant"));
            }
        }
    }
    json callable = json::array();
    try {
        for (const auto& m : callable_methods(r)) callable.push_back(m);
    } catch (const platform::Error& e) {
        host_.warn("apps: the methods of a viewer of '" + slug + "' cannot be listed: " + e.what());
    }
    const std::string token = platform::random_base64url(18);
    host_.store().put(
        view_key(token),
        json{{"slug", slug}, {"viewer", r.account()}, {"grant", grant}, {"callable", callable}}
            .dump(),
        kViewTtlMs);
    return token;
}

json Apps::relay(platform::Request& r) {
    const auto raw = host_.store().get(view_key(r.str("view")));
    const json view = raw ? json::parse(*raw, nullptr, false) : json();
    if (!view.is_object())
        throw platform::unauthenticated("view: unknown or expired; reload the app's page");
    const std::string grant = apps_fields::text(view, "grant");
    if (grant.empty() && !r.anonymous())
        throw platform::invalid_argument(
            "view: the page was opened without an account; reload it to act as yourself");
    const std::string service = r.str("service"), method = r.str("method");
    const json callable = view.value("callable", json::array());
    if (std::find(callable.begin(), callable.end(), service + "/" + method) == callable.end())
        throw platform::permission_denied("service, method: " + service + "/" + method +
                                          " is not a method this page's viewer may call");
    const json args = r.args().value("args", json::object());
    platform::Host::CallResult res;
    try {
        // A signed-in viewer's calls go through the viewer's grant; an anonymous viewer's as
        // this (anonymous: the bridge sends no credential) call.
        res = grant.empty() ? host_.call(service, method, args, r.call())
                            : host_.call_granted(grant, service, method, args);
    } catch (const platform::Error& e) {
        if (e.code() == platform::Code::not_found && !grant.empty())
            throw platform::unauthenticated("view: expired; reload the app's page");
        throw;
    }
    if (!res.ok()) throw platform::Error(res.code, res.body);
    return json::parse(res.body, nullptr, false);
}
