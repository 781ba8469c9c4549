// imap_reply — what the external mailbox needs from an IMAP server's transcript (RFC 3501), as
// the host's http_fetch for imap(s):// URLs hands it over: every line the server sent from the
// greeting on, CRLF line ends, literals ("{n}" CRLF and n bytes) as they came.
//
//   * OK [UIDVALIDITY 1795963796] UIDs valid            -> uidvalidity
//   * SEARCH 4 9 12                                     -> found (in the server's order)
//   * 3 FETCH (UID 12 BODY[HEADER.FIELDS (FROM)] {25}   -> fetched: {uid 12, the 25 bytes}
//   From: bob@example.org
//   <blank line>)
//
// A FETCH item's data is the value of its BODY[...] (or BINARY[...], RFC822...) item: a literal,
// a quoted string or NIL (empty). Other items (FLAGS, INTERNALDATE...) are read past. Lines the
// parser does not know are skipped; a malformed response is dropped from where it goes wrong, so
// any bytes give a reply and never a crash. Pure functions; no I/O.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mail {

struct Fetched {
    uint32_t uid = 0;
    std::string data;
};

struct ImapReply {
    uint32_t uidvalidity = 0;  // 0: none announced
    bool searched = false;     // a SEARCH response came (it may list no numbers)
    std::vector<uint32_t> found;
    std::vector<Fetched> fetched;
};

ImapReply parse_reply(const std::string& transcript);

}  // namespace mail
