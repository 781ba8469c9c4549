// The ACME client's crypto pieces (host/src/acme/jws.*, certs.*): base64url against RFC 4648's
// vectors, ES256 against RFC 7515 Appendix A.3, the JWK thumbprint's canonical member order
// (RFC 7638 §3: the example there is RSA, so the EC form {"crv","kty","x","y"} is checked on
// RFC 7515's P-256 key, with the digest computed independently), the flattened JWS ACME sends,
// and the CSR sent to finalize.
#include <gtest/gtest.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "certs.hpp"
#include "jws.hpp"

using namespace platform::host::acme;

namespace {

// RFC 7515 Appendix A.3.1: the public part of the P-256 key of the ES256 example.
const nlohmann::json kRfcKey = {
    {"kty", "EC"},
    {"crv", "P-256"},
    {"x", "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU"},
    {"y", "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"},
};

// A private key whose x, y were computed from d = 8e9b109e...ab779718 with a separate
// (Python, affine double-and-add) P-256 implementation.
const nlohmann::json kPrivateKey = {
    {"kty", "EC"},
    {"crv", "P-256"},
    {"x", "y7mLdOPahYyOORUpXRnkMpDskvrCu1H9dpVDsAJi1DM"},
    {"y", "jGoni71R5eP1XPRowSfXqoVUa7E7NJO4TIfAkut0jGM"},
    {"d", "jpsQnnGQmL-YBIffH1136cLyQxtbr5P8fk6hTKt3lxg"},
};

std::string b64(const std::string& s) {
    return base64url_encode(s);
}
std::string unb64(const std::string& s) {
    auto d = base64url_decode(s);
    EXPECT_TRUE(d.has_value()) << s;
    return d.value_or("");
}

}  // namespace

TEST(AcmeBase64Url, Rfc4648Vectors) {
    // RFC 4648 §10, without the padding base64url drops here.
    const std::pair<const char*, const char*> vectors[] = {
        {"", ""},           {"f", "Zg"},          {"fo", "Zm8"},          {"foo", "Zm9v"},
        {"foob", "Zm9vYg"}, {"fooba", "Zm9vYmE"}, {"foobar", "Zm9vYmFy"},
    };
    for (const auto& [plain, encoded] : vectors) {
        EXPECT_EQ(b64(plain), encoded);
        EXPECT_EQ(unb64(encoded), plain);
    }
}

TEST(AcmeBase64Url, UsesTheUrlAlphabet) {
    EXPECT_EQ(b64("\xfb\xff"), "-_8");  // '+' and '/' in standard base64
    EXPECT_EQ(unb64("-_8"), "\xfb\xff");
    std::string all;
    for (int i = 0; i < 256; ++i) all += char(i);
    EXPECT_EQ(unb64(b64(all)), all);
}

TEST(AcmeBase64Url, DecodingIsStrict) {
    for (const char* bad :
         {"Zg==", "Zm9v+", "Zm9v/", "Zm 9v", "Z", "Zm9vY", "Zh"})  // "Zh": stray low bits
        EXPECT_FALSE(base64url_decode(bad).has_value()) << bad;
}

TEST(AcmeJws, ThumbprintUsesTheCanonicalEcMembers) {
    EcKey key = EcKey::from_jwk(kRfcKey);
    // RFC 7638 §3.2/§3.3: only crv, kty, x, y, in lexicographic order, no whitespace.
    EXPECT_EQ(key.jwk_canonical(),
              R"({"crv":"P-256","kty":"EC","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",)"
              R"("y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"})");
    // base64url(SHA-256(that string)), computed with Python's hashlib.
    EXPECT_EQ(key.thumbprint(), "oKIywvGUpTVTyxMQ3bwIIeQUudfr_CkLMjCE19ECD-U");
    EXPECT_EQ(key.jwk(),
              (nlohmann::json{
                  {"crv", "P-256"}, {"kty", "EC"}, {"x", kRfcKey["x"]}, {"y", kRfcKey["y"]}}));
    EXPECT_FALSE(key.jwk().contains("d"));
    EXPECT_EQ(key_authorization("tok-EN_1", key),
              "tok-EN_1.oKIywvGUpTVTyxMQ3bwIIeQUudfr_CkLMjCE19ECD-U");
}

