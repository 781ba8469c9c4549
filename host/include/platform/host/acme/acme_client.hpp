// platform/host/acme/acme_client.hpp — the host's ACME (RFC 8555) client: PLATFORM_ENABLE_ACME with
// PLATFORM_ACME_HOSTS. Obtains one certificate for the allow-listed host names through http-01
// challenges, keeps it under <PLATFORM_HOME>/acme/ and reuses it until 30 days before it expires.
// Proven against Debian's `pebble` on loopback (tests/integration/acme_test.cpp,
// scripts/pebble.sh).
//
// How server.cpp wires it. The CA fetches http://<host>/.well-known/acme-challenge/<token> on
// port 80, so the gateway must serve plain HTTP there (directly or behind a port forward) before
// obtain() runs; the route answers from HttpChallenges:
//
//   auto challenges = std::make_shared<HttpChallenges>();  // the gateway route, before listen:
//   // GET /.well-known/acme-challenge/<token>: challenges->answer(path) -> 200 text/plain; else
//   404 std::shared_ptr<AcmeClient> acme; std::thread acme_thread; if (settings.enable_acme) {  //
//   std::invalid_argument on bad hosts / directory URL: exit
//       acme = std::make_shared<AcmeClient>(
//           AcmeSettings::from_env(settings.acme_hosts, settings.home), *challenges);
//       std::string served;
//       if (auto c = acme->stored()) {  // after a restart: serve the stored one at once
//           tls.reload(c->cert_pem, c->key_pem);
//           served = c->cert_pem;
//       }
//       acme_thread = std::thread([acme, &tls, served]() mutable {  // off the HTTP I/O threads
//           for (auto next = std::chrono::hours(12);; next = std::chrono::hours(12)) {
//               try {
//                   Certificate c = acme->obtain();  // the stored one until 30 days before expiry
//                   if (c.cert_pem != served) tls.reload(c.cert_pem, c.key_pem);
//                   served = c.cert_pem;
//               } catch (const std::exception& e) {
//                   spdlog::error("{}", e.what());
//                   next = std::chrono::hours(1);
//               }
//               if (!acme->wait_for_cancel(next)) break;
//           }
//       });
//   }
//   // shutdown, before the gateway and `challenges` go: acme->cancel(); acme_thread.join();
//
// The ACME server is an operator-configured upstream (PLATFORM_ACME_DIRECTORY_URL), never a
// user-supplied URL, so requests go through libcurl directly, not through Outbound's SSRF guard:
// https only (RFC 8555 §6.1), no redirects, no proxies from the environment, 10 s per request,
// responses capped at 2 MiB. PLATFORM_ACME_CA_FILE replaces the system trust store for the ACME
// server's own HTTPS (pebble's test CA); empty uses the system store.
//
// Host names (validated by acme_host_problem): lower-case DNS names (from_env lower-cases them),
// labels of a-z, 0-9 and '-', at most 253 characters, no trailing dot. Refused: wildcards (http-01
// cannot validate them), IP addresses (RFC 8738 identifiers are not requested; pebble would take
// them, Let's Encrypt mostly not). Single-label names (localhost) are accepted here; the CA
// decides (pebble issues for localhost, Let's Encrypt refuses).
//
// State under state_dir (created 0700): account.key (the ES256 account key, PEM, 0600), and for
// each set of names cert-<hash>.pem (the chain), cert-<hash>.key (its P-256 key, 0600) and
// cert-<hash>.json (names, directory URL, not_after). Files are replaced atomically.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <platform/host/acme/http_challenges.hpp>
#include <string>
#include <vector>

