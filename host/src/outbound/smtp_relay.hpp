// smtp_relay.hpp — private to host/src/outbound: one letter handed to the operator's SMTP relay
// (PLATFORM_SMTP_RELAY) through libcurl's SMTP, for http_fetch's reserved provider name "smtp"
// (outbound.hpp, Outbound::relay_mail).
//
// The request: the composed Internet message as the body (CRLF lines; libcurl dot-stuffs it), the
// envelope in two headers — `Mail-From` (one address) and `Rcpt-To` (1-50 addresses, separated by
// commas) — each address 3-254 printable ASCII characters holding one '@', without spaces, '<',
// '>', ',', or '"'. Other headers and the method are ignored; `url` must be empty.
//
// The relay: smtps:// is TLS from the first byte; smtp:// must upgrade with STARTTLS
// (CURLUSESSL_ALL) unless its host is loopback (127.0.0.0/8, ::1, localhost), where STARTTLS is
// used when offered and the session may stay plain (a local MTA or a test sink). Certificates are
// verified as for https. The user and password of the setting (percent-decoded) log in when given.
// The relay is the operator's own setting: no SSRF guard, no allow-list; no proxy.
//
// The answer (always through `done`, PLATFORM_OK unless the request was malformed or no reply
// came): HTTP status 200 with the server's final reply ("250 2.0.0 Ok: queued") when the relay
// took the letter; 502 with the server's reply when it refused (a 4xx or 5xx to MAIL, RCPT, DATA
// or the login); 503 naming PLATFORM_SMTP_RELAY when the setting is empty. INVALID_ARGUMENT for a
// bad envelope, TIMEOUT, and BAD_GATEWAY with curl's error when no SMTP reply explains a failure
// (connect, TLS, STARTTLS missing).
#pragma once

#include <platform/abi.h>

#include <string>

#include "fetch_state.hpp"

namespace platform::host::outbound {

// Sends `hop.body` as the headers of `hop` say to `relay_url` (empty = not configured), within
// `timeout_ms`, greeting it with EHLO `ehlo` (the mail domain; curl's default when empty).
Reply relay_mail(const std::string& relay_url, const std::string& ehlo, const Hop& hop,
                 int32_t timeout_ms);

}  // namespace platform::host::outbound
