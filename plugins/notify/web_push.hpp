// notify — Web Push message encryption (RFC 8291) in the `aes128gcm` content coding (RFC 8188),
// written with OpenSSL.
//
// For each message a fresh P-256 key pair (the application server's ephemeral key) and a random
// 16-byte salt; ECDH with the browser's p256dh key, HKDF-SHA256 over the browser's auth secret
// with "WebPush: info\0" || ua_public || as_public, then the content-encryption key and nonce from
// the salt. The body is one record:
//   salt(16) || rs(4, big-endian 4096) || idlen(1) = 65 || as_public(65) || AES-128-GCM(
//       plaintext || 0x02) || tag(16)
// Tests pass the ephemeral private key and the salt to reproduce RFC 8291 §5.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace notify {

// Bytes of the header before the ciphertext: salt, rs, idlen and the 65-byte key.
constexpr size_t kHeaderBytes = 16 + 4 + 1 + 65;
// The record size written in the header; a push service takes bodies of at least 4096 bytes.
constexpr size_t kRecordSize = 4096;
// The longest plaintext one message carries: the body stays within 4096 bytes (header, the
// padding delimiter and the 16-byte tag included).
constexpr size_t kMaxPlaintext = kRecordSize - kHeaderBytes - 1 - 16;

// True when `raw` is an uncompressed P-256 point (0x04 || X || Y, 65 bytes) on the curve.
bool is_p256_point(std::string_view raw);

// The encrypted body for the subscription with public key `ua_public` (65 bytes) and auth secret
// `auth` (16 bytes). `as_private` (32 bytes) and `salt` (16 bytes) are generated when empty.
// Throws std::invalid_argument for a bad key or an oversized plaintext, std::runtime_error when
// OpenSSL fails.
std::string encrypt(std::string_view plaintext, std::string_view ua_public, std::string_view auth,
                    std::string_view as_private = {}, std::string_view salt = {});

// HMAC-SHA256(key, data), 32 bytes.
std::string hmac_sha256(std::string_view key, std::string_view data);

}  // namespace notify
