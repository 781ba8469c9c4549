// common/es256/es256 — ES256 (ECDSA over P-256 with SHA-256, RFC 7518 §3.4) for the plugins that
// sign JWTs: auth-local's access tokens and notify's VAPID tokens. A library linked by those
// plugins; not a plugin. OpenSSL's libcrypto underneath; stateless; any thread (a key may be used
// from several threads at once: OpenSSL's EVP_PKEY is read-only here).
//
// Signatures are JWS's form, the 64 bytes r || s (each 32 bytes, big-endian), not OpenSSL's DER.
#pragma once

#include <openssl/evp.h>

#include <memory>
#include <string>
#include <string_view>

namespace common::es256 {

struct PkeyFree {
    void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;

// A new P-256 private key from OpenSSL's CSPRNG, as PEM (PKCS#8). Throws std::runtime_error when
// OpenSSL fails.
std::string generate_pem();

// The P-256 private key in `pem`. Throws std::runtime_error starting with `who` when `pem` is not a
// PEM private key or not one on P-256 (prime256v1).
Pkey read_pem(const std::string& pem, const std::string& who);

// The ES256 signature of `input` under `key` (r || s, 64 bytes). Throws std::runtime_error when
// OpenSSL fails.
std::string sign(EVP_PKEY* key, std::string_view input);

// Whether `signature` (r || s) is a valid ES256 signature of `input` under `key`.
bool verify(EVP_PKEY* key, std::string_view input, std::string_view signature);

}  // namespace common::es256
