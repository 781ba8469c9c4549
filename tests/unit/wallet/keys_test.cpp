// wallet keys against published vectors: Keccak-256 (the empty string, and the ERC-20 selector
// of balanceOf), EIP-55's own test addresses, and private keys whose addresses are published
// (the eth-account documentation's example key; the key 1).
#include "keys.hpp"

#include <gtest/gtest.h>

#include <set>

using namespace wallet;

TEST(Keccak, EmptyStringIsTheOriginalKeccakNotSha3) {
    EXPECT_EQ(to_hex(keccak256("")),
              "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470");
    // SHA3-256("") of FIPS 202 differs: the padding is not the same.
    EXPECT_NE(to_hex(keccak256("")),
              "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a");
}

TEST(Keccak, FunctionSelectorsOfErc20) {
    EXPECT_EQ(to_hex(keccak256("balanceOf(address)")).substr(0, 8), "70a08231");
    EXPECT_EQ(to_hex(keccak256("transfer(address,uint256)")).substr(0, 8), "a9059cbb");
}

// The test cases of EIP-55 (https://eips.ethereum.org/EIPS/eip-55#test-cases).
TEST(Eip55, TheEipsTestCases) {
    for (const char* a : {
             "0x52908400098527886E0F7030069857D2E4169EE7",  // all caps
             "0x8617E340B3D01FA5F11F306F4090FD50E238070D",
             "0xde709f2102306220921060314715629080e2fb77",  // all lower
             "0x27b1fdb04752bbc536007a920d24acb045561c26",
             "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",  // normal
             "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
             "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
             "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
         }) {
        std::string lower = a;
        for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        EXPECT_EQ(checksum_address(lower), a);
        EXPECT_EQ(checksum_address(std::string(a).substr(2)), a);
        EXPECT_TRUE(valid_address(a)) << a;
    }
}

TEST(Eip55, AWrongCaseIsRefusedButOneCaseThroughoutIsAccepted) {
    EXPECT_FALSE(valid_address("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD"));  // last letter
    EXPECT_TRUE(valid_address("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"));
    EXPECT_TRUE(valid_address("0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED"));
    EXPECT_FALSE(valid_address("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeA"));    // short
    EXPECT_FALSE(valid_address("5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed00"));  // no 0x
    EXPECT_FALSE(valid_address("0xgaAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"));
    EXPECT_THROW(checksum_address("0x1234"), std::invalid_argument);
}

// eth-account's documented example: Account.from_key(0x4c0883a6...) has address 0x2c7536E3...
TEST(Address, PublishedPrivateKeyVectors) {
    EXPECT_EQ(
        address_of(from_hex("0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318")),
        "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23");
    // The private key 1: its public key is the generator point G.
    const std::string one = from_hex(std::string(63, '0') + "1");
    EXPECT_EQ(address_of(one), "0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf");
    EXPECT_EQ(to_hex(public_key(one)),
              "0479be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"
              "483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8");
}

TEST(Address, KeysOutsideTheGroupAreRefused) {
    EXPECT_FALSE(valid_private_key(std::string(32, '\0')));  // zero
    // n, the group order, and above.
    EXPECT_FALSE(valid_private_key(
        from_hex("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141")));
    EXPECT_TRUE(valid_private_key(
        from_hex("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140")));
    EXPECT_FALSE(valid_private_key("short"));
    EXPECT_THROW(public_key(std::string(32, '\0')), std::invalid_argument);
}

TEST(Address, GeneratedKeysAreValidAndDifferent) {
    std::set<std::string> seen;
    for (int i = 0; i < 20; ++i) {
        const std::string key = generate_private_key();
        ASSERT_EQ(key.size(), 32u);
        EXPECT_TRUE(valid_private_key(key));
        const std::string address = address_of(key);
        EXPECT_TRUE(valid_address(address)) << address;
        seen.insert(address);
    }
    EXPECT_EQ(seen.size(), 20u);
}

TEST(Hex, RoundTripAndRefusals) {
    EXPECT_EQ(from_hex("0x00ff10"), std::string("\x00\xff\x10", 3));
    EXPECT_EQ(from_hex("ABcd"), "\xab\xcd");
    EXPECT_EQ(to_hex(std::string("\x00\xff\x10", 3)), "00ff10");
    EXPECT_THROW(from_hex("abc"), std::invalid_argument);
    EXPECT_THROW(from_hex("zz"), std::invalid_argument);
}
