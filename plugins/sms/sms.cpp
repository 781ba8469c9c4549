#include "sms.hpp"

#include <algorithm>

#include "e164.hpp"

namespace schema = platform::schema;

using platform::json;

namespace {

schema::Value number_value(const std::string& what) {
    return schema::string().pattern(sms::kNumberPattern).doc(what + ", in " + sms::kNumberRule);
}

// The provider's webhook fields the signature covers, typed as strings so that they reach the
// handler as sent (signature.hpp).
schema::Object inbound_schema() {
    schema::Object o = schema::object().open();
    for (const char* f : {"MessageSid",
                          "SmsSid",
                          "SmsMessageSid",
                          "AccountSid",
                          "MessagingServiceSid",
                          "From",
                          "To",
                          "NumMedia",
                          "NumSegments",
                          "SmsStatus",
                          "ApiVersion",
                          "FromCity",
                          "FromState",
                          "FromZip",
                          "FromCountry",
                          "ToCity",
                          "ToState",
                          "ToZip",
                          "ToCountry",
                          "ProfileName",
                          "WaId",
                          "ReferralNumMedia",
                          "MessageType",
                          "ButtonText",
                          "ButtonPayload"})
        o.prop(f, schema::string().max_len(200));
    return o.prop("Body", schema::string().max_len(sms::kMaxText * 4).doc("The message's text"));
}

int64_t config_int(const platform::Host& host, const char* name, int64_t def, int64_t lo,
                   int64_t hi) {
    const json v = host.config(name);
    return v.is_number_integer() ? std::clamp<int64_t>(v.get<int64_t>(), lo, hi) : def;
}

}  // namespace

void Sms::describe(platform::ServiceSpec<Sms>& s) {
    s.id("sms").version("1.0.0").service("v1.sms").summary(
        "Text messages to telephone numbers over SMS and WhatsApp, charged per segment or "
        "conversation, with number verification");
    s.config_schema(
        schema::object()
            .open()
            .integer("daily_cap")
            .min(1)
            .max(10000)
            .doc("Messages an account may send per day, business clock (default 50)")
            .str("from")
            .doc("The instance's number, E.164")
            .str("account_sid")
            .doc("The provider account (better kept in the config service, sms.account_sid)")
            .str("auth_token")
            .doc("The provider secret (better sealed in the config service, sms.auth_token)")
            .str("webhook_url")
            .doc("The URL the provider posts inbound messages to, as configured there"));
    s.post("send")
        .title("Send a text message")
        .description(
            "Texts `text` to a number. SMS is charged per segment (160 GSM-7 characters, or 70 "
            "when the text needs UCS-2; 153 and 67 per part of a longer text); WhatsApp per "
            "24-hour conversation, and only to a number that wrote in over WhatsApp within the "
            "last 24 hours. At most `daily_cap` messages a day per account (429 beyond); a number "
            "that replied STOP gets nothing (409) until it sends START. Answers the kept message.")
        .schema(schema::object()
                    .prop("to", number_value("The recipient's number"))
                    .required()
                    .str("text")
                    .min_len(1)
                    .max_len(sms::kMaxText)
                    .required()
                    .doc("The message, 1-1600 characters")
                    .str("channel")
                    .one_of({"sms", "whatsapp"})
                    .def("sms")
                    .doc("sms (default) or whatsapp"))
        .access(platform::Access::account)
        .open_world()
        .handler(&Sms::send);
    s.post("verify")
        .title("Verify a telephone number")
        .description(
            "Without `code`: texts a 6-digit code to `number` (charged as any SMS); it lasts 10 "
            "minutes and takes 5 tries. With the code: claims the number for your account, so "
            "that messages it sends are kept for you. A new code replaces the old one.")
        .schema(schema::object()
                    .prop("number", number_value("The number to verify"))
                    .required()
                    .str("code")
                    .pattern(sms::kCodePattern)
                    .doc("The 6-digit code texted to the number"))
        .access(platform::Access::account)
        .open_world()
        .handler(&Sms::verify);
    s.get("source")
        .title("Read a text message")
        .description(
            "One of your messages, sent or received, by id (from sources); 404 for anyone "
            "else's.")
        .schema(schema::id_object("The message's id"))
        .access(platform::Access::owner)
        .read_only()
        .handler(&Sms::source);
    s.get("sources")
        .title("List your text messages")
        .description("The ids of your messages, sent and received, newest first, and how many.")
        .schema(schema::object()
                    .prop("offset", schema::offset("How many to skip").max(1000000))
                    .prop("limit", schema::limit(100, 20, "How many ids")))
        .access(platform::Access::owner)
        .read_only()
        .handler(&Sms::sources);
    s.post("inbound")
        .title("Provider webhook: an incoming message")
        .description(
            "For the SMS provider only: a message from a number, as a Twilio-style form POST "
            "signed with X-Twilio-Signature (403 when the signature is missing or wrong). STOP "
            "and START from a number stop and resume sending to it.")
        .schema(inbound_schema())
        .access(platform::Access::public_)
        .http_path("/sms/inbound")
        .mcp_hidden()
        .withheld_from_agent()
        .async(&Sms::inbound);
}

Sms::Sms(const platform::Host& host)
    : host_(host),
      messages_(host),
      numbers_(host),
      codes_(host),
      daily_cap_(config_int(host, "daily_cap", sms::kDefaultDailyCap, 1, 10000)) {}

const std::string& Sms::caller(platform::Request& r) {
    if (r.anonymous()) throw platform::unauthenticated("this method needs an account");
    return r.account();
}

json Sms::source(platform::Request& r) {
    const std::string id = r.str("id");
    const auto message = messages_.of(caller(r)).get(id);
    if (!message) throw platform::not_found("id: no message " + id + " of yours");
    return *message;
}

json Sms::sources(platform::Request& r) {
    const std::string& me = caller(r);
    platform::ScanOptions o;
    o.descending = true;
    o.offset = static_cast<uint32_t>(r.integer("offset", 0, 0, 1000000));
    o.limit = static_cast<uint32_t>(r.integer("limit", 20, 1, 100));
    json ids = json::array();
    for (const auto& [id, message] : messages_.of(me).list(o)) ids.push_back(id);
    return {{"sources", ids}, {"total", messages_.total(me)}};
}

PLATFORM_SERVICE(Sms)
