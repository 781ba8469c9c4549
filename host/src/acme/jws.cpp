// host/src/acme/jws.cpp — the P-256 key, JWK + RFC 7638 thumbprint, ES256 JWS.
#include "jws.hpp"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>

#include <memory>
#include <platform/host/acme/openssl_handles.hpp>
#include <stdexcept>

namespace platform::host::acme {
namespace {

constexpr size_t kCoord = 32;  // P-256 coordinate and scalar size in bytes

using openssl::Bio;
using openssl::Owned;
using Bn = Owned<BIGNUM, BN_free>;
using MdCtx = Owned<EVP_MD_CTX, EVP_MD_CTX_free>;
using PkeyCtx = Owned<EVP_PKEY_CTX, EVP_PKEY_CTX_free>;
using Sig = Owned<ECDSA_SIG, ECDSA_SIG_free>;
using ParamBld = Owned<OSSL_PARAM_BLD, OSSL_PARAM_BLD_free>;
using Params = Owned<OSSL_PARAM, OSSL_PARAM_free>;

bool is_p256(EVP_PKEY* k) {
    char group[64] = {};
    size_t len = 0;
    return EVP_PKEY_is_a(k, "EC") &&
           EVP_PKEY_get_utf8_string_param(k, OSSL_PKEY_PARAM_GROUP_NAME, group, sizeof group,
                                          &len) &&
           std::string(group, len) == "prime256v1";
}

std::string coordinate(EVP_PKEY* k, const char* name) {
    BIGNUM* raw = nullptr;
    if (!EVP_PKEY_get_bn_param(k, name, &raw)) openssl_failure("EC key: reading the public point");
    Bn bn(raw);
    std::string out(kCoord, '\0');
    if (BN_bn2binpad(bn.get(), reinterpret_cast<unsigned char*>(out.data()), kCoord) != int(kCoord))
        openssl_failure("EC key: coordinate too large");
    return out;
}

std::string fixed_field(const nlohmann::json& jwk, const char* name) {
    auto it = jwk.find(name);
    if (it == jwk.end() || !it->is_string())
        throw std::runtime_error(std::string("JWK: missing \"") + name + "\"");
    auto bytes = base64url_decode(it->get<std::string>());
    if (!bytes || bytes->size() != kCoord)
        throw std::runtime_error(std::string("JWK: \"") + name + "\" is not 32 base64url bytes");
    return *bytes;
}

}  // namespace

std::string openssl_error() {
    std::string out;
    while (unsigned long e = ERR_get_error()) {
        char buf[256];
        ERR_error_string_n(e, buf, sizeof buf);
        if (!out.empty()) out += "; ";
        out += buf;
    }
    return out.empty() ? "unknown OpenSSL error" : out;
}

void openssl_failure(const std::string& what) {
    throw std::runtime_error(what + ": " + openssl_error());
}

std::string sha256(std::string_view data) {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (!EVP_Digest(data.data(), data.size(), md, &len, EVP_sha256(), nullptr))
        openssl_failure("SHA-256");
    return std::string(reinterpret_cast<char*>(md), len);
}

EcKey EcKey::generate() {
    EVP_PKEY* k = EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256");
    if (!k) openssl_failure("EC key: generating a P-256 key");
    return EcKey(k);
}

EcKey EcKey::from_pem(const std::string& pem) {
    Bio bio = openssl::memory_bio(pem);
    EVP_PKEY* k = bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr) : nullptr;
    if (!k) openssl_failure("EC key: not a PEM private key");
    EcKey key(k);
    if (!is_p256(k)) throw std::runtime_error("EC key: not a P-256 (prime256v1) key");
    return key;
}

EcKey EcKey::from_jwk(const nlohmann::json& jwk) {
    if (!jwk.is_object() || jwk.value("kty", "") != "EC" || jwk.value("crv", "") != "P-256")
        throw std::runtime_error("JWK: expected kty EC, crv P-256");
    std::string point = "\x04" + fixed_field(jwk, "x") + fixed_field(jwk, "y");
    ParamBld bld(OSSL_PARAM_BLD_new());
    Bn d;
    if (jwk.contains("d")) {
        std::string scalar = fixed_field(jwk, "d");
        d.reset(BN_bin2bn(reinterpret_cast<const unsigned char*>(scalar.data()), int(scalar.size()),
                          nullptr));
    }
    if (!bld ||
        !OSSL_PARAM_BLD_push_utf8_string(bld.get(), OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0) ||
        !OSSL_PARAM_BLD_push_octet_string(bld.get(), OSSL_PKEY_PARAM_PUB_KEY, point.data(),
                                          point.size()) ||
        (d && !OSSL_PARAM_BLD_push_BN(bld.get(), OSSL_PKEY_PARAM_PRIV_KEY, d.get())))
        openssl_failure("JWK: building parameters");
    Params params(OSSL_PARAM_BLD_to_param(bld.get()));
    PkeyCtx ctx(EVP_PKEY_CTX_new_from_name(nullptr, "EC", nullptr));
    EVP_PKEY* k = nullptr;
    if (!params || !ctx || EVP_PKEY_fromdata_init(ctx.get()) <= 0 ||
        EVP_PKEY_fromdata(ctx.get(), &k, d ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY,
                          params.get()) <= 0)
        openssl_failure("JWK: not a valid P-256 key");
    EcKey key(k);
    if (d) {  // fromdata does not check that d belongs to x, y
        PkeyCtx check(EVP_PKEY_CTX_new_from_pkey(nullptr, k, nullptr));
        if (!check || EVP_PKEY_pairwise_check(check.get()) != 1)
            openssl_failure("JWK: \"d\" does not match \"x\", \"y\"");
    }
    return key;
}

