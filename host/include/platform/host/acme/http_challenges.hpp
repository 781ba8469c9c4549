// platform/host/acme/http_challenges.hpp — the ACME http-01 answers (acme_client.hpp) the gateway
// serves at GET /.well-known/acme-challenge/<token> on both ports.
//
// Ownership: server.cpp creates one, hands it to the HTTP server (which gives it to both
// gateways) and to the AcmeClient that fills it; shared, so it lives as long as its last user.
// Kept apart from the ACME client so the gateway needs only this map, not the client.
#pragma once

#include <cstddef>
#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace platform::host {

// The http-01 answers the gateway serves: token -> key authorization. Thread-safe.
class HttpChallenges {
public:
    static constexpr const char* kPrefix = "/.well-known/acme-challenge/";

    void put(const std::string& token, const std::string& key_authorization);
    void erase(const std::string& token);
    std::optional<std::string> find(const std::string& token) const;
    // For a request path "/.well-known/acme-challenge/<token>" (no query): the key authorization
    // to send as the 200 body (text/plain), or nullopt (404) for any other path or unknown token.
    std::optional<std::string> answer(const std::string& path) const;
    size_t size() const;

private:
    mutable std::mutex mu_;
    std::map<std::string, std::string> answers_;
};

}  // namespace platform::host
