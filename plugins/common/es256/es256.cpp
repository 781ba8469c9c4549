#include "common/es256/es256.hpp"

#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/pem.h>

#include <optional>
#include <stdexcept>

namespace common::es256 {

namespace {

struct Bio {
    BIO* b;
    ~Bio() { BIO_free(b); }
};

using MdCtx = std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)>;

const unsigned char* bytes(std::string_view s) {
    return reinterpret_cast<const unsigned char*>(s.data());
}

std::string der_to_raw(const std::string& der) {
    const unsigned char* p = bytes(der);
    ECDSA_SIG* sig = d2i_ECDSA_SIG(nullptr, &p, static_cast<long>(der.size()));
    if (!sig) throw std::runtime_error("es256: bad signature encoding");
    const BIGNUM *r = nullptr, *s = nullptr;
    ECDSA_SIG_get0(sig, &r, &s);
    std::string out(64, '\0');
    auto* o = reinterpret_cast<unsigned char*>(out.data());
    const bool ok = BN_bn2binpad(r, o, 32) == 32 && BN_bn2binpad(s, o + 32, 32) == 32;
    ECDSA_SIG_free(sig);
    if (!ok) throw std::runtime_error("es256: bad signature size");
    return out;
}

std::optional<std::string> raw_to_der(std::string_view raw) {
    if (raw.size() != 64) return std::nullopt;
    ECDSA_SIG* sig = ECDSA_SIG_new();
    BIGNUM* r = BN_bin2bn(bytes(raw), 32, nullptr);
    BIGNUM* s = BN_bin2bn(bytes(raw) + 32, 32, nullptr);
    if (!sig || !r || !s || ECDSA_SIG_set0(sig, r, s) != 1) {
        BN_free(r), BN_free(s), ECDSA_SIG_free(sig);
        return std::nullopt;
    }
    unsigned char* der = nullptr;
    const int len = i2d_ECDSA_SIG(sig, &der);
    ECDSA_SIG_free(sig);
    if (len <= 0) return std::nullopt;
    std::string out(reinterpret_cast<char*>(der), static_cast<size_t>(len));
    OPENSSL_free(der);
    return out;
}

}  // namespace

std::string generate_pem() {
    Pkey k(EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256"));
    if (!k) throw std::runtime_error("es256: cannot generate a P-256 key");
    Bio bio{BIO_new(BIO_s_mem())};
    if (!bio.b ||
        PEM_write_bio_PrivateKey(bio.b, k.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1)
        throw std::runtime_error("es256: cannot encode the new key");
    char* data = nullptr;
    const long len = BIO_get_mem_data(bio.b, &data);
    return std::string(data, static_cast<size_t>(len));
}

Pkey read_pem(const std::string& pem, const std::string& who) {
    Bio bio{BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()))};
    Pkey k(bio.b ? PEM_read_bio_PrivateKey(bio.b, nullptr, nullptr, nullptr) : nullptr);
    if (!k) throw std::runtime_error(who + ": the private key is not a PEM private key");
    char group[64] = {0};
    size_t glen = 0;
    if (!EVP_PKEY_is_a(k.get(), "EC") ||
        EVP_PKEY_get_utf8_string_param(k.get(), OSSL_PKEY_PARAM_GROUP_NAME, group, sizeof group,
                                       &glen) != 1 ||
        std::string(group) != "prime256v1")
        throw std::runtime_error(
            who + ": the private key must be an EC P-256 (prime256v1) key for ES256");
    return k;
}

std::string sign(EVP_PKEY* key, std::string_view input) {
    MdCtx ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
    size_t len = 0;
    if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key) != 1 ||
        EVP_DigestSign(ctx.get(), nullptr, &len, bytes(input), input.size()) != 1)
        throw std::runtime_error("es256: signing failed");
    std::string der(len, '\0');
    if (EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(der.data()), &len, bytes(input),
                       input.size()) != 1)
        throw std::runtime_error("es256: signing failed");
    der.resize(len);
    return der_to_raw(der);
}

bool verify(EVP_PKEY* key, std::string_view input, std::string_view signature) {
    const auto der = raw_to_der(signature);
    if (!der) return false;
    MdCtx ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
    return ctx && EVP_DigestVerifyInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key) == 1 &&
           EVP_DigestVerify(ctx.get(), bytes(*der), der->size(), bytes(input), input.size()) == 1;
}

}  // namespace common::es256
