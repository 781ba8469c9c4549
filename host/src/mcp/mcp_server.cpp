// The Streamable HTTP transport of /mcp (mcp.hpp): Host/Origin, credentials, sessions, then one
// JSON-RPC message per POST, the session's event stream on GET, DELETE to end it.
#include <strings.h>

#include <algorithm>
#include <cstring>
#include <platform/host/core/request_args.hpp>
#include <platform/sdk/text.hpp>
#include <platform/validation/json_depth.hpp>

#include "mcp_internal.hpp"

using platform::validation::json_depth_ok;
using platform::validation::kMaxJsonDepth;

namespace platform::host {

using namespace mcp;

namespace {
using platform::lower;

// "Example.com:8080" / "[::1]:80" -> "example.com" / "::1".
std::string host_name(std::string host) {
    host = lower(host);
    if (!host.empty() && host.front() == '[') {
        auto end = host.find(']');
        return end == std::string::npos ? host : host.substr(1, end - 1);
    }
    auto colon = host.find(':');
    return colon == std::string::npos ? host : host.substr(0, colon);
}

std::vector<std::string> split_list(const std::string& text) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : text + ",") {
        if (c == ',' || c == ' ') {
            if (!cur.empty()) out.push_back(lower(cur));
            cur.clear();
        } else {
            cur += c;
        }
    }
    return out;
}

bool accepts(const std::string& accept, const char* type) {
    const std::string a = lower(accept);
    return a.find(type) != std::string::npos || a.find("*/*") != std::string::npos;
}

std::string bearer_of(const HttpRequest& req) {
    std::string auth = req.header("authorization");
    return auth.size() > 7 && strncasecmp(auth.c_str(), "bearer ", 7) == 0 ? auth.substr(7) : "";
}
}  // namespace

McpServer::Impl::Impl(Runtime& rt, std::string v)
    : runtime(rt),
      version(std::move(v)),
      sessions(rt, rt.settings().mcp_session_idle_ms),
      catalog(rt) {
    live->runtime = &rt;
    allowed_hosts = split_list(rt.settings().mcp_allowed_hosts);
    for (auto& h : split_list(rt.settings().acme_hosts)) allowed_hosts.push_back(h);
    // Idle GET streams: a comment every 20 s finds departed clients and keeps their sessions alive.
    heartbeat = std::thread([this] {
        std::unique_lock<std::mutex> lock(stop_m);
        while (!stop_cv.wait_for(lock, std::chrono::seconds(20), [this] { return stopping; })) {
            lock.unlock();
            std::vector<std::pair<std::string, std::shared_ptr<HttpStream>>> streams;
            {
                std::lock_guard<std::mutex> g(live->m);
                streams.assign(live->streams.begin(), live->streams.end());
            }
            for (auto& [sid, stream] : streams) {
                if (!stream) continue;  // still being opened
                if (stream->write(": keep-alive\n\n") && sessions.get(sid)) continue;
                stream->end();
                std::lock_guard<std::mutex> g(live->m);
                if (auto it = live->streams.find(sid);
                    it != live->streams.end() && it->second == stream)
                    live->streams.erase(it);
            }
            lock.lock();
        }
    });
}

McpServer::Impl::~Impl() {
    {
        std::lock_guard<std::mutex> g(stop_m);
        stopping = true;
    }
    stop_cv.notify_all();
    heartbeat.join();
    std::lock_guard<std::mutex> g(live->m);
    for (auto& [sid, stream] : live->streams)
        if (stream) stream->end();
    live->streams.clear();
    live->opening.clear();
}

void McpServer::Impl::broadcast(const json& message,
                                const std::function<bool(const mcp::Session&)>& wanted) {
    std::vector<std::pair<std::string, std::shared_ptr<HttpStream>>> streams;
    {
        std::lock_guard<std::mutex> g(live->m);
        streams.assign(live->streams.begin(), live->streams.end());
    }
    const std::string frame = sse_frame(message);
    for (auto& [sid, listed] : streams) {
        auto s = sessions.get(sid);
        if (!s || !wanted(*s)) continue;
        std::shared_ptr<HttpStream> stream = listed;
        if (!stream) {  // still opening: the frame waits for it (GET /mcp writes it once open)
            std::lock_guard<std::mutex> g(live->m);
            auto it = live->streams.find(sid);
            if (it == live->streams.end()) continue;
            if (!it->second) {
                live->opening[sid].push_back(frame);
                continue;
            }
            stream = it->second;
        }
        if (!stream->write(frame)) {
            std::lock_guard<std::mutex> g(live->m);
            if (auto it = live->streams.find(sid);
                it != live->streams.end() && it->second == stream)
                live->streams.erase(it);
        }
    }
}

