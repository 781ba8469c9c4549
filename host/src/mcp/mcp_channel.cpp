// One POST's answer, the tools/call client that reaches it from plugins (ABI 1.4), and the
// process-local bookkeeping of in-flight calls and server-to-client requests.
#include <cmath>
#include <platform/host/core/clock.hpp>

#include "mcp_internal.hpp"

namespace platform::host::mcp {

Channel::Channel(std::function<void(HttpResponse)> reply, OpenStream open, bool accepts_sse,
                 bool accepts_json, std::vector<std::pair<std::string, std::string>> headers,
                 std::string www_authenticate)
    : reply_(std::move(reply)),
      open_(std::move(open)),
      sse_ok_(accepts_sse),
      json_ok_(accepts_json),
      headers_(std::move(headers)),
      www_authenticate_(std::move(www_authenticate)) {}

void Channel::unauthorized(const std::string& message) {
    std::lock_guard<std::mutex> g(m_);
    if (done_) return;
    done_ = true;
    if (stream_) {
        stream_->write(sse_frame(error_message(nullptr, -32001, "unauthenticated: " + message)));
        return stream_->end();
    }
    HttpResponse r = http_error(401, -32001, "unauthenticated: " + message);
    r.headers = headers_;
    r.headers.emplace_back("WWW-Authenticate", www_authenticate_);
    reply_(std::move(r));
}

bool Channel::send(const json& message) {
    std::lock_guard<std::mutex> g(m_);
    if (done_ || !sse_ok_ || !open_) return false;
    if (!stream_) stream_ = open_(200, "text/event-stream", headers_);
    if (!stream_) {
        sse_ok_ = false;
        return false;
    }
    return stream_->write(sse_frame(message));
}

void Channel::finish(const json& message) {
    finish_text(message.dump(-1, ' ', false, json::error_handler_t::replace));
}

void Channel::finish_text(std::string message_text) {
    std::lock_guard<std::mutex> g(m_);
    if (done_) return;
    done_ = true;
    if (!stream_ && !json_ok_ && sse_ok_ && open_)
        stream_ = open_(200, "text/event-stream", headers_);
    if (stream_) {
        stream_->write(sse_frame_text(message_text));
        stream_->end();
        return;
    }
    HttpResponse r;
    r.body = std::move(message_text);
    r.headers = headers_;
    reply_(std::move(r));
}

void Channel::drop() {
    std::lock_guard<std::mutex> g(m_);
    if (done_) return;
    done_ = true;
    if (stream_) return stream_->end();
    HttpResponse r;
    r.status = 202;
    r.body.clear();
    r.headers = headers_;
    reply_(std::move(r));
}

ToolCallClient::ToolCallClient(std::shared_ptr<Live> live, std::shared_ptr<Channel> channel,
                               const Session& session, json request_id, json progress_token)
    : live_(std::move(live)),
      channel_(std::move(channel)),
      session_(session.id),
      key_(Live::key(session.id, request_id)),
      caps_(session.client_capabilities),
      progress_token_(std::move(progress_token)),
      min_severity_(log_severity(session.log_level)) {}

ToolCallClient::~ToolCallClient() = default;

void ToolCallClient::attached(const std::shared_ptr<Call>& call) {
    std::lock_guard<std::mutex> g(live_->m);
    live_->calls[key_] = call;
}

platform_status_t ToolCallClient::progress(double done, double total, std::string_view message) {
    if (progress_token_.is_null()) return PLATFORM_UNSUPPORTED;
    if (!std::isfinite(done) || !std::isfinite(total)) return PLATFORM_INVALID_ARGUMENT;
    {
        std::lock_guard<std::mutex> g(m_);
        if (finished_) return PLATFORM_INVALID_ARGUMENT;
        if (done <= last_progress_) return PLATFORM_INVALID_ARGUMENT;
        last_progress_ = done;
    }
    json params = {{"progressToken", progress_token_}, {"progress", done}};
    if (total > 0) params["total"] = total;
    if (!message.empty()) params["message"] = std::string(message);
    channel_->send({{"jsonrpc", "2.0"}, {"method", "notifications/progress"}, {"params", params}});
    return PLATFORM_OK;
}

platform_status_t ToolCallClient::log(std::string_view level, std::string_view logger,
                                      std::string_view data_json) {
    const int severity = log_severity(level);
    if (severity < 0) return PLATFORM_INVALID_ARGUMENT;
    if (severity < min_severity_) return PLATFORM_OK;
    json data = json::parse(data_json, nullptr, false);
    if (data.is_discarded()) data = std::string(data_json);
    json params = {{"level", std::string(level)}, {"data", data}};
    if (!logger.empty()) params["logger"] = std::string(logger);
    channel_->send({{"jsonrpc", "2.0"}, {"method", "notifications/message"}, {"params", params}});
    return PLATFORM_OK;
}

platform_status_t ToolCallClient::request(
    std::string_view method, std::string_view params_json, int64_t timeout_ms,
    std::function<void(platform_status_t, std::string)> reply) {
    const char* capability = method == "sampling/createMessage" ? "sampling"
                             : method == "elicitation/create"   ? "elicitation"
                             : method == "roots/list"           ? "roots"
                                                                : nullptr;
    if (!capability || !caps_.is_object() || !caps_.contains(capability))
        return PLATFORM_UNSUPPORTED;
    json params = json::parse(params_json, nullptr, false);
    if (!params.is_object()) return PLATFORM_INVALID_ARGUMENT;
    const std::string id = "srv-" + std::to_string(live_->next_request++);
    const std::string pending_key = Live::key(session_, id);
    {
        std::lock_guard<std::mutex> g(m_);
        if (finished_) return PLATFORM_INVALID_ARGUMENT;
        pending_.push_back(pending_key);
    }
    {
        std::lock_guard<std::mutex> g(live_->m);
        live_->pending[pending_key] = Live::Pending{std::move(reply), {}};
    }
    if (!channel_->send({{"jsonrpc", "2.0"},
                         {"id", id},
                         {"method", std::string(method)},
                         {"params", params}})) {
        std::lock_guard<std::mutex> g(live_->m);
        live_->pending.erase(pending_key);
        return PLATFORM_UNSUPPORTED;  // the client reads no event stream
    }
    if (timeout_ms > 0) {
        std::weak_ptr<Live> weak = live_;
        TimerQueue& timers = live_->runtime->timers();
        auto timer = timers.at(Clock::monotonic_ms() + timeout_ms, [weak, pending_key, timeout_ms] {
            auto live = weak.lock();
            if (!live) return;
            Live::Pending p;
            {
                std::lock_guard<std::mutex> g(live->m);
                auto it = live->pending.find(pending_key);
                if (it == live->pending.end()) return;
                p = std::move(it->second);
                live->pending.erase(it);
            }
            p.reply(PLATFORM_DEADLINE_EXCEEDED,
                    "the MCP client did not answer within " + std::to_string(timeout_ms) + " ms");
        });
        bool answered_first;
        {
            std::lock_guard<std::mutex> g(live_->m);
            auto it = live_->pending.find(pending_key);
            answered_first = it == live_->pending.end();
            if (!answered_first) it->second.timer = timer;
        }
        if (answered_first) timers.cancel(timer);
    }
    return PLATFORM_OK;
}

void ToolCallClient::finished() {
    std::vector<std::string> pending;
    {
        std::lock_guard<std::mutex> g(m_);
        finished_ = true;
        pending.swap(pending_);
    }
    {
        std::lock_guard<std::mutex> g(live_->m);
        live_->calls.erase(key_);
    }
    std::vector<Live::Pending> orphans;
    for (const auto& k : pending) {
        Live::Pending p;
        if (live_->take_pending(k, p)) orphans.push_back(std::move(p));
    }
    for (auto& p : orphans)
        p.reply(PLATFORM_UNAVAILABLE, "the call ended before the MCP client answered");
}

bool Live::take_pending(const std::string& pending_key, Pending& out) {
    {
        std::lock_guard<std::mutex> g(m);
        auto it = pending.find(pending_key);
        if (it == pending.end()) return false;
        out = std::move(it->second);
        pending.erase(it);
    }
    if (out.timer) runtime->timers().cancel(out.timer);
    return true;
}

bool Live::answer(const std::string& session, const json& message) {
    Pending p;
    if (!take_pending(key(session, message["id"]), p)) return false;
    if (message.contains("result"))
        p.reply(PLATFORM_OK,
                message["result"].dump(-1, ' ', false, json::error_handler_t::replace));
    else
        p.reply(PLATFORM_INVALID_ARGUMENT,
                !message.contains("error") || !message["error"].is_object()
                    ? "the MCP client answered without a result"
                : message["error"].contains("message") && message["error"]["message"].is_string()
                    ? message["error"]["message"].get<std::string>()
                    : "the MCP client refused the request");
    return true;
}

void Live::cancel(const std::string& session, const json& id, const std::string& reason) {
    std::shared_ptr<Call> call;
    {
        std::lock_guard<std::mutex> g(m);
        auto it = calls.find(key(session, id));
        if (it == calls.end()) return;
        call = it->second.lock();
        if (call) cancelled.insert(it->first);
    }
    if (call)
        runtime->abandon(call,
                         "cancelled by the MCP client" + (reason.empty() ? "" : ": " + reason));
}

}  // namespace platform::host::mcp
