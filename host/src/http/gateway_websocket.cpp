#include <algorithm>
#include <chrono>
#include <mutex>
#include <platform/host/core/status.hpp>
#include <platform/host/http/gateway.hpp>
#include <platform/host/http/http_bodies.hpp>
#include <platform/host/http/http_cors.hpp>
#include <platform/host/http/websocket_frames.hpp>
#include <platform/sdk/text.hpp>

#include "handlers.hpp"
#include "resolve.hpp"

namespace platform::host {

using nlohmann::json;

namespace {

using Clock = std::chrono::steady_clock;
namespace ws = websocket;

// A stream call that ends normally this soon after it started, having sent nothing, is not
// called again: a stream that never waits would otherwise be called in a loop.
constexpr auto kQuickestResume = std::chrono::milliseconds(20);

json error_message(platform_status_t code, const std::string& message) {
    return {{"error", {{"code", status_info(code).name}, {"message", message}}}};
}

// One live stream over a WebSocket: the stream's calls (the first one opens the socket, a normal
// end calls it again from the last cursor when the endpoint declares resume_arg) and the
// client's messages (calls of the endpoint's live_input). Lives while a call or the socket
// holds it.
struct LiveStream : std::enable_shared_from_this<LiveStream> {
    Runtime* runtime = nullptr;
    const Endpoint* input = nullptr;  // live_input's endpoint; null when it declares none
    Invocation base;                  // the caller, the stream endpoint and its own arguments
    OpenWebSocket open;
    std::string key;
    HeaderList headers;
    std::function<void(HttpResponse)> reply;  // the answer while no 101 went out

    std::mutex m;
    std::shared_ptr<WebSocket> socket;
    bool closed = false;  // the socket ended (or could not open)
    json cursor;          // the last forwarded chunk's `cursor`, null when none yet
    bool sent_this_call = false;
    Clock::time_point started;

    void call() {
        Invocation inv = base;
        {
            std::lock_guard<std::mutex> g(m);
            if (closed) return;
            sent_this_call = false;
            started = Clock::now();
            if (!cursor.is_null()) inv.args[inv.endpoint->resume_arg] = cursor;
        }
        auto self = shared_from_this();
        inv.chunk_sink = [self](std::string_view chunk) { return self->chunk(chunk); };
        runtime->dispatch(std::move(inv), [self](Outcome o) { self->ended(std::move(o)); });
    }

    // With m held: the 101 and the session; false when the connection could not be taken over.
    bool open_socket() {
        if (socket) return true;
        std::weak_ptr<LiveStream> weak = weak_from_this();
        WebSocketEvents events;
        events.on_text = [weak](std::string message) {
            if (auto s = weak.lock()) s->message(message);
        };
        events.on_closed = [weak] {
            if (auto s = weak.lock()) {
                std::lock_guard<std::mutex> g(s->m);
                s->closed = true;
            }
        };
        socket = open(key, headers, std::move(events));
        if (!socket) closed = true;
        return socket != nullptr;
    }

    bool chunk(std::string_view bytes) {
        std::lock_guard<std::mutex> g(m);
        if (closed || !open_socket()) return false;
        if (!base.endpoint->resume_arg.empty()) {
            json j = json::parse(bytes, nullptr, false);
            if (j.is_object() && j.contains("cursor")) cursor = j["cursor"];
        }
        sent_this_call = true;
        return socket->send_text(bytes);
    }

    void ended(Outcome o) {
        std::unique_lock<std::mutex> g(m);
        if (closed) return;
        if (!socket && o.code != PLATFORM_OK) {  // nothing went out: the ordinary HTTP answer
            g.unlock();
            return reply(catalogue_outcome(std::move(o), false));
        }
        if (!open_socket()) return;
        if (o.code != PLATFORM_OK) {
            const bool access =
                o.code == PLATFORM_UNAUTHENTICATED || o.code == PLATFORM_PERMISSION_DENIED;
            socket->close(access ? ws::kPolicyViolation : ws::kInternalError, o.body);
            return;
        }
        if (base.endpoint->resume_arg.empty())
            return socket->close(ws::kNormal, "the stream ended");
        if (!sent_this_call && Clock::now() - started < kQuickestResume)
            return socket->close(ws::kInternalError, "the stream ended at once; not resumed");
        g.unlock();
        call();
    }

