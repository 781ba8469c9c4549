// auth-local: ES256 access tokens (expiry on the business clock, forgeries refused, the key kept
// sealed in the store or given as PEM) and the access rules with their version.
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include "auth_local_fixture.hpp"

using namespace auth_local_test;

namespace {

std::string b64url(const std::string& in) {
    std::string out((in.size() + 2) / 3 * 4 + 1, '\0');
    int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                            reinterpret_cast<const unsigned char*>(in.data()),
                            static_cast<int>(in.size()));
    out.resize(static_cast<size_t>(n));
    while (!out.empty() && out.back() == '=') out.pop_back();
    for (auto& c : out) c = c == '+' ? '-' : c == '/' ? '_' : c;
    return out;
}

std::string b64url_decode(std::string s) {
    for (auto& c : s) c = c == '-' ? '+' : c == '_' ? '/' : c;
    while (s.size() % 4) s += '=';
    std::string out(s.size(), '\0');
    int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                            reinterpret_cast<const unsigned char*>(s.data()),
                            static_cast<int>(s.size()));
    out.resize(static_cast<size_t>(n));
    return out;
}

// A P-256 key of the test's own, as PEM, and an ES256 signer with it.
struct TestKey {
    EVP_PKEY* key = EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256");
    ~TestKey() { EVP_PKEY_free(key); }
    std::string pem() const {
        BIO* b = BIO_new(BIO_s_mem());
        PEM_write_bio_PrivateKey(b, key, nullptr, nullptr, 0, nullptr, nullptr);
        char* data = nullptr;
        long n = BIO_get_mem_data(b, &data);
        std::string out(data, static_cast<size_t>(n));
        BIO_free(b);
        return out;
    }
    std::string sign(const json& header, const json& claims) const {
        std::string input = b64url(header.dump()) + "." + b64url(claims.dump());
        EVP_MD_CTX* ctx = EVP_MD_CTX_new();
        size_t len = 0;
        EVP_DigestSignInit(ctx, nullptr, EVP_sha256(), nullptr, key);
        EVP_DigestSign(ctx, nullptr, &len, reinterpret_cast<const unsigned char*>(input.data()),
                       input.size());
        std::string der(len, '\0');
        EVP_DigestSign(ctx, reinterpret_cast<unsigned char*>(der.data()), &len,
                       reinterpret_cast<const unsigned char*>(input.data()), input.size());
        EVP_MD_CTX_free(ctx);
        const unsigned char* p = reinterpret_cast<const unsigned char*>(der.data());
        ECDSA_SIG* sig = d2i_ECDSA_SIG(nullptr, &p, static_cast<long>(len));
        const BIGNUM *r = nullptr, *s = nullptr;
        ECDSA_SIG_get0(sig, &r, &s);
        std::string raw(64, '\0');
        BN_bn2binpad(r, reinterpret_cast<unsigned char*>(raw.data()), 32);
        BN_bn2binpad(s, reinterpret_cast<unsigned char*>(raw.data()) + 32, 32);
        ECDSA_SIG_free(sig);
        return input + "." + b64url(raw);
    }
};

json claims_of(const std::string& token) {
    auto a = token.find('.'), b = token.rfind('.');
    return json::parse(b64url_decode(token.substr(a + 1, b - a - 1)));
}

const json kHeader = {{"alg", "ES256"}, {"typ", "JWT"}};

TEST_F(AuthLocalTest, AccessTokensCarryTheClaims) {
    json t = login("admin", "admin-secret-1");
    json c = claims_of(t["access_token"]);
    for (const char* k : {"sub", "iss", "type", "scopes", "name", "iat", "exp", "jti"})
        EXPECT_TRUE(c.contains(k)) << k;
    EXPECT_EQ(c["sub"], "admin");
    EXPECT_EQ(c["iss"], "go.core.api");
    EXPECT_EQ(c["exp"].get<int64_t>() - c["iat"].get<int64_t>(), 900);
    EXPECT_EQ(c["iat"].get<int64_t>(), host.now_ms / 1000);
    Answer a = authenticate(t["access_token"]);
    ASSERT_EQ(a.code, PLATFORM_OK);
    EXPECT_EQ(a.identity["credential"]["kind"], "access");
}

