// An app's pages in the browser, and the headers that sandbox them:
//
//   GET /ui/apps/<slug>        the wrapper: the app's name and an
//                              <iframe sandbox="allow-scripts" src="/ui/apps/<slug>/frame">
//                              (never allow-same-origin), and the bridge script. Its
//                              Content-Security-Policy allows only its own nonce'd script and
//                              style, frames from this origin and requests to this origin.
//   GET /ui/apps/<slug>/frame  the app's HTML with the SDK helper put first. Its
//                              Content-Security-Policy starts with `sandbox allow-scripts`, so the
//                              document has an opaque origin even when opened on its own (no
//                              cookies, no storage of the console's origin), and denies by
//                              default: inline script and style, data: images and fonts, and no
//                              connection anywhere (connect-src 'none').
//
// The helper defines `platform.call(service, method, args)` (a Promise of the method's `data`, or
// an Error with `status` and `code`) and makes `fetch('/api/v1/<service>/<method>[?query]',
// {body})` go the same way (its answer a Response with the /api/v1 body); it posts
// {type: "platform.call", id, service, method, args} to the parent window. The bridge takes
// messages only from its frame's window and from an opaque origin ("null"), checks the names,
// calls POST /api/v1/apps/relay {view, service, method, args} with the page's view token and no
// cookie (apps.hpp "Views": the viewer's grant, limited to the methods the viewer may call), and
// posts {type: "platform.reply", id, ok, data | status, error} back to that window only.
#pragma once

#include <platform/sdk.hpp>
#include <string>

namespace apps_page {

// The wrapper page of `app` whose script and style carry `nonce`, its bridge using the view
// token `view`.
std::string wrapper_html(const platform::json& app, const std::string& nonce,
                         const std::string& view);
platform::json wrapper_headers(const std::string& nonce);

// The app's HTML with the SDK helper first (after a leading doctype, else at the very start).
std::string frame_html(const std::string& html);
platform::json frame_headers();

}  // namespace apps_page
