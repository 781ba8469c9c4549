// provider — the SMS provider: a Twilio-compatible HTTP API reached through the host's http_fetch
// as provider "sms" (its base URL is the profile's outbound.providers.sms.base_url, e.g.
// https://api.twilio.com), and the settings that go with it.
//
// Settings, each read at every use from the first layer that has it (empty counts as unset):
//   1. the config service, `sms.<name>` (read decrypted as this plugin's service account, so the
//      credentials can be kept sealed: `platform config set --secret sms.auth_token ...`);
//   2. the plugin's profile config, `plugin_config: {sms: {<name>: ...}}`.
//
//   account_sid  the provider account (Twilio's AC...)       sending
//   auth_token   its secret: Basic auth, webhook signatures  sending, the webhook
//   from         the instance's number, E.164                sending
//   webhook_url  the URL the provider posts inbound messages to, exactly as configured there (the
//                signature covers it)                        the webhook
// A missing one is a 503 naming it (require_sending, require_webhook).
//
// Sending is POST <base>/2010-04-01/Accounts/<account_sid>/Messages.json, form-encoded To, From
// and Body, Basic auth account_sid:auth_token; WhatsApp addresses are "whatsapp:+<number>". The
// provider answers 201 with the message resource ({sid, status, ...}).
//
// Thread-safe: stateless, everything through the host.
#pragma once

#include <platform/sdk.hpp>
#include <string>

namespace sms {

struct ProviderSettings {
    std::string account_sid, auth_token, from, webhook_url;
};

// The settings as above.
ProviderSettings provider_settings(const platform::Host& host);

// 503 naming the first of account_sid, auth_token, from that is missing (or a `from` that is not
// E.164).
void require_sending(const ProviderSettings& s);
// 503 naming auth_token or webhook_url when missing.
void require_webhook(const ProviderSettings& s);

// What the provider answered for an accepted message.
struct Accepted {
    std::string sid, status;
};

// Sends `body` from the instance's number to `to` (a number) on `channel` ("sms" or
// "whatsapp"). Throws: invalid_argument when the provider refuses the recipient or the text
// (its 400, with its message), unavailable when it refuses the credentials (401/403) or
// providers.sms.base_url is not set (the host's message), rate_limited on its 429, bad_gateway
// for anything else it answers, the host's error when it cannot be reached.
Accepted send_message(const platform::Host& host, const ProviderSettings& s, const std::string& to,
                      const std::string& channel, const std::string& body);

// application/x-www-form-urlencoded text of one value (every byte but A-Z a-z 0-9 - . _ ~
// percent-encoded).
std::string form_encode(const std::string& value);

}  // namespace sms
