// mime_text — reading an Internet message (RFC 5322 with MIME, RFC 2045-2047) for its headers and
// its plain text: what externalread shows of a message from an outside mailbox.
//
//   headers      unfolded, names in lower case, the first of each name, values as written
//   decode_words RFC 2047 encoded words ("=?UTF-8?Q?Caf=C3=A9?=", B or Q) to UTF-8
//   read_message the first text/plain part that is not an attachment (the whole body when the
//                message is not multipart), its transfer encoding undone (quoted-printable,
//                base64) and its charset turned into UTF-8, line ends as LF; plus the names of
//                the attachments (filename= or name= of each other part)
//
// Charsets: UTF-8 and US-ASCII as they are, ISO-8859-1 / Latin-1 / Windows-1252 byte by byte
// (the 0x80-0x9F block as Latin-1); any other charset's bytes are kept as they are. A message
// without a text/plain part has an empty body. Nested multiparts are read to a depth of 8. This
// is a small reader for plain text; a full MIME parser (GMime) can replace it behind this header.
// Pure functions; no I/O.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace mail {

std::map<std::string, std::string> header_fields(const std::string& head);

std::string decode_words(const std::string& value);

struct MessageText {
    std::map<std::string, std::string> headers;  // of the message itself
    std::string body;
    std::vector<std::string> attachments;
};

MessageText read_message(const std::string& raw);

// Quoted-printable (RFC 2045 §6.7) decoded; soft line breaks removed.
std::string decode_quoted_printable(const std::string& text);

}  // namespace mail
