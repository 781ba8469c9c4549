// events-nats — the bytes stored per event: "PE1" magic, then little-endian lengths.
//
//   "PE1" | u32 id length | id | i64 timestamp_ms | u32 metadata length | metadata | payload
//
// The payload runs to the end of the message, so it is any bytes (NUL included).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace events_nats {

struct Envelope {
    std::string_view id;
    int64_t timestamp_ms = 0;
    std::string_view metadata, payload;
};

std::string encode(const Envelope& e);
// False when `data` is not an envelope (a message some other client published on the subject).
bool decode(std::string_view data, Envelope& out);

// Lowercase hex of any bytes, and back (false on a malformed string).
std::string hex(std::string_view bytes);
bool unhex(std::string_view text, std::string& out);

}  // namespace events_nats
