// The notify plugin's cryptography: RFC 8291 §5's worked example (fixed keys, salt and auth secret
// give a known message), the record layout for a fresh key, and the VAPID JWT of RFC 8292
// verified with its public key.
#include "../../../plugins/notify/web_push.hpp"

#include <gtest/gtest.h>
#include <openssl/bn.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>

#include <nlohmann/json.hpp>
#include <platform/sdk/text.hpp>
#include <string>

#include "../../../plugins/notify/ec_keys.hpp"
#include "../../../plugins/notify/vapid.hpp"

namespace {

using nlohmann::json;

std::string b64u(const std::string& text) {
    auto raw = platform::base64url_decode(text);
    EXPECT_TRUE(raw) << text;
    return raw.value_or("");
}

// RFC 8291 §5 (and its appendix A): the application server's key, the user agent's key and auth
// secret, the salt, the plaintext and the message they give.
const std::string kPlain = "When I grow up, I want to be a watermelon";
const std::string kAsPrivate = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw";
const std::string kAsPublic =
    "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8";
const std::string kUaPublic =
    "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4";
const std::string kAuth = "BTBZMqHH6r4Tts7J_aSIgg";
const std::string kSalt = "DGv6ra1nlYgDCS1FRnbzlw";
const std::string kMessage =
    "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6T"
    "lzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4"
    "a-fN";

TEST(WebPush, Rfc8291WorkedExample) {
    const std::string out =
        notify::encrypt(kPlain, b64u(kUaPublic), b64u(kAuth), b64u(kAsPrivate), b64u(kSalt));
    EXPECT_EQ(platform::base64url_encode(out), kMessage);
}

TEST(WebPush, DerivedPublicKeyMatchesTheExample) {
    notify::Pkey k = notify::p256_private(b64u(kAsPrivate));
    EXPECT_EQ(platform::base64url_encode(notify::public_raw(k.get())), kAsPublic);
}

TEST(WebPush, FreshKeyAndSaltEachMessageInOneRecord) {
    const std::string a = notify::encrypt(kPlain, b64u(kUaPublic), b64u(kAuth));
    const std::string b = notify::encrypt(kPlain, b64u(kUaPublic), b64u(kAuth));
    ASSERT_EQ(a.size(), notify::kHeaderBytes + kPlain.size() + 1 + 16);
    EXPECT_NE(a.substr(0, 16), b.substr(0, 16));                     // salt
    EXPECT_NE(a.substr(21, 65), b.substr(21, 65));                   // ephemeral key
    EXPECT_EQ(a.substr(16, 4), std::string("\x00\x00\x10\x00", 4));  // rs 4096
    EXPECT_EQ(a[20], 65);                                            // idlen
    EXPECT_TRUE(notify::is_p256_point(a.substr(21, 65)));
}

TEST(WebPush, RefusesBadKeysAndOversizedMessages) {
    std::string off_curve = b64u(kUaPublic);
    off_curve[64] ^= 1;
    EXPECT_FALSE(notify::is_p256_point(off_curve));
    EXPECT_FALSE(notify::is_p256_point(b64u(kUaPublic).substr(0, 33)));
    EXPECT_THROW(notify::encrypt(kPlain, off_curve, b64u(kAuth)), std::invalid_argument);
    EXPECT_THROW(notify::encrypt(kPlain, b64u(kUaPublic), "short"), std::invalid_argument);
    EXPECT_THROW(
        notify::encrypt(std::string(notify::kMaxPlaintext + 1, 'x'), b64u(kUaPublic), b64u(kAuth)),
        std::invalid_argument);
    EXPECT_NO_THROW(
        notify::encrypt(std::string(notify::kMaxPlaintext, 'x'), b64u(kUaPublic), b64u(kAuth)));
}

// Verifies the raw r||s ES256 signature `sig` of `input` with the public point `pub`.
bool es256_verifies(const std::string& pub, const std::string& input, const std::string& sig) {
    if (sig.size() != 64) return false;
    ECDSA_SIG* s = ECDSA_SIG_new();
    const auto* p = reinterpret_cast<const unsigned char*>(sig.data());
    ECDSA_SIG_set0(s, BN_bin2bn(p, 32, nullptr), BN_bin2bn(p + 32, 32, nullptr));
    unsigned char* der = nullptr;
    const int len = i2d_ECDSA_SIG(s, &der);
    ECDSA_SIG_free(s);
    notify::Pkey key = notify::p256_public(pub);
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    const bool ok =
        EVP_DigestVerifyInit(ctx, nullptr, EVP_sha256(), nullptr, key.get()) == 1 &&
        EVP_DigestVerify(ctx, der, static_cast<size_t>(len),
                         reinterpret_cast<const unsigned char*>(input.data()), input.size()) == 1;
    EVP_MD_CTX_free(ctx);
    OPENSSL_free(der);
    return ok;
}

TEST(Vapid, JwtIsEs256SignedWithTheAdvertisedKey) {
    notify::Vapid v;
    v.use_pem(notify::Vapid::generate_pem());
    const std::string pub = b64u(v.public_key());
    ASSERT_EQ(pub.size(), 65u);
    const std::string header =
        v.authorization("https://push.example.net", 1767225600000, "mailto:ops@example.net");
    ASSERT_EQ(header.rfind("vapid t=", 0), 0u) << header;
    const size_t k = header.find(", k=");
    ASSERT_NE(k, std::string::npos) << header;
    EXPECT_EQ(header.substr(k + 4), v.public_key());
    const std::string jwt = header.substr(8, k - 8);
    const size_t a = jwt.find('.'), b = jwt.rfind('.');
    ASSERT_NE(a, b);
    const json h = json::parse(b64u(jwt.substr(0, a)));
    EXPECT_EQ(h, json({{"typ", "JWT"}, {"alg", "ES256"}}));
    const json claims = json::parse(b64u(jwt.substr(a + 1, b - a - 1)));
    EXPECT_EQ(claims["aud"], "https://push.example.net");
    EXPECT_EQ(claims["exp"], 1767225600 + 12 * 3600);
    EXPECT_EQ(claims["sub"], "mailto:ops@example.net");
    const std::string sig = b64u(jwt.substr(b + 1));
    EXPECT_TRUE(es256_verifies(pub, jwt.substr(0, b), sig));
    std::string tampered = jwt.substr(0, b);
    tampered[a + 2] ^= 1;
    EXPECT_FALSE(es256_verifies(pub, tampered, sig));
}

}  // namespace
