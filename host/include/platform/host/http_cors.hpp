// platform/host/http_cors.hpp — CORS as micro does it (reference/micro.md §1.1, DESIGN §5).
//
// Every response gets, unless the handler already set them:
//   Access-Control-Allow-Origin: <the request's Origin, or *>
//   Access-Control-Allow-Credentials: true
//   Access-Control-Allow-Methods: POST, PATCH, GET, OPTIONS, PUT, DELETE
//   Access-Control-Allow-Headers: Accept, Content-Type, Content-Length, Accept-Encoding,
//                                 X-CSRF-Token, Authorization, Platform-Namespace
// plus `Vary: Origin` when the origin is echoed (so caches keep one answer per origin).
// An OPTIONS request is answered 200 with an empty body before auth and routing.
// Profile `http.cors: false` turns all of it off.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace platform::host {

using HeaderList = std::vector<std::pair<std::string, std::string>>;

// True when `headers` has `name` (ASCII case-insensitive).
bool has_header(const HeaderList& headers, const std::string& name);

// Adds the CORS headers above to a response's headers; `origin` is the request's Origin ("" = none).
void add_cors_headers(HeaderList& headers, const std::string& origin);

}  // namespace platform::host
