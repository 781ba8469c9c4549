// http_connection.hpp — private to host/src/http: the state HttpServer's pieces share, from a
// connection's bytes to its answers (http_server.hpp describes the behaviour).
//
// One request's way through the files:
//   http_connection.cpp  the Pistache handler: reads a connection's bytes, frames them into
//                        Pending requests, queues them, and dispatches the next one (finish) once
//                        the previous answer was written: pipelining in order.
//   http_server.cpp      the front (serve): request id, traceparent, the limits, drain, rate
//                        limit, CORS, /metrics, /health; then the gateway.
//   http_answer.cpp      writes an answer (respond): the common headers, the access log and the
//                        metrics, the bytes in pieces through Pistache, then finish.
//   http_stream.cpp      a streamed (chunked, SSE) answer written past Pistache (stream_opener).
//   http_websocket.cpp   a WebSocket session taking the connection over after its 101.
//   http_relay.cpp       a byte relay to an upstream taking the connection over after its 101.
//   http_endpoints.cpp   HttpServer itself: the two Pistache endpoints, start, drain, stop.
//
// Ownership: a PortState is shared by its endpoint's handler and every Connection on it; a
// Connection lives on the Pistache peer (and in every Exchange of it); an Exchange lives while
// someone may still answer it (the gateway's reply, a stream). ServerState is shared by both ports.
// Threads: a Connection's buffer, queue and flags are under its mutex `m`; everything else in it is
// set once when the connection opens. Answers come from any thread.
#pragma once

#include <pistache/http.h>
#include <pistache/peer.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <platform/host/core/http_settings.hpp>
#include <platform/host/core/metrics.hpp>
#include <platform/host/core/rate_limiter.hpp>
#include <platform/host/core/runtime.hpp>
#include <platform/host/http/access_log_writer.hpp>
#include <platform/host/http/gateway.hpp>
#include <platform/host/http/http_cors.hpp>
#include <platform/host/http/http_framing.hpp>
#include <platform/host/http/stop_gate.hpp>
#include <shared_mutex>
#include <string>

namespace platform::host::front {

using SteadyClock = std::chrono::steady_clock;

// Server-wide state shared by both ports, every handler clone and every pending answer.
struct ServerState {
    std::atomic<bool> draining{false};
    StopGate stop_gate;  // writers hold a pass; stop() closes it
    std::atomic<int64_t> in_flight{0};
    std::atomic<int64_t> connections{0};
    Metrics* metrics = nullptr;  // the runtime's
    // Open WebSocket sessions (http_websocket.cpp), closed by the drain and waited for by stop.
    std::mutex websockets_m;
    std::condition_variable websockets_cv;
    std::vector<std::weak_ptr<WebSocket>> websockets;
    int64_t websocket_threads = 0;
    void in_flight_add(int64_t d) {
        in_flight += d;
        metrics->in_flight_add(d);
    }
};

// One request read and not yet answered, counted while this lives (or until release()): the
// drain waits for these. Held by the queued request, then by its exchange and the write's
// callbacks, so a request is uncounted however it ends (written, failed, connection gone).
class InFlight {
public:
    explicit InFlight(std::shared_ptr<ServerState> s) : server_(std::move(s)) {
        server_->in_flight_add(1);
    }
    ~InFlight() { release(); }
    InFlight(const InFlight&) = delete;
    InFlight& operator=(const InFlight&) = delete;
    void release() {
        if (!released_.exchange(true)) server_->in_flight_add(-1);
    }

private:
    std::shared_ptr<ServerState> server_;
    std::atomic<bool> released_{false};
};
using InFlightToken = std::shared_ptr<InFlight>;

// One port's configuration.
struct PortState {
    Runtime* runtime = nullptr;
    Gateway* gateway = nullptr;
    bool api = true;   // api port: /metrics and /health are answered here
    std::string name;  // "api" | "proxy" (access log)
    HttpSettings settings;
    FrameLimits limits;
    std::shared_ptr<ServerState> server;
    std::shared_ptr<RateLimiter> limiter;     // nullptr = off
    std::shared_ptr<AccessLogWriter> access;  // nullptr = no access log
    std::string tls_secret;  // TLS on: every connection starts with the terminator's preface
};

// A request read from a connection, waiting for its turn.
struct Pending {
    HttpRequest req;
    Pistache::Http::Version version = Pistache::Http::Version::Http11;
    bool close = false;
    int error_status = 0;  // the framing refused it: answer this, then close
    std::string error_detail;
    SteadyClock::time_point arrived;
    InFlightToken token;
};

// Lives on a Pistache peer (its data) and runs `on_release` when Pistache lets the peer go: it
// then reads and writes the socket no more (a WebSocket session starts reading it itself).
struct PeerLife {
    std::mutex m;
    std::function<void()> on_release;
    ~PeerLife() {
        std::function<void()> f;
        {
            std::lock_guard<std::mutex> g(m);
            f = std::move(on_release);
        }
        if (f) f();
    }
};

// One client connection (stored on the Pistache peer; dies with it).
struct Connection {
    std::shared_ptr<PortState> port;
    std::weak_ptr<Pistache::Tcp::Peer> peer;
    Pistache::Tcp::Transport* transport = nullptr;
    Pistache::Http::Handler* handler = nullptr;
    std::string remote;    // the client's address (with TLS: as the terminator's preface says)
    bool refused = false;  // over max_connections
    bool preface_pending = false;  // TLS on: the terminator's preface line is still to be read
    bool tls = false;              // the client spoke TLS to the terminator

