// platform/host/core/secrets.hpp — values sealed at rest with the host's secret key (AES-256-GCM).
//
// The key comes from PLATFORM_CONFIG_SECRET_KEY / --config_secret_key (64 hex digits, or any
// other text, hashed with SHA-256 into a key), else from $PLATFORM_HOME/keys/config.key, generated
// once with 32 random bytes (mode 0600; local use only: production sets the key). The key never
// leaves the host: plugins reach seal/open through the privileged "secrets" sub-table.
// Sealed form: "v1:" + base64(nonce[12] | ciphertext | tag[16]).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace platform::host {

class Secrets {
public:
    // Throws std::runtime_error when the key file cannot be read or created.
    Secrets(const std::string& configured_key, const std::string& home);
    explicit Secrets(const std::array<unsigned char, 32>& key) : key_(key) {}

    std::string seal(std::string_view plaintext) const;
    // nullopt when the text was not sealed with this key, or was altered.
    std::optional<std::string> open(std::string_view sealed) const;
    // Where the key came from: "PLATFORM_CONFIG_SECRET_KEY" or the key file's path.
    const std::string& source() const { return source_; }

private:
    std::array<unsigned char, 32> key_{};
    std::string source_;
};

}  // namespace platform::host
