// platform/host/http/http_server.hpp — the two listening ports on Pistache.
//
// Port api (8080) and port proxy (8081), each a Pistache endpoint whose handler turns requests
// into HttpRequests for the Gateway and writes its HttpResponses back, from whatever thread the
// plugin answered on. What the handler adds around the gateway, in order:
//   - Framing (http_framing.hpp): the handler overrides Pistache's onInput, keeps each
//     connection's unconsumed bytes and parses one whole request at a time with the host's own
//     parser (request_parser.hpp; Pistache still accepts, reads, writes and times out connections), so
//     pipelined requests are all answered, in order: the next one is dispatched only once the
//     previous answer was written (Pistache 0.0.5 aborts when two writes for one connection are
//     queued from another thread, and drops what follows the first request). Limits from the
//     profile's `http:` section (http_settings.hpp): 413, 414, 431, 400; after such an error the
//     answer carries `Connection: close` and the connection is closed.
//   - Keep-alive by HTTP/1.1 rules (Pistache would close when the client sends no Connection header).
//   - Connections over max_connections, and every request during the shutdown drain: 503 + close.
//   - Rate limit per client address (429 + Retry-After; /health and /metrics are exempt).
//   - CORS (http_cors.hpp): OPTIONS answered 200 before auth and routing; headers on every answer.
//   - X-Request-Id (kept or generated) and W3C traceparent (kept when valid, else generated), both
//     in call metadata and on the answer (trace_context.hpp).
//   - On the api port: GET /metrics (metrics.hpp) and GET /health (readiness: plugins loaded,
//     providers up; 503 while unready or draining), before the gateway.
//   - One access-log line per request (access_log.hpp) and the HTTP metrics.
// Timeouts: Pistache's checker closes a connection whose request (head and body) has not fully
// arrived within http.header_timeout_ms of its first byte (408), or that had nothing to do for
// http.idle_timeout_ms (a request being answered counts as idle: answers may take long).
//
// TLS (docs/decisions.md §18): when start() is given a certificate, a TlsListener
// (tls_listener.hpp) serves the api address and forwards each connection, in plaintext, to the
// api endpoint, which then binds 127.0.0.1:0 and reads the listener's preface line first on
// every connection (http_framing.hpp): the client's real address (rate limit, access log,
// X-Forwarded-For) and call metadata `platform-tls: true`. A connection without a valid preface
// is closed without an answer. The proxy port stays plaintext (the CLI's loopback transport).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <platform/host/core/http_settings.hpp>
#include <platform/host/core/runtime.hpp>
#include <platform/host/http/gateway.hpp>
#include <platform/host/http/http_framing.hpp>
#include <platform/host/http/request_parser.hpp>  // ParsedRequest, parse_framed_request
#include <platform/host/http/tls_listener.hpp>
#include <string>
#include <string_view>

namespace platform::host {

class HttpServer {
public:
    // `challenges`: the ACME http-01 answers both gateways serve (http_challenges.hpp); null
    // answers every challenge path 404. The runtime's metrics count requests and connections.
    explicit HttpServer(Runtime& runtime,
                        std::shared_ptr<const HttpChallenges> challenges = nullptr);
    ~HttpServer();

    // Binds both ports ("host:port", port 0 = any free port) and serves on background threads;
    // with `tls`, the api address speaks TLS with that certificate. Throws when a port cannot be
    // bound or the certificate is unusable (TlsCertificateError).
    void start(const std::string& api_address, const std::string& proxy_address,
               const std::optional<TlsCertificate>& tls = std::nullopt);
    // Graceful shutdown, first step: from now on new requests get 503 with Connection: close and
    // every answer closes its connection; requests already read are answered normally.
    void begin_drain();
    // Requests read (or queued behind a pipelined one) and not yet answered, on both ports.
    int64_t in_flight() const;
    // Stops both endpoints (in parallel: Pistache takes 1-2 s each). Answers arriving later are dropped.
    void stop();
    int api_port() const;           // the port clients use (the TLS port when TLS is on)
    int internal_api_port() const;  // the Pistache api endpoint's port (== api_port() without TLS)
    int proxy_port() const;
    // The TLS listener, nullptr when TLS is off: reload() / reload_files() swap its certificate.
    TlsListener* tls() const;
    const HttpSettings& settings() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace platform::host