    // A text message from the client: a call of live_input with it merged over the arguments.
    void message(const std::string& text) {
        auto answer = [self = shared_from_this()](const json& body) {
            std::shared_ptr<WebSocket> s;
            {
                std::lock_guard<std::mutex> g(self->m);
                s = self->socket;
            }
            if (s) s->send_text(body.dump(-1, ' ', false, json::error_handler_t::replace));
        };
        if (!input)
            return answer(error_message(PLATFORM_INVALID_ARGUMENT,
                                        base.endpoint->name + " takes no messages"));
        json given = json::parse(text, nullptr, false);
        if (!given.is_object())
            return answer(
                error_message(PLATFORM_INVALID_ARGUMENT, "a message must be a JSON object"));
        Invocation inv = base;
        inv.endpoint = input;
        inv.args.erase(base.endpoint->resume_arg);  // the stream's cursor is not the input's
        for (auto& [k, v] : given.items()) inv.args[k] = v;
        inv.http_method.clear();  // not an HTTP request of its own: the handshake's Origin held
        runtime->dispatch(std::move(inv), [answer](Outcome o) {
            if (o.code != PLATFORM_OK) return answer(error_message(o.code, o.body));
            json result = o.raw ? json(o.body) : json::parse(o.body, nullptr, false);
            if (result.is_discarded())
                return answer(
                    error_message(PLATFORM_INTERNAL, "the service answered invalid JSON"));
            answer(json{{"reply", std::move(result)}});
        });
    }
};

// The server's own origin as the request reached it.
std::string own_origin(const HttpRequest& req) {
    return std::string(req.tls ? "https://" : "http://") + platform::lower(req.header("host"));
}

}  // namespace

void Gateway::websocket(HttpRequest& req, const Reply& reply, const OpenWebSocket& open) {
    auto refuse = [&](platform_status_t code, const std::string& message, HeaderList extra = {}) {
        HttpResponse r = catalogue_status(code, message);
        for (auto& h : extra) r.headers.push_back(std::move(h));
        reply(std::move(r));
    };
    if (req.method != "GET")
        return refuse(PLATFORM_INVALID_ARGUMENT, "a WebSocket handshake is a GET request");
    if (platform::lower(req.header("connection")).find("upgrade") == std::string::npos)
        return refuse(PLATFORM_INVALID_ARGUMENT,
                      "a WebSocket handshake needs the header Connection: Upgrade");
    if (req.header("sec-websocket-version") != "13")
        return refuse(PLATFORM_INVALID_ARGUMENT,
                      "a WebSocket handshake needs the header Sec-WebSocket-Version: 13",
                      {{"Sec-WebSocket-Version", "13"}});
    const std::string key = req.header("sec-websocket-key");
    if (!ws::valid_client_key(key))
        return refuse(PLATFORM_INVALID_ARGUMENT,
                      "a WebSocket handshake needs the header Sec-WebSocket-Key: the base64 form "
                      "of 16 random bytes");
    static const RouteRule rule = [] {
        RouteRule r{RouteRule::Lookup::catalogue, RouteRule::Verbs::catalogue,
                    RouteRule::Args::query_and_body, ErrorStyle::catalogue};
        r.skip_query_key = "envelope";
        return r;
    }();
    auto call = resolve(req, rule, runtime_, request_namespace(req));
    if (auto* no = std::get_if<Refusal>(&call)) return reply(render(*no, rule.style));
    auto& c = std::get<Resolved>(call);
    if (!(c.endpoint->flags & PLATFORM_FLAG_STREAMING))
        return refuse(PLATFORM_INVALID_ARGUMENT,
                      req.path +
                          " is not a streaming endpoint: only those are served over "
                          "WebSocket; call it with a plain HTTP request");
    std::string credential = gw::bearer(req);
    const bool via_cookie = credential.empty() && !gw::cookie(req, gw::kSessionCookie).empty();
    const std::string origin = platform::lower(req.header("origin"));
    if (via_cookie && !origin.empty() && origin != own_origin(req)) {
        const auto& listed = runtime_.profile().http.cors.origins;
        if (std::find(listed.begin(), listed.end(), origin) == listed.end())
            return refuse(PLATFORM_PERMISSION_DENIED,
                          "a WebSocket signed in by the session cookie must come from this "
                          "server's origin or one listed in http.cors.origins; " +
                              origin + " is neither");
    }
    auto live = std::make_shared<LiveStream>();
    live->runtime = &runtime_;
    if (!c.endpoint->live_input.empty())
        live->input = c.service->plugin->public_endpoint(c.endpoint->live_input);
    live->open = open;
    live->key = key;
    live->headers = {{"X-Request-Id", req.header("x-request-id")}};
    live->reply = reply;
    Invocation& inv = live->base;
    inv.service = c.service;
    inv.endpoint = c.endpoint;
    inv.args = std::move(c.args);
    inv.credential = via_cookie ? gw::cookie(req, gw::kSessionCookie) : credential;
    inv.via_cookie = via_cookie;
    inv.http_method = req.method;
    inv.ns = req.header("platform-namespace");
    inv.request_id = req.header("x-request-id");
    inv.headers = req.headers;
    live->call();
}

}  // namespace platform::host
