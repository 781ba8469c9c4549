// The web console (docs/console.md): GET /ui/ is its page, GET /ui/console/<file> its scripts and
// styles, all from console/ (built in, or PLATFORM_CONSOLE_DIR's folder read per request). The
// page talks to the public HTTP API only, with the session cookie and X-CSRF-Token.
#include <cstdint>
#include <fstream>
#include <optional>
#include <platform/host/core/runtime.hpp>
#include <platform/host/core/settings.hpp>
#include <platform/host/http/http_bodies.hpp>

#include "console_files.hpp"
#include "handlers.hpp"

namespace platform::host {

namespace {

// Everything a console answer may load: its own origin's scripts, styles, images and API; no
// inline script or style, no plugin, not framed by anyone. Apps open in their own page.
constexpr const char* kConsolePolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; frame-src 'self'; form-action 'self'; "
    "base-uri 'none'; frame-ancestors 'none'";

const char* type_of(std::string_view name) {
    auto ends = [&](std::string_view ext) {
        return name.size() > ext.size() && name.substr(name.size() - ext.size()) == ext;
    };
    if (ends(".html")) return "text/html; charset=utf-8";
    if (ends(".js")) return "text/javascript; charset=utf-8";
    if (ends(".css")) return "text/css; charset=utf-8";
    if (ends(".svg")) return "image/svg+xml";
    return nullptr;
}

// A console file name: [a-z0-9-]+ and a known extension; no folder, so no path escapes.
bool file_name_ok(std::string_view name) {
    const auto dot = name.rfind('.');
    if (dot == std::string_view::npos || dot == 0 || !type_of(name)) return false;
    for (size_t i = 0; i < dot; ++i) {
        const char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
    }
    return true;
}

std::string etag_of(std::string_view bytes) {
    uint64_t h = 1469598103934665603ull;  // FNV-1a, 64 bits: a cache validator, not a secret
    for (unsigned char c : bytes) h = (h ^ c) * 1099511628211ull;
    char buf[24];
    std::snprintf(buf, sizeof buf, "\"%016llx\"", static_cast<unsigned long long>(h));
    return buf;
}

std::optional<std::string> file_bytes(const std::string& dir, std::string_view name) {
    if (!dir.empty()) {
        std::ifstream in(dir + "/" + std::string(name), std::ios::binary);
        if (!in) return std::nullopt;
        return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    }
    for (const auto& f : console_files())
        if (f.name == name) return std::string(f.bytes);
    return std::nullopt;
}

HttpResponse with_policy(HttpResponse r) {
    r.headers.emplace_back("Content-Security-Policy", kConsolePolicy);
    r.headers.emplace_back("X-Content-Type-Options", "nosniff");
    r.headers.emplace_back("Referrer-Policy", "no-referrer");
    r.headers.emplace_back("X-Frame-Options", "DENY");
    return r;
}

}  // namespace

bool Gateway::console_route(HttpRequest& req, const Reply& reply) {
    constexpr std::string_view kFiles = "/ui/console/";
    const bool page = req.path == "/ui/" || req.path == "/ui";
    const bool file = req.path.compare(0, kFiles.size(), kFiles) == 0;
    if (!page && !file) return false;
    const std::string ns = request_namespace(req);
    if (req.method != "GET" && req.method != "HEAD") {
        auto r = gateway_error(ns, 405, "the console's pages and files answer GET only");
        r.headers.emplace_back("Allow", "GET, HEAD");
        return reply(with_policy(std::move(r))), true;
    }
    if (req.path == "/ui") {
        HttpResponse r;
        r.status = 308;
        r.content_type = "text/plain; charset=utf-8";
        r.body = "the console is at /ui/\n";
        r.headers.emplace_back("Location", "/ui/");
        return reply(with_policy(std::move(r))), true;
    }
    const std::string_view name =
        page ? std::string_view("index.html") : std::string_view(req.path).substr(kFiles.size());
    std::optional<std::string> bytes;
    if (file_name_ok(name)) bytes = file_bytes(runtime_.settings().console_dir, name);
    if (!bytes)
        return reply(with_policy(gateway_error(
                   ns, 404, "the console has no file " + std::string(name.substr(0, 100))))),
               true;
    HttpResponse r;
    const std::string etag = etag_of(*bytes);
    r.headers.emplace_back("ETag", etag);
    r.headers.emplace_back("Cache-Control", "no-cache");  // revalidated: a new build shows at once
    if (req.header("if-none-match") == etag) {
        r.status = 304;
        r.content_type.clear();
    } else {
        r.content_type = type_of(name);
        r.body = std::move(*bytes);
    }
    return reply(with_policy(std::move(r))), true;
}

}  // namespace platform::host
