// notify — VAPID (RFC 8292): the server's P-256 key and the ES256 JWT that identifies it to a push
// service.
//
// The key pair is generated once and kept in the plugin's store under vapid/key, its PEM sealed by
// the host's "secrets" sub-table (AES-256-GCM with the host's secret key), so replicas sharing the
// store share it and browsers' subscriptions, made for its public key, keep working across
// restarts. Each request carries
//   Authorization: vapid t=<JWT {"typ":"JWT","alg":"ES256"}.{aud, exp, sub}>, k=<public key>
// aud: the push service's origin; exp: now + 12 h (the RFC's 24 h at most); sub: a contact.
#pragma once

#include <cstdint>
#include <mutex>
#include <platform/sdk.hpp>
#include <string>

#include "ec_keys.hpp"

namespace notify {

class Vapid {
public:
    static constexpr int64_t kLifetimeSeconds = 12 * 3600;

    // Loads the sealed key from the store, or generates, seals and stores one (once: a concurrent
    // first use keeps the key written first). Throws platform::unavailable when the host lends
    // no "secrets" sub-table.
    void load(const platform::Host& host);
    // Takes this PEM private key (tests).
    void use_pem(const std::string& pem);
    bool loaded() const { return key_ != nullptr; }

    // The uncompressed public key, base64url (the applicationServerKey a browser subscribes with).
    const std::string& public_key() const { return public_key_; }
    // The signed JWT for `audience` (a push service origin) expiring at `exp` (Unix seconds).
    std::string jwt(const std::string& audience, int64_t exp, const std::string& subject) const;
    // "vapid t=<jwt>, k=<public key>" for `audience`, valid kLifetimeSeconds from now_ms.
    std::string authorization(const std::string& audience, int64_t now_ms,
                              const std::string& subject) const;

    static std::string generate_pem();

private:
    Pkey key_;
    std::string public_key_;
};

}  // namespace notify
