// platform/validation/json_check.hpp — is this text JSON? Answered without building a value.
//
// Where the host only needs the answer (the plugin's bytes of an /api/v1 answer, wrapped in
// `{"data": …}` as they are), json_valid says it in one pass over the bytes and allocates
// nothing, in a fraction of the instructions of nlohmann::json::accept (which fills the lexer's
// token buffer and converts every number on the way).
//
// The answer is nlohmann::json::accept's (tests/unit/schema/json_check_test.cpp and the fuzz
// target tests/fuzz/json_check.cpp compare the two), with two differences, both refusals of bytes
// that would make an envelope the text is spliced into invalid JSON:
//   - a UTF-8 byte order mark in front of the text, which nlohmann skips (RFC 8259 §8.1: not part
//     of JSON text);
//   - a NUL byte after a complete value: nlohmann takes NUL for the end of its input (a C string's
//     end) and accepts `[1]\0anything`; here a NUL is refused wherever it is.
// So:
//   - one value, optionally surrounded by space, tab, LF and CR; nothing else before or after;
//     empty text is refused;
//   - strings hold well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing above
//     U+10FFFF) and no control character (below U+0020); escapes are \" \\ \/ \b \f \n \r \t and
//     \uXXXX, where a high surrogate (D800–DBFF) must be followed by \u and a low one
//     (DC00–DFFF), and a low one may not stand alone;
//   - numbers as the grammar says (no leading zeros, no '+', no bare '.', digits after '.' and
//     after the exponent), and finite as a double: 1e400 is refused, as nlohmann refuses it
//     (1e-400 is 0 and accepted);
//   - literals true, false and null;
//   - any depth: the nesting lives in an explicit bit stack (one bit a level, 4096 levels
//     inline, the heap beyond), never in the thread's stack.
#pragma once

#include <string_view>

namespace platform::validation {

// True when `text` is one JSON text (above).
bool json_valid(std::string_view text) noexcept;

}  // namespace platform::validation
