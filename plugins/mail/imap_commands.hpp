// imap_commands — the IMAP commands (RFC 3501) the external mailbox sends, one a line, without
// tags (the host's IMAP session adds them). Everything is read-only: the mailbox is opened with
// EXAMINE and messages are read with BODY.PEEK, so no \Seen flag is ever set.
//
//   EXAMINE "INBOX"
//   UID SEARCH SINCE 22-Nov-2026 UID 1:41 TEXT "invoice"
//   UID FETCH 41,40,12 (UID BODY.PEEK[HEADER.FIELDS (FROM TO SUBJECT DATE MESSAGE-ID)])
//   UID FETCH 41 (UID BODY.PEEK[])
//
// Strings go as quoted strings (backslash and double quote escaped); the caller keeps CR and LF
// out (the service refuses them). A query with bytes outside ASCII adds CHARSET UTF-8 and goes
// as UTF-8 in the quoted string, which servers such as Dovecot accept; a strict server may
// answer BAD. Pure functions; no I/O.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mail {

// "\"a \\\"b\\\"\"" for a "b".
std::string imap_quoted(const std::string& s);

// The day of `unix_ms` (UTC) as IMAP writes dates: "2-Dec-2026".
std::string imap_date(int64_t unix_ms);

std::string examine_command(const std::string& mailbox);

// UIDs of messages since the day of `since_ms` (the server's INTERNALDATE), below `below_uid`
// when it is not 0, holding `query` in their header or body when it is not empty.
std::string search_command(int64_t since_ms, const std::string& query, uint32_t below_uid);

// The headers external search shows, for these UIDs.
std::string fetch_headers_command(const std::vector<uint32_t>& uids);

// One whole message.
std::string fetch_message_command(uint32_t uid);

}  // namespace mail
