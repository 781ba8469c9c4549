// connection_acceptor.hpp — a listening TCP socket whose connections are each served on a thread
// of their own: what the TLS front (tls_listener.hpp) and the SMTP listener (smtp/) share.
//
// start() binds "host:port" (port 0: a free one), listens, and starts one accepting thread. Each
// accepted socket (non-blocking, close-on-exec) goes to `serve` on a new detached thread, which
// owns the descriptor (serve closes it). At `max_connections` threads a new socket is given to
// `refuse` (e.g. to write "421 busy") and closed instead. When the descriptor table is full the
// acceptor backs off 100 ms rather than spin.
//
// stop() closes the port and signals `stop_fd()` (an eventfd that stays readable from then on):
// serve functions poll it alongside their socket and end when it fires. stop() then waits up to
// `stop_wait_ms` for their threads and logs how many are left. Thread-safe to stop twice; the
// destructor stops.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace platform::host {

class ConnectionAcceptor {
public:
    struct Peer {
        std::string ip;  // "1.2.3.4" or "::1" (an IPv4-mapped IPv6 address as IPv4)
        int port = 0;
        std::string text() const;  // "1.2.3.4:5" or "[::1]:5"
    };
    struct Options {
        std::string name;     // for logs: "tls", "smtp"
        std::string setting;  // for bind errors: "PLATFORM_SMTP_ADDRESS", "api address"
        uint32_t max_connections = 100;
        int backlog = 128;
        int64_t stop_wait_ms = 5000;
    };
    using Serve = std::function<void(int fd, const Peer& peer, int stop_fd)>;
    using Refuse = std::function<void(int fd)>;

    ConnectionAcceptor(Options options, Serve serve, Refuse refuse = {});
    ~ConnectionAcceptor();  // stop()
    ConnectionAcceptor(const ConnectionAcceptor&) = delete;
    ConnectionAcceptor& operator=(const ConnectionAcceptor&) = delete;

    // Throws std::runtime_error "<setting> <address>: <why>" when it cannot resolve or bind.
    void start(const std::string& address);
    void stop();
    int port() const;     // the bound port; 0 before start
    int stop_fd() const;  // -1 before start

private:
    struct Impl;
    std::shared_ptr<Impl> impl_;
};

}  // namespace platform::host