TEST_F(AuthLocalTest, AccessTokensExpireOnTheBusinessClock) {
    std::string access = login("admin", "admin-secret-1")["access_token"];
    host.now_ms += 899 * 1000;
    EXPECT_EQ(authenticate(access).code, PLATFORM_OK);
    host.now_ms += 1000;
    EXPECT_EQ(authenticate(access).code, PLATFORM_UNAUTHENTICATED);
}

TEST_F(AuthLocalTest, ForgedAccessTokensAreRefused) {
    const std::string good = login("admin", "admin-secret-1")["access_token"];
    ASSERT_EQ(authenticate(good).code, PLATFORM_OK);
    const size_t dot = good.rfind('.');

    // One flipped signature byte.
    std::string sig = b64url_decode(good.substr(dot + 1));
    sig[10] = static_cast<char>(sig[10] ^ 0x01);
    EXPECT_EQ(authenticate(good.substr(0, dot + 1) + b64url(sig)).code, PLATFORM_UNAUTHENTICATED);

    // Claims changed under the original signature.
    json c = claims_of(good);
    c["scopes"] = {"admin", "root"};
    std::string tampered = good.substr(0, good.find('.') + 1) + b64url(c.dump()) + good.substr(dot);
    EXPECT_EQ(authenticate(tampered).code, PLATFORM_UNAUTHENTICATED);

    // alg none, with and without a signature.
    json none = {{"alg", "none"}, {"typ", "JWT"}};
    std::string unsigned_token = b64url(none.dump()) + "." + b64url(claims_of(good).dump()) + ".";
    EXPECT_EQ(authenticate(unsigned_token).code, PLATFORM_UNAUTHENTICATED);
    EXPECT_EQ(authenticate(b64url(none.dump()) + good.substr(good.find('.'))).code,
              PLATFORM_UNAUTHENTICATED);

    // Another key, otherwise perfect claims.
    TestKey other;
    EXPECT_EQ(authenticate(other.sign(kHeader, claims_of(good))).code, PLATFORM_UNAUTHENTICATED);

    // Garbage of the right shape.
    EXPECT_EQ(authenticate("a.b.c").code, PLATFORM_UNAUTHENTICATED);
    EXPECT_EQ(authenticate("not a token").code, PLATFORM_UNAUTHENTICATED);
}

TEST_F(AuthLocalTest, TheKeyIsKeptSealedAndSurvivesARestart) {
    auto it = host.store.find("key/es256");
    ASSERT_NE(it, host.store.end());
    EXPECT_EQ(it->second.value.rfind("fake-sealed:", 0), 0u);  // through the secrets sub-table
    EXPECT_EQ(store_dump().find("PRIVATE KEY"), std::string::npos);
    const std::string access = login("admin", "admin-secret-1")["access_token"];
    ASSERT_TRUE(start());
    EXPECT_EQ(authenticate(access).code, PLATFORM_OK);
}

TEST_F(AuthLocalTest, APrivateKeyFromTheConfigSignsTokens) {
    TestKey mine;
    json cfg = cheap_config();
    cfg["private_key"] = mine.pem();
    ASSERT_TRUE(start(cfg));
    json t = login("admin", "admin-secret-1");
    // A token the test signs itself with the same key and a live login verifies.
    json c = claims_of(t["access_token"]);
    c["exp"] = c["exp"].get<int64_t>() + 60;
    EXPECT_EQ(authenticate(mine.sign(kHeader, c)).code, PLATFORM_OK);

    cfg["private_key"] = "-----BEGIN PRIVATE KEY-----\nnonsense\n-----END PRIVATE KEY-----\n";
    std::string why;
    EXPECT_FALSE(start(cfg, &why));
    EXPECT_NE(why.find("private key"), std::string::npos) << why;
}

