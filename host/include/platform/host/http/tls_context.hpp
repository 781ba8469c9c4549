// platform/host/http/tls_context.hpp — certificate handling in OpenSSL terms, for the gateway's
// TLS listener (tls_listener.hpp) and the SMTP listener's STARTTLS (smtp/smtp_listener.hpp).
//
// tls_context.cpp turns a PEM certificate and key into the server context every new connection is
// made from, and reads them from files; tls_self_signed.cpp makes a certificate in memory. No
// shared state: any thread. A Context is immutable once made; the listener swaps whole ones.
#pragma once

#include <openssl/ssl.h>

#include <memory>
#include <platform/host/http/tls_listener.hpp>
#include <string>

namespace platform::host::tls {

// The OpenSSL error queue as text (and cleared), or `fallback` when it is empty.
std::string openssl_error(const std::string& fallback = "unknown error");

// A server context and what it serves, for logs ("CN=example.com, expires 2025-01-31").
struct Context {
    std::shared_ptr<SSL_CTX> ctx;
    std::string summary;
};

// A server context for `c`: TLS 1.2 or newer, ALPN http/1.1, no renegotiation. Throws
// TlsCertificateError when the certificate or key does not parse or they do not match.
Context make_context(const TlsCertificate& c);

// The contents of `path` (at most 1 MiB); TlsCertificateError naming `part` when unreadable.
std::string read_pem_file(const std::string& path, TlsCertificateError::Part part);

}  // namespace platform::host::tls
