#include "provider.hpp"

#include <cctype>
#include <platform/sdk/config.hpp>
#include <platform/sdk/percent.hpp>

#include "e164.hpp"

namespace sms {

using platform::json;

namespace {

std::string text_of(const json& layer, const char* key) {
    if (!layer.is_object() || !layer.contains(key) || !layer[key].is_string()) return "";
    return layer[key].get<std::string>();
}

std::string setting_hint(const char* name) {
    return std::string("sms.") + name + " is not set (platform config set --secret sms." + name +
           " <value>, or plugin_config sms." + name + " in the profile)";
}

// The provider's error message from its JSON answer ({code, message, ...}), or the raw body.
std::string provider_message(const platform::HttpResponse& r) {
    const json body = json::parse(r.body, nullptr, false);
    if (!body.is_object() || !body.contains("message")) return r.body.substr(0, 300);
    std::string m = body["message"].is_string() ? body["message"].get<std::string>() : "";
    if (body.contains("code") && !body["code"].is_null())
        m += " (code " + body["code"].dump() + ")";
    return m;
}

}  // namespace

ProviderSettings provider_settings(const platform::Host& host) {
    const platform::ConfigValue stored = platform::Config(host).decrypt().get("sms");
    const json service = stored.exists() ? stored.raw() : json::object();
    const json profile = host.config();
    auto pick = [&](const char* key) {
        std::string v = text_of(service, key);
        return v.empty() ? text_of(profile, key) : v;
    };
    return {pick("account_sid"), pick("auth_token"), pick("from"), pick("webhook_url")};
}

void require_sending(const ProviderSettings& s) {
    if (s.account_sid.empty())
        throw platform::unavailable("no SMS provider account: " + setting_hint("account_sid"));
    if (s.auth_token.empty())
        throw platform::unavailable("no SMS provider credentials: " + setting_hint("auth_token"));
    if (s.from.empty())
        throw platform::unavailable("no number to send from: " + setting_hint("from"));
    if (!valid_number(s.from))
        throw platform::unavailable("sms.from must be a number in " + std::string(kNumberRule));
}

void require_webhook(const ProviderSettings& s) {
    if (s.auth_token.empty())
        throw platform::unavailable("webhook signatures cannot be checked: " +
                                    setting_hint("auth_token"));
    if (s.webhook_url.empty())
        throw platform::unavailable("webhook signatures cannot be checked: " +
                                    setting_hint("webhook_url"));
}

std::string form_encode(const std::string& value) {
    return platform::percent_encode(value);
}

Accepted send_message(const platform::Host& host, const ProviderSettings& s, const std::string& to,
                      const std::string& channel, const std::string& body) {
    platform::HttpRequest req;
    req.method = "POST";
    req.provider = "sms";
    req.url = "/2010-04-01/Accounts/" + form_encode(s.account_sid) + "/Messages.json";
    req.headers = {
        {"Authorization", "Basic " + platform::base64_encode(s.account_sid + ":" + s.auth_token)},
        {"Content-Type", "application/x-www-form-urlencoded"},
        {"Accept", "application/json"}};
    req.body = "To=" + form_encode(provider_address(to, channel)) +
               "&From=" + form_encode(provider_address(s.from, channel)) +
               "&Body=" + form_encode(body);
    req.timeout_ms = 15000;
    req.follow_redirects = false;
    const platform::HttpResponse r = host.fetch(req);
    if (r.status == 200 || r.status == 201) {
        const json answer = json::parse(r.body, nullptr, false);
        if (!answer.is_object() || !answer.contains("sid") || !answer["sid"].is_string())
            throw platform::Error(platform::Code::bad_gateway,
                                  "the SMS provider accepted the message but answered no sid");
        return {answer["sid"].get<std::string>(), answer.value("status", "queued")};
    }
    const std::string why = provider_message(r);
    if (r.status == 400)
        throw platform::invalid_argument("to: the SMS provider refused the message: " + why);
    if (r.status == 401 || r.status == 403)
        throw platform::unavailable(
            "the SMS provider refused the credentials (check sms.account_sid and "
            "sms.auth_token): " +
            why);
    if (r.status == 429)
        throw platform::Error(platform::Code::rate_limited,
                              "the SMS provider is limiting the rate; try again later: " + why);
    throw platform::Error(platform::Code::bad_gateway, "the SMS provider answered HTTP " +
                                                           std::to_string(r.status) + ": " + why);
}

}  // namespace sms
