// verification — the codes `verify` texts to a number, and their checking: how an account proves
// it holds a number.
//
// A code is 6 decimal digits drawn uniformly from the kernel's CSPRNG (platform/sdk/random.hpp).
// It is never stored in clear: the record keeps a random 16-byte salt and SHA-256(salt || code),
// and the message kept for `source` shows the code as "******". A code lives 10 minutes on the
// business clock and takes 5 tries; a new code for the same number replaces the old one (and its
// tries). A right code is used up; the fifth wrong one forgets the code.
//
// Storage (this plugin's store, owner-scoped): pending/<account>/<number> {salt, hash, expires,
// tries_left}, kept a day past its expiry so that a late try hears "expired" rather than "none".
//
// Thread-safe: tries are counted with compare-and-set (Collection::update), so parallel guesses
// cannot exceed them.
#pragma once

#include <cstdint>
#include <platform/sdk.hpp>
#include <string>

namespace sms {

inline constexpr int64_t kCodeLifetimeMs = 10 * 60 * 1000;
inline constexpr int kCodeTries = 5;
inline constexpr const char* kCodePattern = "^[0-9]{6}$";

// 6 random decimal digits.
std::string new_code();
// Lower-case hex SHA-256 of salt || code.
std::string code_hash(const std::string& salt, const std::string& code);

class Verification {
public:
    explicit Verification(const platform::Host& host) : host_(host) {}

    // Makes and keeps a fresh code for `account` and `number`; returns it in clear, to be texted.
    std::string start(const std::string& account, const std::string& number) const;
    // Forgets the pending code (its text could not be sent).
    void forget(const std::string& account, const std::string& number) const;

    // Checks `code` for `account` and `number` and uses it up when right. Throws conflict (409)
    // when no code is pending or it expired, invalid_argument (400) when it is wrong (saying how
    // many tries are left, or that none are and the code is gone).
    void check(const std::string& account, const std::string& number,
               const std::string& code) const;

private:
    platform::Collection pending(const std::string& account) const {
        return platform::Collection(host_.store(), "pending", account);
    }

    platform::Host host_;
};

}  // namespace sms