TEST(AcmeJws, VerifiesTheRfc7515Es256Example) {
    // RFC 7515 Appendix A.3: signing input and the R || S signature.
    const std::string input =
        "eyJhbGciOiJFUzI1NiJ9."
        "eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cn"
        "VlfQ";
    const std::string sig = unb64(
        "DtEhU3ljbEg8L38VWAfUAqOyKAM6-Xx-F4GawxaepmXFCgfTjDxw5djxLa8ISlSApmWQxfKTUJqPP3-Kg6NU1Q");
    ASSERT_EQ(sig.size(), 64u);
    EcKey key = EcKey::from_jwk(kRfcKey);
    EXPECT_TRUE(key.verify_es256(input, sig));
    std::string tampered = sig;
    tampered[10] ^= 1;
    EXPECT_FALSE(key.verify_es256(input, tampered));
    EXPECT_FALSE(key.verify_es256(input + "x", sig));
}

TEST(AcmeJws, SignsWithRawRAndS) {
    EcKey key = EcKey::from_jwk(kPrivateKey);
    EXPECT_EQ(key.jwk()["x"], kPrivateKey["x"]);  // the public point matches the scalar
    EXPECT_EQ(EcKey::from_pem(key.private_pem()).thumbprint(), key.thumbprint());
    for (int i = 0; i < 20; ++i) {  // R or S with leading zero bytes must still be 32 bytes each
        std::string data = "message " + std::to_string(i);
        std::string sig = key.sign_es256(data);
        ASSERT_EQ(sig.size(), 64u);
        EXPECT_TRUE(key.verify_es256(data, sig));
    }
}

TEST(AcmeJws, FlattenedJwsForNewAccountAndKid) {
    EcKey key = EcKey::generate();
    auto header = acme_protected_header(key, "https://ca.test/new-acct", "nonce-1", "");
    auto jws =
        nlohmann::json::parse(jws_flattened(key, header, R"({"termsOfServiceAgreed":true})"));
    ASSERT_TRUE(jws.is_object());
    EXPECT_EQ(jws.size(), 3u);
    auto prot = nlohmann::json::parse(unb64(jws["protected"]));
    EXPECT_EQ(prot["alg"], "ES256");
    EXPECT_EQ(prot["nonce"], "nonce-1");
    EXPECT_EQ(prot["url"], "https://ca.test/new-acct");
    EXPECT_EQ(prot["jwk"], key.jwk());
    EXPECT_FALSE(prot.contains("kid"));
    EXPECT_EQ(unb64(jws["payload"]), R"({"termsOfServiceAgreed":true})");
    std::string signing_input =
        jws["protected"].get<std::string>() + "." + jws["payload"].get<std::string>();
    EXPECT_TRUE(key.verify_es256(signing_input, unb64(jws["signature"])));

    // With an account URL: "kid" instead of "jwk"; POST-as-GET has an empty payload.
    auto get = nlohmann::json::parse(jws_flattened(
        key, acme_protected_header(key, "https://ca.test/order/1", "n2", "https://ca.test/acct/7"),
        ""));
    auto prot2 = nlohmann::json::parse(unb64(get["protected"]));
    EXPECT_EQ(prot2["kid"], "https://ca.test/acct/7");
    EXPECT_FALSE(prot2.contains("jwk"));
    EXPECT_EQ(get["payload"], "");
    EXPECT_TRUE(
        key.verify_es256(get["protected"].get<std::string>() + ".", unb64(get["signature"])));
}

