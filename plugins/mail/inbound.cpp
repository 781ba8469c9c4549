// Mail from outside (mail.hpp): the two internal endpoints the host's SMTP listener calls
// (host/src/smtp/mail_handoff.cpp), and no one else — each checks that its caller is the host's
// own service identity ("<namespace>.host" with the `service` scope).
//
// Who receives: an address at the instance's mail domain whose local part names an account
// (with an optional plus tag; addresses.hpp), or `agent` / `agent+<name>` (mail to the agent:
// filed for the account "agent" under the tag <name>, where the agent's delivery takes it).
#include "addresses.hpp"
#include "dkim.hpp"
#include "mail.hpp"

namespace schema = platform::schema;

using platform::json;

namespace {

// The SMTP listener's limits (smtp_dialogue.hpp): 50 recipients, 10 MiB a message.
constexpr std::size_t kMaxRecipients = 50;
constexpr std::size_t kMaxMessageBase64 = (10 * 1024 * 1024 + 2) / 3 * 4;

// Text cut to `chars` UTF-8 characters.
std::string cut(const std::string& text, std::size_t chars) {
    return platform::utf8_length(text) > chars ? platform::utf8_prefix(text, chars) : text;
}

// 403 unless the caller is the host itself.
void require_host(const platform::Host& host, platform::Request& r) {
    const json ns = host.config("platform.namespace");
    const std::string prefix = ns.is_string() ? ns.get<std::string>() : "";
    const std::string me = prefix.empty() ? "host" : prefix + ".host";
    const std::string scopes = "," + r.scopes() + ",";
    if (r.account() != me || scopes.find(",service,") == std::string::npos)
        throw platform::permission_denied("only the host's SMTP listener calls this method");
}

// The local account an address at our domain names; throws not_found / invalid_argument.
mail::Recipient inbound_recipient(const platform::Host& host, const std::string& address) {
    const std::string domain = mail::facts(host).domain;
    if (domain.empty()) throw platform::unavailable("PLATFORM_MAIL_DOMAIN is not set");
    const std::size_t at = address.rfind('@');
    if (at == std::string::npos || at == 0 || platform::lower(address.substr(at + 1)) != domain)
        throw platform::invalid_argument("address: not an address at " + domain);
    const std::string local = address.substr(0, at);
    if (platform::lower(local) == "agent") return {false, "agent", "", ""};
    if (platform::lower(local.substr(0, 6)) == "agent+") {
        const std::string name = local.substr(6);
        if (!mail::valid_tag(name))
            throw platform::invalid_argument(
                "address: the agent's name after '+' must be 1 to 64 of letters, digits, '.', "
                "'_' and '-'");
        return {false, "agent", platform::lower(name), ""};
    }
    mail::Recipient rc = mail::resolve(host, local, domain);
    if (rc.outside) throw platform::invalid_argument("address: not an address at " + domain);
    return rc;
}

}  // namespace

void Mail::describe_inbound(platform::ServiceSpec<Mail>& s) {
    s.post("recipient")
        .title("Check an inbound recipient (internal)")
        .description(
            "Internal, for the host's SMTP listener: whether an address at the instance's mail "
            "domain receives mail. Answers {account, tag}; 404 when it names no account.")
        .schema(schema::object()
                    .str("address")
                    .min_len(3)
                    .max_len(mail::kMaxTo)
                    .required()
                    .doc("The RCPT TO address"))
        .access(platform::Access::account)
        .read_only()
        .internal()
        .handler(&Mail::recipient);
    s.post("deliver")
        .title("Deliver an inbound message (internal)")
        .description(
            "Internal, for the host's SMTP listener: files a message received over SMTP for each "
            "recipient (MIME parsed, DKIM checked). Answers {delivered: [{to, id}], dkim}.")
        .schema(schema::object()
                    .str("mail_from")
                    .max_len(mail::kMaxTo)
                    .doc("The envelope sender (MAIL FROM); empty for a bounce")
                    .array("rcpt_to", schema::string().min_len(3).max_len(mail::kMaxTo))
                    .min_items(1)
                    .max_items(kMaxRecipients)
                    .required()
                    .doc("The accepted RCPT TO addresses")
                    .str("helo")
                    .max_len(255)
                    .doc("The client's EHLO/HELO name")
                    .str("message_base64")
                    .min_len(1)
                    .max_len(kMaxMessageBase64)
                    .required()
                    .doc("The message as received (CRLF lines), base64"))
        .access(platform::Access::account)
        .internal()
        .handler(&Mail::deliver);
}

json Mail::recipient(platform::Request& r) {
    require_host(host_, r);
    const mail::Recipient rc = inbound_recipient(host_, r.str("address"));
    return {{"account", rc.account}, {"tag", rc.tag.empty() ? json(nullptr) : json(rc.tag)}};
}

json Mail::deliver(platform::Request& r) {
    require_host(host_, r);
    const auto raw = platform::base64_decode(r.str("message_base64"));
    if (!raw) throw platform::invalid_argument("message_base64: not base64");
    const auto parsed = mail::parse_message(*raw);
    if (!parsed) throw platform::invalid_argument("message: not an Internet message");
    const json keys = host_.config("dkim_keys_file");
    const mail::DkimResult dkim =
        mail::verify_dkim(*raw, keys.is_string() ? keys.get<std::string>() : "");
    mail::Incoming in;
    in.via = "smtp";
    in.mail_from = r.str("mail_from");
    in.from = parsed->from.empty() ? in.mail_from : parsed->from;
    in.subject = cut(parsed->subject, 998);
    in.body = cut(parsed->body, mail::kMaxBody);
    in.dkim = dkim.result;
    in.dkim_domain = dkim.domain;
    in.message_id = cut(parsed->message_id, 998);
    in.in_reply_to = cut(parsed->in_reply_to, 998);
    in.sent = cut(parsed->date, 200);
    in.files = parsed->attachments;
    for (const auto& a : in.files) in.attachments.push_back(a.name);
    json delivered = json::array(), refused = json::array();
    for (const json& to : r.args().at("rcpt_to")) {
        const std::string address = to.get<std::string>();
        const mail::Recipient rc = inbound_recipient(host_, address);
        in.to = address;
        in.tag = rc.tag;
        try {
            const json took = take(address, in);
            delivered.push_back(took.contains("id")
                                    ? json{{"to", address}, {"id", took["id"]}}
                                    : json{{"to", address}, {"agent", took["agent"]}});
        } catch (const platform::Error& e) {
            if (e.code() != platform::Code::permission_denied) throw;
            refused.push_back({{"to", address}, {"reason", e.what()}});
        }
    }
    if (delivered.empty()) throw platform::permission_denied(refused.at(0).at("reason"));
    return {{"delivered", delivered},
            {"refused", refused},
            {"dkim",
             {{"result", dkim.result},
              {"domain", dkim.domain.empty() ? json(nullptr) : json(dkim.domain)}}}};
}