namespace platform::host {

inline constexpr const char* kLetsEncryptDirectory =
    "https://acme-v02.api.letsencrypt.org/directory";

struct AcmeSettings {
    std::string directory_url = kLetsEncryptDirectory;  // PLATFORM_ACME_DIRECTORY_URL
    std::vector<std::string> hosts;  // PLATFORM_ACME_HOSTS: the allow-list and the names requested
    std::string state_dir;           // <PLATFORM_HOME>/acme
    std::string ca_file;             // PLATFORM_ACME_CA_FILE: the ACME server's CA; empty = system
    std::string contact_email;  // PLATFORM_ACME_EMAIL (optional): the account's mailto: contact
    int request_timeout_ms = 10000;  // per HTTP request, connect included
    int poll_attempts = 30;          // per authorization / order wait
    int poll_interval_ms = 1000;     // between polls when the server sends no Retry-After
    int max_retry_after_s = 30;      // Retry-After is honoured up to this
    int renew_before_days = 30;      // a stored certificate is reused until this close to expiry
    int bad_nonce_retries = 5;       // resends of a request the server refused with badNonce

    // hosts_csv split on ',' and spaces, trimmed, lower-cased, duplicates dropped;
    // state_dir = platform_home + "/acme"; the other fields from the variables named above.
    static AcmeSettings from_env(const std::string& hosts_csv, const std::string& platform_home);

    // What is wrong with these settings ("PLATFORM_ACME_HOSTS: '*.example.com': wildcards ..."),
    // or nullopt. AcmeClient's constructor throws std::invalid_argument with the same text.
    std::optional<std::string> problem() const;
};

// Why `host` cannot be requested ("wildcards are not supported ..."), or nullopt.
std::optional<std::string> acme_host_problem(const std::string& host);

struct Certificate {
    std::string cert_pem;  // the leaf first, then the issuer chain as the CA sent it
    std::string key_pem;   // the leaf's P-256 private key (PKCS#8 PEM)
    int64_t not_after_unix = 0;
};

// Counters for logs and tests.
struct AcmeStats {
    int requests = 0;           // HTTP requests sent to the ACME server
    int orders = 0;             // newOrder requests sent
    int bad_nonce_retries = 0;  // requests resent after badNonce
    int reused = 0;             // obtain() calls answered from the stored certificate
};

class AcmeClient {
public:
    // Throws std::invalid_argument when settings.problem() is set. `challenges` must outlive this.
    AcmeClient(AcmeSettings settings, HttpChallenges& challenges);
    ~AcmeClient();
    AcmeClient(const AcmeClient&) = delete;
    AcmeClient& operator=(const AcmeClient&) = delete;

    // A certificate for settings.hosts: the stored one while it has more than renew_before_days
    // left (same names, same directory URL, key matching), otherwise a new order, stored before
    // it is returned. Throws std::runtime_error naming the step, the status and the ACME problem
    // ("ACME newOrder: 400 urn:ietf:params:acme:error:rejectedIdentifier: ..."). Calls are
    // serialised; the HttpChallenges entries it adds are removed before it returns. A new order
    // blocks for seconds (each wait at most poll_attempts polls): call it off the I/O threads.
    Certificate obtain();
    // The same for `names`, each of which must be in settings.hosts; otherwise, before any
    // network request, std::invalid_argument("ACME: 'evil.example' is not in PLATFORM_ACME_HOSTS").
    Certificate obtain(const std::vector<std::string>& names);

    // The stored certificate for settings.hosts when it is still good to serve (not expired,
    // names, directory and key matching), without any network request.
    std::optional<Certificate> stored() const;

    // True when `cert` has at most renew_before_days left at `now_unix`.
    bool needs_renewal(const Certificate& cert, int64_t now_unix) const;

    // Stops a running obtain() (it throws "ACME: cancelled") and wakes wait_for_cancel(). Final:
    // later obtain() calls throw the same.
    void cancel();
    // Waits up to `d`; false once cancel() was called (for a renewal loop).
    bool wait_for_cancel(std::chrono::milliseconds d);

    AcmeStats stats() const;
    const AcmeSettings& settings() const { return settings_; }

    struct State;  // internal (host/src/acme/)

private:
    AcmeSettings settings_;
    HttpChallenges& challenges_;
    std::unique_ptr<State> state_;
};

}  // namespace platform::host
