// platform/sdk/text.hpp: the helpers plugins and the host share (RFC 3339, case, UTF-8 lengths and
// cuts, HTML, base64, base64url, ids).
#include <gtest/gtest.h>

#include <platform/sdk/random.hpp>
#include <platform/sdk/text.hpp>
#include <set>

namespace {

TEST(SdkText, Rfc3339IsUtcWholeSeconds) {
    EXPECT_EQ(platform::rfc3339(0), "1970-01-01T00:00:00Z");
    EXPECT_EQ(platform::rfc3339(1'795'000'123'456), "2026-11-18T11:08:43Z");
    EXPECT_EQ(platform::rfc3339(-1), "1969-12-31T23:59:59Z");  // before the epoch rounds down
}

TEST(SdkText, LowerFoldsAsciiOnly) {
    EXPECT_EQ(platform::lower("MiXeD 42 ÄÖ"), "mixed 42 ÄÖ");
}

TEST(SdkText, Utf8LengthsAndCutsCountCharactersNotBytes) {
    EXPECT_EQ(platform::utf8_length("añb€"), 4u);
    EXPECT_EQ(platform::utf8_prefix("añb€", 2), "añ");
    EXPECT_EQ(platform::utf8_prefix("añb€", 4), "añb€");
    EXPECT_EQ(platform::utf8_prefix("añb€", 9), "añb€");
    EXPECT_EQ(platform::utf8_prefix("abc", 0), "");
}

TEST(SdkText, FirstLineEndsBeforeTheLineBreak) {
    EXPECT_EQ(platform::first_line("title\r\nbody"), "title");
    EXPECT_EQ(platform::first_line("title\nbody"), "title");
    EXPECT_EQ(platform::first_line("only"), "only");
    EXPECT_EQ(platform::first_line(""), "");
}

TEST(SdkText, HtmlEscapeCoversElementsAndAttributes) {
    EXPECT_EQ(platform::html_escape(R"(<a href="x">'&'</a>)"),
              "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
}

TEST(SdkText, Base64RoundTripsEveryLengthAndRejectsMalformedInput) {
    std::string bytes;
    for (int i = 0; i < 70; ++i) {
        EXPECT_EQ(platform::base64_decode(platform::base64_encode(bytes)), bytes) << i;
        bytes += static_cast<char>(i * 37);
    }
    EXPECT_EQ(platform::base64_encode("hello"), "aGVsbG8=");
    EXPECT_EQ(platform::base64_decode("aGVs\r\nbG8="), "hello");  // MIME line breaks
    EXPECT_EQ(platform::base64_decode("aGVsbG8"), "hello");       // padding optional
    EXPECT_EQ(platform::base64_decode("-_-_"),
              platform::base64_decode("+/+/"));          // URL-safe alphabet
    EXPECT_FALSE(platform::base64_decode("aGVsbG8=x"));  // data after the padding
    EXPECT_FALSE(platform::base64_decode("aGVsbG8=="));  // wrong padding
    EXPECT_FALSE(platform::base64_decode("a"));          // no whole byte
    EXPECT_FALSE(platform::base64_decode("not base64!"));
}

TEST(SdkText, Base64urlIsUnpaddedAndItsDecoderStrict) {
    std::string bytes;
    for (int i = 0; i < 70; ++i) {
        const std::string text = platform::base64url_encode(bytes);
        EXPECT_EQ(text.size(), (bytes.size() * 4 + 2) / 3) << i;  // no padding
        EXPECT_EQ(platform::base64url_decode(text), bytes) << i;
        bytes += static_cast<char>(i * 37);
    }
    EXPECT_EQ(platform::base64url_encode("\xfb\xff"), "-_8");
    EXPECT_EQ(platform::base64url_encode("hello"), "aGVsbG8");
    EXPECT_FALSE(platform::base64url_decode("aGVsbG8="));  // padding
    EXPECT_FALSE(platform::base64url_decode("+/8"));       // the standard alphabet
    EXPECT_FALSE(platform::base64url_decode("aGVs bG8"));  // whitespace
    EXPECT_FALSE(platform::base64url_decode("aGVsbG9"));   // unused bits set: not canonical
    EXPECT_FALSE(platform::base64url_decode("aGVsb"));     // no whole byte
}

TEST(SdkText, HashIdsFollowTheSeedAndAttempt) {
    EXPECT_EQ(platform::hash_id("seed").size(), 16u);
    EXPECT_EQ(platform::hash_id("seed"), platform::hash_id("seed"));
    EXPECT_NE(platform::hash_id("seed", 0), platform::hash_id("seed", 1));
    EXPECT_EQ(platform::hash_id("seed", 0, "bp-").rfind("bp-", 0), 0u);
}

TEST(SdkText, TimeOrderedIdsSortByTimeAndNeverRepeat) {
    std::set<std::string> seen;
    std::string last;
    for (int64_t t = 1000; t < 1100; ++t) {
        std::string id = platform::time_ordered_id("ev", t);
        EXPECT_EQ(id.size(), 3u + 12 + 1 + 6) << id;
        EXPECT_TRUE(seen.insert(id).second) << id;
        EXPECT_LT(last.substr(0, 16), id.substr(0, 16));
        last = id;
    }
    EXPECT_NE(platform::time_ordered_id("ev", 5), platform::time_ordered_id("ev", 5));
}

TEST(SdkText, SequenceGrowsEvenWhenTheClockStandsStill) {
    const int64_t a = platform::next_sequence(1000), b = platform::next_sequence(1000);
    EXPECT_GT(b, a);
    EXPECT_GE(platform::next_sequence(5000), 5000 * 1000);
}

}  // namespace
