#include <fcntl.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <platform/host/core/secrets.hpp>
#include <platform/sdk/text.hpp>
#include <stdexcept>

namespace platform::host {

namespace {

using Ctx = std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)>;

bool from_hex(std::string_view hex, std::array<unsigned char, 32>& out) {
    if (hex.size() != 64) return false;
    for (size_t i = 0; i < 32; ++i) {
        unsigned v = 0;
        for (char c : hex.substr(i * 2, 2)) {
            v <<= 4;
            if (c >= '0' && c <= '9')
                v |= unsigned(c - '0');
            else if (c >= 'a' && c <= 'f')
                v |= unsigned(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                v |= unsigned(c - 'A' + 10);
            else
                return false;
        }
        out[i] = static_cast<unsigned char>(v);
    }
    return true;
}

std::string to_hex(const unsigned char* p, size_t n) {
    static const char* digits = "0123456789abcdef";
    std::string out;
    for (size_t i = 0; i < n; ++i) out += {digits[p[i] >> 4], digits[p[i] & 15]};
    return out;
}

// Writes the key file whole or not at all: a temporary file (0600), fsynced, renamed over `path`,
// then the folder fsynced. A crash never leaves an empty or partial key (which would stop every
// later start), nor loses the key while values sealed with it are already durable in the store.
void write_key_file(const std::string& path, const std::string& text) {
    const std::string tmp = path + ".tmp-" + std::to_string(::getpid());
    int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    bool ok = fd >= 0 && ::fchmod(fd, 0600) == 0 &&
              ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) &&
              ::fsync(fd) == 0;
    if (fd >= 0) ::close(fd);
    ok = ok && ::rename(tmp.c_str(), path.c_str()) == 0;
    if (!ok) {
        ::unlink(tmp.c_str());
        throw std::runtime_error(path + ": cannot write the secret key");
    }
    const std::string folder = std::filesystem::path(path).parent_path().string();
    if (int dir = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dir >= 0) {
        ::fsync(dir);
        ::close(dir);
    }
}

}  // namespace

Secrets::Secrets(const std::string& configured_key, const std::string& home) {
    if (!configured_key.empty()) {
        if (!from_hex(configured_key, key_))
            SHA256(reinterpret_cast<const unsigned char*>(configured_key.data()),
                   configured_key.size(), key_.data());
        source_ = "PLATFORM_CONFIG_SECRET_KEY";
        return;
    }
    const std::string path = home + "/keys/config.key";
    source_ = path;
    std::string text;
    if (std::ifstream in(path); in && std::getline(in, text) && from_hex(text, key_)) return;
    if (std::filesystem::exists(path)) throw std::runtime_error(path + ": not a 64-hex-digit key");
    std::filesystem::create_directories(home + "/keys");
    if (RAND_bytes(key_.data(), static_cast<int>(key_.size())) != 1)
        throw std::runtime_error("no randomness for the secret key");
    write_key_file(path, to_hex(key_.data(), key_.size()) + "\n");
}

std::string Secrets::seal(std::string_view plaintext) const {
    unsigned char nonce[12];
    if (RAND_bytes(nonce, sizeof nonce) != 1)
        throw std::runtime_error("secrets: RAND_bytes failed: no nonce for sealing");
    std::string out(reinterpret_cast<char*>(nonce), sizeof nonce);
    out.resize(sizeof nonce + plaintext.size() + 16);
    Ctx ctx(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
    int len = 0, total = 0;
    auto* cipher = reinterpret_cast<unsigned char*>(out.data()) + sizeof nonce;
    EVP_EncryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, key_.data(), nonce);
    EVP_EncryptUpdate(ctx.get(), cipher, &len,
                      reinterpret_cast<const unsigned char*>(plaintext.data()),
                      static_cast<int>(plaintext.size()));
    total = len;
    EVP_EncryptFinal_ex(ctx.get(), cipher + total, &len);
    total += len;
    EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, 16, cipher + total);
    return "v1:" + platform::base64_encode(out);
}

std::optional<std::string> Secrets::open(std::string_view sealed) const {
    if (sealed.substr(0, 3) != "v1:") return std::nullopt;
    auto raw = platform::base64_decode(sealed.substr(3));
    if (!raw || raw->size() < 12 + 16) return std::nullopt;
    const auto* bytes = reinterpret_cast<const unsigned char*>(raw->data());
    const size_t n = raw->size() - 12 - 16;
    std::string out(n, '\0');
    Ctx ctx(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
    int len = 0;
    EVP_DecryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, key_.data(), bytes);
    EVP_DecryptUpdate(ctx.get(), reinterpret_cast<unsigned char*>(out.data()), &len, bytes + 12,
                      static_cast<int>(n));
    EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, 16,
                        const_cast<unsigned char*>(bytes + 12 + n));
    if (EVP_DecryptFinal_ex(ctx.get(), reinterpret_cast<unsigned char*>(out.data()) + len, &len) !=
        1)
        return std::nullopt;
    return out;
}

}  // namespace platform::host
