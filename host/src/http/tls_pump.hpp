// tls_pump.hpp — private to host/src/http: the bytes of one TLS listener connection, both ways
// (tls_listener.hpp describes the listener; tls_connection.cpp calls this after the handshake).
//
// client --TLS--> up --> backend, backend --> down --TLS--> client, at most 64 KiB held each way
// (reading stops while the other side is slow). Both sockets are non-blocking; the pump waits in
// poll(2) and returns at once when `stop_fd` becomes readable. Runs on the connection's thread;
// closes neither socket and sends no close_notify: the caller does both.
#pragma once

#include <openssl/ssl.h>

#include <string>

namespace platform::host::tls {

// Which side ended the connection: the client (close_notify; what it sent was delivered first),
// the backend (what it sent was delivered first; once it closed, nothing more was read from the
// client), or neither: failed (a TLS error, a client gone without close_notify) or stopped.
enum class PumpEnd { client, backend, failed, stopped };

// Pumps until one side ends; `up` is sent to the backend first (the preface line).
PumpEnd pump(SSL* ssl, int client_fd, int backend_fd, int stop_fd, std::string up);

}  // namespace platform::host::tls
