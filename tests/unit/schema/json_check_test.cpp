// json_valid (platform/validation/json_check.hpp): JSONTestSuite-shaped cases — y_ must be
// accepted, n_ refused — each also put to nlohmann::json::accept, and a bounded differential run
// over generated and mutated texts with a fixed seed (tests/fuzz/json_check.cpp goes further).
#include "platform/validation/json_check.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

namespace {

using platform::validation::json_valid;

struct Case {
    const char* name;
    std::string text;
};

void PrintTo(const Case& c, std::ostream* os) {
    *os << c.name;
}

// Where json_valid may answer differently from nlohmann (the header says why): a leading byte
// order mark, a NUL byte. There json_valid refuses.
bool refused_on_purpose(const std::string& s) {
    return s.rfind("\xEF\xBB\xBF", 0) == 0 || s.find('\0') != std::string::npos;
}

// The oracle: json_valid says what nlohmann::json::accept says, but for the texts above.
::testing::AssertionResult agrees(const std::string& s) {
    const bool ours = json_valid(s);
    const bool theirs = nlohmann::json::accept(s);
    if (refused_on_purpose(s) ? !ours : ours == theirs) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "json_valid " << ours << ", nlohmann " << theirs
                                         << " for " << ::testing::PrintToString(s);
}

std::string nested(std::size_t depth, const std::string& open, const std::string& inner,
                   const std::string& close) {
    std::string s;
    for (std::size_t i = 0; i < depth; ++i) s += open;
    s += inner;
    for (std::size_t i = 0; i < depth; ++i) s += close;
    return s;
}

const std::vector<Case>& accepted() {
    static const std::vector<Case> cases = {
        {"y_array_empty", "[]"},
        {"y_array_empty_with_space", "[ \n\r\t]"},
        {"y_array_arrays", "[[],[[]],[[],[]]]"},
        {"y_array_heterogeneous", R"([null, 1, "1", {}, [], true, false, -0.5e-3])"},
        {"y_array_with_spaces", " [ 1 , 2 ] "},
        {"y_object_empty", "{}"},
        {"y_object_empty_key", R"({"":0})"},
        {"y_object_duplicated_key", R"({"a":"b","a":"c"})"},
        {"y_object_nested", R"({"a":{"b":[{"c":null}]}})"},
        {"y_object_spaces", "{ \"a\" : [ ] , \"b\" :{}}"},
        {"y_answer_notes_list",
         R"({"notes":[{"id":"n_1","title":"one","text":"some text for one","created":1733570000123}],"next":null})"},
        {"y_number_zero", "0"},
        {"y_number_minus_zero", "-0"},
        {"y_number_minus_zero_fraction", "-0.0"},
        {"y_number_int", "123456789"},
        {"y_number_negative", "-123"},
        {"y_number_fraction", "1.5"},
        {"y_number_exponent", "1e5"},
        {"y_number_capital_exponent_plus", "1E+5"},
        {"y_number_exponent_minus", "1e-5"},
        {"y_number_exponent_leading_zeros", "1e007"},
        {"y_number_zero_exponent", "0e1"},
        {"y_number_zero_huge_exponent", "0.000e99999999999999999999999"},
        {"y_number_fraction_exponent", "-12.5e3"},
        {"y_number_beyond_uint64", "123456789012345678901234567890"},
        {"y_number_beyond_int64_negative", "-9223372036854775809"},
        {"y_number_underflow", "1e-400"},
        {"y_number_huge_negative_exponent", "1e-99999999999999999999999"},
        {"y_number_double_max", "1.7976931348623157e308"},
        {"y_number_rounds_to_double_max", "1.7976931348623158e308"},
        {"y_number_below_10e308_long", "9" + std::string(307, '9')},
        {"y_number_fraction_near_max", "0.00017976931348623157e312"},
        {"y_string_empty", R"("")"},
        {"y_string_ascii", R"("hello, world")"},
        {"y_string_escapes", R"("\"\\\/\b\f\n\r\t")"},
        {"y_string_u_escape", R"("\u0041\u00e9\u20AC")"},
        {"y_string_u_escape_nul", R"("\u0000")"},
        {"y_string_surrogate_pair", R"("\uD834\uDD1E")"},
        {"y_string_surrogate_pair_last", R"("\uDBFF\uDFFF")"},
        {"y_string_utf8_2", "\"\xC3\xA9\""},
        {"y_string_utf8_3", "\"\xE2\x82\xAC\""},
        {"y_string_utf8_3_last_before_surrogates", "\"\xED\x9F\xBF\""},
        {"y_string_utf8_4", "\"\xF0\x9F\x98\x80\""},
        {"y_string_utf8_max", "\"\xF4\x8F\xBF\xBF\""},
        {"y_string_del", "\"\x7F\""},
        {"y_string_long", "\"" + std::string(1000, 'x') + "\\n" + std::string(13, 'y') + "\""},
        {"y_string_escaped_quote_in_block", R"("abcdefg\"hijklmno\\")"},
        {"y_literal_true", "true"},
        {"y_literal_false", "false"},
        {"y_literal_null", " null "},
        {"y_structure_trailing_newline", "[1]\n"},
        {"y_deep_arrays_100000", nested(100000, "[", "", "]")},
        {"y_deep_objects_10000", nested(10000, R"({"a":)", "1", "}")},
        {"y_deep_mixed_5000", nested(5000, R"({"a":[)", "null", "]}")},
    };
    return cases;
}

const std::vector<Case>& refused() {
    static const std::vector<Case> cases = {
        {"n_empty", ""},
        {"n_only_space", " \n\t\r"},
        {"n_form_feed_space", "\f[]"},
        {"n_array_unclosed", "[1"},
        {"n_array_unclosed_after_comma", "[1,"},
        {"n_array_trailing_comma", "[1,]"},
        {"n_array_leading_comma", "[,1]"},
        {"n_array_double_comma", "[1,,2]"},
        {"n_array_missing_comma", "[1 2]"},
        {"n_array_colon", "[1:2]"},
        {"n_array_closed_by_brace", "[1}"},
        {"n_object_unclosed", R"({"a":1)"},
        {"n_object_trailing_comma", R"({"a":1,})"},
        {"n_object_key_not_string", "{1:2}"},
        {"n_object_key_unquoted", "{a:2}"},
        {"n_object_missing_colon", R"({"a" 1})"},
        {"n_object_missing_value", R"({"a":})"},
        {"n_object_key_only", R"({"a"})"},
        {"n_object_closed_by_bracket", R"({"a":1])"},
        {"n_structure_two_values", "[] []"},
        {"n_structure_trailing_garbage", "{}x"},
        {"n_structure_lone_close", "]"},
        {"n_structure_extra_close", "[]]"},
        {"n_structure_bom", "\xEF\xBB\xBF[]"},
        {"n_structure_nul_after_value", std::string("[1]\0garbage", 11)},
        {"n_structure_nul_alone", std::string("\0", 1)},
        {"n_number_leading_zero", "01"},
        {"n_number_minus_leading_zero", "-01"},
        {"n_number_plus", "+1"},
        {"n_number_minus_alone", "-"},
        {"n_number_minus_space", "- 1"},
        {"n_number_dot_start", ".5"},
        {"n_number_dot_end", "1."},
        {"n_number_exponent_empty", "1e"},
        {"n_number_exponent_sign_only", "1e+"},
        {"n_number_hex", "0x1"},
        {"n_number_infinity", "Infinity"},
        {"n_number_nan", "NaN"},
        {"n_number_overflow", "1e400"},
        {"n_number_overflow_negative", "-1e400"},
        {"n_number_overflow_just", "1.7976931348623159e308"},
        {"n_number_overflow_integer", "1" + std::string(309, '0')},
        {"n_number_overflow_huge_exponent", "1e99999999999999999999999"},
        {"n_string_unclosed", R"("abc)"},
        {"n_string_unclosed_long", "\"" + std::string(100, 'a')},
        {"n_string_single_quotes", "'a'"},
        {"n_string_control_tab", "\"a\tb\""},
        {"n_string_control_newline", "\"a\nb\""},
        {"n_string_control_nul", std::string("\"a\0b\"", 5)},
        {"n_string_escape_x", R"("\x41")"},
        {"n_string_escape_apostrophe", R"("\'")"},
        {"n_string_escape_unclosed", R"("\)"},
        {"n_string_u_short", R"("\u12")"},
        {"n_string_u_not_hex", R"("\u12G4")"},
        {"n_string_lone_high_surrogate", R"("\uD800")"},
        {"n_string_lone_high_surrogate_then_text", R"("\uD800abcdef")"},
        {"n_string_high_surrogate_then_ascii_escape", R"("\uD800\u0041")"},
        {"n_string_two_high_surrogates", R"("\uD800\uD800")"},
        {"n_string_lone_low_surrogate", R"("\uDC00")"},
        {"n_string_reversed_surrogates", R"("\uDC00\uD800")"},
        {"n_string_high_surrogate_short_low", R"("\uD800\uDC0")"},
        {"n_string_utf8_continuation_alone", "\"\x80\""},
        {"n_string_utf8_overlong_2", "\"\xC0\x80\""},
        {"n_string_utf8_overlong_2_c1", "\"\xC1\xBF\""},
        {"n_string_utf8_overlong_3", "\"\xE0\x80\xAF\""},
        {"n_string_utf8_surrogate", "\"\xED\xA0\x80\""},
        {"n_string_utf8_overlong_4", "\"\xF0\x80\x80\xAF\""},
        {"n_string_utf8_above_max", "\"\xF4\x90\x80\x80\""},
        {"n_string_utf8_f5", "\"\xF5\x80\x80\x80\""},
        {"n_string_utf8_ff", "\"\xFF\""},
        {"n_string_utf8_truncated_2", "\"\xC3\""},
        {"n_string_utf8_truncated_3", "\"\xE2\x82\""},
        {"n_string_utf8_truncated_4", "\"\xF0\x9F\x98\""},
        {"n_string_utf8_truncated_at_end", "\"\xE2\x82"},
        {"n_literal_true_short", "tru"},
        {"n_literal_true_long", "truex"},
        {"n_literal_capital", "True"},
        {"n_literal_null_short", "nul"},
        {"n_non_ascii_outside_string", "\xC3\xA9"},
        {"n_deep_unclosed", nested(100000, "[", "", "")},
        {"n_deep_mismatched", nested(5000, "[", "", "}")},
    };
    return cases;
}

class Accepted : public ::testing::TestWithParam<Case> {};
class Refused : public ::testing::TestWithParam<Case> {};

TEST_P(Accepted, IsValidAsForNlohmann) {
    EXPECT_TRUE(json_valid(GetParam().text));
    EXPECT_TRUE(agrees(GetParam().text));
}

TEST_P(Refused, IsInvalidAsForNlohmann) {
    EXPECT_FALSE(json_valid(GetParam().text));
    EXPECT_TRUE(agrees(GetParam().text));
}

std::string name_of(const ::testing::TestParamInfo<Case>& info) {
    return info.param.name;
}

INSTANTIATE_TEST_SUITE_P(JsonCheck, Accepted, ::testing::ValuesIn(accepted()), name_of);
INSTANTIATE_TEST_SUITE_P(JsonCheck, Refused, ::testing::ValuesIn(refused()), name_of);

// nlohmann skips a leading byte order mark and stops at a NUL byte; json_valid refuses both.
TEST(JsonCheck, RefusesWhatNlohmannLetsThroughOnPurpose) {
    EXPECT_TRUE(nlohmann::json::accept(std::string("\xEF\xBB\xBF[]")));
    EXPECT_TRUE(nlohmann::json::accept(std::string("[1]\0garbage", 11)));
    EXPECT_FALSE(json_valid("\xEF\xBB\xBF[]"));
    EXPECT_FALSE(json_valid(std::string("[1]\0garbage", 11)));
}

// Pieces that make texts near the edges: structure, escapes, surrogates, UTF-8 lead and
// continuation bytes, number parts (also near 1.8e308), literals.
const std::vector<std::string>& pieces() {
    // clang-format off
    static const std::vector<std::string> all = {
        "{", "}", "[", "]", ",", ":", "\"", "\\", "u", "d8", "00", "dc", "DB", "0", "1", "9", "-",
        ".", "e", "E", "+", "true", "false", "null", " ", "\n", "\t", "\xC3", "\xA9", "\xED",
        "\xA0", "\xF0", "\x9F", "\x80", "\xFF", "\x01", "a", "\"a\"", "\"k\":", "1e308", "e308",
        "e309", "e-400", "17976931348623158", "1.8e308", "\\uD83D\\uDE00", "\\n", "\xEF\xBB\xBF",
        std::string("\0", 1)};
    // clang-format on
    return all;
}

// Fixed seeds: the same texts every run.
TEST(JsonCheck, AgreesWithNlohmannOnGeneratedTexts) {
    std::mt19937_64 rng(20261207);
    const auto& p = pieces();
    for (int i = 0; i < 100000; ++i) {
        std::string s;
        const int n = static_cast<int>(rng() % 12);
        for (int k = 0; k < n; ++k) s += p[rng() % p.size()];
        ASSERT_TRUE(agrees(s)) << "text " << i;
    }
}

TEST(JsonCheck, AgreesWithNlohmannOnMutatedAnswers) {
    const std::vector<std::string> answers = {
        R"({"notes":[{"id":"n_1","title":"one","text":"some text for one","n":-12.5e3}],"next":null,"ok":true})",
        "[\"\\u00e9\\ud83d\\ude00\xC3\xA9\xF0\x9F\x98\x80\",0,-0.0,1E-2,1.7976931348623157e308]",
        R"({"a":{"b":[[],{},"",0]}, "c" : "\"\\\/\b\f\n\r\t"})"};
    std::mt19937_64 rng(78);
    for (int i = 0; i < 100000; ++i) {
        std::string s = answers[rng() % answers.size()];
        const int edits = 1 + static_cast<int>(rng() % 3);
        for (int k = 0; k < edits; ++k) {
            const std::size_t at = rng() % (s.size() + 1);
            const char byte = static_cast<char>(rng() % 256);
            switch (rng() % 3) {
                case 0:
                    if (at < s.size()) s.erase(at, 1);
                    break;
                case 1:
                    s.insert(at, 1, byte);
                    break;
                default:
                    if (at < s.size()) s[at] = byte;
            }
        }
        ASSERT_TRUE(agrees(s)) << "mutation " << i;
    }
}

// Numbers whose value is within a rounding of the largest double: the digits decide.
TEST(JsonCheck, AgreesWithNlohmannOnNumbersNearTheLargestDouble) {
    std::mt19937_64 rng(309);
    int finite = 0, infinite = 0;
    for (int i = 0; i < 20000; ++i) {
        std::string digits = "1797693134862315";
        if (rng() % 4 == 0) digits[15] = static_cast<char>('0' + rng() % 10);
        const int tail = static_cast<int>(rng() % 30);
        for (int k = 0; k < tail; ++k) digits += static_cast<char>('0' + rng() % 10);
        std::string s = rng() % 2 ? "-" : "";
        if (rng() % 3 == 0) {  // 0.000<digits>e<exp>
            const int zeros = static_cast<int>(rng() % 5);
            s += "0." + std::string(zeros, '0') + digits + "e" +
                 std::to_string(309 + zeros - static_cast<int>(rng() % 2));
        } else {  // <int>.<fraction>e<exp>, or the whole integer
            const std::size_t point = 1 + rng() % digits.size();
            s += digits.substr(0, point);
            if (point < digits.size()) s += "." + digits.substr(point);
            const int exp = 309 - static_cast<int>(point) - static_cast<int>(rng() % 2);
            if (exp != 0 || rng() % 2) s += "e" + std::to_string(exp);
        }
        ASSERT_TRUE(agrees(s)) << s;
        (json_valid(s) ? finite : infinite)++;
    }
    EXPECT_GT(finite, 1000);
    EXPECT_GT(infinite, 1000);
}

}  // namespace
