// sms_fixture.hpp — the sms plugin (plugins/sms/) loaded in the SDK's fake host with provider
// settings, a fake provider (on_fetch: 201 with a sid, or the status a test sets) and a fake
// billing service (on_call: `credits` available, charges recorded), for sms_test.cpp and
// verify_test.cpp. Header-only (included by a relative path).
#pragma once

#include <mutex>
#include <platform/sdk/text.hpp>
#include <string>
#include <vector>

#include "../../../plugins/sms/signature.hpp"
#include "../support/plugin_under_test.hpp"

namespace sms_test {

using namespace plugin_test;

inline const char* kWebhook = "https://platform.example/sms/inbound";
inline const json kConfig = {{"account_sid", "AC0001"},
                             {"auth_token", "token-1"},
                             {"from", "+15005550006"},
                             {"webhook_url", kWebhook},
                             {"daily_cap", 4}};

struct Sent {
    std::string url, provider, body;
    json headers;
};

class SmsTest : public ::testing::Test {
protected:
    explicit SmsTest(const json& config = kConfig)
        : plugin(host.load(platform_plugin_entry, config)) {
        host.on_call = [this](const std::string& service, const std::string& method,
                              const json& req, const std::string&) {
            std::lock_guard<std::mutex> g(m);
            if (service == "billing" && method == "prices")
                return reply(PLATFORM_OK, json{{"prices", prices}}.dump());
            if (service == "billing") {
                const int64_t amount = req.value("amount", int64_t{0});
                if (method == "charge") charged.push_back(amount);
                return reply(PLATFORM_OK,
                             json{{"enough", credits >= amount}, {"available", credits}}.dump());
            }
            if (service == "config" && !config_service.is_null())
                return reply(PLATFORM_OK, json{{"value", config_service}}.dump());
            return reply(PLATFORM_NOT_FOUND, "");
        };
        host.on_fetch = [this](const platform_http_request_t& req) {
            std::lock_guard<std::mutex> g(m);
            sent.push_back({platform::copy(req.url), platform::copy(req.provider),
                            platform::copy(req.body),
                            json::parse(platform::copy(req.headers_json))});
            FakeHost::FakeHttp r;
            r.code = PLATFORM_OK;
            r.status = provider_status;
            r.body =
                provider_status == 201
                    ? json{{"sid", "SM" + std::to_string(sent.size())}, {"status", "queued"}}.dump()
                    : json{{"code", 21211}, {"message", "Invalid 'To' Phone Number"}}.dump();
            return r;
        };
    }

    Reply send(const std::string& who, const std::string& to, const std::string& text,
               const std::string& channel = "sms") {
        return plugin.call("send", {{"to", to}, {"text", text}, {"channel", channel}}, who);
    }
    // A webhook call as the provider signs it (or with `signature` when given).
    Reply inbound(const std::string& from, const std::string& body,
                  const std::string& signature = "") {
        const json form = {{"From", from},    {"To", "+15005550006"},
                           {"Body", body},    {"MessageSid", "SMin"},
                           {"NumMedia", "0"}, {"AccountSid", "AC0001"}};
        const std::string sig =
            signature.empty() ? sms::webhook_signature("token-1", kWebhook, sms::form_params(form))
                              : signature;
        return plugin.call("inbound", form, "", {{"X-Twilio-Signature", sig}});
    }
    // The code in the last text the provider was asked to send.
    std::string last_code() {
        std::lock_guard<std::mutex> g(m);
        const std::string& body = sent.back().body;
        const size_t at = body.find("code%20is%20");
        return at == std::string::npos ? "" : body.substr(at + 12, 6);
    }

    std::mutex m;
    int64_t credits = 100;
    json prices = json::object();  // billing/prices: what the operator set
    std::vector<int64_t> charged;
    json config_service;  // null: no config service
    int provider_status = 201;
    std::vector<Sent> sent;
    FakeHost host;
    FakePlugin plugin;
};

}  // namespace sms_test