void McpServer::Impl::resource_updated(const std::string& uri, const std::string& account) {
    broadcast({{"jsonrpc", "2.0"},
               {"method", "notifications/resources/updated"},
               {"params", {{"uri", uri}}}},
              [&](const mcp::Session& s) {
                  return (account.empty() || s.account == account) &&
                         std::find(s.subscriptions.begin(), s.subscriptions.end(), uri) !=
                             s.subscriptions.end();
              });
}

void McpServer::Impl::tools_changed() {
    broadcast({{"jsonrpc", "2.0"}, {"method", "notifications/tools/list_changed"}},
              [](const mcp::Session&) { return true; });
}

McpServer::McpServer(Runtime& runtime, std::string version)
    : impl_(std::make_shared<Impl>(runtime, std::move(version))) {
    std::weak_ptr<Impl> weak = impl_;
    runtime.set_resource_listener([weak](const std::string& uri, const std::string& account) {
        if (auto impl = weak.lock()) impl->resource_updated(uri, account);
    });
    // A plugin service coming or going (`platform run`, `kill`, `update`) changes the tools.
    registry_watch_ = runtime.registry().watch([weak](const json& change) {
        const std::string action = change.value("action", "");
        if (action != "create" && action != "delete") return;
        if (!change["service"].value("metadata", json::object()).contains("plugin")) return;
        if (auto impl = weak.lock()) impl->tools_changed();
    });
}

void McpServer::end_streams() {
    std::map<std::string, std::shared_ptr<HttpStream>> streams;
    {
        std::lock_guard<std::mutex> g(impl_->live->m);
        streams.swap(impl_->live->streams);
        impl_->live->opening.clear();
    }
    for (auto& [sid, stream] : streams)
        if (stream) stream->end();
}

McpServer::~McpServer() {
    impl_->runtime.registry().unwatch(registry_watch_);
    impl_->runtime.set_resource_listener(nullptr);
}

