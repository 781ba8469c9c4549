// platform/sdk/random.hpp: the ids every surface hands out have the documented form and length,
// and do not repeat.
#include <gtest/gtest.h>

#include <cstring>
#include <platform/sdk/random.hpp>
#include <regex>
#include <set>

TEST(Random, HexBase64urlAndUuidHaveTheirFormAndLength) {
    EXPECT_TRUE(std::regex_match(platform::random_hex(16), std::regex("[0-9a-f]{32}")));
    EXPECT_TRUE(std::regex_match(platform::random_hex(8), std::regex("[0-9a-f]{16}")));
    EXPECT_TRUE(std::regex_match(platform::random_base64url(32), std::regex("[A-Za-z0-9_-]{43}")));
    EXPECT_TRUE(std::regex_match(platform::random_base64url(18), std::regex("[A-Za-z0-9_-]{24}")));
    const std::regex uuid("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
    for (int i = 0; i < 200; ++i) EXPECT_TRUE(std::regex_match(platform::uuid4(), uuid));
}

TEST(Random, TenThousandIdsAreAllDifferentAndUseEveryDigit) {
    std::set<std::string> seen;
    std::set<char> digits;
    for (int i = 0; i < 10000; ++i) {
        const std::string id = platform::random_hex(16);
        seen.insert(id);
        digits.insert(id.begin(), id.end());
    }
    EXPECT_EQ(seen.size(), 10000u);
    EXPECT_EQ(digits.size(), 16u);
    unsigned char zero[64] = {};
    unsigned char bytes[64] = {};
    platform::random_bytes(bytes, sizeof bytes);
    EXPECT_NE(std::memcmp(bytes, zero, sizeof bytes), 0);
}
