#include "mail.hpp"

#include <platform/sdk/random.hpp>

#include "addresses.hpp"

namespace schema = platform::schema;

using platform::json;

namespace {

schema::Value tag_value() {
    return schema::string()
        .pattern(mail::kTagPattern)
        .max_len(mail::kMaxTag)
        .doc(
            "A plus tag: letters to you+<tag> are filed under it (1-64 of letters, digits, '.', "
            "'_', '-'; case does not matter)");
}

const char* kIdDoc = "A letter's id (from inbox or search)";

}  // namespace

void Mail::describe(platform::ServiceSpec<Mail>& s) {
    s.id("mail").version("1.0.0").service("v1.mail").summary(
        "Mail between the instance's accounts, with plus tags, and to outside addresses when the "
        "instance has a mail domain");
    s.config_schema(schema::object()
                        .open()
                        .str("dkim_keys_file")
                        .max_len(4096)
                        .doc("A file of DKIM public keys (\"<selector>._domainkey.<domain> "
                             "<TXT record>\" a line) used instead of DNS; unset: DNS")

                        .array("trusted_mailboxes", schema::string().max_len(300))
                        .doc("IMAP servers (host:port) reached as operator URLs: outbound.allow "
                             "decides them instead of the SSRF guard (default none)"));
    s.get("inbox")
        .title("List received mail")
        .description(
            "Your most recent letters first, each {id, from, to, subject, date, read, tag}, and "
            "how many there are; with `tag`, only those sent to you+<tag>.")
        .schema(schema::object()
                    .prop("tag", tag_value())
                    .prop("offset", schema::offset("How many to skip").max(1000000))
                    .prop("limit", schema::limit(100, 10, "How many letters")))
        .access(platform::Access::account)
        .read_only()
        .handler(&Mail::inbox);
    s.get("info")
        .title("Your mail handle and address")
        .description(
            "Your handle (your account id; other accounts mail you by it), your address when the "
            "instance has a mail domain (else null), whether mail from outside can arrive, and "
            "the outside address you linked for mail to the agent (else null). "
            "your connected external mailbox (`external`: url, host, mailbox, user; never the "
            "password). "
            "With `tag`, also the username and address that file letters under that tag.")
        .schema(schema::object().prop("tag", tag_value()))
        .access(platform::Access::account)
        .read_only()
        .handler(&Mail::info);
    s.post("markread")
        .title("Mark mail read")
        .description(
            "Marks your letters with these ids read, or all of them with all=true. Ids that are "
            "not your letters are ignored and listed under `unknown`. Changes nothing else.")
        .schema(schema::object()
                    .array("ids", schema::string().max_len(64))
                    .max_items(1000)
                    .doc("Ids of your letters (at most 1000)")
                    .boolean("all")
                    .doc("Mark every letter read"))
        .access(platform::Access::account)
        .idempotent()
        .handler(&Mail::markread);
    s.get("read")
        .title("Read a letter")
        .description(
            "One page of a letter's body (at most 2000 characters from `offset`) with its "
            "subject, sender and attachment names; follow `next_offset` until it is absent. "
            "Without `id`: a summary of your inbox {unread, total, messages} (your 10 newest).")
        .schema(schema::object()
                    .prop("id", schema::id(kIdDoc))
                    .prop("offset", schema::offset("The body's character to start at")
                                        .max(int64_t{mail::kMaxBody}))
                    .prop("limit", schema::limit(mail::kPage, mail::kPage,
                                                 "How many characters of the body (1-2000)")))
        .access(platform::Access::account)
        .read_only()
        .handler(&Mail::read);
    s.get("attachment")
        .title("Read a letter's attachment")
        .description(
            "Attachment `n` (1 for the first name in read's `attachments`) of one of your "
            "letters from outside: {id, n, name, type, size, data} with the bytes in base64.")
        .schema(schema::object()
                    .prop("id", schema::id(kIdDoc))
                    .required()
                    .integer("n")
                    .min(1)
                    .max(1000)
                    .required()
                    .doc("Which attachment, from 1"))
        .access(platform::Access::account)
        .read_only()
        .handler(&Mail::attachment);
    s.post("search")
        .title("Search received mail")
        .description(
            "Your letters whose subject, sender or body holds `query` (case-insensitive; every "
            "letter when empty), newest first, and how many match; `tag` narrows to one tag.")
        .schema(schema::object()
                    .str("query")
                    .max_len(mail::kMaxQuery)
                    .doc("Text to find (at most 200 characters)")
                    .prop("tag", tag_value())
                    .prop("offset", schema::offset("How many to skip").max(1000000))
                    .prop("limit", schema::limit(100, 10, "How many letters")))
        .access(platform::Access::account)
        .read_only()
        .handler(&Mail::search);
    s.post("send")
        .title("Send mail")
        .description(
            "Sends a plain-text letter. To a username on this instance (username+tag files it "
            "under a tag) it is delivered at once and free (404 when there is no such account). "
            "To an email address it leaves over SMTP and costs credits; that needs the instance's "
            "mail domain and relay (503 naming the missing setting otherwise). To `agent` (or "
            "agent+<name> for a named agent) the agent answers the subject and body by mail, in "
            "your inbox soon after (a run: 1 credit). Answers your copy.")
        .schema(schema::object()
                    .str("to")
                    .min_len(1)
                    .max_len(mail::kMaxTo)
                    .required()
                    .doc("A username on this instance (optionally username+tag) or an email "
                         "address")
                    .prop("subject", mail::subject_value())
                    .required()
                    .prop("body", mail::body_value())
                    .required()
                    .prop("in_reply_to",
                          schema::id("The id of a letter in your inbox this answers (a reply to "
                                     "the agent's answer continues its conversation)")))
        .access(platform::Access::account)
        .open_world()
        .handler(&Mail::send);
    s.get("source")
        .title("Read a letter you sent")
        .description("One letter you sent, by id (from sources); 404 for anyone else's.")
        .schema(schema::id_object("The sent letter's id"))
        .access(platform::Access::owner)
        .read_only()
        .handler(&Mail::source);
    s.get("sources")
        .title("List the letters you sent")
        .description("The ids of the letters you sent, newest first, and how many there are.")
        .schema(schema::object()
                    .prop("offset", schema::offset("How many to skip").max(1000000))
                    .prop("limit", schema::limit(100, 20, "How many ids")))
        .access(platform::Access::owner)
        .read_only()
        .handler(&Mail::sources);
    describe_agent(s);
    describe_inbound(s);
    describe_external(s);
}