void McpServer::handle(HttpRequest& req, const std::function<void(HttpResponse)>& reply,
                       const OpenStream& open) {
    Impl& self = *impl_;
    // DNS-rebinding protection: Host, and Origin when sent, must name an allowed host.
    auto allowed = [&](const std::string& host) {
        if (host == "localhost" || host == "127.0.0.1" || host == "::1") return true;
        return std::any_of(self.allowed_hosts.begin(), self.allowed_hosts.end(),
                           [&](const std::string& a) { return a == "*" || a == host; });
    };
    const std::string host = host_name(req.header("host"));
    if (!allowed(host))
        return reply(http_error(403, -32000,
                                "Host '" + req.header("host") +
                                    "' is not allowed for /mcp (loopback names, the ACME hosts and "
                                    "PLATFORM_MCP_ALLOWED_HOSTS are)"));
    if (std::string origin = req.header("origin"); !origin.empty()) {
        auto scheme = origin.find("://");
        if (scheme == std::string::npos || !allowed(host_name(origin.substr(scheme + 3))))
            return reply(
                http_error(403, -32000, "Origin '" + origin + "' is not allowed for /mcp"));
    }
    const std::string base = std::string(req.tls ? "https://" : "http://") +
                             (req.header("host").empty() ? "localhost" : req.header("host"));
    const std::string www_authenticate =
        "Bearer resource_metadata=\"" + base + "/.well-known/oauth-protected-resource\"";
    auto unauthorized = [&](const std::string& why) {
        HttpResponse r = http_error(401, -32001, "unauthenticated: " + why);
        r.headers.emplace_back("WWW-Authenticate", www_authenticate);
        reply(r);
    };
    if (req.method != "POST" && req.method != "GET" && req.method != "DELETE") {
        HttpResponse r = http_error(
            405, -32000, req.method + " is not allowed on /mcp; use POST, GET or DELETE");
        r.headers.emplace_back("Allow", "GET, POST, DELETE");
        return reply(r);
    }
    const std::string version = req.header("mcp-protocol-version");
    if (!version.empty() && !supported_version(version))
        return reply(http_error(
            400, kInvalidRequest,
            "Unsupported protocol version '" + version +
                "' (MCP-Protocol-Version; supported: 2025-11-25, 2025-06-18, 2025-03-26)"));
    // Bearer tokens only: a browser's session cookie never reaches /mcp.
    const std::string credential = bearer_of(req);
    Identity who;
    if (!credential.empty()) {
        std::string why;
        if (self.runtime.authenticate(credential, who, why) != PLATFORM_OK)
            return unauthorized(why);
    }
    auto session_of = [&](std::optional<Session>& out) {
        const std::string sid = req.header("mcp-session-id");
        if (sid.empty())
            return reply(http_error(400, kInvalidRequest,
                                    "Mcp-Session-Id header is required (send initialize first)")),
                   false;
        out = self.sessions.get(sid);
        if (!out || out->account != who.id)
            return reply(http_error(
                       404, kInvalidRequest,
                       "Session not found: unknown or expired Mcp-Session-Id; initialize again")),
                   false;
        return true;
    };

    if (req.method == "DELETE") {
        std::optional<Session> s;
        if (!session_of(s)) return;
        self.sessions.erase(s->id);
        std::vector<std::shared_ptr<Call>> calls;
        std::shared_ptr<HttpStream> stream;
        {
            std::lock_guard<std::mutex> g(self.live->m);
            if (auto it = self.live->streams.find(s->id); it != self.live->streams.end()) {
                stream = it->second;
                self.live->streams.erase(it);
            }
            self.live->opening.erase(s->id);
            for (auto& [key, weak] : self.live->calls)
                if (key.rfind(s->id + "\n", 0) == 0)
                    if (auto c = weak.lock()) calls.push_back(c);
        }
        if (stream) stream->end();
        for (auto& c : calls) self.runtime.abandon(c, "the MCP session ended");
        HttpResponse r;
        r.status = 204;
        r.body.clear();
        return reply(r);
    }

    if (req.method == "GET") {
        if (!accepts(req.header("accept"), "text/event-stream"))
            return reply(
                http_error(406, kInvalidRequest,
                           "GET /mcp opens an event stream: send Accept: text/event-stream"));
        std::optional<Session> s;
        if (!session_of(s)) return;
        {  // reserve the session's slot (null while opening) so a second GET is refused
            std::lock_guard<std::mutex> g(self.live->m);
            if (!self.live->streams.emplace(s->id, nullptr).second)
                return reply(http_error(409, kInvalidRequest,
                                        "this session already has its event stream open"));
        }
        auto stream = open ? open(200, "text/event-stream", {{"Mcp-Session-Id", s->id}}) : nullptr;
        bool kept = false;
        {
            std::lock_guard<std::mutex> g(self.live->m);
            auto it = self.live->streams.find(s->id);
            if (it != self.live->streams.end() && !it->second) {
                if (stream)
                    it->second = stream, kept = true;
                else
                    self.live->streams.erase(it);
            }
            // What was broadcast while it opened, first and in order (under the lock, so no
            // later frame overtakes them).
            if (auto early = self.live->opening.find(s->id); early != self.live->opening.end()) {
                if (kept)
                    for (const auto& frame : early->second) stream->write(frame);
                self.live->opening.erase(early);
            }
        }
        if (!stream)
            return reply(
                http_error(405, kInvalidRequest, "this connection cannot carry an event stream"));
        if (!kept) stream->end();  // the session was deleted or the server drained meanwhile
        return;
    }

    // POST: one JSON-RPC message.
    const std::string accept = req.header("accept");
    const bool sse_ok = accept.empty() || accepts(accept, "text/event-stream");
    const bool json_ok = accept.empty() || accepts(accept, "application/json");
    if (!sse_ok && !json_ok)
        return reply(http_error(406, kInvalidRequest,
                                "Accept must include application/json or text/event-stream"));
    std::string type = lower(req.header("content-type"));
    type = type.substr(0, type.find(';'));
    type.erase(std::remove(type.begin(), type.end(), ' '), type.end());
    if (type != "application/json")
        return reply(http_error(415, kInvalidRequest,
                                "Content-Type must be application/json (one JSON-RPC message)"));
    if (!json_depth_ok(req.body))
        return reply(http_error(400, kParseError,
                                "Parse error: the body nests more than " +
                                    std::to_string(kMaxJsonDepth) + " levels deep"));
    json msg = json::parse(req.body, nullptr, false);
    if (msg.is_discarded()) {
        const auto utf8 = invalid_utf8_path(req.body);  // name the argument a client can fix
        return reply(http_error(
            400, kParseError,
            utf8 ? "Parse error: " + (utf8->empty() ? "the body" : *utf8) + " must be valid UTF-8"
                 : "Parse error: the body is not valid JSON"));
    }
    if (msg.is_array())
        return reply(http_error(400, kInvalidRequest,
                                "JSON-RPC batches are not supported: send one message per POST"));
    const bool has_id = msg.is_object() && msg.contains("id") &&
                        (msg["id"].is_string() || msg["id"].is_number_integer());
    if (!msg.is_object() || !msg.contains("jsonrpc") || msg["jsonrpc"] != "2.0")  // any type
        return reply(http_error(
            400, kInvalidRequest,
            "Invalid Request: a JSON-RPC 2.0 object with \"jsonrpc\": \"2.0\" is required",
            has_id ? msg["id"] : json(nullptr)));
    if (msg.contains("id") && !has_id)
        return reply(
            http_error(400, kInvalidRequest, "Invalid Request: id must be a string or an integer"));
    const bool has_method = msg.contains("method") && msg["method"].is_string();
    if (msg.contains("method") && !has_method)
        return reply(http_error(400, kInvalidRequest, "Invalid Request: method must be a string"));
    if (!has_method && !(has_id && (msg.contains("result") || msg.contains("error"))))
        return reply(
            http_error(400, kInvalidRequest,
                       "Invalid Request: neither a request, a notification nor a response"));

    if (has_method && msg["method"] == "initialize" && has_id) {
        if (!req.header("mcp-session-id").empty())
            return reply(http_error(400, kInvalidRequest,
                                    "initialize starts a session: send it without Mcp-Session-Id"));
        json params =
            msg.contains("params") && msg["params"].is_object() ? msg["params"] : json::object();
        Session s;
        s.id = self.sessions.new_id();
        s.account = who.id;
        s.client_info = params.value("clientInfo", json::object());
        s.client_capabilities =
            params.contains("capabilities") && params["capabilities"].is_object()
                ? params["capabilities"]
                : json::object();
        json result = self.initialize_result(params, s.version);
        if (!self.sessions.put(s))
            return reply(http_error(503, kInternalError, "the store refused the MCP session"));
        Channel(reply, open, sse_ok, json_ok, {{"Mcp-Session-Id", s.id}}, www_authenticate)
            .finish(result_message(msg["id"], result));
        return;
    }

    std::optional<Session> s;
    if (!session_of(s)) return;
    auto accepted = [&] {
        HttpResponse r;
        r.status = 202;
        r.body.clear();
        reply(r);
    };
    if (!has_method) {  // a response to one of our requests
        self.live->answer(s->id, msg);
        return accepted();
    }
    if (!has_id) {  // a notification
        if (msg["method"] == "notifications/cancelled" && msg.contains("params") &&
            msg["params"].is_object() && msg["params"].contains("requestId"))
            self.live->cancel(
                s->id, msg["params"]["requestId"],
                msg["params"].contains("reason") && msg["params"]["reason"].is_string()
                    ? msg["params"]["reason"].get<std::string>()
                    : "");
        return accepted();
    }
    auto ctx = std::make_shared<Impl::Context>();
    ctx->session = std::move(*s);
    ctx->who = std::move(who);
    ctx->credential = credential;
    ctx->headers = req.headers;
    ctx->channel = std::make_shared<Channel>(
        reply, open, sse_ok, json_ok,
        std::vector<std::pair<std::string, std::string>>{{"Mcp-Session-Id", ctx->session.id}},
        www_authenticate);
    auto channel = ctx->channel;
    self.request(ctx, msg, [channel](json response) { channel->finish(response); });
}

}  // namespace platform::host
