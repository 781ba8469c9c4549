// The api handler (docs/decisions.md 16): resolve like rpc, call the endpoint with micro's
// api.Request as its arguments
//   {"method", "path", "header": {"Name": {"key", "values"}}, "get": {...}, "post": {...},
//    "body": "<raw body>", "url": "<path?query>"}
// (form bodies go to `post`, any other body raw to `body`; X-Forwarded-For gets the peer's address
// appended, Host is included), and write an api.Response-shaped result {statusCode, header, body}
// as that HTTP response (status 0 -> 200, default Content-Type application/json, body verbatim).
// Any other result is written as JSON. The endpoint's schema decides whether it takes that shape.
// Also the helpers shared by the handlers (handlers.hpp).
#include <strings.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <platform/host/core/status.hpp>
#include <platform/host/http/http_bodies.hpp>
#include <platform/sdk/percent.hpp>
#include <platform/sdk/random.hpp>
#include <platform/sdk/text.hpp>

#include "handlers.hpp"
#include "resolve.hpp"

namespace platform::host {

using nlohmann::json;

namespace gw {

namespace {
bool tchar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}
}  // namespace

std::string canonical_header(std::string_view name) {
    std::string out(name);
    bool upper = true;
    for (auto& c : out) {
        c = static_cast<char>(upper ? std::toupper(static_cast<unsigned char>(c))
                                    : std::tolower(static_cast<unsigned char>(c)));
        upper = c == '-';
    }
    return out;
}

json header_pairs(const std::map<std::string, std::string>& headers, bool credentials) {
    json out = json::object();
    for (const auto& [name, value] : headers) {
        if (!credentials &&
            (name == "authorization" || name == "cookie" || name == "proxy-authorization"))
            continue;
        const std::string key = canonical_header(name);
        out[key] = {{"key", key}, {"values", json::array({value})}};
    }
    return out;
}

std::map<std::string, std::vector<std::string>> form_values(std::string_view text) {
    std::map<std::string, std::vector<std::string>> out;
    size_t i = 0;
    while (i <= text.size()) {
        size_t j = text.find('&', i);
        if (j == std::string_view::npos) j = text.size();
        std::string_view pair = text.substr(i, j - i);
        if (!pair.empty()) {
            size_t eq = pair.find('=');
            std::string key = form_decode(pair.substr(0, eq));
            std::string value =
                eq == std::string_view::npos ? "" : form_decode(pair.substr(eq + 1));
            if (!key.empty()) out[key].push_back(std::move(value));
        }
        i = j + 1;
    }
    return out;
}

json form_pairs(std::string_view text) {
    json out = json::object();
    for (auto& [key, values] : form_values(text)) out[key] = {{"key", key}, {"values", values}};
    return out;
}

std::string media_type(const std::string& content_type) {
    std::string t = content_type.substr(0, content_type.find(';'));
    t.erase(std::remove_if(t.begin(), t.end(), ::isspace), t.end());
    return platform::lower(t);
}

std::string bearer(const HttpRequest& req) {
    std::string auth = req.header("authorization");
    if (auth.size() > 7 && strncasecmp(auth.c_str(), "bearer ", 7) == 0) return auth.substr(7);
    return "";
}

std::string cookie(const HttpRequest& req, std::string_view name) {
    const std::string header = req.header("cookie");
    size_t i = 0;
    while (i < header.size()) {
        size_t end = header.find(';', i);
        if (end == std::string::npos) end = header.size();
        size_t b = header.find_first_not_of(' ', i);
        if (b < end) {
            size_t eq = header.find('=', b);
            if (eq < end && std::string_view(header).substr(b, eq - b) == name)
                return header.substr(eq + 1, end - eq - 1);
        }
        i = end + 1;
    }
    return "";
}

std::string uuid4() {
    return platform::uuid4();
}

std::string percent_encode(std::string_view s) {
    return platform::percent_encode(s);
}

bool header_name_ok(std::string_view name) {
    return !name.empty() && std::all_of(name.begin(), name.end(), tchar);
}

bool header_value_ok(std::string_view value) {
    return value.find_first_of(std::string_view("\r\n\0", 3)) == std::string_view::npos;
}

bool hop_by_hop(std::string_view n) {
    static const char* names[] = {"connection",
                                  "keep-alive",
                                  "proxy-authenticate",
                                  "proxy-authorization",
                                  "proxy-connection",
                                  "te",
                                  "trailer",
                                  "trailers",
                                  "transfer-encoding",
                                  "upgrade",
                                  "content-length"};
    for (const char* h : names)
        if (n.size() == std::strlen(h) && strncasecmp(n.data(), h, n.size()) == 0) return true;
    return false;
}

std::string writable_content_type(const std::string& value, const std::string& fallback) {
    // type/subtype (tokens) with optional parameters, nothing that could end the header line.
    if (!header_value_ok(value)) return fallback;
    std::string type = media_type(value);
    auto slash = type.find('/');
    if (slash == 0 || slash == std::string::npos || slash + 1 >= type.size()) return fallback;
    if (!std::all_of(type.begin(), type.begin() + static_cast<std::ptrdiff_t>(slash), tchar) ||
        !std::all_of(type.begin() + static_cast<std::ptrdiff_t>(slash) + 1, type.end(), tchar))
        return fallback;
    return value;
}

json api_request(const HttpRequest& req) {
    auto headers = req.headers;
    if (!req.remote.empty()) {
        std::string xff = req.header("x-forwarded-for");
        headers["x-forwarded-for"] = xff.empty() ? req.remote : xff + ", " + req.remote;
    }
    const bool form = media_type(req.header("content-type")) == "application/x-www-form-urlencoded";
    return {{"method", req.method},
            {"path", req.path},
            {"header", header_pairs(headers, true)},
            {"get", form_pairs(req.query)},
            {"post", form ? form_pairs(req.body) : json::object()},
            {"body", form ? "" : req.body},
            {"url", req.query.empty() ? req.path : req.path + "?" + req.query}};
}

}  // namespace gw