const std::string& Mail::caller(platform::Request& r) {
    if (r.anonymous()) throw platform::unauthenticated("this method needs an account");
    return r.account();
}

std::string Mail::tag_arg(platform::Request& r) {
    const std::string tag = r.str("tag");
    if (!tag.empty() && !mail::valid_tag(tag))
        throw platform::invalid_argument(
            "tag: must be 1 to 64 of letters, digits, '.', '_' and '-'");
    return platform::lower(tag);
}

json Mail::info(platform::Request& r) {
    const std::string& me = caller(r);
    const std::string tag = tag_arg(r);
    const mail::MailFacts f = mail::facts(host_);
    auto address = [&](const std::string& handle) {
        auto a = mail::address_of(handle, f.domain);
        return a ? json(*a) : json(nullptr);
    };
    json out = {{"handle", me},
                {"address", address(me)},
                {"domain", f.domain.empty() ? json(nullptr) : json(f.domain)},
                {"outside_mail", f.outside_mail()},
                {"outside_sending", !f.domain.empty() && !f.relay.empty()},
                {"external", external_.info(me)}};
    const auto linked = links_.address_of(me);
    out["linked"] = linked ? json(*linked) : json(nullptr);
    if (!tag.empty())
        out["tagged"] = {
            {"tag", tag}, {"username", me + "+" + tag}, {"address", address(me + "+" + tag)}};
    return out;
}

json Mail::send(platform::Request& r) {
    const std::string& me = caller(r);
    const std::string to = r.str("to"), subject = r.str("subject"), body = r.str("body");
    for (unsigned char c : subject)
        if (c < 0x20 || c == 0x7F)
            throw platform::invalid_argument(
                "subject: must be one line without control characters");
    const std::string domain = mail::facts(host_).domain;
    std::string answers, thread;  // the Message-ID and the conversation of the letter answered
    if (const std::string id = r.str("in_reply_to"); !id.empty()) {
        const auto earlier = box_.letter(me, id);
        if (!earlier)
            throw platform::not_found("in_reply_to: no letter " + id + " in your mailbox");
        answers = earlier->value("message_id", "");
        thread = earlier->value("thread", "");
    }
    json copy = {{"to", to}, {"subject", subject}, {"body", body}};
    if (const auto agent = mail::agent_named(to, domain)) {
        const std::string message_id =
            platform::random_hex(16) + "@" + (domain.empty() ? "localhost" : domain);
        agents_.from_account(r, *agent, subject, body, message_id, thread);
        copy["message_id"] = message_id;
        copy["via"] = "agent";
        return box_.keep_sent(me, std::move(copy));
    }
    const mail::Recipient rc = mail::resolve(host_, to, domain);
    if (rc.outside) {
        mail::Letter letter;
        letter.to = to;
        letter.subject = subject;
        letter.body = body;
        letter.date_ms = host_.now_ms();
        letter.in_reply_to = answers;
        copy["message_id"] = outside_.send(me, letter);
        copy["via"] = "smtp";
    } else {
        mail::Incoming in;
        in.from = me;
        in.to = to;
        in.subject = subject;
        in.body = body;
        in.tag = rc.tag;
        in.in_reply_to = answers;
        box_.deliver(rc.account, in);
        copy["via"] = "local";
    }
    return box_.keep_sent(me, std::move(copy));
}

PLATFORM_SERVICE(Mail)
