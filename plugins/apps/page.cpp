#include "page.hpp"

using platform::json;

namespace apps_page {

namespace {

// The SDK helper, first in the app's document (see page.hpp).
const char* const kHelper = R"JS(<script>
(function () {
  var pending = new Map(), next = 0;
  window.addEventListener('message', function (event) {
    if (event.source !== window.parent) return;
    var m = event.data;
    if (!m || m.type !== 'platform.reply' || !pending.has(m.id)) return;
    var p = pending.get(m.id);
    pending.delete(m.id);
    if (m.ok) return p.resolve(m.data);
    var e = new Error((m.error && m.error.message) || 'the call failed');
    e.status = m.status;
    e.code = m.error && m.error.code;
    p.reject(e);
  });
  function call(service, method, args) {
    return new Promise(function (resolve, reject) {
      var id = ++next;
      pending.set(id, {resolve: resolve, reject: reject});
      window.parent.postMessage({type: 'platform.call', id: id, service: String(service),
                                 method: String(method), args: args || {}}, '*');
    });
  }
  Object.defineProperty(window, 'platform', {value: Object.freeze({call: call})});
  var api = /^\/api\/v1\/([a-z0-9-]+)\/([a-z0-9_]+)(?:\?([^#]*))?$/;
  window.fetch = function (input, init) {
    var url = typeof input === 'string' ? input : '';
    var m = api.exec(url);
    if (!m) return Promise.reject(new TypeError('an app reaches only /api/v1/<service>/<method>'));
    var args = {};
    if (m[3]) new URLSearchParams(m[3]).forEach(function (v, k) { args[k] = v; });
    if (init && typeof init.body === 'string' && init.body) {
      try { Object.assign(args, JSON.parse(init.body)); } catch (e) { return Promise.reject(e); }
    }
    function answer(status, body) {
      return new Response(JSON.stringify(body),
                          {status: status, headers: {'Content-Type': 'application/json'}});
    }
    return call(m[1], m[2], args).then(function (data) { return answer(200, {data: data}); },
      function (e) {
        return answer(e.status || 502, {error: {code: e.code || 'unavailable', message: e.message}});
      });
  };
})();
</script>
)JS";

// The bridge, in the wrapper page (see page.hpp).
const char* const kBridge = R"JS(
(function () {
  var frame = document.getElementById('app');
  var view = frame.getAttribute('data-view');
  var services = /^[a-z0-9-]{1,64}$/, methods = /^[a-z0-9_]{1,64}$/;
  window.addEventListener('message', function (event) {
    if (event.source !== frame.contentWindow || event.origin !== 'null') return;
    var m = event.data;
    if (!m || m.type !== 'platform.call' || typeof m.id !== 'number' ||
        !services.test(m.service) || !methods.test(m.method)) return;
    var target = event.source;
    function reply(r) { r.type = 'platform.reply'; r.id = m.id; target.postMessage(r, '*'); }
    var args = m.args && typeof m.args === 'object' && !Array.isArray(m.args) ? m.args : {};
    fetch('/api/v1/apps/relay',
          {method: 'POST', credentials: 'omit', headers: {'Content-Type': 'application/json'},
           body: JSON.stringify({view: view, service: m.service, method: m.method, args: args})})
      .then(function (r) {
        return r.json().catch(function () { return {}; }).then(function (body) {
          reply(r.ok ? {ok: true, data: body.data}
                     : {ok: false, status: r.status, error: body.error || {message: r.statusText}});
        });
      }, function (e) { reply({ok: false, status: 0, error: {message: String(e)}}); });
  });
})();
)JS";

const char* const kPermissions =
    "camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=()";

// Where the helper goes: after a leading doctype (so the document stays in standards mode), else
// at the very start.
size_t helper_at(const std::string& html) {
    size_t i = 0;
    if (html.compare(0, 3, "\xEF\xBB\xBF") == 0) i = 3;
    while (i < html.size() && (html[i] == ' ' || html[i] == '\t' || html[i] == '\r' ||
                               html[i] == '\n' || html[i] == '\f'))
        ++i;
    if (platform::lower(html.substr(i, 9)) != "<!doctype") return 0;
    const size_t end = html.find('>', i);
    return end == std::string::npos ? 0 : end + 1;
}

}  // namespace

std::string wrapper_html(const json& app, const std::string& nonce, const std::string& view) {
    const std::string slug = app.value("slug", ""), name = app.value("name", slug);
    return "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
           "<title>" +
           platform::html_escape(name) + "</title><style nonce=\"" + nonce +
           "\">html,body{margin:0;height:100%}iframe{display:block;border:0;width:100%;"
           "height:100%}</style></head>\n<body><iframe id=\"app\" title=\"" +
           platform::html_escape(name) + "\" sandbox=\"allow-scripts\" src=\"/ui/apps/" +
           platform::html_escape(slug) + "/frame\" data-view=\"" + platform::html_escape(view) +
           "\" referrerpolicy=\"no-referrer\"></iframe>\n<script nonce=\"" + nonce + "\">" +
           kBridge + "</script></body></html>\n";
}

json wrapper_headers(const std::string& nonce) {
    return {{"Content-Security-Policy",
             "default-src 'none'; script-src 'nonce-" + nonce + "'; style-src 'nonce-" + nonce +
                 "'; img-src 'self' data:; frame-src 'self'; connect-src 'self'; base-uri 'none'; "
                 "form-action 'none'; frame-ancestors 'self'"},
            {"X-Frame-Options", "SAMEORIGIN"},
            {"X-Content-Type-Options", "nosniff"},
            {"Referrer-Policy", "no-referrer"},
            {"Cache-Control", "private, no-store"},
            {"Cross-Origin-Opener-Policy", "same-origin"},
            {"Permissions-Policy", kPermissions}};
}

std::string frame_html(const std::string& html) {
    std::string out = html;
    out.insert(helper_at(html), kHelper);
    return out;
}

json frame_headers() {
    return {{"Content-Security-Policy",
             "sandbox allow-scripts; default-src 'none'; script-src 'unsafe-inline'; "
             "style-src 'unsafe-inline'; img-src data: blob:; font-src data:; "
             "media-src data: blob:; connect-src 'none'; form-action 'none'; base-uri 'none'; "
             "frame-ancestors 'self'"},
            {"X-Frame-Options", "SAMEORIGIN"},
            {"X-Content-Type-Options", "nosniff"},
            {"Referrer-Policy", "no-referrer"},
            {"Cache-Control", "private, no-store"},
            {"Permissions-Policy", kPermissions}};
}

}  // namespace apps_page
