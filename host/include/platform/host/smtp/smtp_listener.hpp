// platform/host/smtp/smtp_listener.hpp — the inbound SMTP listener: mail from outside for the
// instance's mail domain (PLATFORM_SMTP_ADDRESS, on only with PLATFORM_MAIL_DOMAIN).
//
// For each accepted connection, one thread (at most max_connections at once; beyond that a new
// connection gets "421 too many connections" and is closed) runs a Dialogue (smtp_dialogue.hpp):
// it reads lines of at most 1000 octets (longer ones are cut and reported as overlong), waits at
// most read_timeout_ms for each (then "421 timeout" and close), and writes the dialogue's replies.
// STARTTLS is offered when a certificate is given (the instance's: PLATFORM_TLS_CERT_FILE or
// ACME's, reload() swaps it): the handshake (TLS 1.2 or newer) runs on the same socket, bytes the
// client sent before it are dropped (no command injection across the upgrade, RFC 3207 §6), and
// the dialogue starts over. Who may receive mail and where it goes is the Policy's business
// (mail_handoff.hpp); the listener never relays.
//
// Thread-safe: start() and stop() from one thread; reload() from any.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <platform/host/http/connection_acceptor.hpp>
#include <platform/host/http/tls_listener.hpp>
#include <platform/host/smtp/smtp_dialogue.hpp>
#include <string>

namespace platform::host::smtp {

struct ListenerOptions {
    std::string hostname = "localhost";  // in the greeting and EHLO (the mail domain)
    Limits limits;
    uint32_t max_connections = 100;
    int64_t read_timeout_ms = 5 * 60 * 1000;  // RFC 5321 §4.5.3.2: five minutes per command
};

class Listener {
public:
    // `policy` is shared by every connection's dialogue (it must be thread-safe).
    Listener(ListenerOptions options, std::shared_ptr<Policy> policy);
    ~Listener();  // stop()
    Listener(const Listener&) = delete;
    Listener& operator=(const Listener&) = delete;

    // Binds `address` ("host:port", port 0 = a free port) and serves on background threads; with
    // a certificate STARTTLS is offered. Throws std::runtime_error naming PLATFORM_SMTP_ADDRESS
    // when it cannot bind, TlsCertificateError for an unusable certificate.
    void start(const std::string& address, const std::optional<TlsCertificate>& certificate);
    // Closes the port and every connection; waits for their threads (a few seconds at most).
    void stop();
    int port() const;  // the bound port; 0 before start
    // A new certificate for connections that start TLS from now on.
    void reload(const TlsCertificate& certificate);

    struct Impl;  // smtp_listener.cpp

private:
    std::shared_ptr<Impl> impl_;
    std::unique_ptr<ConnectionAcceptor> acceptor_;
};

}  // namespace platform::host::smtp
