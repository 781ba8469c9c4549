// external_cursor — externalsearch's `page`: an opaque cursor naming where the next page starts,
// and the ids of external messages. Both carry the mailbox's UIDVALIDITY (RFC 3501 §2.3.1.1), so
// a cursor or id from before the server renumbered its messages is recognised as stale rather
// than pointing at another message.
//
//   page  "c" + base64url("<uidvalidity>.<uid>"): the next page holds matches below that UID
//   id    "<uidvalidity>-<uid>", e.g. "1795963796-12"
//
// Results are newest first (descending UID), so messages arriving between pages do not shift the
// pages already read. Pure functions; no I/O.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace mail {

struct MessageRef {
    uint32_t uidvalidity = 0, uid = 0;
};

std::string page_cursor(MessageRef last_shown);
// nullopt for text that is no cursor (or holds zeros).
std::optional<MessageRef> read_page_cursor(const std::string& page);

std::string external_id(MessageRef m);
// nullopt for text that is no external id.
std::optional<MessageRef> read_external_id(const std::string& id);

}  // namespace mail
