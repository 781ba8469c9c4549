// The component connection on libstrophe (xmpp_component.hpp).
#include <spdlog/spdlog.h>
#include <strophe.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <platform/host/xmpp/xmpp_component.hpp>
#include <platform/sdk/text.hpp>

namespace platform::host {

namespace {
constexpr size_t kMaxQueued = 1000;
const char* kMucUser = "http://jabber.org/protocol/muc#user";

std::string attr(xmpp_stanza_t* s, const char* name) {
    const char* v = xmpp_stanza_get_attribute(s, name);
    return v ? v : "";
}

std::string text_of(xmpp_ctx_t* ctx, xmpp_stanza_t* s) {
    if (!s) return "";
    char* t = xmpp_stanza_get_text(s);
    std::string out = t ? t : "";
    if (t) xmpp_free(ctx, t);
    return out;
}

// libstrophe 0.12 (Debian 12) reads the connection's stream-management state after every stanza
// but creates it only in xmpp_connect_client: a component connection has none and crashes at its
// first stanza. A throw-away client connection to a closed loopback port creates one, handed over
// once it has failed; nullptr if that did not happen within 2 s.
xmpp_sm_state_t* stream_state(xmpp_ctx_t* ctx) {
    xmpp_conn_t* donor = xmpp_conn_new(ctx);
    xmpp_conn_set_jid(donor, "state@localhost");
    bool ended = false;
    auto done = [](xmpp_conn_t*, xmpp_conn_event_t, int, xmpp_stream_error_t*, void* user) {
        *static_cast<bool*>(user) = true;
    };
    xmpp_sm_state_t* state = nullptr;
    if (xmpp_connect_client(donor, "127.0.0.1", 1, done, &ended) == XMPP_EOK) {
        for (int i = 0; i < 40 && !ended; ++i) xmpp_run_once(ctx, 50);
        if (ended) state = xmpp_conn_get_sm_state(donor);
    }
    xmpp_conn_release(donor);
    return state;
}

XmppStanza copy(xmpp_ctx_t* ctx, xmpp_stanza_t* s) {
    XmppStanza st;
    const char* name = xmpp_stanza_get_name(s);
    st.name = name ? name : "";
    st.from = attr(s, "from");
    st.to = attr(s, "to");
    st.type = attr(s, "type");
    st.id = attr(s, "id");
    st.body = text_of(ctx, xmpp_stanza_get_child_by_name(s, "body"));
    st.delayed = xmpp_stanza_get_child_by_name_and_ns(s, "delay", "urn:xmpp:delay") != nullptr;
    if (xmpp_stanza_t* x = xmpp_stanza_get_child_by_name_and_ns(s, "x", kMucUser)) {
        for (xmpp_stanza_t* c = xmpp_stanza_get_children(x); c; c = xmpp_stanza_get_next(c)) {
            const char* cn = xmpp_stanza_get_name(c);
            if (!cn) continue;
            if (std::string(cn) == "item") st.real_jid = attr(c, "jid");
            if (std::string(cn) == "status") st.statuses.push_back(attr(c, "code"));
        }
    }
    if (xmpp_stanza_t* q = xmpp_stanza_get_child_by_name_and_ns(
            s, "query", "http://jabber.org/protocol/disco#items"))
        for (xmpp_stanza_t* c = xmpp_stanza_get_children(q); c; c = xmpp_stanza_get_next(c))
            if (const char* cn = xmpp_stanza_get_name(c); cn && std::string(cn) == "item")
                st.items.push_back(attr(c, "jid"));
    if (xmpp_stanza_t* m =
            xmpp_stanza_get_child_by_name_and_ns(s, "member", "urn:platform:xmpp:member")) {
        st.member_room = attr(m, "room");
        st.member_jid = attr(m, "jid");
    }
    if (xmpp_stanza_t* d =
            xmpp_stanza_get_child_by_name_and_ns(s, "direct", "urn:platform:xmpp:direct"))
        st.direct_to = attr(d, "to");
    char* buf = nullptr;
    size_t len = 0;
    if (xmpp_stanza_to_text(s, &buf, &len) == XMPP_EOK && buf) {
        st.xml.assign(buf, len);
        xmpp_free(ctx, buf);
    }
    return st;
}
}  // namespace

// One connection attempt: what libstrophe's callbacks see.
struct XmppComponent::Session {
    XmppComponent* owner;
    xmpp_ctx_t* ctx;
    bool ended = false, up = false;
};

namespace {
int on_stanza(xmpp_conn_t*, xmpp_stanza_t* stanza, void* user) {
    auto* s = static_cast<XmppComponent::Session*>(user);
    XmppStanza st = copy(s->ctx, stanza);
    try {
        s->owner->deliver(st);
    } catch (const std::exception& e) {
        spdlog::warn("xmpp: handling {} from {} failed: {}", st.name, st.from, e.what());
    }
    return 1;  // keep the handler
}

void on_connection(xmpp_conn_t*, xmpp_conn_event_t event, int error, xmpp_stream_error_t* stream,
                   void* user) {
    auto* s = static_cast<XmppComponent::Session*>(user);
    if (event == XMPP_CONN_CONNECT) {
        s->up = true;
        s->owner->connection_changed(true, "");
        return;
    }
    std::string why = stream && stream->text ? stream->text : "";
    if (why.empty() && stream) why = "stream error " + std::to_string(stream->type);
    if (why.empty() && error) why = std::strerror(error);
    s->ended = true;
    s->owner->connection_changed(false, why.empty() ? "closed" : why);
}
}  // namespace

XmppComponent::XmppComponent(Options options, StanzaHandler on_stanza,
                             ConnectedHandler on_connected)
    : options_(std::move(options)),
      on_stanza_(std::move(on_stanza)),
      on_connected_(std::move(on_connected)) {}

XmppComponent::~XmppComponent() {
    stop();
}

void XmppComponent::start() {
    static std::once_flag init;
    std::call_once(init, [] { xmpp_initialize(); });
    running_ = true;
    thread_ = std::thread([this] { run(); });
}

void XmppComponent::stop() {
    {
        std::lock_guard<std::mutex> lock(m_);
        if (!running_) return;
        running_ = false;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void XmppComponent::send(std::string xml) {
    std::lock_guard<std::mutex> lock(m_);
    if (outgoing_.size() >= kMaxQueued) outgoing_.pop_front();
    outgoing_.push_back(std::move(xml));
}

void XmppComponent::deliver(const XmppStanza& stanza) {
    if (on_stanza_) on_stanza_(stanza);
}

void XmppComponent::connection_changed(bool up, const std::string& why) {
    const bool was = connected_.exchange(up);
    if (up) {
        spdlog::info("xmpp: connected as {} to {}:{}", options_.jid, options_.host, options_.port);
        if (on_connected_) on_connected_();
    } else if (was) {
        spdlog::warn("xmpp: connection to {}:{} lost: {}", options_.host, options_.port, why);
    } else {
        spdlog::warn("xmpp: cannot connect to {}:{} as {}: {}{}", options_.host, options_.port,
                     options_.jid, why, options_.hint);
    }
}

void XmppComponent::run() {
    auto pause = std::chrono::seconds(1);
    while (running_) {
        xmpp_ctx_t* ctx = xmpp_ctx_new(nullptr, nullptr);
        xmpp_sm_state_t* state = stream_state(ctx);
        xmpp_conn_t* conn = xmpp_conn_new(ctx);
        if (state) xmpp_conn_set_sm_state(conn, state);
        xmpp_conn_set_jid(conn, options_.jid.c_str());
        xmpp_conn_set_pass(conn, options_.secret.c_str());
        Session session{this, ctx};
        xmpp_handler_add(conn, on_stanza, nullptr, nullptr, nullptr, &session);
        if (!state) {
            session.ended = true;
            connection_changed(false, "libstrophe made no stream state");
        } else if (xmpp_connect_component(conn, options_.host.c_str(),
                                          static_cast<unsigned short>(options_.port), on_connection,
                                          &session) != XMPP_EOK) {
            session.ended = true;
            connection_changed(false, "libstrophe refused to connect");
        }
        while (running_ && !session.ended) {
            xmpp_run_once(ctx, 50);
            std::deque<std::string> batch;
            if (connected_) {
                std::lock_guard<std::mutex> lock(m_);
                batch.swap(outgoing_);
            }
            for (const auto& x : batch) xmpp_send_raw(conn, x.data(), x.size());
        }
        if (session.up) pause = std::chrono::seconds(1);
        if (!session.ended) {
            xmpp_disconnect(conn);
            for (int i = 0; i < 40 && !session.ended; ++i) xmpp_run_once(ctx, 50);
        }
        connected_ = false;
        xmpp_conn_release(conn);
        xmpp_ctx_free(ctx);
        std::unique_lock<std::mutex> lock(m_);
        cv_.wait_for(lock, pause, [this] { return !running_; });
        pause = std::min<std::chrono::seconds>(pause * 2, std::chrono::seconds(30));
    }
}

std::string XmppComponent::escape(std::string_view s) {
    return platform::html_escape(std::string(s));  // &#39; for ' is as good XML as &apos;
}

}  // namespace platform::host
