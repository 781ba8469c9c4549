// platform/host/http/http_cors.hpp — which pages on other origins may read the host's answers.
//
// A browser lets a page read a cross-origin answer only when the answer names the page's origin
// in Access-Control-Allow-Origin; with Access-Control-Allow-Credentials: true it also sends the
// user's cookies, so the page reads what the signed-in user may read. Cookie sessions
// (/auth/login) make that a grant of the user's data, so it goes only to the origins an operator
// lists in the profile (`http.cors.origins`, HttpSettings):
//   - a listed origin: Allow-Origin: <that origin>, Allow-Credentials: true, Vary: Origin;
//   - "*" listed: any other origin gets Allow-Origin: *, without credentials (a browser then sends
//     no cookies: pages that bring their own bearer token);
//   - otherwise, and always for the origin `null` (sandboxed frames, files): no CORS header, so
//     the browser keeps the answer from the page. Clients that are not browsers (curl, the CLI,
//     MCP clients) never look at these headers and are not affected.
// With an allowed origin the answer also gets the methods, request headers and exposed headers
// below; an OPTIONS request (a preflight) is answered 200 with an empty body before auth and
// routing. Headers a handler already set are kept. Profile `http.cors: false` turns all of it off.
// micro reflects every origin with credentials; docs/decisions.md (34) says why we do not.
#pragma once

#include <platform/host/core/http_settings.hpp>
#include <string>
#include <utility>
#include <vector>

namespace platform::host {

using HeaderList = std::vector<std::pair<std::string, std::string>>;

// True when `headers` has `name` (ASCII case-insensitive).
bool has_header(const HeaderList& headers, const std::string& name);

// Adds the CORS headers above to a response's headers; `origin` is the request's Origin ("" =
// none).
void add_cors_headers(HeaderList& headers, const std::string& origin, const CorsSettings& cors);

}  // namespace platform::host
