#include "verification.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <platform/sdk/random.hpp>

#include "messages.hpp"

namespace sms {

using platform::json;

std::string new_code() {
    uint32_t r = 0;
    do platform::random_bytes(&r, sizeof r);
    while (r >= 4294000000u);  // a multiple of 10^6: every code equally likely
    std::string code = std::to_string(r % 1000000);
    return std::string(6 - code.size(), '0') + code;
}

std::string code_hash(const std::string& salt, const std::string& code) {
    const std::string data = salt + code;
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    EVP_Digest(data.data(), data.size(), md, &len, EVP_sha256(), nullptr);
    static const char* hex = "0123456789abcdef";
    std::string out;
    for (unsigned int i = 0; i < len; ++i) out += {hex[md[i] >> 4], hex[md[i] & 15]};
    return out;
}

std::string Verification::start(const std::string& account, const std::string& number) const {
    const std::string code = new_code(), salt = platform::random_hex(16);
    pending(account).put(number,
                         {{"salt", salt},
                          {"hash", code_hash(salt, code)},
                          {"expires", host_.now_ms() + kCodeLifetimeMs},
                          {"tries_left", kCodeTries}},
                         kCodeLifetimeMs + kDayMs);
    return code;
}

void Verification::forget(const std::string& account, const std::string& number) const {
    pending(account).erase(number);
}

void Verification::check(const std::string& account, const std::string& number,
                         const std::string& code) const {
    enum { none, expired, wrong, spent, right } outcome = none;
    int64_t left = 0;
    const int64_t now = host_.now_ms();
    pending(account).update(
        number,
        [&](const std::optional<json>& cur) -> std::optional<json> {
            outcome = none;
            if (!cur) return std::nullopt;
            const int64_t expires = cur->value("expires", int64_t{0});
            if (now >= expires) {
                outcome = expired;
                return cur;
            }
            const std::string want = cur->value("hash", ""),
                              got = code_hash(cur->value("salt", ""), code);
            if (want.size() == got.size() &&
                CRYPTO_memcmp(want.data(), got.data(), want.size()) == 0) {
                outcome = right;
                return std::nullopt;
            }
            left = cur->value("tries_left", int64_t{0}) - 1;
            outcome = left > 0 ? wrong : spent;
            if (left <= 0) return std::nullopt;
            json next = *cur;
            next["tries_left"] = left;
            return next;
        },
        kCodeLifetimeMs + kDayMs);
    switch (outcome) {
        case right:
            return;
        case none:
            throw platform::conflict("code: no code is pending for " + number +
                                     ": call verify with the number alone to get one");
        case expired:
            throw platform::conflict("code: the code sent to " + number +
                                     " expired (codes last 10 minutes): call verify with the "
                                     "number alone to get a new one");
        case wrong:
            throw platform::invalid_argument("code: wrong code for " + number + "; " +
                                             std::to_string(left) + " tries left");
        case spent:
            break;
    }
    throw platform::invalid_argument("code: wrong code for " + number +
                                     "; no tries left, the code is void: call verify with the "
                                     "number alone to get a new one");
}

}  // namespace sms
