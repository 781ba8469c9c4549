// credentials.hpp — the CLI's stored logins.
//
// `$PLATFORM_HOME/tokens.json` (PLATFORM_HOME defaults to ~/.platform), mode 0600, rewritten
// atomically (temp file + rename), holds one entry per environment name:
//
//   {"local": {"access_token": "...", "refresh_token": "...", "expiry": 1735689600, "account": "admin"}}
//
// The bearer sent with a call is PLATFORM_TOKEN when set, else the stored access token, which is
// first exchanged for a new pair (auth.token {refresh_token}) when it expires within 60 s.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "state_files.hpp"

namespace platform::cli {

struct StoredToken {
    std::string access_token, refresh_token, account;
    int64_t expiry = 0;  // unix seconds; 0 = unknown (never refreshed)
};

// The key of the current environment's entry: the selected environment (environments.hpp:
// -e/--env, else PLATFORM_ENV, else config.json's choice, else "local").
std::string environment_name();

std::optional<StoredToken> load_token(const std::string& env = environment_name());
void store_token(const StoredToken& token,
                 const std::string& env = environment_name());   // throws std::runtime_error
bool forget_token(const std::string& env = environment_name());  // true when there was one

// An auth.token answer {access_token, refresh_token, created, expiry, account} as a stored entry.
// `account` falls back to the JWT's `sub` and `expiry` to its `exp`.
StoredToken token_from_response(const nlohmann::json& response);

// The `exp` (or `sub` with claim = "sub") of a JWT, without verifying it; nullopt if not a JWT.
std::optional<nlohmann::json> jwt_claim(const std::string& token, const std::string& claim);

// The stored entry, refreshed first when it expires within 60 s and holds a refresh token. A
// refused refresh drops the entry, prints "session expired, run `platform login`" and answers
// nullopt. Throws Unreachable when the server cannot be reached.
std::optional<StoredToken> current_login();

// What is sent as the bearer: PLATFORM_TOKEN, else current_login()'s access token, else "".
std::string bearer_token();

// Installs bearer_token() as the RpcClient token provider (once, from main).
void install_token_provider();

}  // namespace platform::cli
