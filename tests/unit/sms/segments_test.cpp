// SMS segment counting (plugins/sms/segments.hpp): GSM-7 and UCS-2, one part and concatenated,
// the extension table's two septets, surrogate pairs' two units, and pairs never split between
// parts.
#include "../../../plugins/sms/segments.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using sms::count_segments;
using sms::Encoding;

std::string times(const std::string& s, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += s;
    return out;
}

const std::string kEuro = "\xE2\x82\xAC";      // U+20AC, GSM-7 extension
const std::string kZhe = "\xD0\xB6";           // U+0436, not GSM-7
const std::string kGrin = "\xF0\x9F\x98\x80";  // U+1F600, a surrogate pair in UTF-16
const std::string kEAcute = "\xC3\xA9";        // U+00E9, GSM-7 default alphabet
const std::string kDelta = "\xCE\x94";         // U+0394, GSM-7 default alphabet
const std::string kAlpha = "\xCE\xB1";         // U+03B1, not GSM-7

void expect(const std::string& text, Encoding e, size_t units, size_t parts) {
    const sms::Segments s = count_segments(text);
    EXPECT_EQ(s.encoding, e) << text;
    EXPECT_EQ(s.units, units) << text;
    EXPECT_EQ(s.parts, parts) << text;
}

TEST(SmsSegments, Gsm7OnePartUpTo160ThenPartsOf153) {
    expect("", Encoding::gsm7, 0, 1);
    expect("Hello, world!", Encoding::gsm7, 13, 1);
    expect(std::string(160, 'a'), Encoding::gsm7, 160, 1);
    expect(std::string(161, 'a'), Encoding::gsm7, 161, 2);
    expect(std::string(306, 'a'), Encoding::gsm7, 306, 2);
    expect(std::string(307, 'a'), Encoding::gsm7, 307, 3);
    expect(std::string(459, 'a'), Encoding::gsm7, 459, 3);
    expect(std::string(460, 'a'), Encoding::gsm7, 460, 4);
    expect(std::string(1530, 'a'), Encoding::gsm7, 1530, 10);
}

TEST(SmsSegments, TheDefaultAlphabetBeyondAsciiIsOneSeptet) {
    expect(kEAcute + kDelta + "\xC2\xA3\xC2\xA5\xC3\x9F\xC3\xB1\xC3\xBC\xC2\xBF\xC2\xA1",
           Encoding::gsm7, 9, 1);  // é Δ £ ¥ ß ñ ü ¿ ¡
    expect("@$_!\"#%&'()*+,-./:;<=>?\n\r", Encoding::gsm7, 25, 1);
    expect(times(kEAcute, 160), Encoding::gsm7, 160, 1);
    expect(times(kEAcute, 161), Encoding::gsm7, 161, 2);
}

TEST(SmsSegments, ExtensionCharactersCountTwoSeptets) {
    expect(kEuro, Encoding::gsm7, 2, 1);
    expect("[]{}^~\\|", Encoding::gsm7, 16, 1);
    expect("\f", Encoding::gsm7, 2, 1);
    expect(times(kEuro, 80), Encoding::gsm7, 160, 1);
    expect(times(kEuro, 81), Encoding::gsm7, 162, 2);
    expect(std::string(159, 'a') + "[", Encoding::gsm7, 161, 2);
    expect(std::string(158, 'a') + "]", Encoding::gsm7, 160, 1);
}

TEST(SmsSegments, AnEscapedCharacterIsNotSplitBetweenParts) {
    // 152 + 2 + 152 = 306 septets would fill two parts of 153 exactly, but the euro sign cannot
    // start in part 1's last septet: part 1 holds 152, part 2 the euro and 151, part 3 one.
    expect(std::string(152, 'a') + kEuro + std::string(152, 'a'), Encoding::gsm7, 306, 3);
    expect(std::string(151, 'a') + kEuro + std::string(153, 'a'), Encoding::gsm7, 306, 2);
}

TEST(SmsSegments, AnyOtherCharacterMakesTheWholeTextUcs2) {
    expect(kZhe, Encoding::ucs2, 1, 1);
    expect(std::string(100, 'a') + kZhe, Encoding::ucs2, 101, 2);
    expect("`", Encoding::ucs2, 1, 1);           // the backtick is not in GSM-7
    expect("\t", Encoding::ucs2, 1, 1);          // neither is a tab
    expect(kAlpha, Encoding::ucs2, 1, 1);        // lower-case Greek is not
    expect(kEuro + kZhe, Encoding::ucs2, 2, 1);  // the euro sign is one unit in UCS-2
    expect("\xFF", Encoding::ucs2, 1, 1);        // not UTF-8: U+FFFD
}

TEST(SmsSegments, Ucs2OnePartUpTo70ThenPartsOf67) {
    expect(times(kZhe, 70), Encoding::ucs2, 70, 1);
    expect(times(kZhe, 71), Encoding::ucs2, 71, 2);
    expect(times(kZhe, 134), Encoding::ucs2, 134, 2);
    expect(times(kZhe, 135), Encoding::ucs2, 135, 3);
    expect(times(kZhe, 201), Encoding::ucs2, 201, 3);
    expect(times(kZhe, 202), Encoding::ucs2, 202, 4);
}

TEST(SmsSegments, SurrogatePairsCountTwoAndAreNotSplit) {
    expect(kGrin, Encoding::ucs2, 2, 1);
    expect(times(kGrin, 35), Encoding::ucs2, 70, 1);
    expect(times(kGrin, 36), Encoding::ucs2, 72, 2);
    expect("Hi " + kGrin, Encoding::ucs2, 5, 1);
    // 66 + 2 + 66 = 134 units, two parts of 67 by count; the pair moves to part 2: three parts.
    expect(times(kZhe, 66) + kGrin + times(kZhe, 66), Encoding::ucs2, 134, 3);
    expect(times(kZhe, 65) + kGrin + times(kZhe, 67), Encoding::ucs2, 134, 2);
}

TEST(SmsSegments, SeptetsOfSingleCharacters) {
    EXPECT_EQ(sms::gsm7_septets('a'), 1);
    EXPECT_EQ(sms::gsm7_septets('@'), 1);
    EXPECT_EQ(sms::gsm7_septets(U'\u00C7'), 1);  // Ç
    EXPECT_EQ(sms::gsm7_septets(U'\u20AC'), 2);  // €
    EXPECT_EQ(sms::gsm7_septets('|'), 2);
    EXPECT_EQ(sms::gsm7_septets('`'), 0);
    EXPECT_EQ(sms::gsm7_septets(U'\u00E7'), 0);  // ç is not in the default alphabet
    EXPECT_EQ(sms::gsm7_septets(U'\U0001F600'), 0);
    EXPECT_STREQ(sms::encoding_name(Encoding::gsm7), "GSM-7");
    EXPECT_STREQ(sms::encoding_name(Encoding::ucs2), "UCS-2");
}

}  // namespace
