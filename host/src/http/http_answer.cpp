#include <spdlog/spdlog.h>

#include <algorithm>
#include <optional>
#include <platform/host/http/access_log.hpp>
#include <platform/host/http/http_cors.hpp>
#include <platform/host/http/trace_context.hpp>

#include "http_connection.hpp"
#include "http_wire.hpp"

namespace platform::host::front {

using namespace Pistache;

namespace {

using wire::wire_bytes;

// An answer goes to Pistache in pieces of at most this, one after the other: its write loop copies
// what is left of a buffer at every partial send, so a 500 KB answer to a slow reader kept an I/O
// thread copying (tests/integration/slow_clients_test.cpp).
constexpr size_t kWriteChunk = 64 * 1024;

void write_from(const std::shared_ptr<Connection>& conn,
                const std::shared_ptr<const std::string>& bytes, size_t offset,
                const InFlightToken& token, bool close);

// Sends `piece` to the connection as one buffer (Peer::send), then goes on with bytes[next..]
// (nothing more when `bytes` is null), or finishes the exchange. Pistache 0.0.5's ResponseWriter
// chains promises whose continuations run unlocked on the transport thread while the worker
// thread that has the answer attaches its own, which crashed the host under load
// (tests/reliability/soak.sh); a plain write promise locks both.
void send_piece(const std::shared_ptr<Connection>& conn, std::string piece,
                std::shared_ptr<const std::string> bytes, size_t next, const InFlightToken& token,
                bool close) {
    ServerState& server = *conn->port->server;
    const size_t n = piece.size();
    std::optional<Async::Promise<ssize_t>> sent;
    {
        const StopGate::Pass alive(server.stop_gate);  // the transport outlives the send
        auto peer = conn->peer.lock();
        if (alive.open() && peer) {
            try {
                sent.emplace(peer->send(RawBuffer(std::move(piece), n)));
            } catch (const std::exception& e) {
                spdlog::debug("response not delivered: {}", e.what());
            }
        }
    }
    if (!sent) return finish(conn, token, false, true);
    // Pistache drops these callbacks unrun when the connection goes away mid-write; the token
    // they hold then uncounts the request.
    sent->then(
        [conn, bytes = std::move(bytes), next, token, close](ssize_t) {
            if (bytes && next < bytes->size())
                write_from(conn, bytes, next, token, close);
            else
                finish(conn, token, true, close);
        },
        [conn, token](std::exception_ptr&) { finish(conn, token, false, true); });
}

// Writes bytes[offset..] to the connection, kWriteChunk at a time (each piece from the previous
// one's callback, on the transport thread), then finishes the exchange.
void write_from(const std::shared_ptr<Connection>& conn,
                const std::shared_ptr<const std::string>& bytes, size_t offset,
                const InFlightToken& token, bool close) {
    const size_t n = std::min(kWriteChunk, bytes->size() - offset);
    send_piece(conn, bytes->substr(offset, n), bytes, offset + n, token, close);
}

}  // namespace

void record(const Exchange& ex, int status, uint64_t bytes) {
    const double seconds = std::chrono::duration<double>(SteadyClock::now() - ex.start).count();
    ex.conn->port->server->metrics->http_request(ex.method, status, seconds);
    const PortState& port = *ex.conn->port;
    if (!port.access) return;
    AccessRecord a;
    a.time = std::chrono::system_clock::now();
    a.request_id = ex.request_id;
    a.method = ex.method;
    a.path = ex.path;
    a.status = status;
    a.bytes = bytes;
    a.duration_ms = seconds * 1000;
    a.remote = ex.conn->remote;
    a.user_agent = ex.user_agent;
    const std::string_view tp = ex.traceparent;
    if (valid_traceparent(tp)) a.trace_id = tp.substr(3, 32);  // as trace_id_of() reads it
    a.port = port.name;
    port.access->write(a);  // formatted into the thread's buffer of the writer
}

void common_headers(const Exchange& ex, HeaderList& headers) {
    const CorsSettings& cors = ex.conn->port->settings.cors;
    if (cors.enabled) add_cors_headers(headers, ex.origin, cors);
    if (!has_header(headers, "X-Request-Id")) headers.emplace_back("X-Request-Id", ex.request_id);
    if (!has_header(headers, "traceparent")) headers.emplace_back("traceparent", ex.traceparent);
}

void respond(const std::shared_ptr<Exchange>& ex, HttpResponse r) {
    if (ex->answered.exchange(true)) return;
    const auto& conn = ex->conn;
    const bool close = ex->close || conn->port->server->draining;
    common_headers(*ex, r.headers);
    if (ex->method == "HEAD") r.body.clear();
    record(*ex, r.status, r.body.size());
    std::string bytes = wire_bytes(ex->version, r, close);
    if (bytes.size() <= kWriteChunk)  // one piece: the bytes themselves, not a copy
        return send_piece(conn, std::move(bytes), nullptr, 0, ex->token, close);
    write_from(conn, std::make_shared<const std::string>(std::move(bytes)), 0, ex->token, close);
}

}  // namespace platform::host::front
