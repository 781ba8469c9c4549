// auth-local — ES256 access tokens (RFC 7515/7519) written with OpenSSL, and their signing key.
//
// Only `{"alg":"ES256","typ":"JWT"}` tokens signed by this key verify: `none`, HS256 (with the
// public key as secret) and every other algorithm are refused before any signature work. The
// signature is the raw 64-byte r||s of RFC 7518 §3.4, converted to and from OpenSSL's DER.
// The key is an EC P-256 private key: PLATFORM_AUTH_PRIVATE_KEY (PEM) when set, else the one
// kept in the store under key/es256 sealed by the host's "secrets" sub-table, else a new one.
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <memory>
#include <stdexcept>

#include "auth_local.hpp"

namespace auth_local {

namespace {

constexpr const char* kKeyRecord = "key/es256";
constexpr const char* kHeader = R"({"alg":"ES256","typ":"JWT"})";

EVP_PKEY* pkey(void* p) {
    return static_cast<EVP_PKEY*>(p);
}

struct Bio {
    BIO* b;
    ~Bio() { BIO_free(b); }
};

std::string der_to_raw(const unsigned char* der, size_t len) {
    const unsigned char* p = der;
    ECDSA_SIG* sig = d2i_ECDSA_SIG(nullptr, &p, static_cast<long>(len));
    if (!sig) throw std::runtime_error("jwt: bad signature encoding");
    const BIGNUM *r = nullptr, *s = nullptr;
    ECDSA_SIG_get0(sig, &r, &s);
    std::string out(64, '\0');
    bool ok = BN_bn2binpad(r, reinterpret_cast<unsigned char*>(out.data()), 32) == 32 &&
              BN_bn2binpad(s, reinterpret_cast<unsigned char*>(out.data()) + 32, 32) == 32;
    ECDSA_SIG_free(sig);
    if (!ok) throw std::runtime_error("jwt: bad signature size");
    return out;
}

std::optional<std::string> raw_to_der(std::string_view raw) {
    if (raw.size() != 64) return std::nullopt;
    ECDSA_SIG* sig = ECDSA_SIG_new();
    BIGNUM* r = BN_bin2bn(reinterpret_cast<const unsigned char*>(raw.data()), 32, nullptr);
    BIGNUM* s = BN_bin2bn(reinterpret_cast<const unsigned char*>(raw.data()) + 32, 32, nullptr);
    if (!sig || !r || !s || ECDSA_SIG_set0(sig, r, s) != 1) {
        BN_free(r), BN_free(s), ECDSA_SIG_free(sig);
        return std::nullopt;
    }
    unsigned char* der = nullptr;
    int len = i2d_ECDSA_SIG(sig, &der);
    ECDSA_SIG_free(sig);
    if (len <= 0) return std::nullopt;
    std::string out(reinterpret_cast<char*>(der), static_cast<size_t>(len));
    OPENSSL_free(der);
    return out;
}

}  // namespace

Jwt::Jwt() = default;
Jwt::~Jwt() {
    EVP_PKEY_free(pkey(key_));
}

bool Jwt::looks_like(std::string_view t) {
    auto a = t.find('.');
    if (a == std::string_view::npos) return false;
    auto b = t.find('.', a + 1);
    return b != std::string_view::npos && t.find('.', b + 1) == std::string_view::npos;
}

void Jwt::use_pem(const std::string& pem) {
    Bio bio{BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()))};
    EVP_PKEY* k = bio.b ? PEM_read_bio_PrivateKey(bio.b, nullptr, nullptr, nullptr) : nullptr;
    if (!k) throw std::runtime_error("auth-local: the private key is not a PEM private key");
    char group[64] = {0};
    size_t glen = 0;
    if (!EVP_PKEY_is_a(k, "EC") ||
        EVP_PKEY_get_utf8_string_param(k, OSSL_PKEY_PARAM_GROUP_NAME, group, sizeof group, &glen) !=
            1 ||
        std::string(group) != "prime256v1") {
        EVP_PKEY_free(k);
        throw std::runtime_error(
            "auth-local: the private key must be an EC P-256 (prime256v1) key for ES256");
    }
    EVP_PKEY_free(pkey(key_));
    key_ = k;
    {
        std::lock_guard<std::mutex> g(verified_m_);
        verified_.clear();
    }
    // The CSRF key: derived from the signing key, so replicas sharing the key agree.
    unsigned char* der = nullptr;
    int len = i2d_PrivateKey(k, &der);
    if (len <= 0) throw std::runtime_error("auth-local: cannot encode the private key");
    mac_key_ = sha256("auth-local csrf key\n" +
                      std::string(reinterpret_cast<char*>(der), static_cast<size_t>(len)));
    OPENSSL_clear_free(der, static_cast<size_t>(len));
}

