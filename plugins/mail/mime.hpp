// mime — an Internet message from outside (RFC 5322 with MIME, RFC 2045-2047) taken apart with
// GMime 3, the one file of this plugin that uses it:
//
//   headers      From (its first address; the display name dropped; `from_written`: the whole
//                header decoded, names kept: "Bob <bob@example.org>"), To (as written, decoded),
//                Subject (RFC 2047 words decoded), Date (as written), Message-ID and In-Reply-To
//                (without angle brackets)
//   body         the first text/plain part that is not an attachment, its transfer encoding
//                (base64, quoted-printable) undone, its charset converted to UTF-8 and its
//                line ends made LF; without
//                one, the first text/html part as text (html_text.hpp); "" without either
//   attachments  every other leaf part with a file name or Content-Disposition: attachment,
//                decoded: {name, type, data}; a part without a name is called "attachment-<n>"
//
// Text that is not valid UTF-8 after conversion (an unknown charset, broken bytes) has its bad
// bytes replaced by U+FFFD, so what is stored is always UTF-8. A message GMime cannot parse at
// all is nullopt. Thread-safe (GMime is initialised once).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mail {

struct Attachment {
    std::string name, type, data;  // type: "image/png"; data: the decoded bytes
};

struct ParsedMessage {
    std::string from, from_written, to, subject, date, message_id, in_reply_to, body;
    std::vector<Attachment> attachments;
};

std::optional<ParsedMessage> parse_message(std::string_view raw);

}  // namespace mail
