// inbound: the provider's webhook (sms.hpp): the signature, STOP and START, the WhatsApp window,
// the message kept for the account that claimed the number.
#include "e164.hpp"
#include "provider.hpp"
#include "signature.hpp"
#include "sms.hpp"

using platform::json;

namespace {
// An empty TwiML answer: nothing to reply.
constexpr const char* kEmptyTwiml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Response/>";
}  // namespace

void Sms::inbound(platform::Request& r, platform::Responder out) {
    const sms::ProviderSettings settings = sms::provider_settings(host_);
    sms::require_webhook(settings);
    const std::string given = r.header("X-Twilio-Signature");
    if (given.empty())
        throw platform::permission_denied(
            "X-Twilio-Signature: missing; only the SMS provider may call this webhook");
    const std::string expected = sms::webhook_signature(settings.auth_token, settings.webhook_url,
                                                        sms::form_params(r.args()));
    if (!sms::signature_matches(expected, given))
        throw platform::permission_denied(
            "X-Twilio-Signature: does not match this request (signed with another auth token, or "
            "for another URL than sms.webhook_url)");
    const auto from = sms::parse_provider_address(r.str("From"));
    if (!from)
        throw platform::invalid_argument("From: must be a number in " +
                                         std::string(sms::kNumberRule) +
                                         ", or whatsapp: and such a number");
    const std::string text = r.str("Body");
    const sms::OptOut opt = sms::opt_out_keyword(text);
    const sms::NumberState state = numbers_.wrote_in(from->number, from->channel, opt);
    if (!state.claimed_by.empty())
        messages_.keep(state.claimed_by, {{"direction", "in"},
                                          {"channel", from->channel},
                                          {"number", from->number},
                                          {"text", text},
                                          {"provider_sid", r.str("MessageSid")},
                                          {"status", "received"},
                                          {"kind", opt == sms::OptOut::stop    ? "stop"
                                                   : opt == sms::OptOut::start ? "start"
                                                                               : "text"}});
    out.raw("text/xml; charset=utf-8", kEmptyTwiml);
}
