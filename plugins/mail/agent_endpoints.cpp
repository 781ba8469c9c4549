// Mail's endpoints for the agent: link (an outside address whose mail to the agent runs as you),
// post (internal: a letter from the agent or a service into the caller's own mailbox) and take
// (the delivery of a letter from outside). Rules: agent_mail.hpp, links.hpp.
#include "addresses.hpp"
#include "mail.hpp"

namespace schema = platform::schema;

using platform::json;

void Mail::describe_agent(platform::ServiceSpec<Mail>& s) {
    s.post("link")
        .title("Link your outside address for mail to the agent")
        .description(
            "Mail from this outside address to agent@<domain> (or agent+<name>@<domain>) then runs "
            "the agent as you, charged to you, and the answer is mailed back to it. One address "
            "per account; an empty address unlinks. 409 when another account linked it.")
        .schema(schema::object()
                    .str("address")
                    .max_len(mail::kMaxTo)
                    .required()
                    .doc("An email address outside this instance, or \"\" to unlink"))
        .access(platform::Access::account)
        .idempotent()
        .withheld_from_agent()  // a letter's text must never get the agent to link an address
        .handler(&Mail::link);
    s.post("post")
        .title("File a letter in your own mailbox (internal)")
        .description(
            "Internal: a letter from `from` (default agent) into the caller's mailbox, free; "
            "`thread` is the agent conversation it belongs to.")
        .schema(schema::object()
                    .prop("subject", mail::subject_value())
                    .required()
                    .prop("body", mail::body_value())
                    .required()
                    .str("from")
                    .pattern("^[a-z0-9][a-z0-9+._-]{0,63}$")
                    .doc("The sender's handle (default agent)")
                    .str("thread")
                    .max_len(100)
                    .doc("The agent conversation the letter belongs to"))
        .access(platform::Access::account)
        .internal()
        .handler(&Mail::post);
}

json Mail::link(platform::Request& r) {
    const std::string& me = caller(r);
    const std::string address = platform::lower(r.str("address"));
    if (address.empty()) {
        links_.unlink(me);
        return {{"address", nullptr}};
    }
    const std::string domain = mail::facts(host_).domain;
    const size_t at = address.rfind('@');
    if (!mail::valid_address(address) ||
        (!domain.empty() && at != std::string::npos && address.substr(at + 1) == domain))
        throw platform::invalid_argument(
            "address: must be an email address outside this instance (local@domain.tld)");
    if (links_.address_of(me) == address) return {{"address", address}};
    std::string grant;
    try {
        grant = r.grant();
    } catch (const platform::Error& e) {
        throw platform::unavailable(std::string("address: cannot be linked: ") + e.what());
    }
    links_.link(me, address, grant);
    return {{"address", address}};
}

json Mail::post(platform::Request& r) {
    const std::string& me = caller(r);
    const std::string subject = r.str("subject");
    for (unsigned char c : subject)
        if (c < 0x20 || c == 0x7F)
            throw platform::invalid_argument(
                "subject: must be one line without control characters");
    const std::string from = r.str("from").empty() ? "agent" : r.str("from");
    mail::Incoming in;
    in.from = from;
    in.to = me;
    in.subject = subject;
    in.body = r.str("body");
    in.via = "agent";
    in.thread = r.str("thread");
    return box_.deliver(me, in);
}

json Mail::take(const std::string& to, const mail::Incoming& in) {
    const std::string domain = mail::facts(host_).domain;
    if (const auto agent = mail::agent_named(to, domain)) {
        agents_.from_outside(*agent, in);
        return {{"agent", agent->empty() ? "agent" : "agent+" + *agent}};
    }
    const mail::Recipient rc = mail::resolve(host_, to, domain);
    if (rc.outside) throw platform::permission_denied("to: " + to + " is not on this instance");
    mail::Incoming filed = in;
    filed.tag = rc.tag;
    return box_.deliver(rc.account, filed);
}
