#include <nlohmann/json.hpp>
#include <platform/host/core/status.hpp>
#include <platform/host/http/http_bodies.hpp>
#include <platform/validation/json_check.hpp>

namespace platform::host {

using nlohmann::json;

namespace {
std::string dump(const json& j) {
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}
void add_auth_header(HttpResponse& r) {
    if (r.status == 401) r.headers.emplace_back("WWW-Authenticate", "Bearer");
}
}  // namespace

HttpResponse gateway_error(const std::string& id, int http_status, const std::string& detail) {
    HttpResponse r;
    r.status = http_status;
    r.body = dump({{"Id", id},
                   {"Code", http_status},
                   {"Detail", detail},
                   {"Status", std::string(http_reason(http_status))}});
    add_auth_header(r);
    return r;
}

HttpResponse catalogue_error(int http_status, const std::string& code, const std::string& message) {
    HttpResponse r;
    r.status = http_status;
    r.body = dump({{"error", {{"code", code}, {"message", message}}}});
    add_auth_header(r);
    return r;
}

HttpResponse catalogue_status(platform_status_t code, const std::string& message) {
    const auto& s = status_info(code);
    return catalogue_error(s.http, std::string(s.name), message);
}

HttpResponse with_outcome_headers(HttpResponse r, Outcome& o) {
    for (auto& h : o.headers) r.headers.push_back(std::move(h));
    return r;
}

// A failure the host answered with a body of its own (a 402 challenge), or nullopt.
std::optional<HttpResponse> raw_failure(Outcome& o) {
    if (o.code == PLATFORM_OK || !o.raw) return std::nullopt;
    HttpResponse r;
    r.status = status_info(o.code).http;
    r.content_type = o.content_type.empty() ? "application/json" : o.content_type;
    r.body = std::move(o.body);
    return with_outcome_headers(std::move(r), o);
}

HttpResponse gateway_outcome(const std::string& id, Outcome o) {
    if (auto r = raw_failure(o)) return std::move(*r);
    if (o.code != PLATFORM_OK)
        return with_outcome_headers(gateway_error(id, status_info(o.code).http, o.body), o);
    HttpResponse r;
    if (o.raw) r.content_type = o.content_type;
    r.body = std::move(o.body);
    return with_outcome_headers(std::move(r), o);
}

HttpResponse catalogue_outcome(Outcome o, bool result_envelope) {
    if (auto r = raw_failure(o)) return std::move(*r);
    if (o.code != PLATFORM_OK) return with_outcome_headers(catalogue_status(o.code, o.body), o);
    HttpResponse r;
    if (o.raw) {
        r.content_type = o.content_type;
        r.body = std::move(o.body);
        return with_outcome_headers(std::move(r), o);
    }
    // The plugin's bytes go out as they are (the SDK answers with nlohmann's compact dump, which
    // is what a parse and a dump would give again); only their validity is checked, in one pass
    // that builds nothing (json_check.hpp; nlohmann::json::accept was 8 % of a small request).
    if (!validation::json_valid(o.body))
        return catalogue_status(PLATFORM_INTERNAL, "the service answered invalid JSON");
    const std::string_view open = result_envelope ? R"({"result":)" : R"({"data":)";
    r.body.reserve(open.size() + o.body.size() + 1);
    r.body.append(open).append(o.body).push_back('}');
    return with_outcome_headers(std::move(r), o);
}

}  // namespace platform::host
