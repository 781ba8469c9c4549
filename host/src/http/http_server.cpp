#include <fcntl.h>
#include <pistache/endpoint.h>
#include <pistache/http.h>
#include <pistache/peer.h>
#include <poll.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <deque>
#include <mutex>
#include <optional>
#include <platform/host/core/metrics.hpp>
#include <platform/host/core/rate_limiter.hpp>
#include <platform/host/core/settings.hpp>
#include <platform/host/core/status.hpp>
#include <platform/host/http/access_log.hpp>
#include <platform/host/http/http_bodies.hpp>
#include <platform/host/http/http_cors.hpp>
#include <platform/host/http/http_framing.hpp>
#include <platform/host/http/http_server.hpp>
#include <platform/host/http/tls_listener.hpp>
#include <platform/host/http/trace_context.hpp>
#include <shared_mutex>
#include <sstream>
#include <thread>
#include <vector>

#include "http_wire.hpp"

namespace platform::host {

using namespace Pistache;
using nlohmann::json;
using SteadyClock = std::chrono::steady_clock;

namespace {

using wire::error_response;
using wire::parse_framed;
using wire::reason;
using wire::trim;
using wire::wire_bytes;

constexpr const char* kConnectionData = "platform.connection";
constexpr size_t kMaxPipelined = 64;  // requests read ahead on one connection
// An answer goes to Pistache in pieces of at most this, one after the other: its write loop copies
// what is left of a buffer at every partial send, so a 500 KB answer to a slow reader kept an I/O
// thread copying (tests/integration/slow_clients_test.cpp).
constexpr size_t kWriteChunk = 64 * 1024;

// ----------------------------------------------------------------------------------------------
// Server-wide state shared by both ports, every handler clone and every pending answer.
struct ServerState {
    std::atomic<bool> draining{false};
    std::shared_mutex stop_lock;  // writers hold it shared; stop() takes it to set `stopped`
    bool stopped = false;
    std::atomic<int64_t> in_flight{0};
    std::atomic<int64_t> connections{0};
    Metrics* metrics = nullptr;  // the runtime's
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
    std::shared_ptr<RateLimiter> limiter;    // nullptr = off
    std::shared_ptr<spdlog::logger> access;  // nullptr = no access log
    std::string tls_secret;  // TLS on: every connection starts with the terminator's preface
};

// A request read from a connection, waiting for its turn.
struct Pending {
    HttpRequest req;
    Http::Version version = Http::Version::Http11;
    bool close = false;
    int error_status = 0;  // the framing refused it: answer this, then close
    std::string error_detail;
    SteadyClock::time_point arrived;
    InFlightToken token;
};

// One client connection (stored on the Pistache peer; dies with it).
struct Connection {
    std::shared_ptr<PortState> port;
    std::weak_ptr<Tcp::Peer> peer;
    Tcp::Transport* transport = nullptr;
    Http::Handler* handler = nullptr;
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

