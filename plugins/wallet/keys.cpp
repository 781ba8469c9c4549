#include "keys.hpp"

#include <crypto++/keccak.h>
#include <secp256k1.h>

#include <cstring>
#include <platform/sdk/random.hpp>
#include <stdexcept>

namespace wallet {

namespace {

// One signing context for the process, randomized once (side-channel blinding); only read after.
const secp256k1_context* context() {
    static secp256k1_context* ctx = [] {
        secp256k1_context* c = secp256k1_context_create(SECP256K1_CONTEXT_NONE);
        unsigned char seed[32];
        platform::random_bytes(seed, sizeof seed);
        if (!secp256k1_context_randomize(c, seed)) throw std::runtime_error("secp256k1: blinding");
        std::memset(seed, 0, sizeof seed);
        return c;
    }();
    return ctx;
}

int nibble(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

std::string_view strip_0x(std::string_view s) {
    if (s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
    return s;
}

}  // namespace

std::string keccak256(std::string_view bytes) {
    CryptoPP::Keccak_256 h;
    h.Update(reinterpret_cast<const CryptoPP::byte*>(bytes.data()), bytes.size());
    std::string out(32, '\0');
    h.Final(reinterpret_cast<CryptoPP::byte*>(out.data()));
    return out;
}

std::string to_hex(std::string_view bytes) {
    static const char* hex = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size() * 2);
    for (unsigned char b : bytes) out += {hex[b >> 4], hex[b & 15]};
    return out;
}

std::string from_hex(std::string_view hex) {
    hex = strip_0x(hex);
    if (hex.size() % 2) throw std::invalid_argument("hex: odd number of digits");
    std::string out;
    out.reserve(hex.size() / 2);
    for (size_t i = 0; i < hex.size(); i += 2) {
        const int hi = nibble(hex[i]), lo = nibble(hex[i + 1]);
        if (hi < 0 || lo < 0) throw std::invalid_argument("hex: not a hex digit");
        out += static_cast<char>(hi << 4 | lo);
    }
    return out;
}

bool valid_private_key(std::string_view key) {
    return key.size() == 32 &&
           secp256k1_ec_seckey_verify(context(),
                                      reinterpret_cast<const unsigned char*>(key.data())) == 1;
}

std::string generate_private_key() {
    std::string key(32, '\0');
    do platform::random_bytes(key.data(), key.size());
    while (!valid_private_key(key));  // fails with probability about 2^-128
    return key;
}

std::string public_key(std::string_view private_key) {
    if (!valid_private_key(private_key))
        throw std::invalid_argument("private key: not a valid secp256k1 key");
    secp256k1_pubkey pk;
    if (!secp256k1_ec_pubkey_create(context(), &pk,
                                    reinterpret_cast<const unsigned char*>(private_key.data())))
        throw std::invalid_argument("private key: not a valid secp256k1 key");
    unsigned char out[65];
    size_t len = sizeof out;
    secp256k1_ec_pubkey_serialize(context(), out, &len, &pk, SECP256K1_EC_UNCOMPRESSED);
    return std::string(reinterpret_cast<const char*>(out), len);
}

std::string address_of(std::string_view private_key) {
    const std::string pub = public_key(private_key);
    const std::string hash = keccak256(std::string_view(pub).substr(1));  // X || Y, without 0x04
    return checksum_address(to_hex(hash.substr(12)));
}

std::string checksum_address(std::string_view address) {
    address = strip_0x(address);
    if (address.size() != 40) throw std::invalid_argument("address: must be 40 hex digits");
    std::string lower;
    for (char c : address) {
        if (nibble(c) < 0) throw std::invalid_argument("address: not a hex digit");
        lower += static_cast<char>(c >= 'A' && c <= 'F' ? c - 'A' + 'a' : c);
    }
    const std::string hash = keccak256(lower);
    std::string out = "0x";
    for (size_t i = 0; i < 40; ++i) {
        const unsigned char byte = static_cast<unsigned char>(hash[i / 2]);
        const int n = i % 2 ? byte & 15 : byte >> 4;
        const char c = lower[i];
        out += c >= 'a' && n >= 8 ? static_cast<char>(c - 'a' + 'A') : c;
    }
    return out;
}

bool valid_address(std::string_view address) {
    if (address.size() != 42 || address[0] != '0' || address[1] != 'x') return false;
    bool any_lower = false, any_upper = false;
    for (char c : address.substr(2)) {
        if (nibble(c) < 0) return false;
        any_lower |= c >= 'a' && c <= 'f';
        any_upper |= c >= 'A' && c <= 'F';
    }
    if (!(any_lower && any_upper)) return true;
    return checksum_address(address) == address;
}

}  // namespace wallet
