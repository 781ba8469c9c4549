// phrasing — the text clean-ups model-builtin applies around its rules (router.hpp): what a request
// looks like before matching, and how captured words become a title or a name.
#pragma once

#include <platform/sdk/text.hpp>
#include <string>

namespace builtin {

// The request as the rules see it: straight quotes for typographic ones (’ ‘ “ ”), whitespace
// collapsed to single spaces, trailing . ! ? and spaces removed, and courtesy around the request
// dropped, repeatedly and ignoring case: leading "please", "could you", "can you", "would you",
// "will you", "kindly", "hey", "hi", "hello", "ok", "okay", "so", "just", "i'd like you to",
// "i want you to", "go ahead and" (with a following comma), trailing "please", "for me", "thanks",
// "thank you". Case is kept (titles keep what was written).
std::string normalise(const std::string& text);

// `text` without any of `words` (each a lower-case phrase such as "to" or "the") at its start,
// repeatedly, ignoring case; trimmed. strip_leading("to call Bob", {"to"}) is "call Bob".
std::string strip_leading(std::string text, std::initializer_list<const char*> words);

// `text` without surrounding quotes ("..." or '...') and spaces.
std::string unquoted(std::string text);

// A short title for a note's text: the subject before " is ", " are ", " was ", ": ", " = " or
// " - " when there is one ("the boiler code is 4512" -> "boiler code"), else the text; leading
// articles and possessives (the, a, an, my, our, your) dropped; at most 6 words and 80 bytes
// (never cutting a UTF-8 character).
std::string short_title(const std::string& text);

// ASCII lower case (UTF-8 bytes above 0x7F unchanged, so offsets match the original).
using platform::lower;  // platform/sdk/text.hpp

}  // namespace builtin