std::string Jwt::generate_pem() {
    EVP_PKEY* k = EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256");
    if (!k) throw std::runtime_error("auth-local: cannot generate an EC P-256 key");
    Bio bio{BIO_new(BIO_s_mem())};
    bool ok =
        bio.b && PEM_write_bio_PrivateKey(bio.b, k, nullptr, nullptr, 0, nullptr, nullptr) == 1;
    EVP_PKEY_free(k);
    if (!ok) throw std::runtime_error("auth-local: cannot encode the new key");
    char* data = nullptr;
    long len = BIO_get_mem_data(bio.b, &data);
    std::string pem(data, static_cast<size_t>(len));
    use_pem(pem);
    return pem;
}

void Jwt::load(const platform::Host& host, const std::string& pem) {
    if (!pem.empty()) return use_pem(pem);
    auto* secrets = host.service<platform_secrets_api_t>(PLATFORM_SERVICE_SECRETS, 1);
    if (!secrets)
        throw std::runtime_error(
            "auth-local: keeping the signing key needs the privileged \"secrets\" sub-table (list "
            "auth-local "
            "under privileged: in the profile) or PLATFORM_AUTH_PRIVATE_KEY");
    platform::Store store = host.store();
    if (auto sealed = store.get(kKeyRecord)) {
        std::string plain;
        auto st = secrets->open(host.ctx(), platform::view(*sealed), platform::append_sink, &plain);
        if (st == PLATFORM_OK) return use_pem(plain);
        host.warn(
            "auth-local: the stored signing key cannot be opened (was the secret key changed?); "
            "generating a new one: earlier access tokens and CSRF tokens stop working");
    }
    std::string fresh = generate_pem();
    std::string sealed;
    platform::check(
        secrets->seal(host.ctx(), platform::view(fresh), platform::append_sink, &sealed),
        "auth-local: sealing the signing key failed");
    store.put(kKeyRecord, sealed);
}

std::string Jwt::sign(const json& claims) const {
    if (!key_) throw platform::unavailable("auth-local: no signing key");
    const std::string input = base64url_encode(kHeader) + "." + base64url_encode(claims.dump());
    std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
    size_t len = 0;
    if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, EVP_sha256(), nullptr, pkey(key_)) != 1 ||
        EVP_DigestSign(ctx.get(), nullptr, &len,
                       reinterpret_cast<const unsigned char*>(input.data()), input.size()) != 1)
        throw platform::internal("jwt: signing failed");
    std::string der(len, '\0');
    if (EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(der.data()), &len,
                       reinterpret_cast<const unsigned char*>(input.data()), input.size()) != 1)
        throw platform::internal("jwt: signing failed");
    return input + "." +
           base64url_encode(der_to_raw(reinterpret_cast<const unsigned char*>(der.data()), len));
}

std::optional<json> Jwt::verify(std::string_view token) const {
    if (!key_ || token.size() > 8192 || !looks_like(token)) return std::nullopt;
    {
        std::lock_guard<std::mutex> g(verified_m_);
        if (auto it = verified_.find(std::string(token)); it != verified_.end()) return it->second;
    }
    auto claims = verify_signature(token);
    if (claims) {
        std::lock_guard<std::mutex> g(verified_m_);
        if (verified_.size() >= kVerifiedMax) verified_.clear();
        verified_.emplace(std::string(token), *claims);
    }
    return claims;
}

std::optional<json> Jwt::verify_signature(std::string_view token) const {
    const size_t a = token.find('.'), b = token.find('.', a + 1);
    auto header = base64url_decode(token.substr(0, a));
    auto payload = base64url_decode(token.substr(a + 1, b - a - 1));
    auto sig = base64url_decode(token.substr(b + 1));
    if (!header || !payload || !sig) return std::nullopt;
    json h = json::parse(*header, nullptr, false);
    if (!h.is_object() || h.value("alg", "") != "ES256") return std::nullopt;
    if (h.contains("typ") && h["typ"] != "JWT") return std::nullopt;
    if (h.contains("crit")) return std::nullopt;  // no extensions understood
    auto der = raw_to_der(*sig);
    if (!der) return std::nullopt;
    std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
    const std::string_view input = token.substr(0, b);
    if (!ctx || EVP_DigestVerifyInit(ctx.get(), nullptr, EVP_sha256(), nullptr, pkey(key_)) != 1 ||
        EVP_DigestVerify(ctx.get(), reinterpret_cast<const unsigned char*>(der->data()),
                         der->size(), reinterpret_cast<const unsigned char*>(input.data()),
                         input.size()) != 1)
        return std::nullopt;
    json claims = json::parse(*payload, nullptr, false);
    if (!claims.is_object()) return std::nullopt;
    return claims;
}

}  // namespace auth_local