    std::mutex m;
    std::string buffer;         // bytes not yet framed
    std::deque<Pending> queue;  // requests read, not yet dispatched
    bool busy = false;          // a request is being answered
    bool input_closed = false;  // no further request is read (error, Connection: close)
    bool closed = false;
    // Set once a WebSocket session took the connection over: what Pistache still reads goes to it.
    std::function<void(std::string_view)> upgraded;
    std::weak_ptr<PeerLife> peer_life;

    Connection(std::shared_ptr<PortState> p, const std::shared_ptr<Pistache::Tcp::Peer>& pe)
        : port(std::move(p)), peer(pe), remote(pe->address().host()) {
        port->server->connections++;
        port->server->metrics->connections_add(1);
    }
    ~Connection() {
        port->server->connections--;
        port->server->metrics->connections_add(-1);
    }
};

// The answer to `conn`'s current request went out (ok) or could not (!ok): go on with the next
// pipelined request, or close (http_connection.cpp).
void finish(const std::shared_ptr<Connection>& conn, const InFlightToken& token, bool ok,
            bool close);

// One request being answered.
struct Exchange {
    std::shared_ptr<Connection> conn;
    Pistache::Http::Version version = Pistache::Http::Version::Http11;
    bool close = false;
    std::string method, path, request_id, traceparent, origin, user_agent;
    SteadyClock::time_point start;
    InFlightToken token;
    std::atomic<bool> answered{false};
    // Dropped without an answer (a gateway path that never replied): close the connection
    // rather than leave it waiting forever.
    ~Exchange() {
        if (!answered) finish(conn, token, false, true);
    }
};

// The Pistache handler of one port: frames, queues and dispatches its connections' requests
// (http_connection.cpp).
std::shared_ptr<Pistache::Http::Handler> connection_handler(std::shared_ptr<PortState> port);

// Answers one request: the front's checks, then the gateway (http_server.cpp).
void serve(const std::shared_ptr<Connection>& conn, Pending p);

// Writes the answer once (a second answer to the same exchange is dropped); the connection's next
// request waits until it was written (http_answer.cpp).
void respond(const std::shared_ptr<Exchange>& ex, HttpResponse r);
// The headers every answer gets: CORS, X-Request-Id, traceparent (each unless already set).
void common_headers(const Exchange& ex, HeaderList& headers);
// Counts the answer and writes its access-log line.
void record(const Exchange& ex, int status, uint64_t bytes);

// What the gateway calls to stream its answer to `ex` (http_stream.cpp); it gives nullptr when the
// answer cannot be streamed (already answered, connection gone, server stopped): the gateway then
// answers through its reply.
OpenStream stream_opener(const std::shared_ptr<Exchange>& ex);

// What the gateway calls to turn `ex`'s connection into a WebSocket session (http_websocket.cpp):
// the 101 goes out on a duplicate of the socket, Pistache's further reads are handed to the
// session until Pistache lets the peer go, and then the session reads the socket itself.
OpenWebSocket websocket_opener(const std::shared_ptr<Exchange>& ex);
// What the gateway calls to relay `ex`'s connection to an upstream after its 101 (http_relay.cpp),
// taken over as websocket_opener does; relays count with the WebSocket sessions for the drain.
RelayConnection relay_opener(const std::shared_ptr<Exchange>& ex);
// Sends every open session a close with `code` and `reason` (the drain: 1001).
void close_websockets(ServerState& server, uint16_t code, const std::string& reason);
// Closes the open sessions and waits (up to `timeout`) until their threads have ended.
void end_websockets(ServerState& server, std::chrono::milliseconds timeout);

}  // namespace platform::host::front
