#include "common/upstream/upstream.hpp"

#include <openssl/sha.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <optional>
#include <platform/sdk/percent.hpp>
#include <regex>

namespace common::upstream {

using platform::Code;
using platform::Error;

namespace {

std::string header(const nlohmann::json& headers, const char* name) {
    auto it = headers.find(name);
    return it != headers.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The lifetime Cache-Control gives (no-store and no-cache: none), or `fallback` without one.
int64_t lifetime(const std::string& cache_control, int64_t fallback) {
    if (cache_control.empty() || fallback == kNoCache) return fallback;
    std::string cc = cache_control;
    std::transform(cc.begin(), cc.end(), cc.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    if (cc.find("no-store") != std::string::npos || cc.find("no-cache") != std::string::npos)
        return kNoCache;
    static const std::regex max_age("max-age\\s*=\\s*([0-9]{1,9})");
    std::smatch m;
    if (fallback != kForever && std::regex_search(cc, m, max_age)) return std::stoll(m[1]) * 1000;
    return fallback;
}

// "<status>\n<content type>\n<body>": the cached form of an answer.
std::string pack(const Answer& a) {
    return std::to_string(a.status) + "\n" + a.content_type + "\n" + a.body;
}
std::optional<Answer> unpack(const std::string& v) {
    auto a = v.find('\n');
    auto b = a == std::string::npos ? a : v.find('\n', a + 1);
    if (b == std::string::npos) return std::nullopt;
    Answer out;
    out.status = std::atoi(v.substr(0, a).c_str());
    out.content_type = v.substr(a + 1, b - a - 1);
    out.body = v.substr(b + 1);
    out.cached = true;
    return out;
}

}  // namespace

Upstream::Upstream(const platform::Host& host, Provider provider)
    : host_(host), p_(std::move(provider)) {}

Error Upstream::malformed(const std::string& what) const {
    return Error(Code::bad_gateway, p_.title + " answered a malformed body: " + what);
}

std::string Upstream::cache_key(const std::string& path, const Options& o) const {
    const std::string what = o.method + " " + path + "\n" + o.body;
    unsigned char d[SHA256_DIGEST_LENGTH];
    SHA256(reinterpret_cast<const unsigned char*>(what.data()), what.size(), d);
    std::string hex;
    char two[3];
    for (unsigned char c : d) {
        std::snprintf(two, sizeof two, "%02x", c);
        hex += two;
    }
    return "upstream:" + p_.name + ":" + hex;
}

bool Upstream::held(const std::string& path) const {
    return p_.ttl_ms != kNoCache && host_.store().get(cache_key(path, Options{})).has_value();
}

Answer Upstream::fetch(const std::string& path, const Options& o) const {
    const std::string key = cache_key(path, o);
    if (p_.ttl_ms != kNoCache)
        if (auto v = host_.store().get(key))
            if (auto a = unpack(*v)) return *a;

    platform::HttpRequest req;
    req.method = o.method;
    req.url = path;
    req.provider = p_.name;
    req.headers = o.headers;
    req.body = o.body;
    req.timeout_ms = p_.timeout_ms;
    req.max_bytes = o.max_bytes;
    if (!o.content_type.empty()) req.headers["Content-Type"] = o.content_type;
    const std::string setting = "providers." + p_.name;
    platform::HttpResponse r;
    try {
        r = host_.fetch(req);
    } catch (const Error& e) {
        const std::string why = e.what();
        switch (e.code()) {
            case Code::unavailable:
                throw Error(
                    Code::unavailable,
                    why + (why.find(".base_url") != std::string::npos && !p_.public_base.empty()
                               ? "; " + p_.title + "'s public API is " + p_.public_base +
                                     (p_.keyed ? " (it also needs " + setting + ".api_key)" : "")
                               : ""));
            case Code::timeout:
            case Code::deadline_exceeded:
                throw Error(Code::deadline_exceeded, p_.title + " did not answer in time: " + why);
            case Code::permission_denied:
                throw Error(Code::unavailable, p_.title + " may not be reached: " + why +
                                                   " (the profile's outbound.allow)");
            case Code::bad_gateway:
                throw Error(Code::bad_gateway, p_.title + " could not be reached: " + why);
            case Code::payload_too_large:
                throw Error(Code::bad_gateway, p_.title + " answered too much: " + why);
            default:
                throw;
        }
    }

    Answer a{r.status, std::move(r.body), header(r.headers, "content-type"), false};
    const bool passed = std::find(o.pass.begin(), o.pass.end(), r.status) != o.pass.end();
    if (!passed && (r.status < 200 || r.status > 299)) {
        const std::string status = " (" + std::to_string(r.status) + ")";
        std::string said = a.body.substr(0, 200);
        said.erase(std::remove(said.begin(), said.end(), '\n'), said.end());
        if (r.status == 401 || r.status == 403)
            throw Error(Code::unavailable, setting + ".api_key: " + p_.title +
                                               " refused the request" + status +
                                               (p_.keyed ? "; set a valid key" : "") +
                                               (said.empty() ? "" : ": " + said));
        if (r.status == 429 || r.status == 503)
            throw Error(Code::unavailable,
                        p_.title + " is not answering now" + status + "; try again later");
        throw Error(Code::bad_gateway, p_.title + " answered " + std::to_string(r.status) +
                                           (said.empty() ? "" : ": " + said));
    }
    const int64_t ttl = lifetime(header(r.headers, "cache-control"), p_.ttl_ms);
    if (ttl != kNoCache) host_.store().put(key, pack(a), ttl == kForever ? 0 : ttl);
    return a;
}

nlohmann::json Upstream::get_json(const std::string& path, const Options& o) const {
    Answer a = fetch(path, o);
    auto j = nlohmann::json::parse(a.body, nullptr, false);
    if (j.is_discarded()) throw malformed("the body is not JSON");
    return j;
}

// ---- Query ------------------------------------------------------------------------------------

std::string encode(const std::string& value) {
    return platform::percent_encode(value);
}

Query& Query::str(const std::string& name, const std::string& value) {
    q_ += (q_.empty() ? "?" : "&") + encode(name) + "=" + encode(value);
    return *this;
}

Query& Query::num(const std::string& name, double value) {
    char buf[32];
    auto r = std::to_chars(buf, buf + sizeof buf, value);
    return str(name, std::string(buf, r.ptr));
}

Query& Query::integer(const std::string& name, int64_t value) {
    return str(name, std::to_string(value));
}

}  // namespace common::upstream
