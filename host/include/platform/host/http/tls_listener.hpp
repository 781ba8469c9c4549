// platform/host/http/tls_listener.hpp — TLS on the gateway port, terminated in front of Pistache
// (docs/decisions.md §18).
//
// Pistache's own TLS cannot carry our Server-Sent Events: streams are written to the socket past
// its transport (decision 7), and an OpenSSL connection cannot be shared between its reactor and
// the threads that write streams. So with TLS on, the api address is served by this listener:
//
//   client ──TLS──▶ TlsListener (api address) ──plain TCP──▶ Pistache api endpoint (127.0.0.1:0)
//
// For each accepted connection, one thread: the TLS handshake (TLS 1.2 or newer; ALPN http/1.1,
// the only protocol offered), bounded by handshake_timeout_ms; then a plaintext connection to the
// backend, whose first bytes are the preface line `PLATFORM-TLS <secret> <client-ip>
// <client-port>\r\n` (http_framing.hpp), so the HTTP server knows the real client and refuses
// connections that did not come through here; then bytes are pumped both ways until either side
// closes, which closes the other (close_notify sent, best effort). At most max_connections are
// open at once; beyond that a new connection is closed at once. A plain HTTP request sent to this
// port gets a plaintext 400 saying the port speaks TLS, then the connection closes.
//
// The certificate can be swapped while serving (reload, reload_files): new connections use the
// new one, open connections keep theirs. This is the hook automatic certificates (ACME) use.
// OpenSSL types stay inside the listener's sources (tls_*.cpp in host/src/http/).
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace platform::host {

class ConnectionAcceptor;  // connection_acceptor.hpp

// A certificate (the leaf first, then any chain) and its private key, both PEM.
struct TlsCertificate {
    std::string cert_pem, key_pem;
};

// A certificate or key that cannot be read or used; `part` says which of the two.
class TlsCertificateError : public std::runtime_error {
public:
    enum class Part { certificate, key };
    TlsCertificateError(Part part, const std::string& message)
        : std::runtime_error(message), part(part) {}
    Part part;
};

class TlsListener {
public:
    struct Options {
        std::string backend_host = "127.0.0.1";  // the plaintext Pistache api endpoint
        int backend_port = 0;
        std::string secret;                    // the preface's secret (new_secret())
        uint32_t max_connections = 10000;      // http.max_connections
        int64_t handshake_timeout_ms = 60000;  // http.header_timeout_ms
    };

    explicit TlsListener(Options options);
    ~TlsListener();  // stop()
    TlsListener(const TlsListener&) = delete;
    TlsListener& operator=(const TlsListener&) = delete;

    // Binds `address` ("host:port", port 0 = any free port) and serves on background threads.
    // Throws TlsCertificateError for an unusable certificate, std::runtime_error when it cannot bind.
    void start(const std::string& address, const TlsCertificate& certificate);
    // Closes the port and every open connection (no close_notify); waits for their threads.
    void stop();
    int port() const;             // the bound port; 0 before start
    int64_t connections() const;  // TLS connections open now

    // Swaps the certificate for new connections. Throws TlsCertificateError (the old certificate
    // stays) when the PEM does not parse or the key does not match the certificate.
    void reload(const std::string& cert_pem, const std::string& key_pem);
    void reload_files(const std::string& cert_file, const std::string& key_file);
    // The current certificate's subject and expiry, for logs: "CN=example.com, expires 2025-01-31".
    std::string certificate_summary() const;

    // Reads both files (TlsCertificateError "cannot read <file>: <reason>").
    static TlsCertificate read_files(const std::string& cert_file, const std::string& key_file);
    // Throws TlsCertificateError unless the certificate and key parse and belong together.
    static void check(const TlsCertificate& certificate);
    // A self-signed certificate made in memory (EC P-256, 30 days) for `hosts` (DNS names or IP
    // addresses, all in subjectAltName; the first is the subject CN; "localhost" when empty):
    // what the listener serves until ACME delivers a real one.
    static TlsCertificate self_signed(const std::vector<std::string>& hosts);
    // A random preface secret: 32 hex characters.
    static std::string new_secret();

private:
    struct Impl;
    std::shared_ptr<Impl> impl_;
    std::unique_ptr<ConnectionAcceptor> acceptor_;
};

}  // namespace platform::host