TEST_F(AuthLocalTest, TheDefaultRuleExists) {
    json rules = lent_rules();
    ASSERT_EQ(rules.size(), 1u);
    EXPECT_EQ(rules[0], json({{"id", "default"},
                              {"scope", ""},
                              {"resource", "*:*:*"},
                              {"access", "GRANTED"},
                              {"priority", 0}}));
    EXPECT_GT(rules_version(), 0u);
    Reply list = call("listRules", json::object(), admin_token());
    ASSERT_EQ(list.code, PLATFORM_OK);
    EXPECT_EQ(list.json()["rules"][0]["scope"], "<public>");
}

TEST_F(AuthLocalTest, RulesCrudBumpsTheVersion) {
    std::string admin = admin_token();
    const uint64_t v0 = rules_version();
    Reply made = call(
        "createRule",
        {{"id", "onlyloggedin"}, {"scope", "*"}, {"resource", "*:*:*"}, {"priority", 1}}, admin);
    ASSERT_EQ(made.code, PLATFORM_OK) << made.body;
    EXPECT_EQ(made.json()["rule"]["access"], "GRANTED");
    const uint64_t v1 = rules_version();
    EXPECT_GT(v1, v0);
    EXPECT_EQ(
        call("createRule", {{"id", "onlyloggedin"}, {"scope", "*"}, {"resource", "*:*:*"}}, admin)
            .body,
        "id: already exists");
    EXPECT_EQ(
        call("createRule", {{"id", "bad"}, {"scope", "*"}, {"resource", "notes"}}, admin).code,
        PLATFORM_INVALID_ARGUMENT);
    ASSERT_EQ(call("createRule",
                   {{"id", "pub"},
                    {"scope", "<public>"},
                    {"resource", "service:auth:*"},
                    {"access", "DENIED"}},
                   admin)
                  .code,
              PLATFORM_OK);
    json lent = lent_rules();
    ASSERT_EQ(lent.size(), 3u);
    EXPECT_EQ(lent[2]["id"], "pub");
    EXPECT_EQ(lent[2]["scope"], "");
    EXPECT_EQ(lent[2]["access"], "DENIED");
    const uint64_t v2 = rules_version();
    EXPECT_GT(v2, v1);

    ASSERT_EQ(call("deleteRule", {{"id", "default"}}, admin).code, PLATFORM_OK);
    EXPECT_GT(rules_version(), v2);
    EXPECT_EQ(call("deleteRule", {{"id", "default"}}, admin).code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(lent_rules().size(), 2u);
    ASSERT_EQ(call("deleteRule", {{"id", "pub"}}, admin).code, PLATFORM_OK);
    ASSERT_EQ(call("deleteRule", {{"id", "onlyloggedin"}}, admin).code, PLATFORM_OK);
    json back = lent_rules();  // none left: the default comes back
    ASSERT_EQ(back.size(), 1u);
    EXPECT_EQ(back[0]["id"], "default");

    // The version is stored: a restart continues from it.
    const uint64_t before = rules_version();
    ASSERT_TRUE(start());
    EXPECT_GE(rules_version(), before);
}

TEST_F(AuthLocalTest, OnlyServerAdminsChangeRules) {
    std::string admin = admin_token();
    ASSERT_EQ(call("createAccount", {{"id", "frank"}, {"secret", "frank-secret"}}, admin).code,
              PLATFORM_OK);
    std::string frank = login("frank", "frank-secret")["access_token"];
    EXPECT_EQ(call("createRule", {{"id", "x"}, {"scope", "*"}, {"resource", "*:*:*"}}, frank).code,
              PLATFORM_PERMISSION_DENIED);
}

}  // namespace
