#include "http_connection.hpp"

#include <spdlog/spdlog.h>
#include <sys/socket.h>

#include <platform/host/http/http_framing.hpp>
#include <platform/host/http/http_server.hpp>
#include <platform/host/http/request_parser.hpp>

namespace platform::host::front {

using namespace Pistache;

namespace {

constexpr const char* kConnectionData = "platform.connection";
constexpr const char* kPeerLifeData = "platform.peer_life";
constexpr size_t kMaxPipelined = 64;  // requests read ahead on one connection

// Pistache's handler, cloned per I/O thread: it keeps each connection's state on the peer and
// reads its requests itself (onInput), so pipelined requests are kept and answered in order.
class Handler : public Http::Handler {
public:
    HTTP_PROTOTYPE(Handler)
    explicit Handler(std::shared_ptr<PortState> port) : port_(std::move(port)) {}

    // Requests are framed and dispatched by onInput; Pistache never calls this.
    void onRequest(const Http::Request&, Http::ResponseWriter response) override {
        response.send(Http::Code::Internal_Server_Error, "unexpected request path");
    }

private:
    void onConnection(const std::shared_ptr<Tcp::Peer>& peer) override {
        // What Pistache's own onConnection does, plus this connection's state. The parser is never
        // fed: Pistache's transport reads its reset time for the header timeout (reset below).
        peer->putData(ParserData, std::make_shared<Http::RequestParser>(getMaxRequestSize()));
        auto conn = std::make_shared<Connection>(port_, peer);
        conn->transport = transport();
        conn->handler = this;
        conn->refused =
            port_->server->connections > static_cast<int64_t>(port_->settings.max_connections);
        conn->preface_pending = !port_->tls_secret.empty();
        auto life = std::make_shared<PeerLife>();
        conn->peer_life = life;
        peer->putData(kConnectionData, conn);
        peer->putData(kPeerLifeData, std::move(life));
    }

    void onInput(const char* buffer, size_t len, const std::shared_ptr<Tcp::Peer>& peer) override {
        auto conn = std::static_pointer_cast<Connection>(peer->tryGetData(kConnectionData));
        if (!conn) return;
        std::unique_lock<std::mutex> lock(conn->m);
        if (conn->upgraded) {  // a WebSocket session's now
            auto deliver = conn->upgraded;
            lock.unlock();
            deliver(std::string_view(buffer, len));
            return;
        }
        if (conn->input_closed)
            return;  // after an error or Connection: close, nothing more is read
        const bool was_idle = !conn->busy && conn->queue.empty() && conn->buffer.empty();
        conn->buffer.append(buffer, len);
        if (conn->preface_pending && !read_preface(*conn)) {
            if (!conn->closed) return;  // not all of it yet
            lock.unlock();              // not from the TLS terminator: closed without an answer
            ::shutdown(peer->fd(), SHUT_RDWR);
            return;
        }
        read_requests(*conn);
        if (!conn->busy && !conn->queue.empty()) {
            conn->busy = true;
            Pending next = std::move(conn->queue.front());
            conn->queue.pop_front();
            lock.unlock();
            peer->setIdle(true);  // while it is answered only the idle timeout applies
            serve(conn, std::move(next));
            return;
        }
        if (was_idle && !conn->busy && !conn->buffer.empty()) {
            getParser(peer)->reset();  // a request started: the header timeout counts from now
            peer->setIdle(false);
        }
    }

    // TLS on: the terminator's preface (http_framing.hpp) names the client. False while it is
    // incomplete, or when it is not there (then the connection is marked closed). Called with conn.m held.
    bool read_preface(Connection& conn) {
        const TlsPreface p = parse_tls_preface(conn.buffer, port_->tls_secret);
        if (p.incomplete()) return false;
        if (p.invalid()) {
            spdlog::warn("{}: connection from {} closed: it did not come through the TLS listener",
                         port_->name, conn.remote);
            conn.closed = conn.input_closed = true;
            conn.buffer.clear();
            return false;
        }
        conn.buffer.erase(0, p.length);
        conn.remote = p.client_ip;
        conn.tls = true;
        conn.preface_pending = false;
        return true;
    }

    // Frames every whole request in the connection's buffer, parses each (exactly its bytes:
    // request_parser.hpp) and queues it. Called with conn.m held.
    void read_requests(Connection& conn) {
        const PortState& port = *conn.port;
        thread_local Frame f;  // its strings and field list reused from request to request
        while (!conn.input_closed) {
            frame_request(conn.buffer, port.limits, f);
            if (f.skip) conn.buffer.erase(0, f.skip);
            if (f.incomplete()) return;
            Pending p;
            p.arrived = SteadyClock::now();
            if (f.error()) {
                p.error_status = f.status;
                p.error_detail = f.message;
                p.req.method = f.method;
                p.req.path = f.target.substr(0, f.target.find('?'));
            } else {
                ParsedRequest parsed = parse_framed_request(
                    std::string_view(conn.buffer).substr(0, f.length), f, getMaxRequestSize());
                p.req = std::move(parsed.req);
                p.version = parsed.http10 ? Http::Version::Http10 : Http::Version::Http11;
                p.close = parsed.close;
                p.error_status = parsed.error_status;
                p.error_detail = std::move(parsed.error_detail);
                conn.buffer.erase(0, f.length);
            }
            if (p.error_status) p.close = true;
            if (p.close) {
                conn.input_closed =
                    true;  // requests after a close are not answered (RFC 9112 §9.6)
                conn.buffer.clear();
            }
            p.token = std::make_shared<InFlight>(port.server);
            conn.queue.push_back(std::move(p));
            if (conn.queue.size() >= kMaxPipelined && !conn.input_closed) {
                Pending over;
                over.arrived = SteadyClock::now();
                over.error_status = 503;
                over.error_detail =
                    "more than " + std::to_string(kMaxPipelined) + " pipelined requests waiting";
                over.close = true;
                conn.input_closed = true;
                conn.buffer.clear();
                over.token = std::make_shared<InFlight>(port.server);
                conn.queue.push_back(std::move(over));
            }
        }
    }

    std::shared_ptr<PortState> port_;
};

}  // namespace

std::shared_ptr<Http::Handler> connection_handler(std::shared_ptr<PortState> port) {
    return std::make_shared<Handler>(std::move(port));
}

void finish(const std::shared_ptr<Connection>& conn, const InFlightToken& token, bool ok,
            bool close) {
    if (token) token->release();
    std::unique_lock<std::mutex> lock(conn->m);
    if (!ok || close || conn->closed) {
        const bool first = !conn->closed;
        conn->closed = conn->input_closed = true;
        conn->queue.clear();
        conn->buffer.clear();
        lock.unlock();
        // Close our side once the answer is out; the client's FIN ends the connection, so an
        // unread request byte never turns into a reset that destroys the answer (lingering close).
        if (first)
            if (auto peer = conn->peer.lock()) ::shutdown(peer->fd(), SHUT_WR);
        return;
    }
    if (!conn->queue.empty()) {
        Pending next = std::move(conn->queue.front());
        conn->queue.pop_front();
        lock.unlock();
        serve(conn, std::move(next));
        return;
    }
    conn->busy = false;
}

}  // namespace platform::host::front
