// host/src/acme/acme_session.hpp — internal to the ACME client: one conversation with the ACME
// server: its directory, nonces (Replay-Nonce, newNonce, badNonce retries), signed requests,
// problem documents turned into exceptions, and polling with Retry-After.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "acme_http.hpp"
#include "jws.hpp"

namespace platform::host::acme {

class AcmeSession {
public:
    // wait(d) sleeps up to d and returns false when the client was cancelled meanwhile.
    using Wait = std::function<bool(std::chrono::milliseconds)>;

    AcmeSession(const AcmeSettings& settings, const EcKey& account_key,
                const std::atomic<bool>& cancelled, Counters& counters, Wait wait);

    // The directory's URL for `name` (newNonce, newAccount, newOrder), fetching the directory on
    // first use. Throws "ACME directory: ..." when it cannot be fetched or lacks the entry.
    std::string endpoint(const std::string& name);

    // The account URL for later requests' "kid"; until set, requests carry the "jwk".
    void set_kid(std::string kid) { kid_ = std::move(kid); }

    // A signed POST (payload "" is POST-as-GET). Resends on badNonce up to bad_nonce_retries.
    // Any status >= 400 throws "ACME <what>: <status> <problem type>: <detail>".
    HttpReply post(const std::string& what, const std::string& url, const std::string& payload,
                   const std::vector<std::string>& extra_headers = {});

    // The reply's body as a JSON object; throws "ACME <what>: ..." otherwise.
    static nlohmann::json json_of(const std::string& what, const HttpReply& reply);

    // POST-as-GET `url` until its "status" is none of `waiting`, sleeping Retry-After (capped at
    // max_retry_after_s) or poll_interval_ms between tries, at most poll_attempts tries.
    nlohmann::json poll(const std::string& what, const std::string& url,
                        const std::vector<std::string>& waiting);

    // Retry-After as a delay: delta-seconds or an HTTP-date; nullopt when absent or unreadable.
    static std::optional<std::chrono::seconds> retry_after(const HttpReply& reply);

    // "urn:...:rejectedIdentifier: detail (dns platform.test: urn:...: detail)" from a problem
    // document (RFC 7807 / RFC 8555 §6.7), or the start of the body when it is not one.
    static std::string describe_problem(const std::string& body);

private:
    std::string take_nonce();
    void keep_nonce(const HttpReply& reply);

    const AcmeSettings& settings_;
    const EcKey& key_;
    Counters& counters_;
    Wait wait_;
    AcmeHttp http_;
    nlohmann::json directory_;
    std::string nonce_, kid_;
};

}  // namespace platform::host::acme
