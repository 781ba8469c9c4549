// mailbox — the mail service's storage, all of it (this plugin's store, through
// platform::Collection; the owner is always the account the records belong to):
//
//   letters/<account>/<id>   a letter the account received, as delivered and never changed:
//                            {id, from, to, subject, body, date, tag, attachments, via}, and
//                            message_id, in_reply_to, thread when the Incoming had them; from
//                            outside also {mail_from, dkim, dkim_domain, message_id,
//                            in_reply_to, sent} (sent: the Date header as written)
//   attachments/<account>/<id>.<n>   attachment n (1, 2...) of letter id, as received:
//                            {name, type, size, data (base64)}
//   index/<account>/<id>     its inbox entry {id, from, to, subject, date, read, tag}: what
//                            inbox, search's filter and markread use (read status lives here)
//   sent/<account>/<id>      the sender's copy of a letter it sent: {id, to, subject, body,
//                            date, via, message_id} (source, sources)
//   counts/<account>/sent    {sent: n}: how many letters the account sent
//
// `from` is the sender's handle for local mail and the sender's address for mail from outside;
// `to` is the recipient as addressed ("bob+work"); `tag` the plus tag in lower case, null when
// none; `via` is "local", "agent" (an answer of the agent) or "smtp"; `attachments` holds attachment names (local mail has none;
// the SMTP listener files those of outside mail); `date` is RFC 3339 (business clock).
//
// Ids are "m" + 16 hex digits of a growing sequence (platform::next_sequence) + 8 random hex
// digits (platform/sdk/random.hpp): a descending scan of a collection is newest first, and ids
// do not collide across hosts sharing a store.
//
// deliver() is the one way into a mailbox: the send handler uses it for local mail, and the
// host's SMTP listener hands mail from outside to it through the internal endpoint `deliver`
// (inbound.cpp). It writes the letter first and its index entry last, so a reader never sees an entry
// without its letter.
//
// Thread-safe: everything goes through the host's store.
#pragma once

#include <cstdint>
#include <optional>
#include <platform/sdk.hpp>
#include <string>
#include <vector>

#include "mime.hpp"

namespace mail {

// A letter on its way into a mailbox. The last fields are empty unless known: the letter's
// Message-ID and the one it answers (both without brackets), the agent conversation it belongs to
// (an answer of the agent: agent_mail.hpp), and for mail from outside the SMTP envelope's sender
// and the DKIM result ("pass", "fail", "none"; "" when not checked).
struct Incoming {
    std::string from, to, subject, body, tag, via = "local";
    std::vector<std::string> attachments;  // names
    // Mail from outside (via "smtp"): the envelope sender (MAIL FROM), the DKIM result ("pass",
    // "fail" or "none", dkim.hpp) and signing domain, the message's own headers, and the
    // attachments' contents (stored under attachments/, their names in `attachments`).
    std::string mail_from, dkim, dkim_domain, message_id, in_reply_to, sent;
    std::string thread;  // the agent conversation the letter belongs to
    std::vector<Attachment> files;
};

class Mailbox {
public:
    explicit Mailbox(const platform::Host& host) : host_(host) {}

    // Files `in` in `account`'s mailbox (unread); returns its index entry.
    platform::json deliver(const std::string& account, const Incoming& in) const;

    // Keeps the sender's copy of a letter (`letter` without id and date: they are added) and
    // counts it; returns the copy.
    platform::json keep_sent(const std::string& account, platform::json letter) const;

    // The account's inbox entries, newest first; only those tagged `tag` when it is not empty.
    std::vector<platform::json> entries(const std::string& account,
                                        const std::string& tag = "") const;
    // One page of the inbox (offset, limit) straight from the store, newest first.
    std::vector<platform::json> page(const std::string& account, uint32_t offset,
                                     uint32_t limit) const;

    // The received letter `id`, or nullopt when the account has none by that id.
    std::optional<platform::json> letter(const std::string& account, const std::string& id) const;

    // Attachment n (1-based) of the account's letter `id`: {name, type, size, data (base64)};
    // nullopt when there is no such letter or attachment.
    std::optional<platform::json> attachment(const std::string& account, const std::string& id,
                                             int64_t n) const;

    // Marks the entry read; false when the account has no letter `id`.
    bool mark_read(const std::string& account, const std::string& id) const;

    // The account's sent copies: the collection (source) and how many there are (sources).
    platform::Collection sent(const std::string& account) const {
        return platform::Collection(host_.store(), "sent", account);
    }
    uint64_t sent_total(const std::string& account) const;

private:
    platform::Collection letters(const std::string& account) const {
        return platform::Collection(host_.store(), "letters", account);
    }
    platform::Collection index(const std::string& account) const {
        return platform::Collection(host_.store(), "index", account);
    }
    platform::Collection attachments(const std::string& account) const {
        return platform::Collection(host_.store(), "attachments", account);
    }
    platform::Collection counts(const std::string& account) const {
        return platform::Collection(host_.store(), "counts", account);
    }
    std::string new_id() const;

    platform::Host host_;
};

}  // namespace mail
