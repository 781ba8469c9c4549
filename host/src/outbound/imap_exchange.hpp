// imap_exchange.hpp — private to host/src/outbound: http_fetch for imap:// and imaps:// URLs, so a
// plugin (mail's external mailbox) can read an IMAP mailbox without a network call of its own and
// without a new ABI function. One fetch is one IMAP session through libcurl:
//
//   url      imap://host[:143]/ or imaps://host[:993]/ (a path names a mailbox curl SELECTs first;
//            give none and open the mailbox with EXAMINE among the commands to stay read-only)
//   headers  only {"Authorization": "Basic base64(user:password)"}: the login
//   body     1-8 IMAP commands, one a line, without tags ("EXAMINE INBOX", "UID SEARCH SINCE
//            1-Dec-2026", "UID FETCH 7 (UID BODY.PEEK[])"); each 1-1000 printable characters
//   method   ignored
//
// The guard is the one http uses (hop_guard.hpp): the host is resolved once and every address
// checked, unless the request is an operator URL (PLATFORM_HTTP_OPERATOR_URL) allow-listed in
// outbound.allow; no redirects exist. imap:// upgrades with STARTTLS when the server offers it;
// imaps:// verifies the certificate. The commands run on one connection (curl's custom requests,
// each sent with its own tag); if curl had to reconnect between them the fetch fails, since the
// mailbox opened by EXAMINE would be lost.
//
// The answer: status OK and `body` the server's transcript — every line it sent from the greeting
// on, CRLF line ends, literals ({n} and their n bytes) as they came — with http
//   200  every command answered OK;
//   401  the login was refused (`error` has the server's words);
//   502  a command answered NO or BAD (`error` names it with the server's tagged line).
// Failures without a transcript: PERMISSION_DENIED (the guard), INVALID_ARGUMENT (URL, headers,
// commands), BAD_GATEWAY (DNS, connect, TLS, a broken session), TIMEOUT, PAYLOAD_TOO_LARGE (the
// transcript over max_response_bytes).
//
// Limitation of libcurl's custom requests: a message line starting with the command's tag
// (curl's "A001 "...) would end the response early; the transcript is then short, not wrong.
#pragma once

#include <platform/abi.h>

#include <platform/host/outbound/outbound.hpp>
#include <string>

#include "fetch_state.hpp"

namespace platform::host::outbound {

// True when `url` starts with imap:// or imaps:// (any case).
bool is_imap_url(const std::string& url);

// Runs the fetch described above. `hop` is read_hop's (headers validated, body).
Reply imap_exchange(const platform_http_request_t& req, const Hop& hop, const Limits& limits,
                    const OutboundSettings& s);

}  // namespace platform::host::outbound
