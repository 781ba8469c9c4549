// auth-local — ES256 access tokens (RFC 7515/7519) written with OpenSSL, and their signing key.
//
// Only `{"alg":"ES256","typ":"JWT"}` tokens signed by this key verify: `none`, HS256 (with the
// public key as secret) and every other algorithm are refused before any signature work. The
// signature is the raw 64-byte r||s of RFC 7518 §3.4 (plugins/common/es256).
// The key is an EC P-256 private key: PLATFORM_AUTH_PRIVATE_KEY (PEM) when set, else the one
// kept in the store under key/es256 sealed by the host's "secrets" sub-table, else a new one
// written there only if no other replica wrote one first (compare-and-set; the winner's is used).
#include <openssl/evp.h>

#include <memory>
#include <stdexcept>

#include "auth_local.hpp"
#include "common/es256/es256.hpp"

namespace auth_local {

namespace {

constexpr const char* kKeyRecord = "key/es256";
constexpr const char* kHeader = R"({"alg":"ES256","typ":"JWT"})";

EVP_PKEY* pkey(void* p) {
    return static_cast<EVP_PKEY*>(p);
}

}  // namespace

Jwt::Jwt() = default;
Jwt::~Jwt() {
    EVP_PKEY_free(pkey(key_));
}

bool Jwt::looks_like(std::string_view t) {
    auto a = t.find('.');
    if (a == std::string_view::npos) return false;
    auto b = t.find('.', a + 1);
    return b != std::string_view::npos && t.find('.', b + 1) == std::string_view::npos;
}

void Jwt::use_pem(const std::string& pem) {
    EVP_PKEY* k = common::es256::read_pem(pem, "auth-local").release();
    EVP_PKEY_free(pkey(key_));
    key_ = k;
    for (auto& shard : verified_) {
        std::lock_guard<std::mutex> g(shard.m);
        shard.claims.clear();
    }
    // The CSRF key: derived from the signing key, so replicas sharing the key agree.
    unsigned char* der = nullptr;
    int len = i2d_PrivateKey(k, &der);
    if (len <= 0) throw std::runtime_error("auth-local: cannot encode the private key");
    mac_key_ = sha256("auth-local csrf key\n" +
                      std::string(reinterpret_cast<char*>(der), static_cast<size_t>(len)));
    OPENSSL_clear_free(der, static_cast<size_t>(len));
}

std::string Jwt::generate_pem() {
    std::string pem = common::es256::generate_pem();
    use_pem(pem);
    return pem;
}

void Jwt::load(const platform::Host& host, const std::string& pem) {
    if (!pem.empty()) return use_pem(pem);
    auto* secrets = host.service<platform_secrets_api_t>(PLATFORM_SERVICE_SECRETS, 1);
    if (!secrets)
        throw std::runtime_error(
            "auth-local: keeping the signing key needs the privileged \"secrets\" sub-table (list "
            "auth-local "
            "under privileged: in the profile) or PLATFORM_AUTH_PRIVATE_KEY");
    platform::Store store = host.store();
    // Replicas starting together on an empty store race here: the first key written wins (an
    // insert-if-absent), and the others use that one.
    for (int attempt = 0; attempt < 3; ++attempt) {
        const auto sealed = store.get(kKeyRecord);
        if (sealed) {
            std::string plain;
            auto st =
                secrets->open(host.ctx(), platform::view(*sealed), platform::append_sink, &plain);
            if (st == PLATFORM_OK) return use_pem(plain);
            host.warn(
                "auth-local: the stored signing key cannot be opened (was the secret key "
                "changed?); generating a new one: earlier access tokens and CSRF tokens stop "
                "working");
        }
        std::string fresh = common::es256::generate_pem();
        std::string mine;
        platform::check(
            secrets->seal(host.ctx(), platform::view(fresh), platform::append_sink, &mine),
            "auth-local: sealing the signing key failed");
        if (store.compare_and_set(kKeyRecord,
                                  sealed ? std::optional<std::string_view>(*sealed) : std::nullopt,
                                  std::string_view(mine)))
            return use_pem(fresh);
        // Another replica wrote its key meanwhile: read it again.
    }
    throw std::runtime_error("auth-local: the signing key in the store keeps changing");
}

std::string Jwt::sign(const json& claims) const {
    if (!key_) throw platform::unavailable("auth-local: no signing key");
    const std::string input = base64url_encode(kHeader) + "." + base64url_encode(claims.dump());
    try {
        return input + "." + base64url_encode(common::es256::sign(pkey(key_), input));
    } catch (const std::runtime_error& e) {
        throw platform::internal(std::string("jwt: ") + e.what());
    }
}

std::optional<json> Jwt::verify(std::string_view token) const {
    if (!key_ || token.size() > 8192 || !looks_like(token)) return std::nullopt;
    VerifiedShard& shard = verified(token);
    {
        std::lock_guard<std::mutex> g(shard.m);
        if (auto it = shard.claims.find(std::string(token)); it != shard.claims.end())
            return it->second;
    }
    auto claims = verify_signature(token);
    if (claims) {
        std::lock_guard<std::mutex> g(shard.m);
        if (shard.claims.size() >= kVerifiedMax) shard.claims.clear();
        shard.claims.emplace(std::string(token), *claims);
    }
    return claims;
}

std::optional<json> Jwt::verify_signature(std::string_view token) const {
    const size_t a = token.find('.'), b = token.find('.', a + 1);
    auto header = base64url_decode(token.substr(0, a));
    auto payload = base64url_decode(token.substr(a + 1, b - a - 1));
    auto sig = base64url_decode(token.substr(b + 1));
    if (!header || !payload || !sig) return std::nullopt;
    json h = json::parse(*header, nullptr, false);
    if (!h.is_object() || h.value("alg", "") != "ES256") return std::nullopt;
    if (h.contains("typ") && h["typ"] != "JWT") return std::nullopt;
    if (h.contains("crit")) return std::nullopt;  // no extensions understood
    if (!common::es256::verify(pkey(key_), token.substr(0, b), *sig)) return std::nullopt;
    json claims = json::parse(*payload, nullptr, false);
    if (!claims.is_object()) return std::nullopt;
    return claims;
}

}  // namespace auth_local
