// The external-mailbox methods of Mail (mail.hpp): connect, disconnect, externalsearch and
// externalread. The work is External's (external.hpp); these describe and page.
#include "mail.hpp"

namespace schema = platform::schema;

using platform::json;

void Mail::describe_external(platform::ServiceSpec<Mail>& s) {
    s.post("connect")
        .title("Connect your external mailbox")
        .description(
            "Connects a mailbox you have elsewhere, read-only over IMAP: url "
            "imaps://host[:993][/mailbox] or imap://host[:143][/mailbox] (INBOX when no "
            "mailbox), and its login. The login is checked first (400 when the server refuses "
            "it) and kept sealed; it replaces any mailbox connected before. Answers what info "
            "shows under `external`.")
        .schema(schema::object()
                    .str("url")
                    .min_len(8)
                    .max_len(500)
                    .required()
                    .doc("imaps://imap.example.org/INBOX (or imap://; port and mailbox optional)")
                    .str("user")
                    .min_len(1)
                    .max_len(254)
                    .required()
                    .doc("The mailbox's login name")
                    .str("password")
                    .min_len(1)
                    .max_len(1024)
                    .required()
                    .doc("The mailbox's password (an app password where the provider has them)"))
        .access(platform::Access::account)
        .idempotent()
        .open_world()
        .handler(&Mail::connect);
    s.post("disconnect")
        .title("Disconnect your external mailbox")
        .description(
            "Forgets the connected external mailbox and its login; `disconnected` is "
            "false when none was connected.")
        .schema(schema::object())
        .access(platform::Access::account)
        .idempotent()
        .handler(&Mail::disconnect);
    s.post("externalsearch")
        .title("Search your external mailbox")
        .description(
            "Headers of the messages of the last seven days in your connected mailbox "
            "(from, to, subject, date), newest first, at most 20 a page; with `query` only "
            "those holding it. Pass `next_page` back as `page` for more. 503 when no mailbox "
            "is connected (see connect).")
        .schema(schema::object()
                    .str("query")
                    .max_len(mail::kMaxQuery)
                    .doc("Text to find in a message's headers or body (at most 200 characters)")
                    .str("page")
                    .max_len(40)
                    .doc("next_page of the previous answer")
                    .prop("limit", schema::limit(mail::kExternalPage, mail::kExternalPage,
                                                 "How many messages (1-20)")))
        .access(platform::Access::account)
        .read_only()
        .open_world()
        .handler(&Mail::externalsearch);
    s.get("externalread")
        .title("Read a message of your external mailbox")
        .description(
            "One message of your connected mailbox by id (from externalsearch): its headers "
            "and one page of its plain text (at most 2000 characters from `offset`); follow "
            "`next_offset` until it is absent. Read-only: the message is not marked seen.")
        .schema(schema::object()
                    .prop("id", schema::id("An external message's id (from externalsearch)"))
                    .required()
                    .prop("offset", schema::offset("The body's character to start at")
                                        .max(int64_t{mail::kMaxBody}))
                    .prop("limit", schema::limit(mail::kPage, mail::kPage,
                                                 "How many characters of the body (1-2000)")))
        .access(platform::Access::account)
        .read_only()
        .open_world()
        .handler(&Mail::externalread);
}

json Mail::connect(platform::Request& r) {
    return external_.connect(caller(r), r.str("url"), r.str("user"), r.str("password"));
}

json Mail::disconnect(platform::Request& r) {
    return {{"disconnected", external_.disconnect(caller(r))}};
}

json Mail::externalsearch(platform::Request& r) {
    const std::string& me = caller(r);
    const std::string query = r.str("query");
    for (unsigned char c : query)
        if (c < 0x20 || c == 0x7F)
            throw platform::invalid_argument("query: must be one line without control characters");
    return external_.search(me, query, r.str("page"),
                            r.integer("limit", mail::kExternalPage, 1, mail::kExternalPage));
}

json Mail::externalread(platform::Request& r) {
    const std::string& me = caller(r);
    const int64_t offset = r.integer("offset", 0, 0, mail::kMaxBody);
    const int64_t limit = r.integer("limit", mail::kPage, 1, mail::kPage);
    json out = external_.message(me, r.str("id"));
    const std::string body = out.value("body", "");
    const auto length = static_cast<int64_t>(platform::utf8_length(body));
    if (offset > length)
        throw platform::invalid_argument("offset: past the end of the body (" +
                                         std::to_string(length) + " characters)");
    const int64_t end = std::min(length, offset + limit);
    const size_t from = platform::utf8_prefix(body, size_t(offset)).size();
    const size_t to = platform::utf8_prefix(body, size_t(end)).size();
    out["body"] = body.substr(from, to - from);
    out["offset"] = offset;
    out["length"] = length;
    if (end < length) out["next_offset"] = end;
    return out;
}
