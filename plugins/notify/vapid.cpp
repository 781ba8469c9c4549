#include "vapid.hpp"

#include <memory>
#include <stdexcept>

#include "common/es256/es256.hpp"

namespace notify {

namespace {

constexpr const char* kKeyRecord = "vapid/key";
constexpr const char* kHeader = R"({"typ":"JWT","alg":"ES256"})";

}  // namespace

void Vapid::use_pem(const std::string& pem) {
    Pkey key = common::es256::read_pem(pem, "notify: the VAPID key");
    public_key_ = platform::base64url_encode(public_raw(key.get()));
    key_ = std::move(key);
}

std::string Vapid::generate_pem() {
    return common::es256::generate_pem();
}

void Vapid::load(const platform::Host& host) {
    auto* secrets = host.service<platform_secrets_api_t>(PLATFORM_SERVICE_SECRETS, 1);
    if (!secrets)
        throw platform::unavailable(
            "notify: keeping the VAPID key sealed needs the host's \"secrets\" sub-table: list "
            "notify under privileged: in the profile");
    platform::Store store = host.store();
    auto open = [&](const std::string& sealed) {
        std::string plain;
        if (secrets->open(host.ctx(), platform::view(sealed), platform::append_sink, &plain) !=
            PLATFORM_OK)
            throw platform::unavailable(
                "notify: the stored VAPID key cannot be opened (was the host's secret key "
                "changed?); delete vapid/key from notify's store to start over");
        use_pem(plain);
    };
    if (auto sealed = store.get(kKeyRecord)) return open(*sealed);
    std::string sealed;
    platform::check(
        secrets->seal(host.ctx(), platform::view(generate_pem()), platform::append_sink, &sealed),
        "notify: sealing the VAPID key failed");
    bool written = false;
    try {
        written = store.insert_if_absent(kKeyRecord, sealed);
    } catch (const platform::Error& e) {
        if (e.code() != platform::Code::unsupported) throw;
        store.put(kKeyRecord, sealed);  // a store without compare-and-set: one process writes
        written = true;
    }
    open(written ? sealed : store.get(kKeyRecord).value_or(sealed));
}

std::string Vapid::jwt(const std::string& audience, int64_t exp, const std::string& subject) const {
    if (!key_) throw platform::unavailable("notify: no VAPID key");
    const platform::json claims = {{"aud", audience}, {"exp", exp}, {"sub", subject}};
    const std::string input =
        platform::base64url_encode(kHeader) + "." + platform::base64url_encode(claims.dump());
    try {
        return input + "." + platform::base64url_encode(common::es256::sign(key_.get(), input));
    } catch (const std::runtime_error& e) {
        throw platform::internal(std::string("notify: signing the VAPID JWT failed: ") + e.what());
    }
}

std::string Vapid::authorization(const std::string& audience, int64_t now_ms,
                                 const std::string& subject) const {
    return "vapid t=" + jwt(audience, now_ms / 1000 + kLifetimeSeconds, subject) +
           ", k=" + public_key_;
}

}  // namespace notify
