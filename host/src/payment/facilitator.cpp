// The x402 facilitator client (payment.hpp): POST {x402Version, paymentPayload,
// paymentRequirements} to <facilitator_url>/verify and /settle through the host's outbound client
// (an operator URL: a loopback or private facilitator must be on outbound.allow). Blocking; the
// gate calls it from the worker pool. Each request is bounded by payment.timeout_ms.
#include <platform/host/core/payment.hpp>
#include <platform/host/outbound/outbound.hpp>

namespace platform::host {

using nlohmann::json;

namespace {
struct Collected {
    platform_status_t status = PLATFORM_INTERNAL;
    int http = 0;
    std::string body, error;
};
std::string str(platform_str_t s) {
    return s.ptr ? std::string(s.ptr, s.len) : std::string();
}
}  // namespace

Facilitator::Facilitator(const Outbound& outbound, const PaymentSettings& settings)
    : outbound_(outbound), settings_(settings) {}

FacilitatorAnswer Facilitator::verify(int version, const json& payload,
                                      const json& requirements) const {
    return post("/verify", "isValid", version, payload, requirements);
}

FacilitatorAnswer Facilitator::settle(int version, const json& payload,
                                      const json& requirements) const {
    return post("/settle", "success", version, payload, requirements);
}

FacilitatorAnswer Facilitator::post(const std::string& path, const char* field, int version,
                                    const json& payload, const json& requirements) const {
    FacilitatorAnswer out;
    if (settings_.facilitator_url.empty()) {
        out.error = "no facilitator is configured";
        return out;
    }
    const std::string url = settings_.facilitator_url + path;
    const std::string body = json{
        {"x402Version", version},
        {"paymentPayload", payload},
        {"paymentRequirements",
         requirements}}.dump(-1, ' ', false, json::error_handler_t::replace);
    const std::string method = "POST";
    const std::string headers =
        R"({"Content-Type":"application/json","Accept":"application/json"})";
    platform_http_request_t req = http_request(method, url, headers, body);
    req.timeout_ms = static_cast<int32_t>(settings_.timeout_ms);
    req.max_response_bytes = 1 << 20;
    req.flags = PLATFORM_HTTP_OPERATOR_URL | PLATFORM_HTTP_NO_REDIRECTS;
    Collected got;
    got.status = outbound_.fetch(
        req,
        [](void* user, const platform_http_response_t* r) {
            auto* c = static_cast<Collected*>(user);
            c->http = r->status;
            c->body = str(r->body);
            c->error = str(r->error);
        },
        &got);
    if (got.status != PLATFORM_OK) {
        out.error = "POST " + url + ": " + (got.error.empty() ? "request failed" : got.error);
        return out;
    }
    json answer = json::parse(got.body, nullptr, false);
    // A facilitator refusing a payment may answer 4xx with its usual body: that is an answer.
    if (answer.is_object() && answer.contains(field) && answer[field].is_boolean() &&
        got.http < 500) {
        out.reached = true;
        out.body = std::move(answer);
        return out;
    }
    std::string excerpt = got.body.substr(0, 200);
    out.error = "POST " + url + " answered HTTP " + std::to_string(got.http) +
                (answer.is_object() ? " without `" + std::string(field) + "`" : " with no JSON") +
                (excerpt.empty() ? "" : ": " + excerpt);
    return out;
}

}  // namespace platform::host