EcKey::EcKey(EcKey&& o) noexcept : pkey_(o.pkey_) {
    o.pkey_ = nullptr;
}
EcKey& EcKey::operator=(EcKey&& o) noexcept {
    std::swap(pkey_, o.pkey_);
    return *this;
}
EcKey::~EcKey() {
    EVP_PKEY_free(pkey_);
}

std::string EcKey::private_pem() const {
    Bio bio(BIO_new(BIO_s_mem()));
    if (!bio || !PEM_write_bio_PrivateKey(bio.get(), pkey_, nullptr, nullptr, 0, nullptr, nullptr))
        openssl_failure("EC key: writing PEM");
    char* data = nullptr;
    long n = BIO_get_mem_data(bio.get(), &data);
    return std::string(data, size_t(n));
}

nlohmann::json EcKey::jwk() const {
    return {{"crv", "P-256"},
            {"kty", "EC"},
            {"x", base64url_encode(coordinate(pkey_, OSSL_PKEY_PARAM_EC_PUB_X))},
            {"y", base64url_encode(coordinate(pkey_, OSSL_PKEY_PARAM_EC_PUB_Y))}};
}

std::string EcKey::jwk_canonical() const {
    // Written out rather than left to a JSON library's member order (RFC 7638 §3.3).
    return std::string(R"({"crv":"P-256","kty":"EC","x":")") +
           base64url_encode(coordinate(pkey_, OSSL_PKEY_PARAM_EC_PUB_X)) + R"(","y":")" +
           base64url_encode(coordinate(pkey_, OSSL_PKEY_PARAM_EC_PUB_Y)) + "\"}";
}

std::string EcKey::thumbprint() const {
    return base64url_encode(sha256(jwk_canonical()));
}

std::string EcKey::sign_es256(std::string_view data) const {
    MdCtx ctx(EVP_MD_CTX_new());
    size_t len = 0;
    if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, EVP_sha256(), nullptr, pkey_) <= 0 ||
        EVP_DigestSign(ctx.get(), nullptr, &len,
                       reinterpret_cast<const unsigned char*>(data.data()), data.size()) <= 0)
        openssl_failure("ES256: signing");
    std::string der(len, '\0');
    auto* out = reinterpret_cast<unsigned char*>(der.data());
    if (EVP_DigestSign(ctx.get(), out, &len, reinterpret_cast<const unsigned char*>(data.data()),
                       data.size()) <= 0)
        openssl_failure("ES256: signing");
    const unsigned char* p = out;
    Sig sig(d2i_ECDSA_SIG(nullptr, &p, long(len)));
    if (!sig) openssl_failure("ES256: decoding the DER signature");
    const BIGNUM *r = nullptr, *s = nullptr;
    ECDSA_SIG_get0(sig.get(), &r, &s);
    std::string raw(2 * kCoord, '\0');
    auto* rs = reinterpret_cast<unsigned char*>(raw.data());
    if (BN_bn2binpad(r, rs, kCoord) != int(kCoord) ||
        BN_bn2binpad(s, rs + kCoord, kCoord) != int(kCoord))
        openssl_failure("ES256: signature too large");
    return raw;
}

bool EcKey::verify_es256(std::string_view data, std::string_view signature) const {
    if (signature.size() != 2 * kCoord) return false;
    const auto* rs = reinterpret_cast<const unsigned char*>(signature.data());
    Sig sig(ECDSA_SIG_new());
    BIGNUM* r = BN_bin2bn(rs, kCoord, nullptr);
    BIGNUM* s = BN_bin2bn(rs + kCoord, kCoord, nullptr);
    if (!sig || !r || !s || !ECDSA_SIG_set0(sig.get(), r, s)) {
        BN_free(r);
        BN_free(s);
        return false;
    }
    unsigned char* der = nullptr;
    int der_len = i2d_ECDSA_SIG(sig.get(), &der);
    if (der_len <= 0) return false;
    std::unique_ptr<unsigned char, void (*)(unsigned char*)> der_owner(
        der, [](unsigned char* p) { OPENSSL_free(p); });
    MdCtx ctx(EVP_MD_CTX_new());
    bool ok =
        ctx && EVP_DigestVerifyInit(ctx.get(), nullptr, EVP_sha256(), nullptr, pkey_) > 0 &&
        EVP_DigestVerify(ctx.get(), der, size_t(der_len),
                         reinterpret_cast<const unsigned char*>(data.data()), data.size()) == 1;
    ERR_clear_error();
    return ok;
}

nlohmann::json acme_protected_header(const EcKey& key, const std::string& url,
                                     const std::string& nonce, const std::string& kid) {
    nlohmann::json h = {{"alg", "ES256"}, {"nonce", nonce}, {"url", url}};
    if (kid.empty())
        h["jwk"] = key.jwk();
    else
        h["kid"] = kid;
    return h;
}

std::string jws_flattened(const EcKey& key, const nlohmann::json& protected_header,
                          std::string_view payload) {
    std::string protected64 = base64url_encode(protected_header.dump());
    std::string payload64 = base64url_encode(payload);
    std::string signature = key.sign_es256(protected64 + "." + payload64);
    return nlohmann::json{{"protected", protected64},
                          {"payload", payload64},
                          {"signature", base64url_encode(signature)}}
        .dump();
}

std::string key_authorization(const std::string& token, const EcKey& account_key) {
    return token + "." + account_key.thumbprint();
}

}  // namespace platform::host::acme
