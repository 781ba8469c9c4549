// mail — letters between the instance's accounts, and to and from outside addresses when the
// instance has a mail domain (the catalogue's `mail` service; README.md):
//
//   inbox     GET  {tag, offset, limit 1-100 = 10}     -> {messages, total}: newest first
//   info      GET  {tag}                               -> {handle, address, outside_mail, ...}
//   markread  POST {ids, all}                          -> {marked, unknown}
//   read      GET  {id, offset, limit 1-2000 = 2000}   -> a page of the body; no id: a summary
//   attachment GET {id*, n*}                           -> {id, n, name, type, size, data (base64)}
//   search    POST {query, tag, offset, limit = 10}    -> {messages, total}
//   send      POST {to*, subject*, body*, in_reply_to} -> the sender's copy
//   link      POST {address*}                          -> {address}: mail from it may ask the agent
//   post      POST {subject*, body*, from, thread}     -> internal: a letter into your own mailbox
//   source    GET  {id*}                               -> a letter the caller sent (owner)
//   sources   GET  {offset, limit 1-100 = 20}          -> {sources: [ids], total} (owner)
//
// Internal, for the host's SMTP listener only (inbound.cpp, README "Inbound mail"):
//   recipient POST {address*}                          -> {account, tag} or 404
//   deliver   POST {mail_from, rcpt_to*, helo, message_base64*} -> {delivered, dkim}
// The account's own mailbox elsewhere, over IMAP through the host (external.hpp):
//   connect        POST {url*, user*, password*}              -> info's `external`
//   disconnect     POST {}                                    -> {disconnected}
//   externalsearch POST {query, page, limit 1-20 = 20}        -> {messages, since, next_page}
//   externalread   GET  {id*, offset, limit 1-2000 = 2000}    -> a page of the plain text
//
// Addresses and tags: addresses.hpp. Storage: mailbox.hpp. Outside mail: outside.hpp and
// message.hpp. The reading methods are in reading.cpp. Mail to the agent: agent_mail.hpp, links.hpp
// and agent_endpoints.cpp. Every method needs an account.
//
// Price: billing's config `prices.mail_outside` (default 1 credit) a letter to an outside address.
// Plugin config: `dkim_keys_file` (default unset: DNS): the file DKIM public keys are read from
// instead of DNS (dkim.hpp); `trusted_mailboxes` ("host:port" list, default none): IMAP servers reached as operator
// URLs, so outbound.allow decides them instead of the SSRF guard.
#pragma once

#include <platform/sdk.hpp>
#include <string>

#include "agent_mail.hpp"
#include "external.hpp"
#include "links.hpp"
#include "mailbox.hpp"
#include "outside.hpp"

namespace mail {

// Limits (characters): a subject, a body, a search query, a page of `read`.
inline constexpr std::size_t kMaxSubject = 200;
inline constexpr std::size_t kMaxBody = 100000;
inline constexpr std::size_t kMaxQuery = 200;
inline constexpr int64_t kPage = 2000;
inline constexpr std::size_t kMaxTo = 254;

// The schemas of a letter's subject (1-200 characters) and plain-text body (at most 100000), for
// every method that takes one (send, post).
inline platform::schema::Value subject_value() {
    return platform::schema::string()
        .min_len(1)
        .max_len(kMaxSubject)
        .doc("One line, at most 200 characters");
}
inline platform::schema::Value body_value() {
    return platform::schema::string().max_len(kMaxBody).doc(
        "Plain text, at most 100000 characters");
}

}  // namespace mail

class Mail {
public:
    static void describe(platform::ServiceSpec<Mail>& s);
    explicit Mail(const platform::Host& host)
        : host_(host),
          box_(host),
          outside_(host),
          links_(host),
          agents_(host, box_, outside_, links_),
          external_(host) {}

    // The agent's worker (agent_mail.hpp).
    void start() { agents_.start(); }
    void stop() { agents_.stop(); }

    platform::json info(platform::Request& r);
    platform::json send(platform::Request& r);
    // reading.cpp
    platform::json inbox(platform::Request& r);
    platform::json markread(platform::Request& r);
    platform::json read(platform::Request& r);
    platform::json attachment(platform::Request& r);
    platform::json search(platform::Request& r);
    platform::json source(platform::Request& r);
    platform::json sources(platform::Request& r);
    // agent_endpoints.cpp
    platform::json link(platform::Request& r);
    platform::json post(platform::Request& r);

    // The one way a letter from outside comes in (for the SMTP listener's delivery): to the agent
    // when `to` is agent[+name]@<domain> (AgentMail::from_outside: permission_denied when its sender
    // may not ask; the listener refuses the letter then), else filed in the mailbox `to` resolves
    // to. Answers {agent: name} or the index entry.
    platform::json take(const std::string& to, const mail::Incoming& in);

    // inbound.cpp
    static void describe_inbound(platform::ServiceSpec<Mail>& s);
    platform::json recipient(platform::Request& r);
    platform::json deliver(platform::Request& r);
    // external_methods.cpp
    static void describe_external(platform::ServiceSpec<Mail>& s);
    platform::json connect(platform::Request& r);
    platform::json disconnect(platform::Request& r);
    platform::json externalsearch(platform::Request& r);
    platform::json externalread(platform::Request& r);

private:
    // The caller's account; 401 for an anonymous caller.
    static const std::string& caller(platform::Request& r);
    // The `tag` argument in lower case ("" when absent); 400 when malformed.
    static std::string tag_arg(platform::Request& r);
    // The descriptors of link and post (agent_endpoints.cpp).
    static void describe_agent(platform::ServiceSpec<Mail>& s);

    platform::Host host_;
    mail::Mailbox box_;
    mail::Outside outside_;
    mail::Links links_;
    mail::AgentMail agents_;
    mail::External external_;
};