namespace {
bool api_response_shape(const json& r) {
    if (!r.is_object() || r.empty()) return false;
    for (const auto& [k, v] : r.items()) {
        if (k == "statusCode" ? !v.is_number_integer()
            : k == "header"   ? !v.is_object()
            : k == "body"     ? !v.is_string()
                              : true)
            return false;
    }
    return true;
}

// An api.Response (or any result) as the HTTP response, without the host's answer headers.
HttpResponse api_answer_body(const std::string& name, Outcome& o) {
    if (o.code != PLATFORM_OK) return gateway_error(name, status_info(o.code).http, o.body);
    HttpResponse r;
    if (o.raw) {
        r.content_type = gw::writable_content_type(o.content_type, "application/octet-stream");
        r.body = std::move(o.body);
        return r;
    }
    json result = json::parse(o.body, nullptr, false);
    if (!api_response_shape(result)) {
        r.body = std::move(o.body);
        return r;
    }
    const int64_t status = result.value("statusCode", int64_t{0});
    if (status != 0 && (status < 100 || status > 599))
        return gateway_error(
            name, 502,
            "api.Response statusCode " + std::to_string(status) + " is not an HTTP status");
    r.status = status == 0 ? 200 : static_cast<int>(status);
    if (result.contains("header"))
        for (const auto& [key, pair] : result["header"].items()) {
            std::string name_ = pair.is_object() && pair.contains("key") && pair["key"].is_string()
                                    ? pair["key"].get<std::string>()
                                    : key;
            if (name_.empty()) name_ = key;
            if (!gw::header_name_ok(name_) || gw::hop_by_hop(name_) ||
                strcasecmp(name_.c_str(), "x-request-id") == 0)
                continue;
            json values = pair.is_object() ? pair.value("values", json::array()) : pair;
            if (values.is_string()) values = json::array({values});
            if (!values.is_array()) continue;
            for (const auto& v : values) {
                if (!v.is_string() || !gw::header_value_ok(v.get<std::string>())) continue;
                if (strcasecmp(name_.c_str(), "content-type") == 0)
                    r.content_type =
                        gw::writable_content_type(v.get<std::string>(), r.content_type);
                else
                    r.headers.emplace_back(name_, v.get<std::string>());
            }
        }
    r.body = result.value("body", "");
    return r;
}

HttpResponse api_answer(const std::string& name, Outcome o) {
    if (auto r = raw_failure(o)) return std::move(*r);
    return with_outcome_headers(api_answer_body(name, o), o);
}
}  // namespace

void Gateway::api_handler(HttpRequest& req, const Reply& reply) {
    static const RouteRule rule{RouteRule::Lookup::rpc_path, RouteRule::Verbs::any,
                                RouteRule::Args::api_request};
    auto call = resolve(req, rule, runtime_, request_namespace(req));
    if (auto* no = std::get_if<Refusal>(&call)) return reply(render(*no, rule.style));
    auto& c = std::get<Resolved>(call);
    invoke(req, *c.service, *c.endpoint, std::move(c.args),
           [reply, name = c.service->name](Outcome o) { reply(api_answer(name, std::move(o))); });
}

}  // namespace platform::host
