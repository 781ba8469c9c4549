// segments — how many SMS parts a text takes, and in which encoding (3GPP TS 23.038 and 23.040).
//
// A text goes as GSM-7 when every character is in the GSM 03.38 default alphabet or its extension
// table, else as UCS-2:
//
//   encoding  one part          each part of a concatenated message (the rest is the UDH)
//   GSM-7     160 septets       153 septets
//   UCS-2     70 UTF-16 units   67 UTF-16 units
//
// The extension characters  ^ { } \ [ ] ~ | €  and form feed are an escape plus a character: two
// septets. A character above U+FFFF (most emoji) is a surrogate pair: two UTF-16 units. Neither
// pair is split between parts, as phones' encoders do, so a part may end one short. Bytes that are
// not UTF-8 count as U+FFFD (one UCS-2 unit). The empty text is one part.
//
// Pure functions, any thread.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace sms {

enum class Encoding { gsm7, ucs2 };

struct Segments {
    Encoding encoding = Encoding::gsm7;
    std::size_t units = 0;  // septets (GSM-7) or UTF-16 code units (UCS-2) in all
    std::size_t parts = 1;
};

// "GSM-7" or "UCS-2", as answers show it.
const char* encoding_name(Encoding e);

// The encoding and parts of UTF-8 `text`.
Segments count_segments(std::string_view text);

// The septets a character takes in GSM-7: 1 (default alphabet), 2 (extension table) or 0 (not
// in GSM-7 at all).
int gsm7_septets(char32_t c);

}  // namespace sms
