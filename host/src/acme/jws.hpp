// host/src/acme/jws.hpp — internal to the ACME client: base64url, the ES256 account/certificate
// key (P-256), its JWK and RFC 7638 thumbprint, and ACME's flattened JWS (RFC 8555 §6.2).
#pragma once

#include <openssl/types.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <platform/sdk/text.hpp>
#include <string>
#include <string_view>

namespace platform::host::acme {

// RFC 4648 §5 without padding; decoding is strict: only the base64url alphabet, no '=' padding, no
// whitespace, canonical trailing bits; nullopt otherwise (platform/sdk/text.hpp).
using platform::base64url_decode;
using platform::base64url_encode;

// SHA-256 of `data` (32 raw bytes).
std::string sha256(std::string_view data);

// A P-256 key (private, or public only when made from a JWK without "d").
class EcKey {
public:
    static EcKey generate();
    // A PEM private key (PKCS#8 or SEC1); throws std::runtime_error unless it is P-256.
    static EcKey from_pem(const std::string& pem);
    // {"kty":"EC","crv":"P-256","x":...,"y":...[,"d":...]}; throws std::runtime_error otherwise.
    static EcKey from_jwk(const nlohmann::json& jwk);

    EcKey(EcKey&& o) noexcept;
    EcKey& operator=(EcKey&& o) noexcept;
    EcKey(const EcKey&) = delete;
    EcKey& operator=(const EcKey&) = delete;
    ~EcKey();

    std::string private_pem() const;  // PKCS#8
    nlohmann::json jwk() const;       // public members only: crv, kty, x, y
    // RFC 7638 §3.2: the required members in lexicographic order, no whitespace:
    // {"crv":"P-256","kty":"EC","x":"...","y":"..."}
    std::string jwk_canonical() const;
    std::string thumbprint() const;  // base64url(SHA-256(jwk_canonical()))
    // ES256 (RFC 7518 §3.4): SHA-256 + ECDSA, the signature as 64 bytes R || S.
    std::string sign_es256(std::string_view data) const;
    bool verify_es256(std::string_view data, std::string_view signature) const;

    EVP_PKEY* get() const { return pkey_; }

private:
    explicit EcKey(EVP_PKEY* k) : pkey_(k) {}
    EVP_PKEY* pkey_ = nullptr;
};

// The protected header of an ACME request: alg ES256, nonce, url and either the account's kid
// or, when kid is empty (newAccount), the key's jwk.
nlohmann::json acme_protected_header(const EcKey& key, const std::string& url,
                                     const std::string& nonce, const std::string& kid);

// Flattened JSON serialisation (RFC 7515 §7.2.2): {"protected","payload","signature"}, each
// base64url. An empty payload is POST-as-GET (RFC 8555 §6.3).
std::string jws_flattened(const EcKey& key, const nlohmann::json& protected_header,
                          std::string_view payload);

// The http-01 key authorization: token "." thumbprint (RFC 8555 §8.1).
std::string key_authorization(const std::string& token, const EcKey& account_key);

// The text of OpenSSL's error queue (emptied), for exception messages.
std::string openssl_error();
// Throws std::runtime_error "<what>: <openssl_error()>".
[[noreturn]] void openssl_failure(const std::string& what);

}  // namespace platform::host::acme