    Connection(std::shared_ptr<PortState> p, const std::shared_ptr<Tcp::Peer>& pe)
        : port(std::move(p)), peer(pe), remote(pe->address().host()) {
        port->server->connections++;
        port->server->metrics->connections_add(1);
    }
    ~Connection() {
        port->server->connections--;
        port->server->metrics->connections_add(-1);
    }
};

void finish(const std::shared_ptr<Connection>& conn, const InFlightToken& token, bool ok,
            bool close);

// One request being answered.
struct Exchange {
    std::shared_ptr<Connection> conn;
    Http::Version version = Http::Version::Http11;
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

void serve(const std::shared_ptr<Connection>& conn, Pending p);

// The answer to `conn`'s current request went out (ok) or could not (!ok): go on with the next
// pipelined request, or close.
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

// Counts the answer and writes its access-log line.
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
    a.trace_id = trace_id_of(ex.traceparent);
    a.port = port.name;
    port.access->info(access_log_line(a));
}

// The headers every answer gets: CORS, X-Request-Id, traceparent (each unless already set).
void common_headers(const Exchange& ex, HeaderList& headers) {
    const CorsSettings& cors = ex.conn->port->settings.cors;
    if (cors.enabled) add_cors_headers(headers, ex.origin, cors);
    if (!has_header(headers, "X-Request-Id")) headers.emplace_back("X-Request-Id", ex.request_id);
    if (!has_header(headers, "traceparent")) headers.emplace_back("traceparent", ex.traceparent);
}

// Writes bytes[offset..] to the connection, kWriteChunk at a time (each piece from the previous
// one's callback, on the transport thread), then finishes the exchange. Each piece goes to the
// peer's transport as one buffer (Peer::send): Pistache 0.0.5's ResponseWriter chains promises
// whose continuations run unlocked on the transport thread while the worker thread that has the
// answer attaches its own, which crashed the host under load (tests/reliability/soak.sh); a plain
// write promise locks both.
void write_from(const std::shared_ptr<Connection>& conn,
                const std::shared_ptr<const std::string>& bytes, size_t offset,
                const InFlightToken& token, bool close) {
    ServerState& server = *conn->port->server;
    const size_t n = std::min(kWriteChunk, bytes->size() - offset);
    std::optional<Async::Promise<ssize_t>> sent;
    {
        std::shared_lock<std::shared_mutex> alive(
            server.stop_lock);  // the transport outlives the send
        auto peer = conn->peer.lock();
        if (!server.stopped && peer) {
            try {
                sent.emplace(peer->send(RawBuffer(bytes->substr(offset, n), n)));
            } catch (const std::exception& e) {
                spdlog::debug("response not delivered: {}", e.what());
            }
        }
    }
    if (!sent) return finish(conn, token, false, true);
    // Pistache drops these callbacks unrun when the connection goes away mid-write; the token
    // they hold then uncounts the request.
    sent->then(
        [conn, bytes, next = offset + n, token, close](ssize_t) {
            if (next < bytes->size())
                write_from(conn, bytes, next, token, close);
            else
                finish(conn, token, true, close);
        },
        [conn, token](std::exception_ptr&) { finish(conn, token, false, true); });
}

// Writes the answer; the next request waits until it was written.
void respond(const std::shared_ptr<Exchange>& ex, HttpResponse r) {
    if (ex->answered.exchange(true)) return;
    const auto& conn = ex->conn;
    const bool close = ex->close || conn->port->server->draining;
    common_headers(*ex, r.headers);
    if (ex->method == "HEAD") r.body.clear();
    record(*ex, r.status, r.body.size());
    write_from(conn, std::make_shared<const std::string>(wire_bytes(ex->version, r, close)), 0,
               ex->token, close);
}

// A chunked response written straight to the connection's socket. Pistache 0.0.5's transport
// aborts ("could not find write data") when several writes for one connection are queued from
// another thread, as a stream's chunks are; so a stream bypasses it: status line, headers and
// chunks go out with send(2) under this object's lock (waiting with poll while the socket is
// full), and Pistache never writes this response. The connection stays Pistache's for the next
// request (dispatched by `done` once the last chunk is out). Not for TLS connections.
// The stream writes to its own duplicate of the socket's descriptor, closed when it ends: Pistache
// closes its descriptor when it drops the connection (its idle check runs during a stream too), and
// the number may at once name another client's new connection. So a stream outlives that drop and
// ends as it should; the connection then closes with it.
class SocketStream : public HttpStream {
public:
    using Done = std::function<void(uint64_t body_bytes, bool ok)>;
    SocketStream(int owned_fd, Done done) : fd_(owned_fd), done_(std::move(done)) {}
    ~SocketStream() override { end(); }
    bool start(const std::string& head) {
        std::lock_guard<std::mutex> g(m_);
        return send_all(head);
    }
    bool write(std::string_view bytes) override {
        if (bytes.empty()) return true;
        char size[32];
        int n = std::snprintf(size, sizeof size, "%zx\r\n", bytes.size());
        std::lock_guard<std::mutex> g(m_);
        if (ended_) return false;
        bool ok = send_all(std::string_view(size, static_cast<size_t>(n))) && send_all(bytes) &&
                  send_all("\r\n");
        if (ok) body_bytes_ += bytes.size();
        return ok;
    }
    void end() override {
        Done done;
        uint64_t bytes = 0;
        bool ok = false;
        {
            std::lock_guard<std::mutex> g(m_);
            if (ended_) return;
            ended_ = true;
            if (!closed_) send_all("0\r\n\r\n");
            ok = !closed_;
            bytes = body_bytes_;
            done = std::move(done_);
        }
        if (done) done(bytes, ok);
        ::close(fd_);
    }

private:
    bool send_all(std::string_view bytes) {
        while (!closed_ && !bytes.empty()) {
            ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
            if (n > 0) {
                bytes.remove_prefix(static_cast<size_t>(n));
            } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
                pollfd p{fd_, POLLOUT, 0};
                if (::poll(&p, 1, 30000) <= 0 || (p.revents & (POLLERR | POLLHUP))) closed_ = true;
            } else {
                closed_ = true;  // the client went away
            }
        }
        return !closed_;
    }
    std::mutex m_;
    int fd_;
    Done done_;
    uint64_t body_bytes_ = 0;
    bool closed_ = false, ended_ = false;
};

OpenStream stream_opener(const std::shared_ptr<Exchange>& ex) {
    return [ex](int status, const std::string& type,
                const HeaderList& extra) -> std::shared_ptr<HttpStream> {
        const auto& conn = ex->conn;
        ServerState& server = *conn->port->server;
        std::shared_lock<std::shared_mutex> alive(server.stop_lock);
        if (server.stopped || ex->answered) return nullptr;
        auto peer = conn->peer.lock();
        if (!peer || peer->ssl()) return nullptr;  // the gateway then answers through `reply`
        const int fd = ::fcntl(peer->fd(), F_DUPFD_CLOEXEC, 0);
        if (fd < 0) return nullptr;
        if (ex->answered.exchange(true)) {
            ::close(fd);
            return nullptr;
        }
        const bool close = ex->close || server.draining;
        HeaderList headers = extra;
        common_headers(*ex, headers);
        std::string head =
            "HTTP/1.1 " + std::to_string(status) + " " + reason(status) +
            "\r\nContent-Type: " + type +
            "\r\nTransfer-Encoding: chunked\r\nConnection: " + (close ? "Close" : "Keep-Alive") +
            "\r\n";
        for (auto& [k, v] : headers) head += k + ": " + v + "\r\n";
        head += "\r\n";
        auto stream =
            std::make_shared<SocketStream>(fd, [ex, status, close](uint64_t bytes, bool ok) {
                record(*ex, status, bytes);
                finish(ex->conn, ex->token, ok, close);
            });
        if (!stream->start(head)) {
            stream->end();
            return nullptr;
        }
        return stream;
    };
}

// GET /health: ready when every provider the profile names is up and every plugin it lists serves.
HttpResponse health(const PortState& port) {
    const Runtime& rt = *port.runtime;
    json providers = json::object();
    bool ready = true;
    for (const auto& [kind, choice] : rt.profile().providers) {
        Plugin* p = rt.provider(kind);
        const bool up = p && p->instance;
        ready = ready && up;
        providers[kind] = {{"plugin", choice.plugin}, {"up", up}};
    }
    size_t loaded = rt.plugins().size(), serving = 0;
    json missing = json::array();
    for (const auto& p : rt.plugins())
        if (p->instance && p->kind == PLATFORM_KIND_SERVICE) ++serving;
    if (!rt.profile().all_plugins)
        for (const auto& id : rt.profile().plugins) {
            bool up = false;
            for (const auto& p : rt.plugins()) up = up || (p->id == id && p->instance);
            if (!up) missing.push_back(id);
        }
    ready = ready && missing.empty();
    const bool draining = port.server->draining;
    HttpResponse r;
    r.status = draining || !ready ? 503 : 200;
    json body{{"status", draining ? "draining"
                         : ready  ? "ok"
                                  : "unavailable"},
              {"plugins", {{"loaded", loaded}, {"serving", serving}}},
              {"providers", providers}};
    if (!missing.empty()) body["missing"] = missing;
    r.body = body.dump();
    return r;
}

// Answers one request: limits, drain, rate limit, CORS, /metrics and /health, then the gateway.
void serve(const std::shared_ptr<Connection>& conn, Pending p) {
    const PortState& port = *conn->port;
    auto ex = std::make_shared<Exchange>();
    ex->conn = conn;
    ex->version = p.version;
    ex->close = p.close;
    ex->start = p.arrived;
    ex->token = std::move(p.token);
    HttpRequest& req = p.req;
    req.remote = conn->remote;
    req.tls = conn->tls;
    // Plugins see the same as call metadata `platform-tls: true`; set only by the server, never
    // taken from the client.
    req.headers.erase("platform-tls");
    if (conn->tls) req.headers["platform-tls"] = "true";
    ex->method = req.method;
    ex->path = req.path;
    ex->request_id = request_id_for(req.header("x-request-id"));
    req.headers["x-request-id"] = ex->request_id;
    std::string tp = trim(req.header("traceparent"));
    if (!valid_traceparent(tp)) {
        tp = new_traceparent();
        req.headers.erase("tracestate");  // it belongs to the trace we did not accept
    }
    req.headers["traceparent"] = tp;
    ex->traceparent = tp;
    ex->origin = req.header("origin");
    ex->user_agent = req.header("user-agent");
    const std::string& ns = port.runtime->settings().ns;

    if (p.error_status) return respond(ex, error_response(ns, p.error_status, p.error_detail));
    if (conn->refused) {
        ex->close = true;
        return respond(ex, error_response(ns, 503,
                                          "too many connections (http.max_connections is " +
                                              std::to_string(port.settings.max_connections) + ")"));
    }
    if (port.server->draining) {
        ex->close = true;
        auto r = error_response(ns, 503, "the server is shutting down");
        r.headers.emplace_back("Retry-After", "1");
        return respond(ex, r);
    }
    const bool monitoring = port.api && (req.path == "/health" || req.path == "/metrics");
    if (port.limiter && !monitoring) {
        auto d = port.limiter->check(conn->remote);
        if (!d.allowed) {
            port.server->metrics->rate_limited();
            auto r =
                error_response(ns, 429,
                               "rate limit exceeded for " + conn->remote + ": " +
                                   std::to_string(port.settings.rate_limit.requests_per_second) +
                                   " requests per second; retry after " +
                                   std::to_string(d.retry_after_seconds) + " s");
            r.headers.emplace_back("Retry-After", std::to_string(d.retry_after_seconds));
            return respond(ex, r);
        }
    }
    if (port.settings.cors.enabled && req.method == "OPTIONS") {
        HttpResponse r;
        r.content_type.clear();
        return respond(ex, r);
    }
    if (port.api && req.path == "/metrics") {
        if (req.method != "GET" && req.method != "HEAD") {
            auto r = error_response(
                ns, 405,
                "GET /metrics answers the Prometheus metrics; " + req.method + " is not allowed");
            r.headers.emplace_back("Allow", "GET");
            return respond(ex, r);
        }
        HttpResponse r;
        r.content_type = "text/plain; version=0.0.4; charset=utf-8";
        r.body = port.server->metrics->exposition();
        return respond(ex, r);
    }
    if (port.api && req.path == "/health") {
        if (req.method != "GET" && req.method != "HEAD") {
            auto r = error_response(
                ns, 405, "GET /health answers readiness; " + req.method + " is not allowed");
            r.headers.emplace_back("Allow", "GET");
            return respond(ex, r);
        }
        return respond(ex, health(port));
    }
    try {
        port.gateway->handle(
            std::move(req), [ex](HttpResponse r) { respond(ex, std::move(r)); }, stream_opener(ex));
    } catch (const std::exception& e) {
        spdlog::error("gateway failed on {} {}: {}", ex->method, ex->path, e.what());
        respond(ex, error_response(ns, 500, "internal error"));
    }
}

// ----------------------------------------------------------------------------------------------
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
        // What Pistache's own onConnection does, plus this connection's state.
        peer->putData(ParserData, std::make_shared<Http::RequestParser>(getMaxRequestSize()));
        auto conn = std::make_shared<Connection>(port_, peer);
        conn->transport = transport();
        conn->handler = this;
        conn->refused =
            port_->server->connections > static_cast<int64_t>(port_->settings.max_connections);
        conn->preface_pending = !port_->tls_secret.empty();
        peer->putData(kConnectionData, conn);
    }

    void onInput(const char* buffer, size_t len, const std::shared_ptr<Tcp::Peer>& peer) override {
        auto conn = std::static_pointer_cast<Connection>(peer->tryGetData(kConnectionData));
        if (!conn) return;
        std::unique_lock<std::mutex> lock(conn->m);
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
        auto parser = getParser(peer);
        read_requests(*conn, *parser);
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
            parser->reset();  // a request started: the header timeout counts from now
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

    // Frames every whole request in the connection's buffer, parses each with Pistache's parser
    // (exactly its bytes, so nothing is lost on reset) and queues it. Called with conn.m held.
    void read_requests(Connection& conn, Http::RequestParser& parser) {
        const PortState& port = *conn.port;
        while (!conn.input_closed) {
            Frame f = frame_request(conn.buffer, port.limits);
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
                ParsedRequest parsed =
                    parse_framed(parser, std::string_view(conn.buffer).substr(0, f.length), f,
                                 getMaxRequestSize());
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

// ----------------------------------------------------------------------------------------------
struct HttpServer::Impl {
    Runtime& runtime;
    HttpSettings settings;
    Gateway api_gateway, proxy_gateway;
    std::shared_ptr<ServerState> server = std::make_shared<ServerState>();
    std::shared_ptr<RateLimiter> limiter;
    std::shared_ptr<spdlog::logger> access;
    std::unique_ptr<Http::Endpoint> api, proxy;
    std::unique_ptr<TlsListener> tls;  // TLS on: serves the api address in front of `api`

    Impl(Runtime& r, const std::shared_ptr<const HttpChallenges>& challenges)
        : runtime(r),
          settings(r.profile().http),
          api_gateway(r, Gateway::Role::api, platform_version(), challenges),
          proxy_gateway(r, Gateway::Role::proxy, platform_version(), challenges) {
        server->metrics = &r.metrics();
        if (settings.max_request_bytes == 0)
            settings.max_request_bytes = runtime.max_body() + 64 * 1024;
        if (settings.rate_limit.enabled())
            limiter = std::make_shared<RateLimiter>(settings.rate_limit.requests_per_second,
                                                    settings.rate_limit.burst);
        if (settings.access_log) {
            access = spdlog::get("access");
            if (!access) {
                access = spdlog::stderr_color_mt("access");
                access->set_pattern("%v");
                access->set_level(spdlog::level::info);
            }
        }
    }

    std::unique_ptr<Http::Endpoint> listen(const std::string& address, Gateway* gw, bool is_api,
                                           const std::string& tls_secret = "") {
        auto port = std::make_shared<PortState>();
        port->runtime = &runtime;
        port->gateway = gw;
        port->api = is_api;
        port->name = is_api ? "api" : "proxy";
        port->settings = settings;
        port->limits = FrameLimits{settings.max_request_bytes, settings.max_header_count,
                                   settings.max_header_bytes};
        port->server = server;
        port->limiter = limiter;
        port->access = access;
        port->tls_secret = tls_secret;

        auto [host, portno] = split_address(address);
        auto ep =
            std::make_unique<Http::Endpoint>(Address(host, Port(static_cast<uint16_t>(portno))));
        // The whole request must arrive within header_timeout_ms: Pistache's checker sees our
        // parser between requests, where it applies min(header, body) timeouts.
        const std::chrono::milliseconds request_timeout(settings.header_timeout_ms);
        auto opts = Http::Endpoint::options()
                        .threads(2)
                        .flags(Tcp::Options::ReuseAddr | Tcp::Options::NoDelay)
                        .backlog(1024)
                        .maxRequestSize(settings.max_request_bytes)
                        .headerTimeout(request_timeout)
                        .bodyTimeout(request_timeout)
                        .keepaliveTimeout(std::chrono::milliseconds(settings.idle_timeout_ms));
        ep->init(opts);
        ep->setHandler(std::make_shared<Handler>(port));
        ep->serveThreaded();
        return ep;
    }
};

HttpServer::HttpServer(Runtime& runtime, std::shared_ptr<const HttpChallenges> challenges)
    : impl_(std::make_unique<Impl>(runtime, challenges)) {}

HttpServer::~HttpServer() {
    stop();
}

namespace {

// Runs `open` (binding `address`); a failure names the address and the setting that chose it, and
// for a port in use says what to do.
template <class F>
auto bound(const char* which, const std::string& address, const char* setting, const char* flag,
           F&& open) {
    try {
        return open();
    } catch (const std::exception& e) {
        std::string why = e.what();
        if (why.find("in use") != std::string::npos)
            why =
                "address already in use (another process, perhaps another `platform server`, "
                "listens there: stop it or choose another address)";
        throw std::runtime_error(std::string(which) + " address " + address + " (" + setting +
                                 ", or `platform server " + flag + "`): cannot listen: " + why);
    }
}

}  // namespace

void HttpServer::start(const std::string& api_address, const std::string& proxy_address,
                       const std::optional<TlsCertificate>& tls) {
    if (!tls) {
        impl_->api = bound("api", api_address, "PLATFORM_API_ADDRESS", "--api_address",
                           [&] { return impl_->listen(api_address, &impl_->api_gateway, true); });
    } else {
        // The api endpoint only takes the TLS listener's connections, on loopback (decision 18).
        TlsListener::Options o;
        o.secret = TlsListener::new_secret();
        o.max_connections = impl_->settings.max_connections;
        o.handshake_timeout_ms = impl_->settings.header_timeout_ms;
        impl_->api = impl_->listen(o.backend_host + ":0", &impl_->api_gateway, true, o.secret);
        o.backend_port = static_cast<uint16_t>(impl_->api->getPort());
        impl_->tls = std::make_unique<TlsListener>(o);
        bound("api", api_address, "PLATFORM_API_ADDRESS", "--api_address", [&] {
            impl_->tls->start(api_address, *tls);
            return 0;
        });
    }
    impl_->proxy = bound("proxy", proxy_address, "PLATFORM_PROXY_ADDRESS", "--proxy_address", [&] {
        return impl_->listen(proxy_address, &impl_->proxy_gateway, false);
    });
}

void HttpServer::begin_drain() {
    impl_->server->draining = true;
    impl_->api_gateway.begin_drain();  // open-ended streams (MCP sessions') end now
}

int64_t HttpServer::in_flight() const {
    return impl_->server->in_flight;
}

void HttpServer::stop() {
    {
        std::unique_lock<std::shared_mutex> g(impl_->server->stop_lock);
        impl_->server->stopped = true;
    }
    if (impl_->tls) impl_->tls->stop();  // no new TLS connections; open ones close
    std::thread other;
    if (impl_->proxy) other = std::thread([this] { impl_->proxy->shutdown(); });
    if (impl_->api) impl_->api->shutdown();
    if (other.joinable()) other.join();
    impl_->api.reset();
    impl_->proxy.reset();
}

int HttpServer::api_port() const {
    return impl_->tls ? impl_->tls->port() : internal_api_port();
}
int HttpServer::internal_api_port() const {
    return impl_->api ? static_cast<uint16_t>(impl_->api->getPort()) : 0;
}
TlsListener* HttpServer::tls() const {
    return impl_->tls.get();
}
int HttpServer::proxy_port() const {
    return impl_->proxy ? static_cast<uint16_t>(impl_->proxy->getPort()) : 0;
}
const HttpSettings& HttpServer::settings() const {
    return impl_->settings;
}

}  // namespace platform::host
