// notify — P-256 keys for OpenSSL from their raw forms (RFC 8291 and RFC 8292 pass keys as bytes:
// a 32-byte private scalar, a 65-byte uncompressed public point).
#pragma once

#include <openssl/evp.h>

#include <memory>
#include <string>
#include <string_view>

#include "common/es256/es256.hpp"

namespace notify {

using Pkey = common::es256::Pkey;

// A new P-256 key pair from OpenSSL's CSPRNG.
Pkey generate_p256();
// The key pair whose private scalar is `raw` (32 bytes, big-endian); the public point is derived.
// Throws std::invalid_argument when `raw` is not a valid scalar.
Pkey p256_private(std::string_view raw);
// The public key `raw` (0x04 || X || Y); throws std::invalid_argument when it is not on the curve.
Pkey p256_public(std::string_view raw);
// The uncompressed public point of `key`, 65 bytes.
std::string public_raw(EVP_PKEY* key);

}  // namespace notify
