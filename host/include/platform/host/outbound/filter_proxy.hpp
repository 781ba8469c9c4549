// platform/host/outbound/filter_proxy.hpp — a small HTTP proxy on 127.0.0.1 that applies the
// outbound client's per-hop decision (host/src/outbound/hop_guard.hpp, as for a user URL) to
// every request a program sends through it. The `browser` plugin starts headless Chromium with
// --proxy-server at it, so every navigation and sub-request of a page is decided here.
//
//   - CONNECT host:port (https, wss): decided, then a TCP tunnel to the checked address (the
//     pinned one when the name was resolved, so DNS rebinding cannot swap it).
//   - METHOD http://host[:port]/path (plain HTTP): decided, then sent on to the checked address in
//     origin form with `Connection: close` and without the Proxy-* headers; the answer is relayed
//     as it comes. One request per connection.
//   - A refusal answers 403, a name that does not resolve or an address that does not answer 502,
//     a request the proxy does not take (https:// in absolute form, a malformed line) 400, all
//     with the reason in the body and in the header X-Platform-Proxy.
// Bounded: at most `max_connections` at a time (more answer 503), a request head of at most
// `max_head_bytes` read within `head_timeout_ms`, a connect timeout, and a connection closed
// after `idle_timeout_ms` without a byte either way. Thread-safe; one thread per connection.
#pragma once

#include <atomic>
#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <platform/host/outbound/outbound.hpp>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace platform::host {

// What the proxy does with one request head (the bytes up to and including the blank line).
struct ProxyVerdict {
    int status = 0;                 // 0: go ahead; else the answer's status (400, 403, 502)
    std::string reason;             // why, when status != 0
    bool tunnel = false;            // CONNECT
    std::string host;               // the hop's host (normalised; IPv6 without brackets)
    int port = 0;                   //
    bool ip = false;                // host is an IP address
    std::vector<std::string> pins;  // the checked addresses ("1.2.3.4", "[::1]"); empty:
                                    // connect to `host` (an IP literal, or a trusted name)
    std::string head;               // plain HTTP: the head to send upstream
};

// Decides one request head against `s` (the outbound client's decision for a user URL).
// Resolves names (blocking).
ProxyVerdict proxy_verdict(std::string_view head, const OutboundSettings& s);

struct FilterProxyLimits {
    int max_connections = 32;
    size_t max_head_bytes = 16 * 1024;
    int head_timeout_ms = 10000;
    int connect_timeout_ms = 10000;
    int idle_timeout_ms = 30000;
};

class FilterProxy {
public:
    // Listens on 127.0.0.1, an ephemeral port, and serves; throws std::runtime_error when it
    // cannot listen.
    explicit FilterProxy(OutboundSettings s, FilterProxyLimits limits = {});
    // Stops listening, ends every connection and joins their threads.
    ~FilterProxy();
    FilterProxy(const FilterProxy&) = delete;
    FilterProxy& operator=(const FilterProxy&) = delete;

    int port() const { return port_; }
    std::string address() const { return "127.0.0.1:" + std::to_string(port_); }

private:
    struct Connection {
        std::thread thread;
        std::atomic<bool> done{false};
    };
    void accept_loop();
    void serve(int client);

    OutboundSettings settings_;
    FilterProxyLimits limits_;
    int listener_ = -1;
    int port_ = 0;
    std::atomic<bool> stop_{false};
    std::atomic<int> active_{0};
    std::mutex m_;
    std::list<std::unique_ptr<Connection>> connections_;
    std::thread acceptor_;
};

// The process's proxy for the browser plugin (config `platform.browser_proxy`): started on the
// first call with the outbound settings `s` and kept until the process exits. Answers
// "127.0.0.1:<port>", or "" when it could not listen.
std::string browser_proxy_address(const OutboundSettings& s);

}  // namespace platform::host
