#include "vapid.hpp"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/ecdsa.h>
#include <openssl/pem.h>

#include <memory>
#include <stdexcept>

namespace notify {

namespace {

constexpr const char* kKeyRecord = "vapid/key";
constexpr const char* kHeader = R"({"typ":"JWT","alg":"ES256"})";

struct Bio {
    BIO* b;
    ~Bio() { BIO_free(b); }
};

// OpenSSL's DER ECDSA signature as the 64-byte r || s of RFC 7518 §3.4.
std::string der_to_raw(const unsigned char* der, size_t len) {
    const unsigned char* p = der;
    ECDSA_SIG* sig = d2i_ECDSA_SIG(nullptr, &p, static_cast<long>(len));
    if (!sig) throw std::runtime_error("notify: bad signature encoding");
    const BIGNUM *r = nullptr, *s = nullptr;
    ECDSA_SIG_get0(sig, &r, &s);
    std::string out(64, '\0');
    auto* o = reinterpret_cast<unsigned char*>(out.data());
    const bool ok = BN_bn2binpad(r, o, 32) == 32 && BN_bn2binpad(s, o + 32, 32) == 32;
    ECDSA_SIG_free(sig);
    if (!ok) throw std::runtime_error("notify: bad signature size");
    return out;
}

}  // namespace

void Vapid::use_pem(const std::string& pem) {
    Bio bio{BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()))};
    EVP_PKEY* k = bio.b ? PEM_read_bio_PrivateKey(bio.b, nullptr, nullptr, nullptr) : nullptr;
    if (!k || !EVP_PKEY_is_a(k, "EC")) {
        EVP_PKEY_free(k);
        throw std::runtime_error("notify: the VAPID key is not a PEM EC private key");
    }
    Pkey key(k);
    public_key_ = platform::base64url_encode(public_raw(key.get()));
    key_ = std::move(key);
}

std::string Vapid::generate_pem() {
    Pkey k = generate_p256();
    Bio bio{BIO_new(BIO_s_mem())};
    if (!bio.b ||
        PEM_write_bio_PrivateKey(bio.b, k.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1)
        throw std::runtime_error("notify: cannot encode the new VAPID key");
    char* data = nullptr;
    const long len = BIO_get_mem_data(bio.b, &data);
    return std::string(data, static_cast<size_t>(len));
}

void Vapid::load(const platform::Host& host) {
    auto* secrets = host.service<platform_secrets_api_t>(PLATFORM_SERVICE_SECRETS, 1);
    if (!secrets)
        throw platform::unavailable(
            "notify: keeping the VAPID key sealed needs the host's \"secrets\" sub-table: list "
            "notify under privileged: in the profile");
    platform::Store store = host.store();
    auto open = [&](const std::string& sealed) {
        std::string plain;
        if (secrets->open(host.ctx(), platform::view(sealed), platform::append_sink, &plain) !=
            PLATFORM_OK)
            throw platform::unavailable(
                "notify: the stored VAPID key cannot be opened (was the host's secret key "
                "changed?); delete vapid/key from notify's store to start over");
        use_pem(plain);
    };
    if (auto sealed = store.get(kKeyRecord)) return open(*sealed);
    std::string sealed;
    platform::check(
        secrets->seal(host.ctx(), platform::view(generate_pem()), platform::append_sink, &sealed),
        "notify: sealing the VAPID key failed");
    bool written = false;
    try {
        written = store.insert_if_absent(kKeyRecord, sealed);
    } catch (const platform::Error& e) {
        if (e.code() != platform::Code::unsupported) throw;
        store.put(kKeyRecord, sealed);  // a store without compare-and-set: one process writes
        written = true;
    }
    open(written ? sealed : store.get(kKeyRecord).value_or(sealed));
}

std::string Vapid::jwt(const std::string& audience, int64_t exp, const std::string& subject) const {
    if (!key_) throw platform::unavailable("notify: no VAPID key");
    const platform::json claims = {{"aud", audience}, {"exp", exp}, {"sub", subject}};
    const std::string input =
        platform::base64url_encode(kHeader) + "." + platform::base64url_encode(claims.dump());
    std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
    size_t len = 0;
    const auto* in = reinterpret_cast<const unsigned char*>(input.data());
    if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key_.get()) != 1 ||
        EVP_DigestSign(ctx.get(), nullptr, &len, in, input.size()) != 1)
        throw platform::internal("notify: signing the VAPID JWT failed");
    std::string der(len, '\0');
    if (EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(der.data()), &len, in,
                       input.size()) != 1)
        throw platform::internal("notify: signing the VAPID JWT failed");
    return input + "." +
           platform::base64url_encode(
               der_to_raw(reinterpret_cast<const unsigned char*>(der.data()), len));
}

std::string Vapid::authorization(const std::string& audience, int64_t now_ms,
                                 const std::string& subject) const {
    return "vapid t=" + jwt(audience, now_ms / 1000 + kLifetimeSeconds, subject) +
           ", k=" + public_key_;
}

}  // namespace notify
