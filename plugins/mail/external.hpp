// external — an account's own mailbox elsewhere, read over IMAP through the host (the mail
// service's connect, disconnect, externalsearch, externalread, and `external` in info).
//
// Connecting: `connect {url, user, password}` with url imap://host[:143][/mailbox] or
// imaps://host[:993][/mailbox] (mailbox INBOX when none). The host logs in and EXAMINEs the
// mailbox once; only when that works is the connection kept, as
//   external/<account>/mailbox   {url, host, port, tls, mailbox, sealed, connected}
// where `sealed` is {user, password} sealed by the host's "secrets" sub-table (AES-256-GCM under
// the host's secret key): the plugin stores no credential in the clear, so `mail` is listed under
// privileged: in the profile (503 saying so otherwise). `info` shows url, host, mailbox and user;
// never the password.
//
// Reading is read-only (imap_commands.hpp: EXAMINE, BODY.PEEK) and goes through the host's
// http_fetch with the imap(s) URL, the login as Basic authorization and the commands as the body:
// the host runs them on one connection and answers the transcript (imap_reply.hpp). The plugin
// makes no network call. The host's SSRF guard applies to the IMAP host as to any user URL, so
// loopback and private addresses are refused; an operator's own IMAP server can be listed in the
// plugin config `trusted_mailboxes` ("host:port"): only those go as operator URLs, which
// outbound.allow then decides.
//
// Search: messages of the last seven days by the server's INTERNALDATE (SINCE the day seven days
// before the host's business clock, UTC), newest first, headers only, at most 20 a page with an
// opaque cursor (external_cursor.hpp). Read: one message by id, its plain text (mime.hpp, GMime).
//
// Errors: no connection 503 saying how to connect; a login the server refuses 400 at connect
// (naming user and password) and 502 later (connect again); an IMAP NO/BAD 502 with the server's
// words; a stale id or cursor (UIDVALIDITY changed) 409; an unknown id 404.
#pragma once

#include <cstdint>
#include <optional>
#include <platform/sdk.hpp>
#include <string>
#include <vector>

#include "imap_reply.hpp"

namespace mail {

inline constexpr int64_t kExternalDays = 7;
inline constexpr int64_t kExternalPage = 20;

struct ExternalMailbox {
    std::string url;  // imap(s)://host:port/ — where the host connects (no mailbox, no login)
    std::string host, mailbox, user, password;
    int port = 0;
    bool tls = false;
};

class External {
public:
    explicit External(const platform::Host& host) : host_(host) {}

    // Checks and keeps the connection; answers info().
    platform::json connect(const std::string& account, const std::string& url,
                           const std::string& user, const std::string& password) const;
    // True when there was a connection to forget.
    bool disconnect(const std::string& account) const;
    // {connected: false} or {connected: true, url, host, mailbox, user, connected}.
    platform::json info(const std::string& account) const;

    // {messages: [{id, from, to, subject, date, message_id}], since, next_page (when more)}.
    platform::json search(const std::string& account, const std::string& query,
                          const std::string& page, int64_t limit) const;
    // {id, from, to, subject, date, message_id, body, attachments}.
    platform::json message(const std::string& account, const std::string& id) const;

private:
    platform::Collection records(const std::string& account) const {
        return platform::Collection(host_.store(), "external", account);
    }
    ExternalMailbox load(const std::string& account) const;
    // Runs the commands after EXAMINE; 401 from the server throws `refused` (invalid_argument at
    // connect, bad_gateway later).
    ImapReply run(const ExternalMailbox& box, const std::vector<std::string>& commands,
                  bool connecting) const;
    const platform_secrets_api_t& secrets() const;
    bool trusted(const std::string& host, int port) const;

    platform::Host host_;
};

}  // namespace mail
