#include "web_push.hpp"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <memory>
#include <stdexcept>

#include "ec_keys.hpp"

namespace notify {

namespace {

const unsigned char* bytes(std::string_view s) {
    return reinterpret_cast<const unsigned char*>(s.data());
}

// HKDF-Expand (RFC 5869) for at most 32 bytes: the first `len` bytes of HMAC(prk, info || 0x01).
std::string expand(std::string_view prk, std::string info, size_t len) {
    info += '\x01';
    return hmac_sha256(prk, info).substr(0, len);
}

// The ECDH shared secret of `own` (a key pair) and `peer` (a public key), 32 bytes.
std::string ecdh(EVP_PKEY* own, EVP_PKEY* peer) {
    std::unique_ptr<EVP_PKEY_CTX, decltype(&EVP_PKEY_CTX_free)> ctx(EVP_PKEY_CTX_new(own, nullptr),
                                                                    EVP_PKEY_CTX_free);
    size_t len = 0;
    if (!ctx || EVP_PKEY_derive_init(ctx.get()) != 1 ||
        EVP_PKEY_derive_set_peer(ctx.get(), peer) != 1 ||
        EVP_PKEY_derive(ctx.get(), nullptr, &len) != 1)
        throw std::runtime_error("notify: ECDH failed");
    std::string out(len, '\0');
    if (EVP_PKEY_derive(ctx.get(), reinterpret_cast<unsigned char*>(out.data()), &len) != 1)
        throw std::runtime_error("notify: ECDH failed");
    out.resize(len);
    return out;
}

// AES-128-GCM of `plain` under `key` and `nonce`: the ciphertext followed by the 16-byte tag.
std::string aes128gcm(std::string_view key, std::string_view nonce, std::string_view plain) {
    std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)> ctx(EVP_CIPHER_CTX_new(),
                                                                        EVP_CIPHER_CTX_free);
    std::string out(plain.size() + 16, '\0');
    auto* o = reinterpret_cast<unsigned char*>(out.data());
    int n = 0, tail = 0;
    if (!ctx || EVP_EncryptInit_ex(ctx.get(), EVP_aes_128_gcm(), nullptr, nullptr, nullptr) != 1 ||
        EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_IVLEN, static_cast<int>(nonce.size()),
                            nullptr) != 1 ||
        EVP_EncryptInit_ex(ctx.get(), nullptr, nullptr, bytes(key), bytes(nonce)) != 1 ||
        EVP_EncryptUpdate(ctx.get(), o, &n, bytes(plain), static_cast<int>(plain.size())) != 1 ||
        EVP_EncryptFinal_ex(ctx.get(), o + n, &tail) != 1 ||
        EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, 16, o + n + tail) != 1)
        throw std::runtime_error("notify: AES-128-GCM failed");
    out.resize(static_cast<size_t>(n + tail) + 16);
    return out;
}

}  // namespace

std::string hmac_sha256(std::string_view key, std::string_view data) {
    unsigned char out[32];
    unsigned int len = 0;
    if (!HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), bytes(data), data.size(), out,
              &len) ||
        len != 32)
        throw std::runtime_error("notify: HMAC-SHA256 failed");
    return std::string(reinterpret_cast<char*>(out), len);
}

bool is_p256_point(std::string_view raw) {
    try {
        p256_public(raw);
        return true;
    } catch (const std::invalid_argument&) {
        return false;
    }
}

std::string encrypt(std::string_view plaintext, std::string_view ua_public, std::string_view auth,
                    std::string_view as_private, std::string_view salt) {
    if (plaintext.size() > kMaxPlaintext)
        throw std::invalid_argument("notify: the message is longer than one Web Push record");
    if (auth.size() != 16) throw std::invalid_argument("notify: the auth secret has 16 bytes");
    Pkey peer = p256_public(ua_public);
    Pkey own = as_private.empty() ? generate_p256() : p256_private(as_private);
    std::string salt_bytes(salt);
    if (salt_bytes.empty()) {
        salt_bytes.assign(16, '\0');
        if (RAND_bytes(reinterpret_cast<unsigned char*>(salt_bytes.data()), 16) != 1)
            throw std::runtime_error("notify: no random salt");
    }
    if (salt_bytes.size() != 16) throw std::invalid_argument("notify: the salt has 16 bytes");
    const std::string as_public = public_raw(own.get());

    // RFC 8291 §3.3-3.4: the input keying material from the ECDH secret and the auth secret.
    const std::string prk_key = hmac_sha256(auth, ecdh(own.get(), peer.get()));
    std::string key_info = "WebPush: info";
    key_info += '\0';
    key_info.append(ua_public).append(as_public);
    const std::string ikm = expand(prk_key, key_info, 32);

    // RFC 8188 §2.2-2.3: the content-encryption key and the nonce (record 0: no XOR).
    const std::string prk = hmac_sha256(salt_bytes, ikm);
    const std::string cek = expand(prk, std::string("Content-Encoding: aes128gcm") + '\0', 16);
    const std::string nonce = expand(prk, std::string("Content-Encoding: nonce") + '\0', 12);

    std::string record(plaintext);
    record += '\x02';  // the last record's padding delimiter, no padding
    std::string out = salt_bytes;
    out += {static_cast<char>((kRecordSize >> 24) & 0xFF),
            static_cast<char>((kRecordSize >> 16) & 0xFF),
            static_cast<char>((kRecordSize >> 8) & 0xFF), static_cast<char>(kRecordSize & 0xFF)};
    out += static_cast<char>(as_public.size());
    out += as_public;
    out += aes128gcm(cek, nonce, record);
    return out;
}

}  // namespace notify