TEST(AcmeJws, PemRoundTripAndWrongKeyTypes) {
    EcKey key = EcKey::generate();
    EcKey again = EcKey::from_pem(key.private_pem());
    EXPECT_EQ(again.thumbprint(), key.thumbprint());
    EXPECT_THROW(EcKey::from_pem("not a key"), std::runtime_error);

    EVP_PKEY* p384 = EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-384");
    ASSERT_NE(p384, nullptr);
    BIO* bio = BIO_new(BIO_s_mem());
    PEM_write_bio_PrivateKey(bio, p384, nullptr, nullptr, 0, nullptr, nullptr);
    char* data = nullptr;
    long n = BIO_get_mem_data(bio, &data);
    std::string pem(data, size_t(n));
    BIO_free(bio);
    EVP_PKEY_free(p384);
    try {
        EcKey::from_pem(pem);
        FAIL() << "a P-384 key was accepted";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("P-256"), std::string::npos) << e.what();
    }
    EXPECT_THROW(EcKey::from_jwk({{"kty", "EC"}, {"crv", "P-384"}, {"x", "AA"}, {"y", "AA"}}),
                 std::runtime_error);
    nlohmann::json wrong_d = kRfcKey;  // RFC 7515's x, y with another key's d
    wrong_d["d"] = kPrivateKey["d"];
    EXPECT_THROW(EcKey::from_jwk(wrong_d), std::runtime_error);
    nlohmann::json off_curve = kRfcKey;
    off_curve["y"] = kRfcKey["x"];
    EXPECT_THROW(EcKey::from_jwk(off_curve), std::runtime_error);
}

TEST(AcmeCsr, NamesKeyAndSignature) {
    EcKey key = EcKey::generate();
    std::string der = make_csr_der(key, {"localhost", "platform.test"});
    const unsigned char* p = reinterpret_cast<const unsigned char*>(der.data());
    X509_REQ* req = d2i_X509_REQ(nullptr, &p, long(der.size()));
    ASSERT_NE(req, nullptr);
    EXPECT_EQ(X509_REQ_verify(req, key.get()), 1);  // signed by the certificate key
    EVP_PKEY* pub = X509_REQ_get0_pubkey(req);
    EXPECT_EQ(EVP_PKEY_eq(pub, key.get()), 1);

    char cn[128] = {};
    X509_NAME_get_text_by_NID(X509_REQ_get_subject_name(req), NID_commonName, cn, sizeof cn);
    EXPECT_STREQ(cn, "localhost");
    std::vector<std::string> names;
    STACK_OF(X509_EXTENSION)* exts = X509_REQ_get_extensions(req);
    for (int i = 0; i < sk_X509_EXTENSION_num(exts); ++i) {
        X509_EXTENSION* ext = sk_X509_EXTENSION_value(exts, i);
        if (OBJ_obj2nid(X509_EXTENSION_get_object(ext)) != NID_subject_alt_name) continue;
        auto* gens = static_cast<GENERAL_NAMES*>(X509V3_EXT_d2i(ext));
        for (int j = 0; j < sk_GENERAL_NAME_num(gens); ++j) {
            const GENERAL_NAME* gn = sk_GENERAL_NAME_value(gens, j);
            ASSERT_EQ(gn->type, GEN_DNS);
            names.emplace_back(reinterpret_cast<const char*>(ASN1_STRING_get0_data(gn->d.dNSName)));
        }
        GENERAL_NAMES_free(gens);
    }
    sk_X509_EXTENSION_pop_free(exts, X509_EXTENSION_free);
    X509_REQ_free(req);
    EXPECT_EQ(names, (std::vector<std::string>{"localhost", "platform.test"}));
    EXPECT_THROW(make_csr_der(key, {}), std::runtime_error);
}

TEST(AcmeCerts, InspectRejectsWhatIsNotACertificate) {
    EXPECT_THROW(inspect_chain(""), std::runtime_error);
    EXPECT_THROW(inspect_chain("hello"), std::runtime_error);
    EXPECT_THROW(
        inspect_chain("-----BEGIN CERTIFICATE-----\nnot base64!\n-----END CERTIFICATE-----\n"),
        std::runtime_error);
}
