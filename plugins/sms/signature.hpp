// signature — the provider's webhook signature (Twilio's X-Twilio-Signature), which proves a
// webhook call came from the provider holding the account's auth token.
//
// The signature is base64(HMAC-SHA1(auth_token, url + name1 + value1 + name2 + value2 ...)): `url`
// is the full URL the provider posted to, exactly as configured there (scheme, host, port, path
// and any query), followed by every POST parameter's name and value, sorted by name (byte order),
// without separators.
//
// The host hands the webhook's form body to the plugin already parsed into JSON arguments; the
// endpoint's schema types the provider's known fields as strings so they arrive as sent.
// form_params() turns those arguments back into name/value text: strings as they are, numbers and
// booleans as their JSON text (the host's parser turns an unknown field's "7" into 7; "7.50" would
// come back as "7.5" and fail the check, and no provider field is such a number).
//
// Pure functions (OpenSSL's HMAC), any thread.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace sms {

using FormParams = std::vector<std::pair<std::string, std::string>>;

// The signature of a webhook call to `url` with `params` (in any order).
std::string webhook_signature(const std::string& auth_token, const std::string& url,
                              FormParams params);

// Whether `given` (the header's value) is the expected signature; compared in constant time.
bool signature_matches(const std::string& expected, const std::string& given);

// A webhook's parameters from its JSON arguments (objects and arrays are skipped: no provider
// field has one).
FormParams form_params(const nlohmann::json& args);

}  // namespace sms
