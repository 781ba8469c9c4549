// wallet keys — what an Ethereum-style address is made of: a secp256k1 private key, its
// uncompressed public key, Keccak-256, and the EIP-55 mixed-case checksum.
//
//   private key  32 bytes from the kernel's CSPRNG (getrandom), drawn again until secp256k1 accepts
//                it (non-zero and below the group order n)
//   public key   the uncompressed point 0x04 || X || Y (65 bytes), from libsecp256k1
//   address      the last 20 bytes of Keccak-256(X || Y) — Keccak-256 as Ethereum uses it, with
//                the original Keccak padding (Crypto++ Keccak_256), NOT the SHA3-256 of FIPS 202
//   EIP-55       the address's 40 lower-case hex digits, each letter upper-cased where the matching
//                nibble of Keccak-256(those 40 ASCII digits) is 8 or more, after "0x"
//
// Pure functions, no state but a process-wide secp256k1 context (created once, read-only after,
// safe from any thread). Tested against published vectors (tests/unit/wallet/keys_test.cpp).
#pragma once

#include <string>
#include <string_view>

namespace wallet {

// Keccak-256 of `bytes`: 32 raw bytes.
std::string keccak256(std::string_view bytes);

// Lower-case hex of raw bytes, without a prefix.
std::string to_hex(std::string_view bytes);
// Raw bytes of an even-length hex string (an optional 0x prefix, either case); throws
// std::invalid_argument for anything else.
std::string from_hex(std::string_view hex);

// A fresh private key: 32 raw bytes, valid for secp256k1.
std::string generate_private_key();

// Whether `key` (32 raw bytes) is a valid secp256k1 private key.
bool valid_private_key(std::string_view key);

// The uncompressed public key (65 raw bytes, 0x04 first) of a private key; throws
// std::invalid_argument for a key secp256k1 refuses.
std::string public_key(std::string_view private_key);

// The EIP-55 address ("0x" + 40 mixed-case hex digits) of a private key.
std::string address_of(std::string_view private_key);

// EIP-55 checksum casing of a 20-byte address given as 40 hex digits (an optional 0x prefix, any
// case): "0x" + the digits in checksum case. Throws std::invalid_argument for anything else.
std::string checksum_address(std::string_view address);

// Whether `address` is "0x" + 40 hex digits that are all lower case, all upper case, or exactly in
// EIP-55 checksum case.
bool valid_address(std::string_view address);

}  // namespace wallet
