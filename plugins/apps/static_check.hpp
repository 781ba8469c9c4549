// The static check behind apps/test: reads an app's HTML without running it and lists every
// problem with the rule it breaks. Nothing here executes script or fetches anything.
//
// Rules:
//   size         the HTML is at most 256 KB
//   well-formed  every tag is closed and nested (elements whose end tag HTML makes optional, such
//                as <p>, <li>, <td>, and void elements such as <br> excepted), quotes and comments
//                end, no attribute twice, no `<div/>` outside SVG and MathML (HTML ignores the /)
//   sdk          the app calls services only through the app SDK: `platform.call(service, method,
//                args)` or a relative `fetch('/api/v1/<service>/<method>', ...)`; a service and
//                method written literally must be one the caller may use; `platform.<other>` is
//                not part of the SDK
//   external     nothing outside the app is loaded or contacted: no absolute or protocol-relative
//                URL in src/href/action/... attributes, CSS url() or @import, or a script's
//                strings (XML namespace URIs of www.w3.org excepted); no fetch of anything but
//                /api/v1; no XMLHttpRequest, WebSocket, EventSource, sendBeacon, importScripts,
//                import(), RTCPeerConnection; no <script src> or stylesheet <link> (an app is one
//                file)
//   sandbox      what an opaque-origin sandbox does not have: document.cookie, localStorage,
//                sessionStorage, indexedDB, window.top/parent navigation
// Inline scripts (<script> bodies and on* attributes) and styles are read with a small lexer that
// skips comments and reads string literals; a URL written as page text is not a problem.
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace apps_check {

struct Problem {
    std::string rule;     // size, well-formed, sdk, external, sandbox
    std::string message;  // what is wrong and where, e.g. "<div> opened on line 3 is never closed"
    int line = 0;         // 1-based line of the HTML; 0 for the whole document
};

// The rules above, in the order they are listed.
const std::vector<std::string>& rules();

// Every problem of `html`, in document order within each rule (at most 100). `callable` holds
// the "service/method" pairs the app may call; with `check_calls` false the sdk rule does not
// check names against it (the caller's tools were not known).
std::vector<Problem> check(std::string_view html, size_t max_bytes,
                           const std::set<std::string>& callable, bool check_calls = true);

}  // namespace apps_check
