// auth-local — small crypto helpers: randomness (libsodium), sha256 and HMAC-SHA256
// (OpenSSL EVP), constant-time comparison.
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <sodium.h>

#include <stdexcept>

#include "auth_local.hpp"

namespace auth_local {

std::string random_bytes(size_t n) {
    std::string out(n, '\0');
    randombytes_buf(out.data(), n);
    return out;
}

std::string random_token() {
    return base64url_encode(random_bytes(32));
}
std::string random_id() {
    return base64url_encode(random_bytes(12));
}

std::string sha256(std::string_view data) {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (EVP_Digest(data.data(), data.size(), md, &len, EVP_sha256(), nullptr) != 1)
        throw std::runtime_error("sha256 failed");
    return std::string(reinterpret_cast<char*>(md), len);
}

std::string hex(std::string_view bytes) {
    static const char digits[] = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size() * 2);
    for (unsigned char c : bytes) {
        out += digits[c >> 4];
        out += digits[c & 15];
    }
    return out;
}

std::string sha256_hex(std::string_view data) {
    return hex(sha256(data));
}

std::string hmac_sha256_hex(std::string_view key, std::string_view data) {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (!HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
              reinterpret_cast<const unsigned char*>(data.data()), data.size(), md, &len))
        throw std::runtime_error("hmac failed");
    return hex(std::string_view(reinterpret_cast<char*>(md), len));
}

bool same(std::string_view a, std::string_view b) {
    return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

bool opaque_token_shape(std::string_view t) {
    if (t.size() != 43) return false;
    for (char c : t)
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
              c == '-' || c == '_'))
            return false;
    return true;
}

}  // namespace auth_local
