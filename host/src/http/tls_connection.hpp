// tls_connection.hpp — private to host/src/http: one connection of the TLS listener, from the
// handshake to the close (tls_listener.hpp describes the behaviour).
//
// The listener's acceptor (tls_listener.cpp) starts a thread per accepted connection and calls
// serve_tls_connection() on it: the handshake (bounded by options.handshake_timeout_ms; a plain
// HTTP request gets a plaintext 400), then a plaintext connection to the Pistache api endpoint
// that starts with the preface line, then bytes pumped both ways until either side closes.
// Ownership: takes `fd` and closes it. `options` must outlive the call. `stop_fd` (an eventfd
// that becomes readable at stop()) ends every wait at once.
#pragma once

#include <openssl/ssl.h>

#include <memory>
#include <platform/host/http/tls_listener.hpp>
#include <string>

namespace platform::host::tls {

void serve_tls_connection(int fd, const std::string& ip, int port,
                          const std::shared_ptr<SSL_CTX>& ctx, const TlsListener::Options& options,
                          int stop_fd);

}  // namespace platform::host::tls
