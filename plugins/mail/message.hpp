// message — a letter as an Internet message (RFC 5322 with MIME, RFC 2045-2047), the text an SMTP
// relay is given for a letter that leaves the instance.
//
//   From: ann@example.org
//   To: someone@example.net
//   Subject: =?UTF-8?B?...?=            (plain when printable ASCII, else RFC 2047 words)
//   Date: Thu, 01 Jan 2026 00:00:00 +0000
//   Message-ID: <32 hex digits@example.org>
//   In-Reply-To: <id@host>               (a reply only; References then names the same id)
//   References: <id@host>
//   MIME-Version: 1.0
//   Content-Type: text/plain; charset=utf-8
//   Content-Transfer-Encoding: quoted-printable
//
//   <the body, quoted-printable>
//
// Every line ends in CRLF; body lines are at most 76 characters. The body's line breaks (LF, CRLF or CR)
// become CRLF; '=', bytes outside printable ASCII, whitespace before a line break, a '.' starting
// a line (so no line is SMTP's lone "." whatever the transport does) and the 'F' of a line
// starting "From " (mbox readers) are encoded. Header values hold no CR or LF (the service
// refuses such subjects; addresses are checked), so no header can be injected.
#pragma once

#include <cstdint>
#include <string>

namespace mail {

struct Letter {
    std::string from, to, subject, body;
    int64_t date_ms = 0;
    std::string message_id;   // without the angle brackets: "<local>@<domain>"
    std::string in_reply_to;  // the Message-ID this answers, without brackets; "" for none
};

// The whole message, headers and body, CRLF line ends.
std::string compose(const Letter& letter);

// The body as quoted-printable (RFC 2045 §6.7) with the rules above.
std::string quoted_printable(const std::string& text);

// A header value as RFC 2047 encoded words when it is not printable ASCII ("=?UTF-8?B?...?="
// words of at most 75 characters, cut between UTF-8 characters, joined by CRLF SP); as it is
// otherwise. `used` is how many characters of the line the header name took ("Subject: " = 9).
std::string header_text(const std::string& value, std::size_t used);

// "Thu, 01 Jan 2026 00:00:00 +0000" (RFC 5322 §3.3, UTC).
std::string rfc5322_date(int64_t unix_ms);

}  // namespace mail
